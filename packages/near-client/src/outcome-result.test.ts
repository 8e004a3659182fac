import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContractError, contractErrorFromText } from './contract-error.js';
import { decodeResult } from './decode-result.js';
import { InvalidNonceError } from './invalid-transaction.js';
import { outcomeResult } from './outcome-result.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('outcomeResult', () => {
  it('decodes SuccessValue: JSON, else text, empty is null', () => {
    assert.deepEqual(outcomeResult({ status: { SuccessValue: b64('{"a":1}') } }), { a: 1 });
    assert.equal(outcomeResult({ status: { SuccessValue: b64('plain') } }), 'plain');
    assert.equal(outcomeResult({ status: { SuccessValue: '' } }), null);
  });

  it('throws a panic as ContractError with the panic message', () => {
    const failure = {
      ActionError: {
        index: 0,
        kind: { FunctionCallError: { ExecutionError: 'Smart contract panicked: no worker found' } },
      },
    };
    const error = (() => {
      try {
        outcomeResult({ status: { Failure: failure } });
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof ContractError);
    assert.equal(error.message, 'no worker found');
    assert.equal(error.panic, true);
    assert.deepEqual(error.details, { panic: true });
  });

  it('throws other failures as ContractError with the failure JSON', () => {
    const failure = { ActionError: { index: 0, kind: { AccountDoesNotExist: { account_id: 'x.near' } } } };
    assert.throws(
      () => outcomeResult({ status: { Failure: failure } }),
      (e) => e instanceof ContractError && !e.panic && e.message === JSON.stringify(failure),
    );
    assert.throws(
      () => outcomeResult({ status: 'Unknown' }),
      (e) => e instanceof ContractError && e.message === 'unexpected transaction status "Unknown"',
    );
  });

  it("keeps nearcore's failure object as nearError", () => {
    const failure = {
      ActionError: { index: 0, kind: { FunctionCallError: { MethodResolveError: 'MethodNotFound' } } },
    };
    assert.throws(
      () => outcomeResult({ status: { Failure: failure } }),
      (e) => e instanceof ContractError && e.nearError === failure,
    );
    const view = { error: 'wasm execution failed with error: WasmTrap(Unreachable)', logs: [] };
    assert.equal(contractErrorFromText(view.error, undefined, undefined, view).nearError, view);
    const rpcError = { error: { name: 'HANDLER_ERROR' } };
    assert.equal(contractErrorFromText('x', 'UNKNOWN_ACCOUNT', rpcError).nearError, rpcError.error);
  });

  it('throws an InvalidTxError failure as the matching error', () => {
    assert.throws(
      () =>
        outcomeResult({
          status: { Failure: { InvalidTxError: { InvalidNonce: { tx_nonce: 1, ak_nonce: 4 } } } },
        }),
      (e) => e instanceof InvalidNonceError && e.akNonce === 4n,
    );
  });
});

describe('contractErrorFromText', () => {
  it("finds the panic in nearcore's view error texts", () => {
    const vm =
      'wasm execution failed with error: FunctionCallError(HostError(GuestPanic { panic_msg: "boom" }))';
    assert.deepEqual([contractErrorFromText(vm).message, contractErrorFromText(vm).panic], ['boom', true]);
    const legacy = 'Smart contract panicked: out of cheese\n';
    assert.equal(contractErrorFromText(legacy).message, 'out of cheese');
    assert.equal(
      contractErrorFromText('x', 'UNKNOWN_ACCOUNT').message,
      'the contract account does not exist',
    );
    assert.equal(
      contractErrorFromText('x', 'NO_CONTRACT_CODE').message,
      'the account has no contract deployed',
    );
    assert.equal(contractErrorFromText('MethodNotFound').panic, false);
  });
});

describe('decodeResult', () => {
  it('takes any Uint8Array view', () => {
    const bytes = new TextEncoder().encode('xx[1,2]');
    assert.deepEqual(decodeResult(bytes.subarray(2)), [1, 2]);
    assert.equal(decodeResult(new Uint8Array()), null);
  });
});
