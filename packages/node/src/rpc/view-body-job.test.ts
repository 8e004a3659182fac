/**
 * Whole `call_function` request bodies answered by a view worker (view-body-job.ts, `ViewWorkerPool.runBody`)
 * are byte for byte the answers of the RPC's own thread, and every body the worker cannot answer exactly is
 * handed back and answered by the RPC's thread: other methods and request types, parse errors, `block_id`, the
 * legacy form, accounts without a route, and views after the head moved (the worker never answers from the
 * routes of an older head).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { createInMemoryRpcContext } from './in-memory-context.js';
import { handleJsonRpc } from './jsonrpc.js';
import { bodyView, routeKey, type ViewRoute } from './view-body-job.js';
import { ViewWorkerPool } from './view-worker-pool.js';

const HELLO = readFileSync(createRequire(import.meta.url).resolve('near-hello/dist/main.wasm'));
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

function callBody(
  accountId: string,
  method: string,
  args: string,
  id: unknown = 1,
  ref: object = {},
): string {
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
      ...ref,
    },
  });
}

describe('request bodies answered whole by a view worker', { timeout: 300_000 }, () => {
  const ctx = createInMemoryRpcContext({ blocks: 1 });
  const pool = new ViewWorkerPool(1, {
    protocolVersion: ctx.chain.params.protocolVersion,
    chainId: ctx.chain.params.chainId,
    validatorStakes: ctx.chain.validatorStakes(),
  });

  const settle = async (a: ReturnType<typeof handleJsonRpc>) => (a instanceof Promise ? await a : a);

  /** The RPC thread's own answer (no worker). */
  async function inThread(body: string) {
    ctx.viewWorkers = undefined;
    return settle(handleJsonRpc(ctx, body));
  }

  /** The answer through the RPC's thread with the pool (which gives the worker its routes). */
  async function throughRpc(body: string) {
    ctx.viewWorkers = pool;
    return settle(handleJsonRpc(ctx, body));
  }

  /** The answer of the body sent whole; undefined when the pool did not take it. */
  async function whole(body: string) {
    ctx.viewWorkers = pool;
    const sent = pool.runBody(ctx.chain, body, () => handleJsonRpc(ctx, body));
    return sent === undefined ? undefined : await sent;
  }

  const patch = async (records: unknown[]) => {
    const patched = await inThread(
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'sandbox_patch_state', params: { records } }),
    );
    assert.equal(patched.body, '{"jsonrpc":"2.0","result":{},"id":0}');
  };

  before(async () => {
    const amount = '10000000000000000000000000';
    await patch([
      { Account: { account_id: 'hello.test.near', account: { amount, locked: '0' } } },
      { Contract: { account_id: 'hello.test.near', code: b64(HELLO) } },
      { Account: { account_id: 'other.test.near', account: { amount, locked: '0' } } },
      { Contract: { account_id: 'other.test.near', code: b64(HELLO) } },
    ]);
    ctx.producer.produce(4);
    await pool.warmUp();
    assert.equal(pool.readyWorkers, 1, 'the worker started');
  });

  after(() => pool.close());

  it('takes no body before a view of the head gave the worker a route', async () => {
    assert.equal(await whole(callBody('hello.test.near', 'hello', '{"name": "a"}')), undefined);
  });

  it('answers bodies of a routed finality and account as the RPC thread does, under each request id', async () => {
    const first = callBody('hello.test.near', 'hello', '{"name": "first"}');
    assert.equal((await throughRpc(first)).body, (await inThread(first)).body);
    const byWorker = pool.stats.byWorker;
    const handedBack = pool.stats.handedBack;
    const ids: unknown[] = [2, 'text "quoted" é', null, { nested: [1, 'two'] }, 1.5, -7, true];
    const bodies = [
      ...ids.map((id, i) => callBody('hello.test.near', 'hello', JSON.stringify({ name: `n${i}` }), id)),
      callBody('hello.test.near', 'getValue', '{}'),
      callBody('hello.test.near', 'no_such_method', ''),
      callBody('hello.test.near', 'setValue', '{"value": "refused in a view"}'),
      // The same request three times: the third from the worker's read cache (it keeps repeated requests').
      callBody('hello.test.near', 'hello', '{"name": "again"}', 'x'),
      callBody('hello.test.near', 'hello', '{"name": "again"}', 'y'),
      callBody('hello.test.near', 'hello', '{"name": "again"}', 'w'),
      // Keys in another order and spaces: the same request to serde.
      ` { "params": {"args_base64": "${b64('{"name":"z"}')}", "method_name": "hello", "account_id": "hello.test.near", "finality": "final", "request_type": "call_function"}, "method": "query", "id": 9, "jsonrpc": "2.0" } `,
    ];
    for (const body of bodies) {
      const answer = await whole(body);
      assert.ok(answer, body);
      assert.deepEqual(answer, await inThread(body), body);
    }
    assert.equal(pool.stats.byWorker - byWorker, bodies.length, 'the worker answered every body');
    assert.equal(pool.stats.handedBack, handedBack);
  });

  it('hands back every body it cannot answer exactly, which then gets the RPC thread answer', async () => {
    const handedBack = pool.stats.handedBack;
    const view = callBody('hello.test.near', 'hello', '{"name": "r"}');
    const bodies = [
      // Other finalities, blocks and accounts than the routed ones.
      callBody('hello.test.near', 'hello', '{}', 1, { finality: 'optimistic' }),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'query',
        params: {
          request_type: 'call_function',
          block_id: ctx.chain.finalHeight('final'),
          account_id: 'hello.test.near',
          method_name: 'hello',
          args_base64: b64('{}'),
        },
      }),
      callBody('other.test.near', 'hello', '{}'),
      callBody('missing.test.near', 'hello', '{}'),
      // Parse errors and shapes that are not a call_function request.
      view.replace('"args_base64"', '"args"'),
      view.replace(/"args_base64":"[^"]*"/, '"args_base64":"not base64!"'),
      view.replace('"final"', '"finalish"'),
      view.replace('"jsonrpc":"2.0"', '"jsonrpc":"2.0","extra":1'),
      view.replace('"method":"query"', '"method":"block"'),
      view.slice(0, -1),
      `${'['.repeat(200)}"call_function"${']'.repeat(200)}`,
      // The plain form of the params with an id nested past serde's limit, and with a value that is not a string.
      callBody('hello.test.near', 'hello', '{}', JSON.parse(`${'['.repeat(130)}${']'.repeat(130)}`)),
      view.replace('"method_name":"hello"', '"method_name":5'),
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'query', params: ['call/hello.test.near/hello', ''] }),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'query',
        params: { request_type: 'view_account', finality: 'final', account_id: 'hello.test.near' },
      }),
    ];
    for (const body of bodies) {
      const answer = await whole(body);
      assert.ok(answer, body);
      assert.deepEqual(answer, await inThread(body), body);
    }
    assert.equal(pool.stats.handedBack - handedBack, bodies.length, 'every body came back to the RPC thread');
  });

  it('never answers from the routes of an older head', async () => {
    const body = callBody('hello.test.near', 'getValue', '{}', 'v');
    assert.equal((await throughRpc(body)).body, (await inThread(body)).body);
    assert.ok(await whole(body), 'routed at this head');
    // A new value in new blocks: the head moved, so the pool takes no body until a view routes the new head.
    await patch([{ Data: { account_id: 'hello.test.near', data_key: b64('STATE'), value: b64('new') } }]);
    ctx.producer.produce(3);
    assert.equal(await whole(body), undefined);
    const expected = await inThread(body);
    assert.equal((await throughRpc(body)).body, expected.body);
    assert.deepEqual(await whole(body), expected);
  });
});

describe('bodyView', () => {
  const routes = new Map<string, ViewRoute>([
    [routeKey(1, 'final', 'kv.test.near'), { target: 3, dataVersion: 4 }],
  ]);
  const envelope = (params: object, id: unknown = 'a') =>
    JSON.stringify({ jsonrpc: '2.0', id, method: 'query', params });
  const plain = {
    request_type: 'call_function',
    finality: 'final',
    account_id: 'kv.test.near',
    method_name: 'get',
    args_base64: b64('key'),
  };

  it('reads the plain form of the params, in any key order, to the view the general reader gives', () => {
    const expected = {
      route: { target: 3, dataVersion: 4 },
      method: 'get',
      args: new Uint8Array(Buffer.from('key')),
      id: 'a',
      cacheKey: `1\u0000final\u0000kv.test.near\u0000get\u0000${b64('key')}`,
    };
    assert.deepEqual(bodyView(envelope(plain), 1, routes), expected);
    const reversed = Object.fromEntries(Object.entries(plain).reverse());
    assert.deepEqual(bodyView(envelope(reversed), 1, routes), expected);
    // Not the plain form (an unknown key, read by the general reader as serde reads it): the same view, same key.
    assert.deepEqual(bodyView(envelope({ ...plain, unknown: [1] }), 1, routes), expected);
  });

  it('gives no view for another chain, finality or account, bad arguments, or a body nested too deep', () => {
    assert.equal(bodyView(envelope(plain), 2, routes), undefined, 'another chain');
    assert.equal(bodyView(envelope({ ...plain, finality: 'optimistic' }), 1, routes), undefined);
    assert.equal(bodyView(envelope({ ...plain, finality: 'Final' }), 1, routes), undefined);
    assert.equal(bodyView(envelope({ ...plain, account_id: 'other.test.near' }), 1, routes), undefined);
    assert.equal(bodyView(envelope({ ...plain, args_base64: '%%%' }), 1, routes), undefined);
    assert.equal(bodyView(envelope({ ...plain, request_type: 'view_account' }), 1, routes), undefined);
    const deepId = JSON.parse(`${'['.repeat(130)}${']'.repeat(130)}`);
    assert.equal(bodyView(envelope(plain, deepId), 1, routes), undefined, 'past the nesting limit');
    assert.deepEqual(bodyView(envelope(plain, [[1]]), 1, routes)?.id, [[1]], 'a shallow array id');
  });
});
