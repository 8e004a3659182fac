/**
 * Unit tests of the TypeScript client. The server started here is a TEST DOUBLE of the agent API, written
 * only for the client's own unit tests: it implements the documented endpoints (`POST /api/agent/{getAccountId,
 * getBalance,view,call}`) and the Shadebox error shape with canned data. It is not the service
 * (packages/agent-api) and proves nothing about it; the end-to-end tests run the client against the real one.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  AgentApiError,
  AgentApiTimeoutError,
  AgentApiUnreachableError,
  agentAccountId,
  createAgentClient,
  defaultBaseUrl,
  payloadToHex,
  SignatureKeyType,
} from './index.js';

const ACCOUNT = 'a'.repeat(64);

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: unknown;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function apiError(res: ServerResponse, status: number, code: string, message: string, extra = {}): void {
  sendJson(res, status, { error: { code, message, ...extra } });
}

/** The test double: see the header comment. */
function startDouble(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        return apiError(res, 400, 'invalid_json', 'body is not JSON');
      }
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        contentType: req.headers['content-type'],
        body,
      });
      const path = (req.url ?? '').replace(/^\/api\/agent\//, '');
      if (!(req.url ?? '').startsWith('/api/agent/')) return apiError(res, 404, 'not_found', 'no such route');
      if (req.method !== 'POST') return apiError(res, 405, 'method_not_allowed', 'use POST');
      const b = (body ?? {}) as { methodName?: string; args?: Record<string, unknown>; gas?: string };
      switch (path) {
        case 'getAccountId':
          return sendJson(res, 200, { accountId: ACCOUNT });
        case 'getBalance':
          return sendJson(res, 200, { balance: '300000000000000000000000' });
        case 'view':
          if (b.methodName === 'get_agent') {
            if (b.args?.account_id !== ACCOUNT) {
              return apiError(res, 422, 'contract_panic', 'Smart contract panicked: no worker found');
            }
            return sendJson(res, 200, { codehash: 'c0de' });
          }
          if (b.methodName === 'echo') return sendJson(res, 200, { echoed: b.args });
          return apiError(res, 422, 'contract_panic', `MethodNotFound ${b.methodName}`);
        case 'call':
          if (b.methodName === 'request_signature') {
            const args = b.args as { path: string; payload: string; key_type: string };
            if (!/^[0-9a-f]{64}$/.test(args.payload)) {
              return apiError(res, 400, 'invalid_argument', 'payload must be 32 bytes hex', {
                field: 'args.payload',
              });
            }
            if (args.key_type === 'Eddsa') {
              return sendJson(res, 200, {
                scheme: 'Ed25519',
                signature: Array.from({ length: 64 }, (_, i) => i),
              });
            }
            return sendJson(res, 200, {
              scheme: 'Secp256k1',
              big_r: { affine_point: `03${'11'.repeat(32)}` },
              s: { scalar: '22'.repeat(32) },
              recovery_id: 0,
            });
          }
          if (b.methodName === 'void_method') {
            res.writeHead(200);
            return res.end();
          }
          return sendJson(res, 200, { called: b.methodName, args: b.args, gas: b.gas ?? null });
        case 'notReady':
          return apiError(res, 503, 'not_ready', 'agent is registering', { stage: 'register' });
        case 'plainText':
          res.writeHead(500, { 'content-type': 'text/plain' });
          return res.end('Internal Server Error');
        case 'legacy':
          return sendJson(res, 502, { error: 'upstream RPC failed' });
        case 'badJson':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('{not json');
        case 'slow':
          setTimeout(() => sendJson(res, 200, { late: true }), 2_000).unref();
          return;
        default:
          return apiError(res, 404, 'unknown_method', `${path} is not an agent API method`);
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/api/agent`, seen });
    });
  });
}

describe('agent API client (against a test double)', () => {
  let double: Awaited<ReturnType<typeof startDouble>>;
  before(async () => {
    double = await startDouble();
  });
  after(() => {
    double.server.closeAllConnections();
    double.server.close();
  });
  const last = () => double.seen.at(-1)!;

  it('agentAccountId posts {} with a JSON content type to /getAccountId', async () => {
    const client = createAgentClient({ baseUrl: double.url });
    assert.deepEqual(await client.agentAccountId(), { accountId: ACCOUNT });
    assert.equal(last().method, 'POST');
    assert.equal(last().url, '/api/agent/getAccountId');
    assert.equal(last().contentType, 'application/json');
    assert.deepEqual(last().body, {});
  });

  it('agentInfo views get_agent with the agent account id', async () => {
    const client = createAgentClient({ baseUrl: `${double.url}/` });
    const info = await client.agentInfo();
    assert.deepEqual(info, { codehash: 'c0de' });
    assert.equal(last().url, '/api/agent/view');
    assert.deepEqual(last().body, { methodName: 'get_agent', args: { account_id: ACCOUNT } });
  });

  it('agentView and agentCall send methodName, args and gas as a string', async () => {
    const client = createAgentClient({ baseUrl: double.url });
    assert.deepEqual(await client.agentView({ methodName: 'echo', args: { x: 1 } }), { echoed: { x: 1 } });
    assert.deepEqual(last().body, { methodName: 'echo', args: { x: 1 } });
    await client.agentView({ methodName: 'echo' });
    assert.deepEqual(last().body, { methodName: 'echo', args: {} });
    const called = await client.agentCall({ methodName: 'set', args: { v: 'a' }, gas: 30_000_000_000_000n });
    assert.deepEqual(called, { called: 'set', args: { v: 'a' }, gas: '30000000000000' });
    assert.deepEqual(last().body, { methodName: 'set', args: { v: 'a' }, gas: '30000000000000' });
    await client.agentCall({ methodName: 'set', args: {} });
    assert.deepEqual(last().body, { methodName: 'set', args: {} });
  });

  it('an empty 200 body resolves to undefined', async () => {
    const client = createAgentClient({ baseUrl: double.url });
    assert.equal(await client.agentCall({ methodName: 'void_method' }), undefined);
  });

  it('agentBalance posts {} to /getBalance', async () => {
    const client = createAgentClient({ baseUrl: double.url });
    assert.deepEqual(await client.agentBalance(), { balance: '300000000000000000000000' });
    assert.equal(last().url, '/api/agent/getBalance');
    assert.deepEqual(last().body, {});
  });

  it('requestSignature sends request_signature with key_type (default Ecdsa) and hex payloads', async () => {
    const client = createAgentClient({ baseUrl: double.url });
    const hex = 'ab'.repeat(32);
    const ecdsa = await client.requestSignature({ path: 'ethereum-1', payload: hex });
    assert.equal(ecdsa.scheme, 'Secp256k1');
    assert.equal(ecdsa.recovery_id, 0);
    assert.deepEqual(last().body, {
      methodName: 'request_signature',
      args: { path: 'ethereum-1', payload: hex, key_type: 'Ecdsa' },
    });
    const eddsa = await client.requestSignature({
      path: 'solana-1',
      payload: new Uint8Array(32).fill(0xab),
      keyType: SignatureKeyType.Eddsa,
    });
    assert.equal(eddsa.scheme, 'Ed25519');
    assert.equal(eddsa.signature.length, 64);
    assert.deepEqual(last().body, {
      methodName: 'request_signature',
      args: { path: 'solana-1', payload: hex, key_type: 'Eddsa' },
    });
    await client.requestSignature({ path: 'p', payload: `0x${hex}` });
    assert.equal((last().body as { args: { payload: string } }).args.payload, hex);
  });

  it('payloadToHex: bytes to lowercase hex, strings without 0x', () => {
    assert.equal(payloadToHex(Uint8Array.from([0, 1, 0xfe])), '0001fe');
    assert.equal(payloadToHex('0xABCD'), 'ABCD');
    assert.equal(payloadToHex('abcd'), 'abcd');
  });

  it('a non-2xx answer throws AgentApiError with status, code, message and field', async () => {
    const client = createAgentClient({ baseUrl: double.url });
    await assert.rejects(client.requestSignature({ path: 'p', payload: 'zz' }), (e: unknown) => {
      assert.ok(e instanceof AgentApiError);
      assert.equal(e.status, 400);
      assert.equal(e.code, 'invalid_argument');
      assert.equal(e.message, 'payload must be 32 bytes hex');
      assert.equal(e.field, 'args.payload');
      assert.equal(e.stage, undefined);
      return true;
    });
    await assert.rejects(client.agentView({ methodName: 'nope' }), (e: unknown) => {
      assert.ok(e instanceof AgentApiError);
      assert.equal(e.status, 422);
      assert.equal(e.code, 'contract_panic');
      return true;
    });
  });

  it('503 not ready carries the stage', async () => {
    const client = createAgentClient({ baseUrl: double.url });
    await assert.rejects(client.agent('notReady'), (e: unknown) => {
      assert.ok(e instanceof AgentApiError);
      assert.equal(e.status, 503);
      assert.equal(e.code, 'not_ready');
      assert.equal(e.stage, 'register');
      return true;
    });
  });

  it('unknown method → 404 AgentApiError; the method is URL-encoded', async () => {
    const client = createAgentClient({ baseUrl: double.url });
    await assert.rejects(client.agent('a/b'), (e: unknown) => {
      assert.ok(e instanceof AgentApiError);
      assert.equal(e.status, 404);
      return true;
    });
    assert.equal(last().url, '/api/agent/a%2Fb');
  });

  it('other error bodies: plain text, legacy {"error": string}, invalid JSON on 200', async () => {
    const client = createAgentClient({ baseUrl: double.url });
    await assert.rejects(client.agent('plainText'), (e: unknown) => {
      assert.ok(e instanceof AgentApiError);
      assert.equal(e.status, 500);
      assert.equal(e.code, 'http_500');
      assert.equal(e.message, 'Internal Server Error');
      return true;
    });
    await assert.rejects(client.agent('legacy'), (e: unknown) => {
      assert.ok(e instanceof AgentApiError);
      assert.equal(e.status, 502);
      assert.equal(e.code, 'http_502');
      assert.equal(e.message, 'upstream RPC failed');
      return true;
    });
    await assert.rejects(client.agent('badJson'), (e: unknown) => {
      assert.ok(e instanceof AgentApiError);
      assert.equal(e.status, 200);
      assert.equal(e.code, 'invalid_response');
      return true;
    });
  });

  it('a slow answer throws AgentApiTimeoutError after timeoutMs', async () => {
    const client = createAgentClient({ baseUrl: double.url, timeoutMs: 150 });
    await assert.rejects(client.agent('slow'), (e: unknown) => {
      assert.ok(e instanceof AgentApiTimeoutError);
      assert.equal(e.timeoutMs, 150);
      assert.match(e.url, /\/slow$/);
      return true;
    });
  });

  it('a caller signal aborts the call with its own reason', async () => {
    const client = createAgentClient({ baseUrl: double.url });
    const controller = new AbortController();
    const pending = client.agent('slow', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await assert.rejects(pending, /caller gave up/);
  });

  it('a closed port throws AgentApiUnreachableError', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const client = createAgentClient({ baseUrl: `http://127.0.0.1:${port}/api/agent`, timeoutMs: 5_000 });
    await assert.rejects(client.agentAccountId(), (e: unknown) => {
      assert.ok(e instanceof AgentApiUnreachableError);
      assert.match(e.message, /ECONNREFUSED/);
      return true;
    });
  });

  it('rejects a non-positive timeout', () => {
    assert.throws(() => createAgentClient({ baseUrl: double.url, timeoutMs: 0 }), RangeError);
  });

  it('base URL: AGENT_API_URL, else localhost with API_PORT or 3140', () => {
    assert.equal(defaultBaseUrl({}), 'http://localhost:3140/api/agent');
    assert.equal(defaultBaseUrl({ API_PORT: '4000' }), 'http://localhost:4000/api/agent');
    assert.equal(
      defaultBaseUrl({ AGENT_API_URL: 'http://shade-agent-api:3140/api/agent', API_PORT: '4000' }),
      'http://shade-agent-api:3140/api/agent',
    );
  });

  it('module-level functions read AGENT_API_URL at call time', async () => {
    const saved = process.env.AGENT_API_URL;
    process.env.AGENT_API_URL = double.url;
    try {
      assert.deepEqual(await agentAccountId(), { accountId: ACCOUNT });
    } finally {
      if (saved === undefined) delete process.env.AGENT_API_URL;
      else process.env.AGENT_API_URL = saved;
    }
  });
});
