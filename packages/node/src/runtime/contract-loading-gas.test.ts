/**
 * When a function call pays the contract-loading fee (nearcore near-vm-runner, `fix_contract_loading_cost` off at
 * every protocol 83-87): after the module is prepared, before the method is looked up. A call whose gas does not
 * cover `contract_loading_bytes` × code length + `contract_loading_base` runs out of gas whatever its method; a
 * call that covers it and names a missing method (or one with the wrong signature) ends as a nop: MethodNotFound
 * with no VM gas burnt (nearcore's runtime_errors.rs `test_export_not_found`, `test_wrong_signature_contract`:
 * "burnt gas 0 used gas 0"). Protocol 85's parameters: 1 089 295 gas per byte, 35 445 963 base.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { wat } from '../vm/prepare/test-helpers.js';
import { runtimeParamsFrom } from './runtime-params.js';
import { NEAR, RuntimeHarness } from './test-support/apply-receipt-harness.js';

/** new_action_receipt's execution fee: every action receipt burns it. */
const RECEIPT = 108_059_500_000n;
const EXCEEDED = { FunctionCallError: { ExecutionError: 'Exceeded the prepaid gas.' } };
const METHOD_NOT_FOUND = { FunctionCallError: { MethodResolveError: 'MethodNotFound' } };

const SIMPLE = wat('(module (func (export "main")))');

/** bob.near with `code` deployed; alice.near calls it. */
function withContract(code: Uint8Array, harness = new RuntimeHarness()): RuntimeHarness {
  harness.addAccount('alice.near', 10n * NEAR);
  harness.addAccount('bob.near', 10n * NEAR);
  const deployed = harness.applyAction('bob.near', { type: 'DeployContract', code }, 'bob.near');
  assert.equal(deployed.failure, undefined);
  return harness;
}

function call(h: RuntimeHarness, methodName: string, gas: bigint) {
  const exec = h.applyAction('bob.near', {
    type: 'FunctionCall',
    methodName,
    args: new Uint8Array(),
    gas,
    deposit: 0n,
  });
  const f = h.params.fees;
  const staticFees =
    RECEIPT + f.function_call_base.execution + BigInt(methodName.length) * f.function_call_byte.execution;
  assert.equal(exec.failure?.index ?? 0, 0);
  return { exec, vmBurnt: exec.result.gasBurnt - staticFees, error: exec.failure?.kind };
}

describe('contract loading gas (nearcore: charged after preparation, before the method lookup)', () => {
  const h = withContract(SIMPLE);
  const vm = h.params.vm.config.extCosts;
  const feeOf = (code: Uint8Array) =>
    vm.contract_loading_bytes * BigInt(code.length) + vm.contract_loading_base;
  const fee = feeOf(SIMPLE);

  it("protocol 85's loading fee of a 34-byte module: 34 × 1 089 295 + 35 445 963 = 72 481 993 gas", () => {
    assert.equal(SIMPLE.length, 34);
    assert.equal(vm.contract_loading_bytes, 1_089_295n);
    assert.equal(vm.contract_loading_base, 35_445_963n);
    assert.equal(fee, 72_481_993n);
  });

  it('a missing method with gas for the fee: MethodNotFound, no VM gas burnt (the fee is not kept)', () => {
    for (const gas of [fee, 10n ** 14n]) {
      const { error, vmBurnt } = call(h, 'no-such-method', gas);
      assert.deepEqual(error, METHOD_NOT_FOUND);
      assert.equal(vmBurnt, 0n);
    }
  });

  it('a missing method with less gas than the fee: Exceeded the prepaid gas, all of it burnt', () => {
    const { error, vmBurnt } = call(h, 'no-such-method', fee - 1n);
    assert.deepEqual(error, EXCEEDED);
    assert.equal(vmBurnt, fee - 1n);
    // near-api-ts's case: 0.01 Tgas to a missing method of a contract over 9 148 bytes, whose loading fee is more.
    const code = wat(
      `(module (memory 1) (func (export "main")) (data (i32.const 0) "${'x'.repeat(9_200)}"))`,
    );
    assert.ok(feeOf(code) > 10n ** 10n);
    const missing = call(withContract(code), 'add_record', 10n ** 10n);
    assert.deepEqual(missing.error, EXCEEDED);
    assert.equal(missing.vmBurnt, 10n ** 10n);
  });

  it('an existing method with less gas than the fee: Exceeded the prepaid gas; with more, it runs', () => {
    assert.deepEqual(call(h, 'main', fee - 1n).error, EXCEEDED);
    const ok = call(h, 'main', fee + 10n ** 9n);
    assert.equal(ok.error, undefined);
    assert.ok(ok.vmBurnt >= fee, 'the fee, then the method body');
  });

  it('a method with the wrong signature: MethodInvalidSignature, no VM gas burnt; less gas than the fee: out of gas', () => {
    const code = wat('(module (func (export "main") (param i32)))');
    const w = withContract(code);
    const { error, vmBurnt } = call(w, 'main', feeOf(code));
    assert.deepEqual(error, { FunctionCallError: { MethodResolveError: 'MethodInvalidSignature' } });
    assert.equal(vmBurnt, 0n);
    assert.deepEqual(call(w, 'main', feeOf(code) - 1n).error, EXCEEDED);
  });

  it('an unknown import: Wasmtime (84+) fails to link before the lookup, burning the fee; NearVm (83) finds no method first', () => {
    const code = wat('(module (import "env" "no_such_host_fn" (func)) (func (export "main")))');
    const at85 = call(withContract(code), 'no-such-method', 10n ** 13n);
    // A link error shows as an ExecutionError in the outcome (nearcore's FunctionCallError view).
    assert.deepEqual(at85.error, {
      FunctionCallError: {
        ExecutionError: 'Link Error: unknown import: `env::no_such_host_fn` has not been defined',
      },
    });
    assert.equal(at85.vmBurnt, feeOf(code));
    const v83 = new RuntimeHarness(runtimeParamsFrom(loadRuntimeConfig(83)));
    assert.equal(v83.params.vm.config.vmKind, 'NearVm');
    const at83 = call(withContract(code, v83), 'no-such-method', 10n ** 13n);
    assert.deepEqual(at83.error, METHOD_NOT_FOUND);
    assert.equal(at83.vmBurnt, 0n);
  });
});
