/**
 * The agent API in dstack (TEE) mode end to end: a real node with chain signatures, a second agent contract
 * initialised with `requires_tee: true`, and the product's `@phala/dstack-sdk` client talking to a stand-in
 * dstack guest agent (HTTP on a Unix socket: /GetKey, /GetQuote, /Info) that issues structurally valid TDX
 * v4 quotes. Covers derive → fund → register → ready, the registration stored on chain, signatures under the
 * agent contract's derived key, the TEE key in the seed, no secret leaking, and recovery from an unapproved
 * image, a forged quote/tcb_info, a missing guest agent, plus the refusal of local registration.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type AgentApiConfig,
  loadAgentApiConfig,
  type RunningAgentApi,
  startAgentApi,
} from '@shadebox/agent-api';
import { readAgentWasm } from '@shadebox/contracts';
import { derivedPublicKey, najToSecp256k1PublicKey, recoverEcdsaPublicKey } from '@shadebox/mpc';
import { KeyPool, outcomeResult, viewFunction } from '@shadebox/near-client';
import { fullAccessKey, ONE_NEAR } from '@shadebox/primitives';
import { DSTACK_KEY_PATH } from '../packages/agent-api/src/tee/dstack.js';
import { type Chain, captureLogs, fnCall, ready, startChain, until } from './agent-stack-helpers.js';
import { testRandom } from './test-random.js';

const rng = testRandom('test/agent-api-dstack.test.ts');

const TEE_CONTRACT = 'tee-agent.test.near';
const API_IMAGE = 'a1'.repeat(32);
const APP_IMAGE = 'b2'.repeat(32);
type Json = ReturnType<typeof JSON.parse>;

// ---- the stand-in dstack guest agent ------------------------------------------------------------------

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const sha384 = (b: Buffer | string) => createHash('sha384').update(b).digest();

/** A TDX quote v4 as the agent contract parses it: 48-byte header, 584-byte TD report, signature data. */
function tdxQuote(reportData: Buffer, rtmr3: Buffer): Buffer {
  const header = Buffer.alloc(48);
  header.writeUInt16LE(4, 0); // version
  header.writeUInt16LE(2, 2); // attestation key type: ECDSA-256 with P-256
  header.writeUInt32LE(0x81, 4); // TEE type: TDX
  Buffer.from('939a7233f79c4ca9940a0db3957f0607', 'hex').copy(header, 12); // QE vendor id (Intel)
  const report = rng.bytes(584); // TCB SVN, MRSEAM, …: arbitrary
  // MRTD and RTMR0-2 as tcb_info claims them (the contract compares them).
  Buffer.alloc(48, 0xaa).copy(report, 136);
  for (const [i, at] of [328, 376, 424].entries()) Buffer.alloc(48, i + 1).copy(report, at);
  rtmr3.copy(report, 472);
  Buffer.concat([reportData, Buffer.alloc(64)]).copy(report, 520, 0, 64);
  const signature = rng.bytes(128);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(signature.length);
  return Buffer.concat([header, report, len, signature]);
}

interface GuestAgent {
  socket: string;
  /** What GetKey returns (hex). */
  key: Buffer;
  apiImage: string;
  appImage: string;
  /** Misbehaviour to check the contract refuses it. */
  forge?: 'report_data' | 'rtmr3' | 'compose_hash' | 'version' | 'unpinned';
  /** app_compose as the bare docker-compose text instead of dstack's app-compose.json. */
  plainCompose?: boolean;
  calls: Array<{ path: string; body: Json }>;
  /** Every quote issued, by the report_data (hex) asked for. */
  quotes: Map<string, Buffer>;
  listen(): Promise<void>;
  close(): Promise<void>;
}

function composeFile(g: GuestAgent): string {
  const yaml = [
    'services:',
    '  shade-agent-api:',
    '    #shade-agent-api-image',
    g.forge === 'unpinned'
      ? '    image: shadebox/agent-api:latest'
      : `    image: shadebox/agent-api@sha256:${g.apiImage}`,
    '    volumes: ["/var/run/dstack.sock:/var/run/dstack.sock"]',
    '  shade-agent-app:',
    '    #shade-agent-app-image',
    `    image: example/agent-app@sha256:${g.appImage}`,
    '',
  ].join('\n');
  if (g.plainCompose) return yaml;
  // tcb_info.app_compose is dstack's app-compose.json (the compose file inside it, JSON-escaped).
  return JSON.stringify({
    manifest_version: 2,
    name: 'shade-agent',
    runner: 'docker-compose',
    docker_compose_file: yaml,
    kms_enabled: true,
  });
}

function tcbInfo(g: GuestAgent): { tcb: Record<string, unknown>; rtmr3: Buffer } {
  const compose = composeFile(g);
  const composeHash = sha256(compose).toString('hex');
  const events = [
    ['app-id', 'ab'.repeat(20)],
    ['compose-hash', g.forge === 'compose_hash' ? 'f'.repeat(64) : composeHash],
    ['instance-id', 'cd'.repeat(20)],
    ['boot-mr-done', ''],
  ].map(([event, event_payload]) => ({
    imr: 3,
    event_type: 134217729,
    // dstack's runtime event digest: sha384(event type as u32 LE ‖ ':' ‖ event ‖ ':' ‖ payload bytes).
    digest: sha384(
      Buffer.concat([
        Buffer.from([1, 0, 0, 8]),
        Buffer.from(`:${event}:`),
        Buffer.from(event_payload, 'hex'),
      ]),
    ).toString('hex'),
    event,
    event_payload,
  }));
  // RTMR3 as dstack extends it: rtmr = sha384(rtmr ‖ digest).
  let rtmr3 = Buffer.alloc(48);
  for (const e of events) rtmr3 = sha384(Buffer.concat([rtmr3, Buffer.from(e.digest, 'hex')]));
  const tcb = {
    mrtd: 'aa'.repeat(48),
    rtmr0: '01'.repeat(48),
    rtmr1: '02'.repeat(48),
    rtmr2: '03'.repeat(48),
    rtmr3: (g.forge === 'rtmr3' ? Buffer.alloc(48, 7) : rtmr3).toString('hex'),
    compose_hash: composeHash,
    device_id: 'ee'.repeat(32),
    app_compose: compose,
    event_log: events,
  };
  return { tcb, rtmr3 };
}

function guestAgent(dir: string, name: string, key: Buffer = rng.bytes(32)): GuestAgent {
  let server: Server | undefined;
  const g: GuestAgent = {
    socket: join(dir, `${name}.sock`),
    key,
    apiImage: API_IMAGE,
    appImage: APP_IMAGE,
    calls: [],
    quotes: new Map(),
    listen() {
      server = createServer((req, res) => {
        let text = '';
        req.on('data', (c) => {
          text += c;
        });
        req.on('end', () => {
          const body = text ? JSON.parse(text) : {};
          g.calls.push({ path: req.url ?? '', body });
          let out: unknown;
          if (req.method !== 'POST') {
            res.writeHead(405).end();
            return;
          }
          if (req.url === '/GetKey') {
            out = { key: g.key.toString('hex'), signature_chain: ['00'.repeat(65), '11'.repeat(65)] };
          } else if (req.url === '/GetQuote') {
            const reportData = Buffer.from(String(body.report_data), 'hex');
            const { tcb, rtmr3 } = tcbInfo(g);
            const quote = tdxQuote(
              g.forge === 'report_data' ? Buffer.from('someone-else.near') : reportData,
              rtmr3,
            );
            if (g.forge === 'version') quote.writeUInt16LE(5, 0);
            g.quotes.set(String(body.report_data), quote);
            out = { quote: quote.toString('hex'), event_log: JSON.stringify(tcb.event_log), vm_config: '{}' };
          } else if (req.url === '/Info') {
            const { tcb } = tcbInfo(g);
            out = {
              app_id: 'ab'.repeat(20),
              instance_id: 'cd'.repeat(20),
              app_cert: '',
              tcb_info: JSON.stringify(tcb),
              app_name: 'shade-agent',
              device_id: 'ee'.repeat(32),
              compose_hash: tcb.compose_hash,
            };
          } else {
            res.writeHead(404).end();
            return;
          }
          const json = JSON.stringify(out);
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(json),
          });
          res.end(json);
        });
      });
      return new Promise((resolve) => server!.listen(g.socket, resolve));
    },
    close() {
      return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };
  return g;
}

// ---- chain and service helpers (as in agent-api-e2e) ----------------------------------------------------

/** The agent contract on a fresh account, initialised with requires_tee: true, owned by the root. */
async function deployTeeContract(chain: Chain): Promise<void> {
  const key = rng.keyPair();
  outcomeResult(
    await chain.owner.send(TEE_CONTRACT, [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: 10n * ONE_NEAR },
      { type: 'AddKey', publicKey: key.publicKey, accessKey: fullAccessKey() },
    ]),
  );
  const contract = new KeyPool(chain.rpc, TEE_CONTRACT, [key]);
  outcomeResult(
    await contract.send(TEE_CONTRACT, [
      { type: 'DeployContract', code: readAgentWasm() },
      fnCall('init', {
        owner_id: chain.root.accountId,
        mpc_contract_id: 'signer.test.near',
        requires_tee: true,
      }),
    ]),
  );
}

async function approve(chain: Chain, codehash: string): Promise<void> {
  outcomeResult(await chain.owner.send(TEE_CONTRACT, [fnCall('approve_codehash', { codehash })]));
}

describe('agent API in dstack mode against a node, the TEE agent contract and a stand-in guest agent', () => {
  let chain: Chain;
  let dir: string;
  const apis: RunningAgentApi[] = [];
  const guests: GuestAgent[] = [];
  const logs: string[] = [];
  const responses: string[] = [];
  const teeKeys: Buffer[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shadebox-dstack-'));
    chain = await startChain();
    await deployTeeContract(chain);
    await approve(chain, API_IMAGE);
    await approve(chain, APP_IMAGE);
  });
  after(async () => {
    for (const a of apis) await a.stop();
    for (const g of guests) await g.close();
    await chain?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function guest(name: string, key?: Buffer, listen = true): Promise<GuestAgent> {
    const g = guestAgent(dir, name, key);
    guests.push(g);
    teeKeys.push(g.key);
    if (listen) await g.listen();
    return g;
  }

  async function start(env: Record<string, string>): Promise<RunningAgentApi> {
    const cfg: AgentApiConfig = loadAgentApiConfig({
      CHAIN_ACCOUNT_ID: chain.root.accountId,
      CHAIN_ACCOUNT_SECRET_KEY: chain.root.secretKey,
      AGENT_CONTRACT_ID: TEE_CONTRACT,
      NEAR_RPC_URL: chain.node.rpcUrl,
      AGENT_API_PORT: '0',
      AGENT_KEY_POOL_SIZE: '2',
      AGENT_FUNDING_AMOUNT: '1',
      AGENT_API_RETRY_MAX_MS: '200',
      ...env,
    });
    const api = await startAgentApi(cfg, { log: captureLogs(logs).log });
    apis.push(api);
    return api;
  }

  const dstack = (g: GuestAgent) => start({ TEE_MODE: 'dstack', DSTACK_ENDPOINT: g.socket });

  async function post(api: RunningAgentApi, route: string, body?: unknown) {
    const r = await fetch(`${api.url}/${route}`, {
      method: 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    responses.push(text);
    return { status: r.status, text, json: JSON.parse(text) as Json };
  }

  async function health(api: RunningAgentApi): Promise<{ status: number; json: Json }> {
    const r = await fetch(`${api.url}/health`);
    const text = await r.text();
    responses.push(text);
    return { status: r.status, json: JSON.parse(text) };
  }

  async function assertStuck(api: RunningAgentApi, stage: string, error: RegExp): Promise<void> {
    await until(`${stage} failure ${error}`, () => {
      const s = api.status();
      return s.stage === stage && error.test(s.lastError ?? '');
    });
    assert.equal(api.status().ready, false);
    const h = await health(api);
    assert.equal(h.status, 503);
    assert.equal(h.json.stage, stage);
    const r = await post(api, 'getAccountId');
    assert.equal(r.status, 503, r.text);
    assert.equal(r.json.error.code, 'not_ready');
    assert.equal(r.json.error.stage, stage);
  }

  let first: { api: RunningAgentApi; guest: GuestAgent; accountId: string };

  it('boots derive → fund → register → ready with a TDX quote bound to the agent account', async () => {
    const g = await guest('happy');
    const api = await dstack(g);
    const stages = new Set<string>([api.status().stage]);
    const poll = setInterval(() => stages.add(api.status().stage), 2);
    const accountId = await ready(api).finally(() => clearInterval(poll));
    first = { api, guest: g, accountId };
    assert.ok(stages.has('derive'), [...stages].join());
    assert.match(accountId, /^[0-9a-f]{64}$/);
    assert.equal(api.status().accountId, accountId);
    for (const stage of ['derive', 'fund', 'register', 'ready']) {
      assert.ok(
        logs.some((l) => JSON.parse(l).message === `boot: ${stage}`),
        `log line boot: ${stage}`,
      );
    }

    // The guest agent was asked for the TEE key at DSTACK_KEY_PATH and a quote over the account id.
    const getKey = g.calls.filter((c) => c.path === '/GetKey');
    assert.equal(getKey.length, 1);
    assert.equal(getKey[0].body.path, DSTACK_KEY_PATH);
    const reportData = Buffer.from(accountId, 'utf8').toString('hex');
    const quotes = g.calls.filter((c) => c.path === '/GetQuote');
    assert.ok(quotes.length >= 1);
    for (const q of quotes) assert.equal(q.body.report_data, reportData);
    assert.ok(g.calls.some((c) => c.path === '/Info'));
    const quote = g.quotes.get(reportData)!;
    assert.equal(quote.subarray(568, 632).toString('utf8'), accountId);

    // On chain: the registration record is the quote's checksum and the app image digest.
    const expected = { checksum: sha256(quote).toString('hex'), codehash: APP_IMAGE };
    assert.deepEqual(
      await viewFunction(chain.rpc, TEE_CONTRACT, 'get_agent', { account_id: accountId }),
      expected,
    );
    const view = await post(api, 'view', { methodName: 'get_agent', args: { account_id: accountId } });
    assert.equal(view.status, 200, view.text);
    assert.deepEqual(view.json, expected);

    const h = await health(api);
    assert.equal(h.status, 200);
    assert.deepEqual(h.json, { status: 'ok', stage: 'ready', ready: true, accountId });
    const id = await post(api, 'getAccountId');
    assert.deepEqual(id.json, { accountId });
    const balance = await post(api, 'getBalance');
    assert.ok(
      BigInt(balance.json.balance) > ONE_NEAR / 2n && BigInt(balance.json.balance) <= ONE_NEAR,
      balance.text,
    );
  });

  it('signs through request_signature under the key derived for the TEE agent contract', async () => {
    const payload = Buffer.alloc(32, 0x42);
    const r = await post(first.api, 'call', {
      methodName: 'request_signature',
      args: { path: 'ethereum-1', payload: payload.toString('hex'), key_type: 'Ecdsa' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.scheme, 'Secp256k1');
    const derived = najToSecp256k1PublicKey(derivedPublicKey(chain.signerKey, TEE_CONTRACT, 'ethereum-1', 0));
    assert.deepEqual(recoverEcdsaPublicKey(r.json, payload), derived);
  });

  it('mixes the TEE key into the seed: another guest-agent key gives another account', async () => {
    const g = await guest('other', Buffer.alloc(32, 0x77));
    const api = await dstack(g);
    const accountId = await ready(api);
    assert.match(accountId, /^[0-9a-f]{64}$/);
    assert.notEqual(accountId, first.accountId);
    const record = (await viewFunction(chain.rpc, TEE_CONTRACT, 'get_agent', {
      account_id: accountId,
    })) as Json;
    assert.equal(
      record.checksum,
      sha256(g.quotes.get(Buffer.from(accountId).toString('hex'))!).toString('hex'),
    );
    assert.notEqual(
      record.checksum,
      ((await viewFunction(chain.rpc, TEE_CONTRACT, 'get_agent', { account_id: first.accountId })) as Json)
        .checksum,
    );
  });

  it('a too-short TEE key stays in derive, then derives once the guest agent answers properly', async () => {
    const g = await guest('short-key', Buffer.alloc(16, 1));
    const api = await dstack(g);
    await assertStuck(api, 'derive', /GetKey returned no key/);
    assert.equal(api.status().accountId, undefined);
    g.key = rng.bytes(32);
    teeKeys.push(g.key);
    await ready(api);
  });

  it('an unapproved app image stays in register with 503s, then registers once the owner approves it', async () => {
    const g = await guest('unapproved');
    const digest = 'c3'.repeat(32);
    g.appImage = digest;
    const api = await dstack(g);
    await assertStuck(api, 'register', new RegExp(`App image codehash ${digest} is not approved`));
    const accountId = api.status().accountId!;
    assert.match(accountId, /^[0-9a-f]{64}$/);
    await approve(chain, digest);
    assert.equal(await ready(api), accountId);
    const record = (await viewFunction(chain.rpc, TEE_CONTRACT, 'get_agent', {
      account_id: accountId,
    })) as Json;
    assert.equal(record.codehash, digest);
    assert.equal((await health(api)).status, 200);
  });

  it('the contract refuses forged quotes and tcb_info; registration succeeds once the quote is sound', async () => {
    const g = await guest('forger');
    g.forge = 'report_data';
    const api = await dstack(g);
    await assertStuck(api, 'register', /report_data does not match the caller/);
    g.forge = 'rtmr3';
    await assertStuck(api, 'register', /rtmr3 does not match the quote/);
    g.forge = 'compose_hash';
    await assertStuck(api, 'register', /compose-hash event does not match/);
    g.forge = 'unpinned';
    await assertStuck(
      api,
      'register',
      /image after `#shade-agent-api-image` is not pinned by @sha256 digest/,
    );
    g.forge = 'version';
    await assertStuck(api, 'register', /version 5, expected 4/);
    // An unpinned API image in a bare compose file (real newlines): the digest on the app image's line must
    // not count for it.
    g.forge = 'unpinned';
    g.plainCompose = true;
    await assertStuck(
      api,
      'register',
      /image after `#shade-agent-api-image` is not pinned by @sha256 digest/,
    );
    g.plainCompose = false;
    g.apiImage = 'd4'.repeat(32);
    g.forge = undefined;
    await assertStuck(api, 'register', /API image codehash d4d4\w+ is not approved/);
    g.apiImage = API_IMAGE;
    const accountId = await ready(api);
    const record = (await viewFunction(chain.rpc, TEE_CONTRACT, 'get_agent', {
      account_id: accountId,
    })) as Json;
    assert.equal(
      record.checksum,
      sha256(g.quotes.get(Buffer.from(accountId).toString('hex'))!).toString('hex'),
    );
  });

  it('without the guest agent socket it stays in derive, then boots once the guest agent starts', async () => {
    const g = await guest('late', undefined, false);
    const api = await dstack(g);
    await assertStuck(api, 'derive', /does not exist/);
    assert.equal(g.calls.length, 0);
    await g.listen();
    const accountId = await ready(api);
    assert.ok(g.calls.some((c) => c.path === '/GetKey'));
    assert.ok(
      g.calls.some(
        (c) => c.path === '/GetQuote' && c.body.report_data === Buffer.from(accountId).toString('hex'),
      ),
    );
  });

  it('a local-mode agent with an approved codehash is refused by the requires_tee contract', async () => {
    const api = await start({ TEE_MODE: 'local', AGENT_CODEHASH: APP_IMAGE });
    await assertStuck(api, 'register', /requires a TEE attestation/);
    const accountId = api.status().accountId!;
    await assert.rejects(
      viewFunction(chain.rpc, TEE_CONTRACT, 'get_agent', { account_id: accountId }),
      /no worker found/,
    );
  });

  it('no secret key or TEE key appears in logs or responses', () => {
    const all = [...logs, ...responses].join('\n');
    assert.ok(logs.length > 20 && responses.length > 10);
    const rootSecret = chain.root.secretKey;
    assert.ok(!all.includes(rootSecret.slice(rootSecret.indexOf(':') + 1)));
    assert.ok(!/ed25519:[1-9A-HJ-NP-Za-km-z]{80,}/.test(all), 'no ed25519 secret-key-shaped string');
    for (const key of teeKeys) assert.ok(!all.includes(key.toString('hex')), 'no TEE key');
  });
});
