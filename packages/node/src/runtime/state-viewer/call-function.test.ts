import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '@shadebox/primitives';
import { loadRuntimeConfig } from '../../config/runtime-config.js';
import { contractCodeKey, contractDataKey } from '../../state/state-keys.js';
import { StateUpdate } from '../../state/state-update.js';
import { wat } from '../../vm/prepare/test-helpers.js';
import { runtimeParamsFrom } from '../runtime-params.js';
import { callFunction, type ViewApplyState } from './call-function.js';

const CONTRACT = `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "log_utf8" (func $log_utf8 (param i64 i64)))
  (import "env" "storage_read" (func $storage_read (param i64 i64 i64) (result i64)))
  (import "env" "storage_write" (func $storage_write (param i64 i64 i64 i64 i64) (result i64)))
  (memory 1)
  (data (i32.const 0) "key")
  (data (i32.const 8) "hi")
  (func (export "echo")
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 100))
    (call $log_utf8 (i64.const 2) (i64.const 8))
    (call $value_return (call $register_len (i64.const 0)) (i64.const 100)))
  (func (export "read")
    (drop (call $storage_read (i64.const 3) (i64.const 0) (i64.const 1)))
    (call $read_register (i64.const 1) (i64.const 100))
    (call $value_return (call $register_len (i64.const 1)) (i64.const 100)))
  (func (export "write")
    (drop (call $storage_write (i64.const 3) (i64.const 0) (i64.const 2) (i64.const 8) (i64.const 2)))))`;

const ID = 'viewer.test.near';
const utf8 = new TextEncoder();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function view(): Promise<{ view: ViewApplyState; state: StateUpdate; code: Uint8Array }> {
  const code = await wat(CONTRACT);
  const state = new StateUpdate(undefined, -1);
  state.set(contractCodeKey(ID), code);
  state.set(contractDataKey(ID, utf8.encode('key')), utf8.encode('stored'));
  const view: ViewApplyState = {
    state,
    params: runtimeParamsFrom(loadRuntimeConfig()),
    blockHeight: 10n,
    blockTimestamp: 1_700_000_000_000_000_000n,
    epochHeight: 1n,
    randomSeed: new Uint8Array(32),
    validatorStakes: new Map(),
  };
  return { view, state, code };
}

const account = (code: Uint8Array) => ({
  amount: 10n ** 24n,
  locked: 0n,
  codeHash: sha256(code),
  storageUsage: 1000n,
});

/** The message `query call_function` prints (the structured error beside it is EXPERIMENTAL_call_function's). */
const errorOf = (out: ReturnType<typeof callFunction>) => ('error' in out ? out.error : undefined);

describe('state viewer: call_function', () => {
  it('runs a method read-only and returns its value and logs', async () => {
    const { view: v, code } = await view();
    assert.deepEqual(callFunction(v, ID, account(code), 'echo', utf8.encode('abc')), {
      result: utf8.encode('abc'),
      logs: ['hi'],
    });
    const read = callFunction(v, ID, account(code), 'read', new Uint8Array(0));
    assert.ok('result' in read);
    assert.equal(text(read.result), 'stored');
  });

  it('answers a write, a missing method and missing code with the VM error as nearcore words it', async () => {
    const { view: v, state, code } = await view();
    assert.equal(
      errorOf(callFunction(v, ID, account(code), 'write', new Uint8Array(0))),
      'wasm execution failed with error: HostError(ProhibitedInView { method_name: "storage_write" })',
    );
    assert.equal(text(state.get(contractDataKey(ID, utf8.encode('key')))!), 'stored');
    assert.equal(
      errorOf(callFunction(v, ID, account(code), 'nope', new Uint8Array(0))),
      'wasm execution failed with error: MethodResolveError(MethodNotFound)',
    );
    const noCode = { ...account(code), codeHash: new Uint8Array(32) };
    assert.equal(
      errorOf(callFunction(v, 'other.test.near', noCode, 'echo', new Uint8Array(0))),
      'wasm execution failed with error: CompilationError(CodeDoesNotExist { account_id: "other.test.near" })',
    );
  });
});
