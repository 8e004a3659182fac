/**
 * The agent API end to end against a real node with chain signatures (signer.test.near + agent.test.near and the
 * MPC responder): boot stages, the HTTP routes and their errors, ECDSA signatures verified under the key
 * derived for the agent contract, 50 concurrent /call, no secret in responses or logs, and boot failures
 * that recover once fixed (funding account missing or underfunded, codehash not approved, RPC down).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  type AgentApiConfig,
  loadAgentApiConfig,
  type RunningAgentApi,
  startAgentApi,
} from '@shadebox/agent-api';
import { readAgentWasm } from '@shadebox/contracts';
import { derivedPublicKey, najToSecp256k1PublicKey, recoverEcdsaPublicKey } from '@shadebox/mpc';
import { KeyPool, outcomeResult } from '@shadebox/near-client';
import { fullAccessKey, type KeyPair, ONE_NEAR } from '@shadebox/primitives';
import { type Chain, captureLogs, fnCall, ready, startChain, until } from './agent-stack-helpers.js';
import { freePort } from './support/free-port.js';
import { testRandom } from './test-random.js';

const rng = testRandom('test/agent-api-e2e.test.ts');

const CODEHASH = 'c'.repeat(64);
type Json = ReturnType<typeof JSON.parse>;

async function approve(chain: Chain, codehash: string): Promise<void> {
  outcomeResult(await chain.owner.send('agent.test.near', [fnCall('approve_codehash', { codehash })]));
}

async function createAccount(chain: Chain, accountId: string, key: KeyPair, amount: bigint): Promise<void> {
  outcomeResult(
    await chain.owner.send(accountId, [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: amount },
      { type: 'AddKey', publicKey: key.publicKey, accessKey: fullAccessKey() },
    ]),
  );
}

function config(
  chain: { node: { rpcUrl: string } } | string,
  env: Record<string, string> = {},
): AgentApiConfig {
  const cfg = loadAgentApiConfig({
    CHAIN_ACCOUNT_ID: 'test.near',
    AGENT_CONTRACT_ID: 'agent.test.near',
    NEAR_RPC_URL: typeof chain === 'string' ? chain : chain.node.rpcUrl,
    AGENT_CODEHASH: CODEHASH,
    AGENT_API_PORT: '0',
    TEE_MODE: 'local',
    AGENT_KEY_POOL_SIZE: '10',
    AGENT_FUNDING_AMOUNT: '5',
    ...env,
  });
  return { ...cfg, retryInitialMs: 50, retryMaxMs: 300 };
}

async function post(api: RunningAgentApi, route: string, body?: unknown, init: RequestInit = {}) {
  const r = await fetch(`${api.url}/${route}`, {
    method: 'POST',
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, json: JSON.parse(text) as Json };
}

/** One raw HTTP/1.1 exchange on a new connection (`Connection: close`): status, headers and body. */
function rawRequest(port: number, head: string[], body: string) {
  return new Promise<{ status: number; headers: Map<string, string>; body: string }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = new Map(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      let rest = text.slice(split + 4);
      if (headers.get('transfer-encoding') === 'chunked') {
        let out = '';
        for (;;) {
          const eol = rest.indexOf('\r\n');
          const size = Number.parseInt(rest.slice(0, eol), 16);
          if (!size) break;
          out += rest.slice(eol + 2, eol + 2 + size);
          rest = rest.slice(eol + 4 + size);
        }
        rest = out;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest });
    });
    // The server closes the connection after its answer (`Connection: close`).
    socket.write(`${head.join('\r\n')}\r\nConnection: close\r\n\r\n${body}`);
  });
}

function assertError(r: { status: number; json: Json }, status: number, code: string, field?: string) {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.equal(r.json.error.code, code, JSON.stringify(r.json));
  assert.equal(typeof r.json.error.message, 'string');
  if (field) assert.equal(r.json.error.field, field);
}

describe('agent API against a node with chain signatures', () => {
  let chain: Chain;
  let api: RunningAgentApi;
  let logs: string[];
  const responses: string[] = [];
  const seen: string[] = [];

  before(async () => {
    chain = await startChain();
    await approve(chain, CODEHASH);
    const c = captureLogs();
    logs = c.lines;
    // The first URL has nothing listening: every request fails over to the node.
    const dead = await freePort();
    api = await startAgentApi(
      config(chain, {
        CHAIN_ACCOUNT_SECRET_KEY: chain.root.secretKey,
        NEAR_RPC_URL: `http://127.0.0.1:${dead},${chain.node.rpcUrl}`,
      }),
      { log: c.log },
    );
    const stages = new Set<string>();
    const poll = setInterval(() => stages.add(api.status().stage), 5);
    await api.onReady();
    clearInterval(poll);
    stages.add(api.status().stage);
    seen.push(...stages);
  });
  after(async () => {
    await api?.stop();
    await chain?.stop();
  });

  const p = async (route: string, body?: unknown, init?: RequestInit) => {
    const r = await post(api, route, body, init);
    responses.push(r.text);
    return r;
  };

  it('boots through its stages and serves on 127.0.0.1 under /api/agent', async () => {
    assert.match(api.url, /^http:\/\/127\.0\.0\.1:\d+\/api\/agent$/);
    const status = api.status();
    assert.equal(status.stage, 'ready');
    assert.equal(status.ready, true);
    assert.match(status.accountId!, /^[0-9a-f]{64}$/);
    assert.ok(seen.includes('ready'));
    const health = await fetch(`${api.url}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), {
      status: 'ok',
      stage: 'ready',
      ready: true,
      accountId: status.accountId,
    });
    // The same answer at the port's root, for probes that know only the port.
    const root = await fetch(new URL('/health', api.url));
    assert.equal(root.status, 200);
    assert.deepEqual(await root.json(), {
      status: 'ok',
      stage: 'ready',
      ready: true,
      accountId: status.accountId,
    });
    assert.ok(logs.some((l) => l.includes('boot: fund')));
    assert.ok(logs.some((l) => l.includes('boot: register')));
  });

  it('getAccountId, getBalance and view get_agent', async () => {
    const id = await p('getAccountId');
    assert.equal(id.status, 200);
    assert.deepEqual(id.json, { accountId: api.status().accountId });
    // Any content type, or none, and {} are the same.
    assert.deepEqual(
      (await p('getAccountId', '{}', { headers: { 'content-type': 'text/plain' } })).json,
      id.json,
    );
    const balance = await p('getBalance', {});
    assert.equal(balance.status, 200);
    assert.match(balance.json.balance, /^\d+$/);
    const b = BigInt(balance.json.balance);
    assert.ok(b > ONE_NEAR && b < 5n * ONE_NEAR, balance.text);
    const agent = await p('view', { methodName: 'get_agent', args: { account_id: id.json.accountId } });
    assert.equal(agent.status, 200);
    assert.deepEqual(agent.json, { codehash: CODEHASH });
  });

  it('call request_signature returns the signature under the key derived for the agent contract', async () => {
    const payload = Buffer.alloc(32, 9);
    const r = await p('call', {
      methodName: 'request_signature',
      args: { path: 'ethereum-1', payload: payload.toString('hex'), key_type: 'Ecdsa' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.scheme, 'Secp256k1');
    const derived = najToSecp256k1PublicKey(
      derivedPublicKey(chain.signerKey, 'agent.test.near', 'ethereum-1', 0),
    );
    assert.deepEqual(recoverEcdsaPublicKey(r.json, payload), derived);
  });

  it('a contract panic is 422 with the panic message', async () => {
    const r = await p('view', { methodName: 'get_agent', args: { account_id: 'nobody.test.near' } });
    assertError(r, 422, 'contract_panic');
    assert.equal(r.json.error.message, 'no worker found');
    const c = await p('call', {
      methodName: 'register_agent',
      args: { codehash: 'f'.repeat(64) },
      gas: '30000000000000',
    });
    assertError(c, 422, 'contract_panic');
  });

  it('answers every error with one JSON shape', async () => {
    assertError(await p('view', '{"methodName":'), 400, 'invalid_json');
    assertError(await p('view', '[1]'), 400, 'invalid_body');
    assertError(await p('view', { args: {} }), 400, 'invalid_field', 'methodName');
    assertError(await p('view', { methodName: 'get_agent', args: [1] }), 400, 'invalid_field', 'args');
    assertError(await p('call', { methodName: 'x', gas: '1000000000000001' }), 400, 'invalid_field', 'gas');
    assertError(await p('call', { methodName: 'x', gas: 'abc' }), 400, 'invalid_field', 'gas');
    assertError(
      await p('view', { methodName: 'x', contractId: 'signer.test.near' }),
      403,
      'contract_not_allowed',
      'contractId',
    );
    assertError(
      await p('call', { methodName: 'x', contractId: 'signer.test.near' }),
      403,
      'contract_not_allowed',
      'contractId',
    );
    assertError(await p('nope'), 404, 'not_found');
    assertError(await post(api, '../../x'), 404, 'not_found');
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    assertError(await p('view', `{"methodName":"get_agent","args":{"a":${deep}}}`), 400, 'too_deep');
    const big = await p(
      'view',
      JSON.stringify({ methodName: 'get_agent', args: { a: 'x'.repeat(1024 * 1024 + 10) } }),
    );
    assertError(big, 413, 'body_too_large');
    const get = await fetch(`${api.url}/call`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal((await get.json()).error.code, 'method_not_allowed');
    const postHealth = await fetch(`${api.url}/health`, { method: 'POST' });
    assert.equal(postHealth.status, 405);
    assert.equal(postHealth.headers.get('allow'), 'GET, HEAD');
    // No CORS headers unless configured.
    const r = await fetch(`${api.url}/getAccountId`, {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
    });
    assert.equal(r.headers.get('access-control-allow-origin'), null);
    const openapi = await fetch(`${api.url}/openapi.json`);
    assert.equal(openapi.status, 200);
    assert.match((await openapi.json()).openapi, /^3\./);
  });

  it('answers the same on the fast path and through node:http', async () => {
    // A Content-Length body is answered straight off the socket; a chunked one goes to node:http.
    const fast = (path: string, body: string) =>
      rawRequest(
        api.port,
        [`POST ${path} HTTP/1.1`, 'Host: x', `Content-Length: ${Buffer.byteLength(body)}`],
        body,
      );
    const chunked = (path: string, body: string) =>
      rawRequest(
        api.port,
        [`POST ${path} HTTP/1.1`, 'Host: x', 'Transfer-Encoding: chunked'],
        body ? `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n` : '0\r\n\r\n',
      );
    const cases: Array<[string, string]> = [
      ['/api/agent/getAccountId', ''],
      ['/api/agent/view', '{"methodName":'],
      [
        '/api/agent/view',
        JSON.stringify({ methodName: 'get_agent', args: { account_id: api.status().accountId } }),
      ],
      ['/api/agent/call', JSON.stringify({ methodName: 'x', contractId: 'signer.test.near' })],
    ];
    for (const [path, body] of cases) {
      const a = await fast(path, body);
      const b = await chunked(path, body);
      assert.equal(a.status, b.status, `${path} ${body}`);
      assert.deepEqual(JSON.parse(a.body), JSON.parse(b.body), `${path} ${body}`);
      for (const name of ['content-type', 'cache-control', 'retry-after', 'access-control-allow-origin']) {
        assert.equal(a.headers.get(name), b.headers.get(name), `${name} of ${path}`);
      }
    }
  });

  it('a view of a method the contract lacks is 404 method_not_found', async () => {
    assertError(
      await p('view', { methodName: 'no_such_method', args: {} }),
      404,
      'method_not_found',
      'methodName',
    );
  });

  it('serves 50 concurrent /call request_signature', async () => {
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        p('call', {
          methodName: 'request_signature',
          args: { path: `p-${i}`, payload: Buffer.alloc(32, i + 1).toString('hex'), key_type: 'Ecdsa' },
        }),
      ),
    );
    for (const r of results) assert.equal(r.status, 200, r.text);
    for (const r of results) assert.equal(r.json.scheme, 'Secp256k1');
    console.log(`50 concurrent /call in ${Date.now() - started} ms`);
  });

  it('no secret key appears in responses or logs', () => {
    const rootSecret = chain.root.secretKey;
    const body = rootSecret.slice(rootSecret.indexOf(':') + 1);
    const all = [...responses, ...logs].join('\n');
    assert.ok(!all.includes(body));
    assert.ok(!/ed25519:[1-9A-HJ-NP-Za-km-z]{80,}/.test(all), 'no ed25519 secret-key-shaped string');
  });
});

describe('agent API boot failures recover when fixed', () => {
  let chain: Chain;
  const apis: RunningAgentApi[] = [];
  before(async () => {
    chain = await startChain();
  });
  after(async () => {
    for (const a of apis) await a.stop();
    await chain?.stop();
  });

  it('an unapproved codehash stays in register with 503s, then registers once approved', async () => {
    const codehash = 'd'.repeat(64);
    const api = await startAgentApi(
      config(chain, { CHAIN_ACCOUNT_SECRET_KEY: chain.root.secretKey, AGENT_CODEHASH: codehash }),
      {
        log: captureLogs().log,
      },
    );
    apis.push(api);
    await until(
      'register failures',
      () => api.status().stage === 'register' && api.status().lastError !== undefined,
    );
    const health = await fetch(`${api.url}/health`);
    assert.equal(health.status, 503);
    assert.equal((await health.json()).stage, 'register');
    const r = await post(api, 'getAccountId');
    assertError(r, 503, 'not_ready');
    assert.equal(r.json.error.stage, 'register');
    await approve(chain, codehash);
    assert.equal(await ready(api), api.status().accountId);
  });

  it('a missing funding account stays in fund, then funds once it exists', async () => {
    const key = rng.keyPair();
    const api = await startAgentApi(
      config(chain, {
        CHAIN_ACCOUNT_ID: 'funder.test.near',
        AGENT_FUNDING_AMOUNT: '0.3',
        CHAIN_ACCOUNT_SECRET_KEY: key.toString(),
        AGENT_CODEHASH: 'd'.repeat(64),
      }),
      { log: captureLogs().log },
    );
    apis.push(api);
    await until('fund failure', () => /does not exist/.test(api.status().lastError ?? ''));
    assert.equal(api.status().stage, 'fund');
    assert.ok(!api.status().lastError!.includes(key.toString()));
    await createAccount(chain, 'funder.test.near', key, 5n * ONE_NEAR);
    await ready(api);
  });

  it('an underfunded account stays in fund, then funds once topped up', async () => {
    const key = rng.keyPair();
    await createAccount(chain, 'poor.test.near', key, ONE_NEAR / 10n);
    const api = await startAgentApi(
      config(chain, {
        CHAIN_ACCOUNT_ID: 'poor.test.near',
        AGENT_FUNDING_AMOUNT: '0.3',
        CHAIN_ACCOUNT_SECRET_KEY: key.toString(),
        AGENT_CODEHASH: 'd'.repeat(64),
      }),
      { log: captureLogs().log },
    );
    apis.push(api);
    await until('fund failure', () => /cannot spend/.test(api.status().lastError ?? ''));
    assert.equal(api.status().stage, 'fund');
    outcomeResult(await chain.owner.send('poor.test.near', [{ type: 'Transfer', deposit: ONE_NEAR }]));
    await ready(api);
  });

  it('a missing agent contract stays in register, then registers once it is deployed', async () => {
    const api = await startAgentApi(
      config(chain, {
        CHAIN_ACCOUNT_SECRET_KEY: chain.root.secretKey,
        AGENT_CONTRACT_ID: 'late-agent.test.near',
      }),
      { log: captureLogs().log },
    );
    apis.push(api);
    await until(
      'register failure',
      () => api.status().stage === 'register' && api.status().lastError !== undefined,
    );
    assert.match(api.status().lastError!, /does not exist/);
    assert.equal((await fetch(`${api.url}/health`)).status, 503);

    // Deploy and initialise the agent contract there (init comes from the contract account itself).
    const key = rng.keyPair();
    await createAccount(chain, 'late-agent.test.near', key, 10n * ONE_NEAR);
    const contract = new KeyPool(chain.rpc, 'late-agent.test.near', [key]);
    outcomeResult(
      await contract.send('late-agent.test.near', [
        { type: 'DeployContract', code: readAgentWasm() },
        fnCall('init', {
          owner_id: chain.root.accountId,
          mpc_contract_id: 'signer.test.near',
          requires_tee: false,
        }),
      ]),
    );
    outcomeResult(
      await chain.owner.send('late-agent.test.near', [fnCall('approve_codehash', { codehash: CODEHASH })]),
    );
    await ready(api);
  });
});

describe('agent API with the RPC down, then up', () => {
  let chain: Chain | undefined;
  let api: RunningAgentApi | undefined;
  after(async () => {
    await api?.stop();
    await chain?.stop();
  });

  it('reports the stage and recovers when a node starts', async () => {
    const port = await freePort();
    const { lines, log } = captureLogs();
    const rootKey = rng.keyPair();
    // The node's genesis key is unknown before it starts: give the service a key and add it afterwards.
    api = await startAgentApi(
      config(`http://127.0.0.1:${port}`, { CHAIN_ACCOUNT_SECRET_KEY: rootKey.toString() }),
      { log },
    );
    await until('RPC failure', () => /no RPC endpoint answered/.test(api!.status().lastError ?? ''));
    assert.equal(api.status().stage, 'fund');
    const r = await post(api, 'getBalance');
    assertError(r, 503, 'not_ready');
    chain = await startChain(port);
    outcomeResult(
      await chain.owner.send('test.near', [
        { type: 'AddKey', publicKey: rootKey.publicKey, accessKey: fullAccessKey() },
      ]),
    );
    await approve(chain, CODEHASH);
    await ready(api, 40_000);
    assert.ok(lines.some((l) => l.includes('failed, retrying')));
    assert.ok(!lines.join('\n').includes(rootKey.toString()));
  });
});
