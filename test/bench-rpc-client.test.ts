import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { RpcError } from '@shadebox/near-client';
import { PooledRpcClient } from '../bench/rpc.js';

test("the benchmark's pooled client posts JSON-RPC on its pool and reads results and errors", async () => {
  const seen: Array<{
    method?: string;
    url?: string;
    type?: string;
    body: { method: string; params: unknown };
  }> = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(text);
      seen.push({ method: req.method, url: req.url, type: req.headers['content-type'], body });
      res.setHeader('content-type', 'application/json');
      if (body.method === 'fails') {
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body.id,
            error: {
              code: -32601,
              message: 'Method not found',
              name: 'HANDLER_ERROR',
              cause: { name: 'METHOD_NOT_FOUND', info: {} },
            },
          }),
        );
      } else {
        res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { echoed: body.params } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new PooledRpcClient(`http://127.0.0.1:${port}/rpc?x=1`, 2);
  try {
    assert.deepEqual(await client.call('block', { finality: 'final' }), { echoed: { finality: 'final' } });
    await assert.rejects(client.call('fails', []), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.causeName, 'METHOD_NOT_FOUND');
      return true;
    });
    const both = await Promise.all([client.call('a', [1]), client.call('b', [2])]);
    assert.deepEqual(both, [{ echoed: [1] }, { echoed: [2] }]);
    assert.equal(seen.length, 4);
    for (const request of seen) {
      assert.equal(request.method, 'POST');
      assert.equal(request.url, '/rpc?x=1');
      assert.equal(request.type, 'application/json');
    }
    assert.deepEqual(
      seen.map((request) => request.body.method),
      ['block', 'fails', 'a', 'b'],
    );
  } finally {
    await client.close();
    server.close();
  }
});
