/**
 * RejectEmptyMethodName (protocol 87) and the receipts contracts make: the rule is checked on every new
 * receipt (validate-actions-87.test.ts), but a contract cannot make a function call with an empty method name
 * in the first place, at any version: the host function refuses it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { wat } from '../vm/prepare/test-helpers.js';
import { runtimeParamsFrom } from './runtime-params.js';
import { NEAR, RuntimeHarness, testBlock } from './test-support/apply-receipt-harness.js';

// `go`: a promise to bob.near calling the method "" with no arguments, no deposit and 10 Tgas.
const CALLER = wat(`(module
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_function_call"
    (func $call (param i64 i64 i64 i64 i64 i64 i64)))
  (memory 1)
  (export "memory" (memory 0))
  (data (i32.const 0) "bob.near")
  (func (export "go")
    (call $call (call $create (i64.const 8) (i64.const 0)) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const 0) (i64.const 32) (i64.const 10000000000000))))`);

function goAt(version: number) {
  const h = new RuntimeHarness(runtimeParamsFrom(loadRuntimeConfig(version)), testBlock());
  h.addAccount('alice.near', 10n * NEAR);
  h.addAccount('bob.near', 10n * NEAR);
  assert.equal(
    h.applyAction('bob.near', { type: 'DeployContract', code: CALLER }, 'bob.near').failure,
    undefined,
  );
  const exec = h.applyAction('bob.near', {
    type: 'FunctionCall',
    methodName: 'go',
    args: new Uint8Array(),
    gas: 50n * 10n ** 12n,
    deposit: 0n,
  });
  return { h, exec };
}

describe('empty method names in receipts contracts make', () => {
  // nearcore's host function refuses an empty method name itself (logic.rs: HostError::EmptyMethodName), so a
  // contract never makes such a receipt and RejectEmptyMethodName's NewReceiptValidationError cannot arise
  // from one: at 86 and 87 alike the call fails in the host.
  for (const version of [86, 87]) {
    it(`${version}: promise_batch_action_function_call with "" fails with EmptyMethodName`, () => {
      const { exec } = goAt(version);
      assert.deepEqual(exec.failure?.toJSON(), {
        ActionError: {
          index: 0,
          kind: { FunctionCallError: { ExecutionError: 'Tried to call an empty method name.' } },
        },
      });
    });
  }
});
