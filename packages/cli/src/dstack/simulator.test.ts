/**
 * The simulated guest agent on a Unix socket, asked through the agent API's dstack provider (the product's
 * @phala/dstack-sdk client) and directly: quotes bind the report data, tcb_info replays to the quote's RTMR3
 * and names the compose file, keys are deterministic per path, everything says simulated.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DSTACK_KEY_PATH, dstackProvider } from '../../../agent-api/src/tee/dstack.js';
import { appComposeOf } from './app-compose.js';
import { deriveKey } from './derive-key.js';
import { type EventLogEntry, replayRtmr, runtimeDigestsHold } from './event-log.js';
import { type RunningDstackServer, startDstackServer } from './server.js';
import { DEFAULT_PPID, DstackSimulator } from './simulator.js';
import { decodeTdxQuote } from './tdx-quote.js';

type Json = ReturnType<typeof JSON.parse>;

const COMPOSE = `services:
  shade-agent-api:
    #shade-agent-api-image
    image: shadebox-agent-api@sha256:${'a1'.repeat(32)}
  shade-agent-app:
    #shade-agent-app-image
    image: example/app@sha256:${'b2'.repeat(32)}
`;

function call(socket: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socket, path, method: 'POST' }, (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body === undefined ? '' : JSON.stringify(body));
  });
}

describe('shadebox dstack: the simulated guest agent', () => {
  let dir: string;
  let socket: string;
  let sim: DstackSimulator;
  let server: RunningDstackServer;
  const ppid = Buffer.from('0f'.repeat(16), 'hex');
  const mrtd = Buffer.alloc(48, 0x11);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shadebox-dstack-sim-'));
    socket = join(dir, 'dstack.sock');
    sim = new DstackSimulator({ composeText: COMPOSE, ppid, mrtd, keyProvider: '{"name":"kms","id":"00"}' });
    // A stale socket file (a killed simulator's) is replaced.
    writeFileSync(socket, '');
    server = await startDstackServer(sim, socket);
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registration arguments through the agent API provider: a quote over the account, a tcb_info that replays to it', async () => {
    const account = 'cd'.repeat(32);
    const args = await dstackProvider(socket).registrationArgs(account, undefined);
    const quote = Buffer.from(String(args.quote_hex), 'hex');
    assert.equal(args.checksum, createHash('sha256').update(quote).digest('hex'));
    const q = decodeTdxQuote(quote);
    assert.equal(q.simulated, true);
    assert.equal(q.reportData.toString('utf8'), account);
    assert.deepEqual(q.mrtd, mrtd);
    assert.deepEqual(q.ppid, ppid);
    const tcb = JSON.parse(String(args.tcb_info));
    assert.equal(tcb.simulated, true);
    const log = tcb.event_log as EventLogEntry[];
    assert.equal(runtimeDigestsHold(log), true);
    assert.equal(replayRtmr(log, 3).toString('hex'), q.rtmr3.toString('hex'));
    assert.equal(tcb.rtmr3, q.rtmr3.toString('hex'));
    assert.equal(tcb.mrtd, mrtd.toString('hex'));
    // The compose-hash event names sha256 of the app-compose.json holding FILE.
    const { text, composeHash } = appComposeOf(COMPOSE);
    assert.equal(tcb.app_compose, text);
    assert.equal(JSON.parse(text).docker_compose_file, COMPOSE);
    assert.equal(composeHash, createHash('sha256').update(text).digest('hex'));
    const events = new Map(log.map((e) => [e.event, e.event_payload]));
    assert.equal(events.get('compose-hash'), composeHash);
    assert.equal(events.get('app-id'), composeHash.slice(0, 40));
    assert.equal(Buffer.from(events.get('key-provider')!, 'hex').toString(), '{"name":"kms","id":"00"}');
    assert.deepEqual(
      log.map((e) => e.event),
      [
        'system-preparing',
        'app-id',
        'compose-hash',
        'instance-id',
        'boot-mr-done',
        'os-image-hash',
        'key-provider',
        'system-ready',
      ],
    );
  });

  it('GetQuote answers the SDK fields, pads report data to 64 bytes and says simulated', async () => {
    const r = await call(socket, '/GetQuote', { report_data: 'abcd' });
    assert.equal(r.status, 200);
    assert.equal(r.json.simulated, true);
    assert.equal(r.json.report_data, `abcd${'00'.repeat(62)}`);
    assert.deepEqual(JSON.parse(r.json.event_log), sim.eventLog);
    assert.equal(
      decodeTdxQuote(Buffer.from(r.json.quote, 'hex')).reportData.toString('hex'),
      r.json.report_data,
    );
    const bad = await call(socket, '/GetQuote', { report_data: 'zz' });
    assert.equal(bad.status, 400);
    assert.match(bad.json.error, /report_data: expected a hex string/);
    const long = await call(socket, '/GetQuote', { report_data: '00'.repeat(65) });
    assert.match(long.json.error, /at most 64 bytes/);
  });

  it('GetKey: deterministic per path from the root key, another path another key; the provider mixes it', async () => {
    const a = await call(socket, '/GetKey', { path: 'p', purpose: 'x' });
    const b = await call(socket, '/GetKey', { path: 'p', purpose: 'y' });
    const c = await call(socket, '/GetKey', { path: 'q' });
    assert.equal(a.json.key, b.json.key);
    assert.notEqual(a.json.key, c.json.key);
    assert.equal(a.json.key.length, 64);
    assert.deepEqual(a.json.signature_chain, []);
    assert.equal(a.json.simulated, true);
    const other = new DstackSimulator({ composeText: COMPOSE, rootKey: Buffer.alloc(32, 7) });
    assert.notEqual(other.getKey({ path: 'p' }).key, a.json.key);
    assert.equal(
      deriveKey(Buffer.alloc(32, 7), other.appId, 'p').toString('hex'),
      other.getKey({ path: 'p' }).key,
    );
    const random = Buffer.alloc(32, 3);
    const key = Buffer.from((await call(socket, '/GetKey', { path: DSTACK_KEY_PATH })).json.key, 'hex');
    const seed = await dstackProvider(socket).agentSeed(random);
    assert.deepEqual(Buffer.from(seed), createHash('sha256').update(random).update(key).digest());
  });

  it('Info, Version and EmitEvent (which extends RTMR3); unknown methods are 404', async () => {
    const info = await call(socket, '/Info');
    assert.equal(info.json.simulated, true);
    assert.equal(info.json.compose_hash, sim.compose.composeHash);
    assert.equal(info.json.device_id, createHash('sha256').update(ppid).digest('hex'));
    assert.equal(JSON.parse(info.json.tcb_info).rtmr3, sim.rtmr3.toString('hex'));
    assert.match((await call(socket, '/Version')).json.version, /simulated/);
    const before = sim.rtmr3;
    assert.equal((await call(socket, '/EmitEvent', { event: 'app-ready', payload: '01' })).status, 200);
    assert.notDeepEqual(sim.rtmr3, before);
    const q = await call(socket, '/GetQuote', { report_data: '' });
    assert.deepEqual(decodeTdxQuote(Buffer.from(q.json.quote, 'hex')).rtmr3, sim.rtmr3);
    assert.equal((await call(socket, '/Attest', {})).status, 404);
    assert.equal((await call(socket, '/GetKey', { path: 1 })).status, 400);
  });

  it('refuses a socket another simulator serves; takes an app-compose.json as it is', async () => {
    await assert.rejects(startDstackServer(sim, socket), /is in use by another process/);
    const manifest = JSON.stringify({ runner: 'docker-compose', docker_compose_file: COMPOSE, name: 'x' });
    const s = new DstackSimulator({ composeText: manifest });
    assert.equal(s.compose.text, manifest);
    assert.deepEqual(s.ppid, DEFAULT_PPID);
  });
});
