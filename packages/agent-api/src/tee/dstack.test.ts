/**
 * The dstack provider through @phala/dstack-sdk against a stand-in guest agent: an HTTP server on a Unix
 * socket answering dstack's documented calls (POST /GetKey {path, purpose} → {key, signature_chain},
 * /GetQuote {report_data} → {quote, event_log}, /Info → {tcb_info (JSON string), …}).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadAgentApiConfig } from '../config.js';
import { DSTACK_KEY_PATH, dstackProvider } from './dstack.js';
import { localProvider } from './local.js';

const TEE_KEY = Buffer.alloc(32, 0x5a);
const TCB = { mrtd: 'aa', rtmr3: 'bb', event_log: [], app_compose: '{}' };

describe('dstack provider (stand-in guest agent on a Unix socket)', () => {
  let dir: string;
  let socket: string;
  let server: Server;
  const calls: Array<{ path: string; body: Record<string, unknown> }> = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dstack-'));
    socket = join(dir, 'dstack.sock');
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => {
        const body = text ? JSON.parse(text) : {};
        calls.push({ path: req.url ?? '', body });
        let out: unknown;
        if (req.url === '/GetKey') out = { key: TEE_KEY.toString('hex'), signature_chain: [] };
        else if (req.url === '/GetQuote') {
          const quote = Buffer.concat([Buffer.from('quote:'), Buffer.from(String(body.report_data), 'hex')]);
          out = { quote: quote.toString('hex'), event_log: '[]' };
        } else if (req.url === '/Info') out = { app_id: 'x', tcb_info: JSON.stringify(TCB) };
        else {
          res.writeHead(404).end();
          return;
        }
        const json = JSON.stringify(out);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
        res.end(json);
      });
    });
    await new Promise<void>((r) => server.listen(socket, r));
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('TEE_MODE=auto picks dstack when DSTACK_ENDPOINT exists', () => {
    const c = loadAgentApiConfig({
      CHAIN_ACCOUNT_ID: 'test.near',
      CHAIN_ACCOUNT_SECRET_KEY:
        'ed25519:3D4YudUahN1nawWogh8pAKSj92sUNMdbZGjn7kERKzYoTy8tnFQuwoGUC51DowKqorvkr2pytJSnwuSbsNVfqygr',
      AGENT_CONTRACT_ID: 'agent.test.near',
      NEAR_RPC_URL: 'http://127.0.0.1:3030',
      DSTACK_ENDPOINT: socket,
    });
    assert.equal(c.teeMode, 'dstack');
    assert.equal(c.codehash, undefined);
  });

  it('mixes the randomness with the TEE key: sha256(random ‖ key)', async () => {
    const tee = dstackProvider(socket);
    const random = Buffer.alloc(32, 1);
    const seed = await tee.agentSeed(random);
    assert.deepEqual(Buffer.from(seed), createHash('sha256').update(random).update(TEE_KEY).digest());
    const getKey = calls.find((c) => c.path === '/GetKey');
    assert.equal(getKey?.body.path, DSTACK_KEY_PATH);
    assert.notDeepEqual(Buffer.from(await localProvider().agentSeed(random)), Buffer.from(seed));
  });

  it('registers with a quote over the account id, its checksum, collateral and tcb_info', async () => {
    const tee = dstackProvider(socket);
    const accountId = 'ab'.repeat(32);
    const args = await tee.registrationArgs(accountId, undefined);
    const quote = Buffer.from(String(args.quote_hex), 'hex');
    assert.equal(quote.subarray(6).toString('utf8'), accountId);
    assert.equal(args.checksum, createHash('sha256').update(quote).digest('hex'));
    assert.equal(args.collateral, '{}');
    assert.deepEqual(JSON.parse(String(args.tcb_info)), TCB);
    assert.equal(tee.isRegistered({ codehash: 'x', checksum: args.checksum }, args), true);
    assert.equal(tee.isRegistered({ codehash: 'x' }, args), false);
  });

  it('fails (to be retried) when the socket is missing', async () => {
    const tee = dstackProvider(join(dir, 'missing.sock'));
    await assert.rejects(tee.agentSeed(Buffer.alloc(32)));
  });
});
