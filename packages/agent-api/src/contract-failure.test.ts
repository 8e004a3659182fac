import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContractError, contractErrorFromText, outcomeResult } from '@shadebox/near-client';
import { describeContractFailure } from './contract-failure.js';

/** The ContractError outcomeResult throws for a transaction whose status is `{Failure: failure}`. */
function callFailure(failure: unknown): ContractError {
  try {
    outcomeResult({ status: { Failure: failure } });
  } catch (e) {
    assert.ok(e instanceof ContractError);
    return e;
  }
  assert.fail('expected a ContractError');
}
const fnError = (inner: unknown) => ({ ActionError: { index: 0, kind: { FunctionCallError: inner } } });
/** The ContractError viewFunction throws for nearcore's legacy view result with `error`. */
const viewFailure = (debug: string) => {
  const error = `wasm execution failed with error: ${debug}`;
  return contractErrorFromText(error, undefined, undefined, { error, logs: [], block_height: 5 });
};

describe('contract failures as sentences', () => {
  it('a missing method is 404 naming methodName, for a call and for a view', () => {
    for (const e of [
      callFailure(fnError({ MethodResolveError: 'MethodNotFound' })),
      viewFailure('MethodResolveError(MethodNotFound)'),
    ]) {
      const a = describeContractFailure(e);
      assert.deepEqual([a.status, a.code, a.field], [404, 'method_not_found', 'methodName']);
      assert.doesNotMatch(a.message, /[{}]/);
    }
  });

  it("a panic is 422 with the contract's own message", () => {
    const call = callFailure(fnError({ ExecutionError: 'Smart contract panicked: no worker found' }));
    assert.deepEqual(describeContractFailure(call), {
      status: 422,
      code: 'contract_panic',
      message: 'no worker found',
    });
    const view = viewFailure('HostError(GuestPanic { panic_msg: "no worker found" })');
    assert.equal(describeContractFailure(view).message, 'no worker found');
  });

  it('other execution errors are 422 sentences, never nearcore JSON', () => {
    const cases: Array<[ContractError, RegExp]> = [
      [callFailure(fnError({ ExecutionError: 'Exceeded the prepaid gas.' })), /out of gas.*more gas/],
      [
        callFailure(fnError({ ExecutionError: 'WebAssembly trap: An `unreachable` opcode was executed.' })),
        /^WebAssembly trap/,
      ],
      [
        callFailure(fnError({ CompilationError: { CodeDoesNotExist: { account_id: 'x.test.near' } } })),
        /x\.test\.near has no contract deployed/,
      ],
      [callFailure(fnError({ CompilationError: { PrepareError: 'Deserialization' } })), /redeploy/],
      [callFailure(fnError({ MethodResolveError: 'MethodInvalidSignature' })), /without parameters/],
      [
        callFailure({
          ActionError: { index: 0, kind: { AccountDoesNotExist: { account_id: 'gone.near' } } },
        }),
        /gone\.near does not exist/,
      ],
      [
        viewFailure('CompilationError(CodeDoesNotExist { account_id: AccountId("x.near") })'),
        /x\.near has no contract/,
      ],
      [
        viewFailure('HostError(ProhibitedInView { method_name: "promise_batch_create" })'),
        /\/call instead of \/view/,
      ],
      [viewFailure('WasmTrap(Unreachable)'), /trapped \(Unreachable\)/],
      [contractErrorFromText('x', 'UNKNOWN_ACCOUNT'), /check contractId/],
    ];
    for (const [e, message] of cases) {
      const a = describeContractFailure(e);
      assert.equal(a.status, 422, a.message);
      assert.equal(a.code, 'contract_error');
      assert.match(a.message, message);
      assert.doesNotMatch(a.message, /ActionError|FunctionCallError|[{}]/);
    }
  });

  it("keeps nearcore's error object on the error", () => {
    const failure = fnError({ MethodResolveError: 'MethodNotFound' });
    assert.deepEqual(callFailure(failure).nearError, failure);
    assert.equal(
      (viewFailure('WasmTrap(Unreachable)').nearError as { block_height: number }).block_height,
      5,
    );
  });
});
