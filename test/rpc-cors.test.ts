/**
 * CORS on the node's RPC: open to every origin, as nearcore's default `cors_allowed_origins: ["*"]`, with the
 * headers sent only to requests that carry an Origin (as actix-cors answers).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';

describe('CORS', () => {
  let node: RunningNode;
  before(async () => {
    node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
  });
  after(() => node.stop());

  const status = (headers: Record<string, string>) =>
    fetch(node.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: [] }),
    });

  it('answers a request with an Origin with the allow-origin header', async () => {
    const res = await status({ origin: 'http://localhost:5173' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    await res.arrayBuffer();
  });

  it('sends no CORS headers to a request without an Origin', async () => {
    const res = await status({});
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    await res.arrayBuffer();
  });

  it('answers a preflight with 204 and the allowed methods and headers', async () => {
    const res = await fetch(node.rpcUrl, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /content-type/);
  });
});
