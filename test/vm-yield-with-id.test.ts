/**
 * End to end: `promise_yield_create_with_id` / `promise_yield_resume_with_yield_id` (nearcore `YieldWithId`,
 * protocol 85) in a hand-written WAT contract through a real node: a yield named by the contract's own
 * 32-byte id, resumed by that id in another transaction, its callback seeing the payload; an id in use
 * refused with u64::MAX; the id free again once resumed; an unknown id answering 0; a malformed id failing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import { type Account, actions } from 'near-api-js';
import type { Json } from './support/raw-rpc.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import {
  b64,
  bytes,
  callOutcome,
  callRaw,
  failureKind,
  sleep,
  view,
  viewError,
  vmError,
  wat,
} from './vm-wat-helpers.js';

const CONTRACT = `(module
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "input" (func $input (param i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "storage_write" (func $storage_write (param i64 i64 i64 i64 i64) (result i64)))
  (import "env" "storage_read" (func $storage_read (param i64 i64 i64) (result i64)))
  (import "env" "promise_yield_create_with_id"
    (func $create_with_id (param i64 i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "promise_yield_resume_with_yield_id"
    (func $resume_with_id (param i64 i64 i64 i64) (result i32)))
  (import "env" "promise_results_count" (func $results_count (result i64)))
  (import "env" "promise_result" (func $promise_result (param i64 i64) (result i64)))
  (memory 1)
  (data (i32.const 48) "cb")
  ;; memory 0..16: a zero u128 (the attached amount)
  (func $load_input (result i64)
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 4096))
    (call $register_len (i64.const 0)))
  (func $create (param $idlen i64) (result i64)
    (call $create_with_id (i64.const 2) (i64.const 48) (local.get $idlen) (i64.const 4096)
      (i64.const 0) (i64.const 10000000000000) (i64.const 0) (local.get $idlen) (i64.const 4096)))
  ;; input: yield id (32 bytes); yields to "cb" (arguments: the id), stores id -> "w", returns the
  ;; create's answer as 8 little-endian bytes
  (func (export "create") (local $n i64)
    (local.set $n (call $load_input))
    (i64.store (i32.const 8192) (call $create (local.get $n)))
    (i64.store8 (i32.const 8200) (i64.const 119))
    (drop (call $storage_write (local.get $n) (i64.const 4096) (i64.const 1) (i64.const 8200) (i64.const 2)))
    (call $value_return (i64.const 8) (i64.const 8192)))
  ;; input: yield id; creates the same yield twice, stores id -> both answers (16 bytes)
  (func (export "create_twice") (local $n i64)
    (local.set $n (call $load_input))
    (i64.store (i32.const 8192) (call $create (local.get $n)))
    (i64.store (i32.const 8200) (call $create (local.get $n)))
    (drop (call $storage_write (local.get $n) (i64.const 4096) (i64.const 16) (i64.const 8192) (i64.const 2)))
    (call $value_return (i64.const 16) (i64.const 8192)))
  ;; input: yield id (32 bytes) ++ payload; returns '0' + the resume's answer
  (func (export "resume") (local $n i64)
    (local.set $n (call $load_input))
    (i64.store8 (i32.const 8192) (i64.add (i64.const 48) (i64.extend_i32_u
      (call $resume_with_id (i64.const 32) (i64.const 4096) (i64.sub (local.get $n) (i64.const 32)) (i64.const 4128)))))
    (call $value_return (i64.const 1) (i64.const 8192)))
  ;; callback, input: the id; stores id -> '0'+results count, '0'+promise_result(0), data
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
  (func (export "get")
    (if (i64.eq (call $storage_read (call $load_input) (i64.const 4096) (i64.const 1)) (i64.const 1))
      (then
        (call $read_register (i64.const 1) (i64.const 8192))
        (call $value_return (call $register_len (i64.const 1)) (i64.const 8192)))))
)`;

const U64_MAX = (1n << 64n) - 1n;
const id = (n: number) => new Uint8Array(32).fill(n);
const u64s = (b64text: string) => {
  const buf = Buffer.from(b64text, 'base64');
  const out: bigint[] = [];
  for (let i = 0; i < buf.length; i += 8) out.push(buf.readBigUInt64LE(i));
  return out;
};

describe('yield with an id of the contract’s choosing (YieldWithId, real node)', () => {
  let t: TestNode;
  let c: Account;
  let cId: string;

  const call = (method: string, args?: Uint8Array) => callRaw(c, cId, method, args);
  const stored = async (key: Uint8Array) => {
    const r = await view(t.url, cId, 'get', key);
    assert.equal(r.error, undefined);
    return Buffer.from(r.result as number[]).toString();
  };
  /** Starts `create` without waiting for the yield's callback; returns once the call has run. */
  async function startCreate(yieldId: Uint8Array): Promise<void> {
    await c.signAndSendTransaction({
      receiverId: cId,
      actions: [actions.functionCall('create', yieldId, 50n * TGAS, 0n)],
      throwOnFailure: false,
      waitUntil: 'INCLUDED',
    });
    for (let i = 0; i < 200; i++) {
      if ((await stored(yieldId)) === 'w') return;
      await sleep(50);
    }
    throw new Error('create never ran');
  }
  async function callbackOf(yieldId: Uint8Array): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const v = await stored(yieldId);
      if (v.startsWith('1')) return v;
      await sleep(50);
    }
    throw new Error('the callback never ran');
  }

  before(async () => {
    t = await startTestNode();
    const key = newKey();
    await t.root.createSubAccount({
      accountOrPrefix: 'yid',
      publicKey: key.getPublicKey(),
      nearToTransfer: 50n * NEAR,
    });
    cId = `yid.${t.rootId}`;
    c = t.account(cId, key);
    const deployed: Json = await c.deployContract(await wat(CONTRACT));
    assert.deepEqual(deployed.status, { SuccessValue: '' });
  });
  after(async () => {
    await t?.stop();
  });

  it('creates a yield under an id and resumes it by that id; the callback sees the payload', async () => {
    await startCreate(id(1));
    // The id is taken while the yield waits: another create answers u64::MAX.
    const again = await call('create', id(1));
    assert.deepEqual(u64s(callOutcome(again).status.SuccessValue), [U64_MAX]);
    const resumed = await call('resume', bytes(id(1), 'payload'));
    assert.deepEqual(callOutcome(resumed).status, { SuccessValue: b64('1') });
    assert.equal(await callbackOf(id(1)), '11payload', 'one result, Successful, the payload');
    // Resumed, the id is free: resuming again answers 0, and a new yield may take it.
    assert.deepEqual(callOutcome(await call('resume', bytes(id(1), 'x'))).status, { SuccessValue: b64('0') });
    await startCreate(id(1));
    assert.deepEqual(callOutcome(await call('resume', bytes(id(1), 'two'))).status, {
      SuccessValue: b64('1'),
    });
    assert.equal(await callbackOf(id(1)), '11two');
  });

  it('refuses the same id twice in one call: the second create answers u64::MAX', async () => {
    // Not waiting for the whole transaction: its yield waits until resumed below.
    await c.signAndSendTransaction({
      receiverId: cId,
      actions: [actions.functionCall('create_twice', id(2), 50n * TGAS, 0n)],
      throwOnFailure: false,
      waitUntil: 'INCLUDED',
    });
    let answers: bigint[] = [];
    for (let i = 0; i < 200 && answers.length === 0; i++) {
      const r = await view(t.url, cId, 'get', id(2));
      const raw = Buffer.from(r.result as number[]);
      if (raw.length === 16) answers = u64s(raw.toString('base64'));
      else await sleep(50);
    }
    assert.deepEqual(answers, [0n, U64_MAX], 'the first yield is promise 0; the second create is refused');
    assert.deepEqual(callOutcome(await call('resume', bytes(id(2), 'p'))).status, { SuccessValue: b64('1') });
    assert.equal(await callbackOf(id(2)), '11p');
  });

  it('resuming an id no yield has answers 0', async () => {
    assert.deepEqual(callOutcome(await call('resume', bytes(id(9), 'x'))).status, { SuccessValue: b64('0') });
  });

  it('an id that is not 32 bytes fails with YieldIdMalformed; views may not yield', async () => {
    const r = await call('create', new Uint8Array(16));
    assert.match(JSON.stringify(failureKind(r)), /ExecutionError/);
    assert.equal(
      await viewError(t.url, cId, 'create', id(3)),
      vmError('HostError(ProhibitedInView { method_name: "promise_yield_create_with_id" })'),
    );
    assert.equal(
      await viewError(t.url, cId, 'resume', bytes(id(3), 'x')),
      vmError('HostError(ProhibitedInView { method_name: "promise_yield_resume_with_yield_id" })'),
    );
  });
});
