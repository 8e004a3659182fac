/**
 * The node's in-process JSON-RPC (`RunningNode.fetch`): the same answers as its RPC port, a transaction sent
 * through it is pooled before the call returns to the event loop, and after `stop()` the 503 the port gives; a
 * wait ends when the caller's signal aborts, as `fetch` ends.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { silentLogger } from './logger.js';
import { startNode } from './start-node.js';

const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

test('answers as the RPC port does, and with the 503 once the node stops', async () => {
  const node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
  try {
    for (const request of [
      { jsonrpc: '2.0', id: 'a', method: 'block', params: { finality: 'final' } },
      {
        jsonrpc: '2.0',
        id: 'b',
        method: 'query',
        params: { request_type: 'view_account', finality: 'final', account_id: 'test.near' },
      },
      { jsonrpc: '2.0', id: 'c', method: 'no_such_method', params: {} },
      { jsonrpc: '2.0', id: 'd', method: 'block', params: { block_id: 99_999 } },
    ]) {
      const overHttp = await fetch(node.rpcUrl, post(request));
      const inProcess = await node.fetch(node.rpcUrl, post(request));
      const withWorkers = await node.fetchWithViewWorkers(node.rpcUrl, post(request));
      assert.equal(inProcess.status, overHttp.status, request.method);
      assert.equal(withWorkers.status, overHttp.status, request.method);
      const expected = await overHttp.json();
      assert.deepEqual(await inProcess.json(), expected, request.method);
      assert.deepEqual(await withWorkers.json(), expected, request.method);
    }
    // An aborted signal is honoured before anything runs.
    await assert.rejects(
      node.fetch(node.rpcUrl, {
        ...post({ jsonrpc: '2.0', id: 'e', method: 'status', params: [] }),
        signal: AbortSignal.abort(),
      }),
    );
  } finally {
    await node.stop();
  }
  const late = await node.fetch(
    node.rpcUrl,
    post({ jsonrpc: '2.0', id: 'f', method: 'block', params: { finality: 'final' } }),
  );
  assert.equal(late.status, 503);
  assert.equal((await late.json()).id, 'f');
});

test('a wait asked in process ends when its signal aborts, as fetch ends', async () => {
  const node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
  try {
    for (const inProcessFetch of [node.fetch, node.fetchWithViewWorkers]) {
      const controller = new AbortController();
      // An unknown transaction awaited to FINAL: the node waits for it until its own timeout.
      const waiting = inProcessFetch(node.rpcUrl, {
        ...post({
          jsonrpc: '2.0',
          id: 'w',
          method: 'tx',
          params: { tx_hash: '1'.repeat(32), sender_account_id: 'test.near', wait_until: 'FINAL' },
        }),
        signal: controller.signal,
      });
      setImmediate(() => controller.abort(new Error('the caller stopped waiting')));
      await assert.rejects(waiting, /the caller stopped waiting/);
    }
  } finally {
    await node.stop();
  }
});
