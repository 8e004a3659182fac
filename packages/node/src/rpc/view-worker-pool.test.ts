/**
 * `call_function` views answered by a worker thread are byte for byte the answers of the RPC's own thread:
 * values, logs, panics, traps, gas exceeded, a missing method, a write refused in a view, reads of the
 * contract's data (present and absent), the block's facts; a contract with over a thousand entries, whose data
 * copy the worker is sent once; a contract whose data changes between views (never answered from the old copy);
 * and views a worker does not run (a contract with more data than the copies' budget, a block older than the
 * copy, the views in flight on a worker that dies) get the same answers from the RPC's thread.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '@shadebox/primitives';
import { wat } from '../vm/prepare/test-helpers.js';
import { createInMemoryRpcContext } from './in-memory-context.js';
import { handleJsonRpc } from './jsonrpc.js';
import { ViewWorkerPool } from './view-worker-pool.js';

/** The pool's budget for contract data copies in these tests (packed bytes). */
const BUDGET = 64 * 1024;
/** Entries of `large.test.near`: far more than a job could carry by value, within BUDGET. */
const LARGE_ENTRIES = 1200;

const CONTRACT = `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "log_utf8" (func $log_utf8 (param i64 i64)))
  (import "env" "panic_utf8" (func $panic_utf8 (param i64 i64)))
  (import "env" "sha256" (func $sha256 (param i64 i64 i64)))
  (import "env" "storage_read" (func $storage_read (param i64 i64 i64) (result i64)))
  (import "env" "storage_has_key" (func $storage_has_key (param i64 i64) (result i64)))
  (import "env" "storage_write" (func $storage_write (param i64 i64 i64 i64 i64) (result i64)))
  (import "env" "promise_yield_resume" (func $yield_resume (param i64 i64 i64 i64) (result i32)))
  (import "env" "block_index" (func $block_index (result i64)))
  (import "env" "block_timestamp" (func $block_timestamp (result i64)))
  (import "env" "epoch_height" (func $epoch_height (result i64)))
  (import "env" "storage_usage" (func $storage_usage (result i64)))
  (import "env" "account_balance" (func $account_balance (param i64)))
  (import "env" "random_seed" (func $random_seed (param i64)))
  (import "env" "validator_total_stake" (func $validator_total_stake (param i64)))
  (memory 2)
  (data (i32.const 0) "key")
  (data (i32.const 8) "hi \\"there\\"\\n\\u{e9}")
  (data (i32.const 32) "gone")
  (data (i32.const 64) "boom")
  (func (export "echo")
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 1024))
    (call $log_utf8 (i64.const 14) (i64.const 8))
    (call $log_utf8 (i64.const 2) (i64.const 8))
    (call $value_return (call $register_len (i64.const 0)) (i64.const 1024)))
  (func (export "read")
    (drop (call $storage_read (i64.const 3) (i64.const 0) (i64.const 1)))
    (call $read_register (i64.const 1) (i64.const 1024))
    (call $value_return (call $register_len (i64.const 1)) (i64.const 1024)))
  (func (export "get")
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 2048))
    (if (i64.eqz (call $storage_read (call $register_len (i64.const 0)) (i64.const 2048) (i64.const 1)))
      (then (call $panic_utf8 (i64.const 4) (i64.const 32))))
    (call $read_register (i64.const 1) (i64.const 4096))
    (call $value_return (call $register_len (i64.const 1)) (i64.const 4096)))
  (func (export "has_absent")
    (i64.store (i32.const 1024) (call $storage_has_key (i64.const 4) (i64.const 32)))
    (call $value_return (i64.const 8) (i64.const 1024)))
  (func (export "write")
    (drop (call $storage_write (i64.const 3) (i64.const 0) (i64.const 2) (i64.const 8) (i64.const 2))))
  (func (export "panic") (call $panic_utf8 (i64.const 4) (i64.const 64)))
  (func (export "trap") unreachable)
  (func (export "gas")
    (loop $again
      (call $sha256 (i64.const 65536) (i64.const 0) (i64.const 2))
      (br $again)))
  (func (export "context")
    (i64.store (i32.const 1024) (call $block_index))
    (i64.store (i32.const 1032) (call $block_timestamp))
    (i64.store (i32.const 1040) (call $epoch_height))
    (i64.store (i32.const 1048) (call $storage_usage))
    (call $account_balance (i64.const 1056))
    (call $validator_total_stake (i64.const 1072))
    (call $random_seed (i64.const 3))
    (call $read_register (i64.const 3) (i64.const 1088))
    (call $value_return (i64.const 96) (i64.const 1024)))
  (func (export "resume")
    (drop (call $yield_resume (i64.const 32) (i64.const 2048) (i64.const 0) (i64.const 0)))))`;

const HELLO = readFileSync(createRequire(import.meta.url).resolve('near-hello/dist/main.wasm'));
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

function callBody(accountId: string, method: string, args = '', id: unknown = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'query',
    params: {
      request_type: 'call_function',
      finality: 'final',
      account_id: accountId,
      method_name: method,
      args_base64: b64(args),
    },
  });
}

describe('view calls on a worker thread answer as the RPC thread does', { timeout: 300_000 }, () => {
  const ctx = createInMemoryRpcContext({ blocks: 1 });
  const pool = new ViewWorkerPool(
    1,
    {
      protocolVersion: ctx.chain.params.protocolVersion,
      chainId: ctx.chain.params.chainId,
      validatorStakes: ctx.chain.validatorStakes(),
    },
    undefined,
    { replicaBudgetBytes: BUDGET },
  );

  async function answer(body: string, onWorker: boolean): Promise<string> {
    ctx.viewWorkers = onWorker ? pool : undefined;
    const a = handleJsonRpc(ctx, body);
    return (a instanceof Promise ? await a : a).body;
  }

  before(async () => {
    const amount = '10000000000000000000000000';
    const records: unknown[] = [
      { Account: { account_id: 'views.test.near', account: { amount, locked: '0' } } },
      { Contract: { account_id: 'views.test.near', code: b64(wat(CONTRACT)) } },
      { Data: { account_id: 'views.test.near', data_key: b64('key'), value: b64('stored value') } },
      { Account: { account_id: 'hello.test.near', account: { amount, locked: '0' } } },
      { Contract: { account_id: 'hello.test.near', code: b64(HELLO) } },
      { Account: { account_id: 'big.test.near', account: { amount, locked: '0' } } },
      { Contract: { account_id: 'big.test.near', code: b64(wat(CONTRACT)) } },
    ];
    // More data than BUDGET: 'key' and four values of 20 KiB.
    records.push({ Data: { account_id: 'big.test.near', data_key: b64('key'), value: b64('v0') } });
    for (let i = 1; i <= 4; i++) {
      records.push({
        Data: { account_id: 'big.test.near', data_key: b64(`k${i}`), value: b64('x'.repeat(20 * 1024)) },
      });
    }
    records.push(
      { Account: { account_id: 'large.test.near', account: { amount, locked: '0' } } },
      { Contract: { account_id: 'large.test.near', code: b64(wat(CONTRACT)) } },
    );
    for (let i = 0; i < LARGE_ENTRIES; i++) {
      records.push({
        Data: { account_id: 'large.test.near', data_key: b64(`k${i}`), value: b64(`value ${i}`) },
      });
    }
    const patched = await handleJsonRpc(
      ctx,
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'sandbox_patch_state', params: { records } }),
    );
    assert.equal(patched.body, '{"jsonrpc":"2.0","result":{},"id":0}');
    ctx.producer.produce(4);
    await pool.warmUp();
    assert.equal(pool.readyWorkers, 1, 'the worker started');
  });

  after(() => pool.close());

  const cases: Array<[string, string, string?]> = [
    ['views.test.near', 'echo', '{"name": "ü"}'],
    ['views.test.near', 'echo', ''],
    ['views.test.near', 'read'],
    ['views.test.near', 'has_absent'],
    ['views.test.near', 'write'],
    ['views.test.near', 'panic'],
    ['views.test.near', 'trap'],
    ['views.test.near', 'gas'],
    ['views.test.near', 'context'],
    ['views.test.near', 'resume'],
    ['views.test.near', 'no_such_method'],
    ['views.test.near', ''],
    ['hello.test.near', 'hello', '{"name": "worker"}'],
    ['hello.test.near', 'getValue', '{}'],
    ['hello.test.near', 'setValue', '{"value": "x"}'],
  ];

  it('gives the same answer text for values, logs and every kind of failure', async () => {
    const before = pool.stats.byWorker;
    for (const [accountId, method, args] of cases) {
      const body = callBody(accountId, method, args);
      const inThread = await answer(body, false);
      const onWorker = await answer(body, true);
      assert.equal(onWorker, inThread, `${accountId} ${method}`);
    }
    assert.equal(pool.stats.byWorker - before, cases.length, 'every view ran on the worker');
  });

  it('answers many views in flight at once, each under its own request id', async () => {
    const bodies = Array.from({ length: 200 }, (_, k) =>
      callBody('hello.test.near', 'hello', JSON.stringify({ name: `n${k}` }), `r${k}`),
    );
    const inThread = await Promise.all(bodies.map((b) => answer(b, false)));
    ctx.viewWorkers = pool;
    const onWorker = await Promise.all(
      bodies.map(async (b) => {
        const a = handleJsonRpc(ctx, b);
        return (a instanceof Promise ? await a : a).body;
      }),
    );
    assert.deepEqual(onWorker, inThread);
  });

  it('runs on the worker a contract with over a thousand entries, its data sent once', async () => {
    const reads = pool.replicas.stats.reads;
    const byWorker = pool.stats.byWorker;
    const keys = [0, 1, 999, LARGE_ENTRIES - 1, LARGE_ENTRIES, 123_456];
    for (const k of [...keys, ...keys]) {
      const body = callBody('large.test.near', 'get', `k${k}`);
      const onWorker = await answer(body, true);
      assert.equal(onWorker, await answer(body, false), `get k${k}`);
      if (k < LARGE_ENTRIES) assert.ok(onWorker.includes(`"result":[${[...Buffer.from(`value ${k}`)]}]`));
      else assert.ok(onWorker.includes('HostError(GuestPanic { panic_msg: \\"gone\\" })'), onWorker);
    }
    assert.equal(pool.stats.byWorker - byWorker, 2 * keys.length, 'every view ran on the worker');
    assert.equal(pool.replicas.stats.reads - reads, 1, 'the data was read once');
  });

  it('never answers from a copy of data that changed since, and runs views before the copy in the thread', async () => {
    const get = (k: string, blockId?: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'query',
        params: {
          request_type: 'call_function',
          ...(blockId === undefined ? { finality: 'final' } : { block_id: blockId }),
          account_id: 'large.test.near',
          method_name: 'get',
          args_base64: b64(k),
        },
      });
    const first = await answer(get('k7'), true);
    assert.ok(first.includes(`"result":[${[...Buffer.from('value 7')]}]`));
    const before = ctx.chain.finalHeight('final');
    const reads = pool.replicas.stats.reads;
    const byWorker = pool.stats.byWorker;
    for (const [round, value] of ['changed once', 'changed twice'].entries()) {
      const patched = await handleJsonRpc(
        ctx,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'sandbox_patch_state',
          params: {
            records: [
              { Data: { account_id: 'large.test.near', data_key: b64('k7'), value: b64(value) } },
              { Data: { account_id: 'large.test.near', data_key: b64(`new${round}`), value: b64('new') } },
            ],
          },
        }),
      );
      assert.equal(patched.body, '{"jsonrpc":"2.0","result":{},"id":0}');
      ctx.producer.produce(3);
      // Every view at the new final block: the worker may only answer from data read at or after the change.
      for (let i = 0; i < 200; i++) {
        const k = i === 0 ? 'k7' : i === 1 ? `new${round}` : `k${i}`;
        const onWorker = await answer(get(k), true);
        assert.equal(onWorker, await answer(get(k), false), `${value}: get ${k}`);
        if (i === 0) assert.ok(onWorker.includes(`"result":[${[...Buffer.from(value)]}]`), onWorker);
      }
    }
    assert.equal(pool.replicas.stats.reads - reads, 2, 'the data was read again after each change');
    assert.ok(pool.stats.byWorker - byWorker > 300, 'the worker answered from the new copies');
    // A view at the block before the changes reads the data of that block.
    const old = await answer(get('k7', before), true);
    assert.equal(old, await answer(get('k7', before), false));
    assert.ok(old.includes(`"result":[${[...Buffer.from('value 7')]}]`), old);
  });

  it('answers as the RPC thread after a fast-forward of many heights and a change in the block after it', async () => {
    const body = callBody('large.test.near', 'get', 'k9');
    assert.equal(await answer(body, true), await answer(body, false));
    const forward = await handleJsonRpc(
      ctx,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'sandbox_fast_forward',
        params: { delta_height: 100 },
      }),
    );
    assert.equal(forward.body, '{"jsonrpc":"2.0","result":{},"id":0}');
    const patched = await handleJsonRpc(
      ctx,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'sandbox_patch_state',
        params: {
          records: [{ Data: { account_id: 'large.test.near', data_key: b64('k9'), value: b64('forward') } }],
        },
      }),
    );
    assert.equal(patched.body, '{"jsonrpc":"2.0","result":{},"id":0}');
    ctx.producer.produce(3);
    for (let i = 0; i < 100; i++) {
      const onWorker = await answer(body, true);
      assert.equal(onWorker, await answer(body, false));
      assert.ok(onWorker.includes(`"result":[${[...Buffer.from('forward')]}]`), onWorker);
    }
  });

  it('runs on the RPC thread a contract with more data than the copies may hold', async () => {
    const byWorker = pool.stats.byWorker;
    const read = callBody('big.test.near', 'read');
    const onWorker = await answer(read, true);
    assert.equal(onWorker, await answer(read, false));
    assert.match(onWorker, /"result":\[118,48\]/);
    assert.equal(pool.stats.byWorker, byWorker);
  });

  it('answers on the RPC thread the views of a worker that dies, and starts another', async () => {
    const bodies = Array.from({ length: 50 }, (_, k) =>
      callBody('hello.test.near', 'hello', JSON.stringify({ name: `d${k}` }), k),
    );
    const expected = await Promise.all(bodies.map((b) => answer(b, false)));
    ctx.viewWorkers = pool;
    const handedBack = pool.stats.handedBack;
    const answers = bodies.map((b) => handleJsonRpc(ctx, b));
    const internals = pool as unknown as { workers: Array<{ worker: { terminate(): Promise<number> } }> };
    await internals.workers[0].worker.terminate();
    const texts = await Promise.all(answers.map(async (a) => (a instanceof Promise ? await a : a).body));
    assert.deepEqual(texts, expected);
    assert.ok(pool.stats.handedBack > handedBack, 'views in flight came back to the RPC thread');
    await pool.warmUp();
    assert.equal(pool.readyWorkers, 1, 'a new worker took its place');
    const body = callBody('hello.test.near', 'hello', '{"name": "after"}');
    const byWorker = pool.stats.byWorker;
    assert.equal(await answer(body, true), await answer(body, false));
    assert.equal(pool.stats.byWorker, byWorker + 1);
  });

  it('sends the code again when the worker no longer holds it', async () => {
    const fresh = new ViewWorkerPool(1, {
      protocolVersion: ctx.chain.params.protocolVersion,
      chainId: ctx.chain.params.chainId,
      validatorStakes: ctx.chain.validatorStakes(),
    });
    try {
      await fresh.warmUp();
      const body = callBody('hello.test.near', 'hello', '{"name": "again"}');
      const expected = await answer(body, false);
      // As if the worker had been sent the code once and had dropped it from its cache since.
      const internals = fresh as unknown as { workers: Array<{ codes: Set<string> }> };
      internals.workers[0].codes.add(Buffer.from(sha256(HELLO)).toString('latin1'));
      ctx.viewWorkers = fresh;
      const a = handleJsonRpc(ctx, body);
      assert.equal((a instanceof Promise ? await a : a).body, expected);
      assert.equal(fresh.stats.byWorker, 1);
      assert.equal(fresh.stats.handedBack, 0);
    } finally {
      await fresh.close();
    }
  });
});
