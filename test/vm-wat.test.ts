/**
 * End to end: hand-written WAT contracts deployed and called through a real node, checked against
 * nearcore's exact outcomes (transaction failures as `ExecutionError` texts / structured errors, and view
 * calls as `wasm execution failed with error: <Debug>`), at protocol version 85.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import { type Account, actions } from 'near-api-js';
import type { Json } from './support/raw-rpc.js';
import { rpc, viewAccount } from './support/rpc-calls.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import {
  b64,
  bytes,
  callOutcome,
  callRaw,
  execError,
  failureKind,
  sleep,
  view,
  viewError,
  vmError,
  wat,
} from './vm-wat-helpers.js';

const U64_MAX = (1n << 64n) - 1n;

const MAIN = `(module
  (type $v (func))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "write_register" (func $write_register (param i64 i64 i64)))
  (import "env" "input" (func $input (param i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "panic_utf8" (func $panic_utf8 (param i64 i64)))
  (import "env" "log_utf8" (func $log_utf8 (param i64 i64)))
  (import "env" "attached_deposit" (func $attached_deposit (param i64)))
  (import "env" "storage_write" (func $storage_write (param i64 i64 i64 i64 i64) (result i64)))
  (import "env" "storage_read" (func $storage_read (param i64 i64 i64) (result i64)))
  (import "env" "storage_remove" (func $storage_remove (param i64 i64 i64) (result i64)))
  (import "env" "storage_has_key" (func $storage_has_key (param i64 i64) (result i64)))
  (import "env" "promise_yield_create" (func $yield_create (param i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "promise_yield_resume" (func $yield_resume (param i64 i64 i64 i64) (result i32)))
  (import "env" "promise_results_count" (func $results_count (result i64)))
  (import "env" "promise_result" (func $promise_result (param i64 i64) (result i64)))
  (memory 1)
  (table 4 funcref)
  (elem (i32.const 0) $nop $takes_i32)
  (data (i32.const 0) "boom")
  (data (i32.const 16) "hello\\00")
  (data (i32.const 32) "\\ff\\fe")
  (data (i32.const 48) "cb")
  (data (i32.const 64) "view log")
  (func $nop)
  (func $takes_i32 (param i32))
  ;; input -> memory 4096, returns its length
  (func $load_input (result i64)
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 4096))
    (call $register_len (i64.const 0)))
  ;; returns '0'+r, then register 1 when r == 1
  (func $ret_result (param $r i64)
    (i64.store8 (i32.const 8192) (i64.add (i64.const 48) (local.get $r)))
    (if (i64.eq (local.get $r) (i64.const 1))
      (then
        (call $read_register (i64.const 1) (i64.const 8193))
        (call $value_return (i64.add (i64.const 1) (call $register_len (i64.const 1))) (i64.const 8192)))
      (else (call $value_return (i64.const 1) (i64.const 8192)))))

  (func (export "loop") (loop $l (br $l)))
  (func $rec (call $rec))
  (func (export "recurse") (call $rec))
  (func (export "unreachable") unreachable)
  (func (export "oob") (drop (i32.load (i32.const -1))))
  (func (export "div0") (drop (i32.div_u (i32.const 1) (i32.const 0))))
  (func (export "overflow") (drop (i32.div_s (i32.const 0x80000000) (i32.const -1))))
  (func (export "f2i") (drop (i32.trunc_f64_s (f64.const nan))))
  (func (export "call_null") (call_indirect (type $v) (i32.const 2)))
  (func (export "call_sig") (call_indirect (type $v) (i32.const 1)))
  (func (export "call_oob") (call_indirect (type $v) (i32.const 10)))
  (func (export "with_params") (param i32))

  (func (export "read_unset") (call $read_register (i64.const 7) (i64.const 0)))
  (func (export "len_unset")
    (i64.store (i32.const 8192) (call $register_len (i64.const 7)))
    (call $value_return (i64.const 8) (i64.const 8192)))
  (func (export "logs101") (local $i i32)
    (loop $l
      (call $log_utf8 (i64.const 1) (i64.const 0))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 101)))))
  (func (export "log_long") (call $log_utf8 (i64.const 16385) (i64.const 4096)))
  (func (export "log_total")
    (call $log_utf8 (i64.const 10000) (i64.const 4096))
    (call $log_utf8 (i64.const 7000) (i64.const 4096)))
  (func (export "log_nul") (call $log_utf8 (i64.const -1) (i64.const 16)))
  (func (export "bad_utf8") (call $log_utf8 (i64.const 2) (i64.const 32)))
  (func (export "panic") (call $panic_utf8 (i64.const 4) (i64.const 0)))
  (func (export "ret") (call $value_return (i64.const 5) (i64.const 16)))
  (func (export "view_ok")
    (call $attached_deposit (i64.const 9000))
    (call $write_register (i64.const 3) (i64.const 8) (i64.const 64))
    (call $log_utf8 (i64.const 8) (i64.const 64))
    (drop (call $storage_read (i64.const 2) (i64.const 48) (i64.const 1)))
    (call $read_register (i64.const 3) (i64.const 9016))
    (call $value_return (i64.const 24) (i64.const 9000)))

  ;; input: key length (1 byte), key, value
  (func (export "put") (local $n i64) (local $k i64)
    (local.set $n (call $load_input))
    (local.set $k (i64.load8_u (i32.const 4096)))
    (call $ret_result (call $storage_write
      (local.get $k) (i64.const 4097)
      (i64.sub (i64.sub (local.get $n) (i64.const 1)) (local.get $k)) (i64.add (i64.const 4097) (local.get $k))
      (i64.const 1))))
  (func (export "get") (call $ret_result (call $storage_read (call $load_input) (i64.const 4096) (i64.const 1))))
  (func (export "del") (call $ret_result (call $storage_remove (call $load_input) (i64.const 4096) (i64.const 1))))
  (func (export "has")
    (i64.store8 (i32.const 8192)
      (i64.add (i64.const 48) (call $storage_has_key (call $load_input) (i64.const 4096))))
    (call $value_return (i64.const 1) (i64.const 8192)))

  ;; input K: yields to "cb" with arguments K, stores K -> data id, returns the data id
  (func (export "yield") (local $n i64)
    (local.set $n (call $load_input))
    (drop (call $yield_create (i64.const 2) (i64.const 48) (local.get $n) (i64.const 4096)
      (i64.const 10000000000000) (i64.const 0) (i64.const 1)))
    (call $read_register (i64.const 1) (i64.const 8192))
    (drop (call $storage_write (local.get $n) (i64.const 4096) (i64.const 32) (i64.const 8192) (i64.const 2)))
    (call $value_return (i64.const 32) (i64.const 8192)))
  ;; input: data id (32 bytes) ++ payload; returns '0' + promise_yield_resume's answer
  (func (export "resume") (local $n i64)
    (local.set $n (call $load_input))
    (i64.store8 (i32.const 8192) (i64.add (i64.const 48) (i64.extend_i32_u
      (call $yield_resume (i64.const 32) (i64.const 4096) (i64.sub (local.get $n) (i64.const 32)) (i64.const 4128)))))
    (call $value_return (i64.const 1) (i64.const 8192)))
  ;; input K: yields to "cb" with arguments K and resumes that yield in the same call with payload "now";
  ;; stores K -> data id, returns '0' + promise_yield_resume's answer
  (func (export "yield_resume_now") (local $n i64)
    (local.set $n (call $load_input))
    (drop (call $yield_create (i64.const 2) (i64.const 48) (local.get $n) (i64.const 4096)
      (i64.const 10000000000000) (i64.const 0) (i64.const 1)))
    (call $read_register (i64.const 1) (i64.const 8192))
    (drop (call $storage_write (local.get $n) (i64.const 4096) (i64.const 32) (i64.const 8192) (i64.const 2)))
    (i64.store (i32.const 8300) (i64.const 0x776f6e))
    (i64.store8 (i32.const 8400) (i64.add (i64.const 48) (i64.extend_i32_u
      (call $yield_resume (i64.const 32) (i64.const 8192) (i64.const 3) (i64.const 8300)))))
    (call $value_return (i64.const 1) (i64.const 8400)))
  ;; callback, input K: K -> '0'+results count, '0'+promise_result(0), data
  (func (export "cb") (local $n i64) (local $r i64) (local $len i64)
    (local.set $n (call $load_input))
    (local.set $r (call $promise_result (i64.const 0) (i64.const 1)))
    (i64.store8 (i32.const 8192) (i64.add (i64.const 48) (call $results_count)))
    (i64.store8 (i32.const 8193) (i64.add (i64.const 48) (local.get $r)))
    (local.set $len (i64.const 2))
    (if (i64.eq (local.get $r) (i64.const 1))
      (then
        (call $read_register (i64.const 1) (i64.const 8194))
        (local.set $len (i64.add (i64.const 2) (call $register_len (i64.const 1))))))
    (drop (call $storage_write (local.get $n) (i64.const 4096) (local.get $len) (i64.const 8192) (i64.const 2)))
    (call $value_return (local.get $len) (i64.const 8192)))
)`;

/** Host functions a view call may not call: [name in ProhibitedInView, import name, params, result]. */
const PROHIBITED: Array<[string, string, string, string]> = [
  ['signer_account_id', 'signer_account_id', 'I', ''],
  ['signer_account_pk', 'signer_account_pk', 'I', ''],
  ['predecessor_account_id', 'predecessor_account_id', 'I', ''],
  ['prepaid_gas', 'prepaid_gas', '', 'I'],
  ['used_gas', 'used_gas', '', 'I'],
  ['promise_create', 'promise_create', 'IIIIIIII', 'I'],
  ['promise_then', 'promise_then', 'IIIIIIIII', 'I'],
  ['promise_and', 'promise_and', 'II', 'I'],
  ['promise_batch_create', 'promise_batch_create', 'II', 'I'],
  ['promise_batch_then', 'promise_batch_then', 'III', 'I'],
  ['promise_batch_action_create_account', 'promise_batch_action_create_account', 'I', ''],
  ['promise_batch_action_deploy_contract', 'promise_batch_action_deploy_contract', 'III', ''],
  ['promise_batch_action_function_call', 'promise_batch_action_function_call', 'IIIIIII', ''],
  // nearcore reports the weight variant under the plain function_call name (logic.rs).
  ['promise_batch_action_function_call', 'promise_batch_action_function_call_weight', 'IIIIIIII', ''],
  ['promise_batch_action_transfer', 'promise_batch_action_transfer', 'II', ''],
  ['promise_batch_action_stake', 'promise_batch_action_stake', 'IIII', ''],
  [
    'promise_batch_action_add_key_with_full_access',
    'promise_batch_action_add_key_with_full_access',
    'IIII',
    '',
  ],
  [
    'promise_batch_action_add_key_with_function_call',
    'promise_batch_action_add_key_with_function_call',
    'IIIIIIIII',
    '',
  ],
  ['promise_batch_action_delete_key', 'promise_batch_action_delete_key', 'III', ''],
  ['promise_batch_action_delete_account', 'promise_batch_action_delete_account', 'III', ''],
  ['promise_yield_create', 'promise_yield_create', 'IIIIIII', 'I'],
  ['promise_yield_resume', 'promise_yield_resume', 'IIII', 'i'],
  ['promise_results_count', 'promise_results_count', '', 'I'],
  ['promise_result', 'promise_result', 'II', 'I'],
  ['promise_return', 'promise_return', 'I', ''],
  ['storage_write', 'storage_write', 'IIIII', 'I'],
  ['storage_remove', 'storage_remove', 'III', 'I'],
];

/** The global-contract batch actions (`global_contract_host_fns`, on since protocol 78). */
const PROHIBITED_GLOBAL: Array<[string, string, string, string]> = [
  'promise_batch_action_deploy_global_contract',
  'promise_batch_action_deploy_global_contract_by_account_id',
  'promise_batch_action_use_global_contract',
  'promise_batch_action_use_global_contract_by_account_id',
].map((name) => [name, name, 'III', '']);

/** A contract with one method per host function, named after the import, calling it with zeros. */
function prohibitedWat(list: Array<[string, string, string, string]>): string {
  const ty = (c: string) => (c === 'I' ? 'i64' : 'i32');
  const imports = list.map(([, imp, params, result]) => {
    const p = params ? `(param ${[...params].map(ty).join(' ')})` : '';
    const r = result ? `(result ${ty(result)})` : '';
    return `(import "env" "${imp}" (func $${imp} ${p} ${r}))`;
  });
  const funcs = list.map(([, imp, params, result]) => {
    const args = [...params].map((c) => `(${ty(c)}.const 0)`).join(' ');
    const call = `(call $${imp} ${args})`;
    return `(func (export "${imp}") ${result ? `(drop ${call})` : call})`;
  });
  return `(module ${imports.join('\n')} (memory 1) ${funcs.join('\n')})`;
}

describe('hand-written WAT contracts (real node, automine)', () => {
  let t: TestNode;
  let main: Account;
  let misc: Account;
  let views: Account;
  let globals: Account;
  let mainId: string;
  let miscId: string;
  let viewsId: string;
  let globalsId: string;

  async function subAccount(prefix: string): Promise<Account> {
    const key = newKey();
    await t.root.createSubAccount({
      accountOrPrefix: prefix,
      publicKey: key.getPublicKey(),
      nearToTransfer: 50n * NEAR,
    });
    return t.account(`${prefix}.${t.rootId}`, key);
  }

  /** Deploys `code` on the misc account and calls `method` (the deploy itself must succeed). */
  async function deployAndCall(code: Uint8Array, method = 'main'): Promise<Json> {
    const deployed: Json = await misc.deployContract(code);
    assert.deepEqual(deployed.status, { SuccessValue: '' }, 'deploy succeeds');
    return callRaw(misc, miscId, method);
  }

  const call = (method: string, args?: Uint8Array, gas?: bigint) => callRaw(main, mainId, method, args, gas);
  const fromB64 = (s: string) => Buffer.from(s, 'base64');
  const viewBytes = async (method: string, args?: Uint8Array) => {
    const r = await view(t.url, mainId, method, args);
    assert.equal(r.error, undefined, `view ${method}: ${r.error}`);
    return Buffer.from(r.result as number[]);
  };

  before(async () => {
    t = await startTestNode();
    main = await subAccount('main');
    misc = await subAccount('misc');
    views = await subAccount('views');
    mainId = main.accountId;
    miscId = misc.accountId;
    viewsId = views.accountId;
    globals = await subAccount('globals');
    globalsId = globals.accountId;
    const code = await wat(MAIN);
    const deployed: Json = await main.deployContract(code);
    assert.deepEqual(deployed.status, { SuccessValue: '' });
    const v: Json = await views.deployContract(await wat(prohibitedWat(PROHIBITED)));
    assert.deepEqual(v.status, { SuccessValue: '' });
    const g: Json = await globals.deployContract(await wat(prohibitedWat(PROHIBITED_GLOBAL)));
    assert.deepEqual(g.status, { SuccessValue: '' });
  });
  after(async () => {
    await t?.stop();
  });

  it('an infinite loop exceeds the prepaid gas and burns exactly prepaid gas + the static fees', async () => {
    const gas = 5n * TGAS;
    const result = await call('loop', new Uint8Array(), gas);
    assert.deepEqual(failureKind(result), execError('Exceeded the prepaid gas.'));
    const actions: Json[] = result.transaction.actions;
    const fc = t.cfg.fees;
    const expected =
      fc.function_call_base.execution +
      fc.function_call_byte.execution * BigInt('loop'.length) +
      fc.new_action_receipt.execution +
      gas;
    assert.equal(expected, t.fees.execGas(actions, mainId) + gas);
    assert.equal(BigInt(callOutcome(result).gas_burnt), expected, 'gas_burnt = exec fees + prepaid gas');
  });

  it('deep recursion hits the stack limit: MemoryAccessViolation', async () => {
    assert.deepEqual(failureKind(await call('recurse')), execError('Accessed memory outside the bounds.'));
    assert.equal(await viewError(t.url, mainId, 'recurse'), vmError('HostError(MemoryAccessViolation)'));
  });

  it('unreachable traps', async () => {
    assert.deepEqual(
      failureKind(await call('unreachable')),
      execError('WebAssembly trap: An `unreachable` opcode was executed.'),
    );
    assert.equal(await viewError(t.url, mainId, 'unreachable'), vmError('WasmTrap(Unreachable)'));
  });

  it('out-of-bounds memory access traps', async () => {
    assert.deepEqual(
      failureKind(await call('oob')),
      execError('WebAssembly trap: Memory out of bounds trap.'),
    );
    assert.equal(await viewError(t.url, mainId, 'oob'), vmError('WasmTrap(MemoryOutOfBounds)'));
  });

  it('integer divide by zero, integer overflow and bad float→int are IllegalArithmetic', async () => {
    for (const m of ['div0', 'overflow', 'f2i']) {
      assert.deepEqual(
        failureKind(await call(m)),
        execError('WebAssembly trap: An arithmetic exception, e.g. divided by zero.'),
        m,
      );
      assert.equal(await viewError(t.url, mainId, m), vmError('WasmTrap(IllegalArithmetic)'), m);
    }
  });

  it('call_indirect to a null entry', async () => {
    assert.deepEqual(
      failureKind(await call('call_null')),
      execError('WebAssembly trap: Indirect call to null.'),
    );
    assert.equal(await viewError(t.url, mainId, 'call_null'), vmError('WasmTrap(IndirectCallToNull)'));
  });

  it('call_indirect with the wrong signature', async () => {
    assert.deepEqual(
      failureKind(await call('call_sig')),
      execError('WebAssembly trap: Call indirect incorrect signature trap.'),
    );
    assert.equal(
      await viewError(t.url, mainId, 'call_sig'),
      vmError('WasmTrap(IncorrectCallIndirectSignature)'),
    );
  });

  it('call_indirect past the table end (table out of bounds → MemoryOutOfBounds)', async () => {
    assert.deepEqual(
      failureKind(await call('call_oob')),
      execError('WebAssembly trap: Memory out of bounds trap.'),
    );
    assert.equal(await viewError(t.url, mainId, 'call_oob'), vmError('WasmTrap(MemoryOutOfBounds)'));
  });

  const deserialization = { FunctionCallError: { CompilationError: { PrepareError: 'Deserialization' } } };
  const forbidden: Array<[string, string, Record<string, boolean>]> = [
    ['SIMD', '(module (func (export "main") (drop (v128.const i32x4 0 0 0 0))))', { simd: true }],
    [
      'threads (shared memory + atomics)',
      '(module (memory 1 1 shared) (func (export "main") (drop (i32.atomic.load (i32.const 0)))))',
      { threads: true },
    ],
    [
      'multi-value',
      '(module (func $f (result i32 i32) (i32.const 1) (i32.const 2)) (func (export "main") (call $f) (drop) (drop)))',
      { multi_value: true },
    ],
    ['tail calls', '(module (func $f) (func (export "main") (return_call $f)))', { tail_call: true }],
  ];
  for (const [name, src, features] of forbidden) {
    it(`forbidden feature: ${name} → PrepareError Deserialization`, async () => {
      const result = await deployAndCall(await wat(src, features));
      assert.deepEqual(failureKind(result), deserialization);
      assert.equal(
        await viewError(t.url, miscId, 'main'),
        vmError('CompilationError(PrepareError(Deserialization))'),
      );
    });
  }

  it('an import from a module other than env → PrepareError Instantiate', async () => {
    const result = await deployAndCall(
      await wat('(module (import "foo" "bar" (func)) (func (export "main")))'),
    );
    assert.deepEqual(failureKind(result), {
      FunctionCallError: { CompilationError: { PrepareError: 'Instantiate' } },
    });
  });

  it('an unknown env import → LinkError', async () => {
    const result = await deployAndCall(
      await wat('(module (import "env" "no_such_fn" (func $x)) (func (export "main") (call $x)))'),
    );
    assert.deepEqual(
      failureKind(result),
      execError('Link Error: unknown import: `env::no_such_fn` has not been defined'),
    );
  });

  it('an imported memory → PrepareError Memory', async () => {
    const result = await deployAndCall(
      await wat('(module (import "env" "memory" (memory 1)) (func (export "main")))'),
    );
    assert.deepEqual(failureKind(result), {
      FunctionCallError: { CompilationError: { PrepareError: 'Memory' } },
    });
  });

  it('a missing export → MethodNotFound', async () => {
    assert.deepEqual(failureKind(await call('no_such_method')), {
      FunctionCallError: { MethodResolveError: 'MethodNotFound' },
    });
    assert.equal(
      await viewError(t.url, mainId, 'no_such_method'),
      vmError('MethodResolveError(MethodNotFound)'),
    );
  });

  it('an export with parameters → MethodInvalidSignature', async () => {
    assert.deepEqual(failureKind(await call('with_params')), {
      FunctionCallError: { MethodResolveError: 'MethodInvalidSignature' },
    });
    assert.equal(
      await viewError(t.url, mainId, 'with_params'),
      vmError('MethodResolveError(MethodInvalidSignature)'),
    );
  });

  it('an empty method name → MethodEmptyName', async () => {
    assert.deepEqual(failureKind(await call('')), {
      FunctionCallError: { MethodResolveError: 'MethodEmptyName' },
    });
  });

  it('every prohibited host function fails a view call with ProhibitedInView', async () => {
    for (const [name, imp] of PROHIBITED) {
      assert.equal(
        await viewError(t.url, viewsId, imp),
        vmError(`HostError(ProhibitedInView { method_name: "${name}" })`),
        imp,
      );
    }
  });

  it('the global-contract batch actions are prohibited in views too', async () => {
    for (const [name, imp] of PROHIBITED_GLOBAL) {
      assert.equal(
        await viewError(t.url, globalsId, imp),
        vmError(`HostError(ProhibitedInView { method_name: "${name}" })`),
        imp,
      );
    }
  });

  it('attached_deposit, storage_read, write_register and logs work in views', async () => {
    const r = await view(t.url, mainId, 'view_ok');
    assert.equal(r.error, undefined, r.error);
    assert.deepEqual(r.logs, ['view log']);
    assert.deepEqual(
      [...r.result],
      [...bytes(new Array(16).fill(0), 'view log')],
      '16 zero bytes of deposit + register 3',
    );
  });

  it('registers: reading an unset register fails, register_len of one is u64::MAX', async () => {
    assert.deepEqual(failureKind(await call('read_unset')), execError('Accessed invalid register id: 7'));
    assert.equal(
      await viewError(t.url, mainId, 'read_unset'),
      vmError('HostError(InvalidRegisterId { register_id: 7 })'),
    );
    const len = await viewBytes('len_unset');
    assert.equal(len.readBigUInt64LE(0), U64_MAX);
    const result = await call('len_unset');
    assert.equal(fromB64(callOutcome(result).status.SuccessValue).readBigUInt64LE(0), U64_MAX);
  });

  it('the 101st log fails with NumberOfLogsExceeded and keeps the first 100', async () => {
    const result = await call('logs101');
    assert.deepEqual(failureKind(result), execError('The number of logs will exceed the limit 100'));
    assert.equal(callOutcome(result).logs.length, 100);
    assert.equal(
      await viewError(t.url, mainId, 'logs101'),
      vmError('HostError(NumberOfLogsExceeded { limit: 100 })'),
    );
  });

  it('logs longer than 16384 bytes in total fail with TotalLogLengthExceeded', async () => {
    assert.deepEqual(
      failureKind(await call('log_long')),
      execError('The length of a log message 16385 exceeds the limit 16384'),
    );
    assert.equal(
      await viewError(t.url, mainId, 'log_long'),
      vmError('HostError(TotalLogLengthExceeded { length: 16385, limit: 16384 })'),
    );
    const result = await call('log_total');
    assert.deepEqual(
      failureKind(result),
      execError('The length of a log message 17000 exceeds the limit 16384'),
    );
    assert.equal(callOutcome(result).logs.length, 1);
  });

  it('value_return, panic_utf8, NUL-terminated log_utf8 and bad UTF-8', async () => {
    const ret = await call('ret');
    assert.deepEqual(callOutcome(ret).status, { SuccessValue: b64('hello') });
    assert.deepEqual([...(await viewBytes('ret'))], [...Buffer.from('hello')]);

    assert.deepEqual(failureKind(await call('panic')), execError('Smart contract panicked: boom'));
    assert.equal(
      await viewError(t.url, mainId, 'panic'),
      vmError('HostError(GuestPanic { panic_msg: "boom" })'),
    );

    const nul = await call('log_nul');
    assert.deepEqual(callOutcome(nul).status, { SuccessValue: '' });
    assert.deepEqual(callOutcome(nul).logs, ['hello']);

    assert.deepEqual(
      failureKind(await call('bad_utf8')),
      execError('String encoding is bad UTF-8 sequence.'),
    );
    assert.equal(await viewError(t.url, mainId, 'bad_utf8'), vmError('HostError(BadUTF8)'));
  });

  it('storage_write/read/remove/has_key with storage_usage and view_state', async () => {
    const usage = async () => (await viewAccount(t.url, mainId))!.storageUsage;
    const put = (key: string, value: string) => call('put', bytes([key.length], key, value));
    const ok = (result: Json) => fromB64(callOutcome(result).status.SuccessValue).toString();

    const u0 = await usage();
    assert.equal(ok(await put('k1', 'hello')), '0', 'new key: nothing evicted');
    const u1 = await usage();
    assert.equal(u1 - u0, 2 + 5 + 40, 'a new key adds key + value + 40');
    assert.equal(ok(await put('k1', 'hi!')), '1hello', 'overwrite returns the old value');
    const u2 = await usage();
    assert.equal(u2 - u1, 3 - 5, 'an overwrite adds the length difference');
    assert.equal(ok(await call('get', bytes('k1'))), '1hi!');
    assert.equal(ok(await call('has', bytes('k1'))), '1');
    assert.equal((await viewBytes('get', bytes('k1'))).toString(), '1hi!', 'storage_read in a view');
    assert.equal((await viewBytes('has', bytes('k1'))).toString(), '1');
    assert.equal((await viewBytes('get', bytes('nope'))).toString(), '0');

    const state = await rpc(t.url, 'query', {
      request_type: 'view_state',
      finality: 'final',
      account_id: mainId,
      prefix_base64: b64('k'),
    });
    assert.deepEqual(state.values, [{ key: b64('k1'), value: b64('hi!') }]);

    assert.equal(ok(await call('del', bytes('k1'))), '1hi!', 'remove returns the old value');
    assert.equal(await usage(), u0, 'removal subtracts key + value + 40');
    assert.equal(ok(await call('del', bytes('k1'))), '0');
    assert.equal(ok(await call('has', bytes('k1'))), '0');
    assert.equal(ok(await call('get', bytes('k1'))), '0');
    const after = await rpc(t.url, 'query', {
      request_type: 'view_state',
      finality: 'final',
      account_id: mainId,
      prefix_base64: b64('k'),
    });
    assert.deepEqual(after.values, []);

    assert.match(
      await viewError(t.url, mainId, 'put', bytes([1], 'x', 'y')),
      /^wasm execution failed with error: HostError\(ProhibitedInView \{ method_name: "storage_write" \}\)$/,
    );
  });

  it('view_state pages with limit / after_key_base64 and reports last_key', async () => {
    for (const k of ['a1', 'a2', 'a3']) await put2(k, `v${k}`);
    const page = (extra: Json) =>
      rpc(t.url, 'query', {
        request_type: 'view_state',
        finality: 'final',
        account_id: mainId,
        prefix_base64: b64('a'),
        ...extra,
      });
    const p1 = await page({ limit: 2 });
    assert.deepEqual(p1.values, [
      { key: b64('a1'), value: b64('va1') },
      { key: b64('a2'), value: b64('va2') },
    ]);
    assert.equal(p1.last_key, b64('a2'));
    const p2 = await page({ limit: 2, after_key_base64: p1.last_key });
    assert.deepEqual(p2.values, [{ key: b64('a3'), value: b64('va3') }]);
    assert.equal(p2.last_key, undefined);
    const all = await page({});
    assert.equal(all.values.length, 3);
    assert.equal(all.last_key, undefined);
  });

  async function put2(key: string, value: string) {
    const r = await call('put', bytes([key.length], key, value));
    assert.ok('SuccessValue' in callOutcome(r).status);
  }

  /** Sends `yield K` without waiting for its (postponed) callback; answers the data id once stored. */
  async function startYield(key: string): Promise<Buffer> {
    await main.signAndSendTransaction({
      receiverId: mainId,
      actions: [actions.functionCall('yield', bytes(key), 50n * TGAS, 0n)],
      throwOnFailure: false,
      waitUntil: 'INCLUDED',
    });
    for (let i = 0; i < 100; i++) {
      const v = await viewBytes('get', bytes(key));
      if (v[0] === 0x31 && v.length === 33) return v.subarray(1);
      await sleep(50);
    }
    throw new Error(`yield ${key} never stored its data id`);
  }

  async function waitForCallback(key: string, poke?: () => Promise<void>): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const v = await viewBytes('get', bytes(key));
      if (!(v[0] === 0x31 && v.length === 33)) return v.toString();
      if (poke && i % 10 === 9) await poke();
      await sleep(50);
    }
    throw new Error(`callback for ${key} never ran`);
  }

  it('yield + resume: the callback sees the payload via promise_result', async () => {
    const id = await startYield('y1');
    const resumed = await call('resume', bytes(id, 'payload'));
    assert.deepEqual(callOutcome(resumed).status, { SuccessValue: b64('1') }, 'resume answers 1');
    assert.equal(await waitForCallback('y1'), '111payload', 'one result, Successful, the payload');
    // Resuming it again finds no yield any more.
    assert.deepEqual(callOutcome(await call('resume', bytes(id, 'again'))).status, {
      SuccessValue: b64('0'),
    });
  });

  it('a yield resumed in the call that created it: resume answers 1 and the callback sees the payload', async () => {
    // nearcore records the yield's status when it is created, so a resume finds it before its receipt is stored
    // (the next block): the same call, or another receipt of the same block.
    const result = await call('yield_resume_now', bytes('y3'));
    assert.deepEqual(callOutcome(result).status, { SuccessValue: b64('1') }, 'resume answers 1');
    assert.equal(await waitForCallback('y3'), '111now', 'one result, Successful, the payload');
  });

  it('resuming an unknown data id answers 0', async () => {
    const result = await call('resume', bytes(new Array(32).fill(7), 'x'));
    assert.deepEqual(callOutcome(result).status, { SuccessValue: b64('0') });
  });

  it('a resume payload over 1024 bytes fails with YieldPayloadLength', async () => {
    const result = await call('resume', bytes(new Array(32).fill(7), new Array(1025).fill(1)));
    assert.deepEqual(
      failureKind(result),
      execError('Yield resume payload is 1025 bytes which exceeds the 1024 byte limit'),
    );
  });

  it('a yield never resumed times out after 200 blocks: the callback sees a failed result', async () => {
    await startYield('y2');
    await rpc(t.url, 'sandbox_fast_forward', { delta_height: 205 });
    const got = await waitForCallback('y2', async () => {
      await rpc(t.url, 'sandbox_fast_forward', { delta_height: 1 });
    });
    assert.equal(got, '112', 'one result, Failed (2), no data');
  });
});
