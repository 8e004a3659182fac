/**
 * The dstack registration path end to end against the built-in v1 agent contract, with the local dstack
 * (`shadebox dstack`'s simulated guest agent, packages/cli/src/dstack): the agent API in TEE_MODE=dstack
 * registers through it; the contract refuses a quote whose report data is another account's, a tcb_info whose
 * compose hash is not the quote's (another app_compose, a changed compose-hash event, a forged event log that
 * does not replay to the quote's RTMR3) and an image digest (codehash) that is not approved.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadAgentApiConfig, type RunningAgentApi, startAgentApi } from '@shadebox/agent-api';
import {
  DstackSimulator,
  decodeTdxQuote,
  type EventLogEntry,
  type RunningDstackServer,
  runtimeEvent,
  startDstackServer,
} from '@shadebox/cli/dstack';
import { readAgentWasm } from '@shadebox/contracts';
import { KeyPool, outcomeResult, viewFunction } from '@shadebox/near-client';
import { fullAccessKey, ONE_NEAR } from '@shadebox/primitives';
import { dstackProvider } from '../packages/agent-api/src/tee/dstack.js';
import { type Chain, captureLogs, fnCall, ready, startChain } from './agent-stack-helpers.js';
import { testRandom } from './test-random.js';

const rng = testRandom('test/dstack-registration.test.ts');
const CONTRACT = 'dstack-agent.test.near';
const API_IMAGE = 'a1'.repeat(32);
const APP_IMAGE = 'b2'.repeat(32);
const UNAPPROVED = 'c3'.repeat(32);
type Json = ReturnType<typeof JSON.parse>;
type Args = Record<string, string>;

function compose(api: string, app: string, extra = ''): string {
  return [
    'services:',
    '  shade-agent-api:',
    '    #shade-agent-api-image',
    `    image: shadebox-agent-api@sha256:${api}`,
    '    volumes: ["/var/run/dstack.sock:/var/run/dstack.sock"]',
    '  shade-agent-app:',
    '    #shade-agent-app-image',
    `    image: example/agent-app@sha256:${app}`,
    extra,
    '',
  ].join('\n');
}

describe('dstack registration against the built-in agent contract, through the local dstack', () => {
  let chain: Chain;
  let dir: string;
  const servers: RunningDstackServer[] = [];
  let api: RunningAgentApi | undefined;
  let caller: { accountId: string; pool: KeyPool };

  async function serve(name: string, composeText: string): Promise<{ sim: DstackSimulator; socket: string }> {
    const sim = new DstackSimulator({ composeText, ppid: rng.bytes(16) });
    const socket = join(dir, `${name}.sock`);
    servers.push(await startDstackServer(sim, socket));
    return { sim, socket };
  }

  /** register_agent sent by `caller` with these arguments: resolves, or rejects with the contract's panic. */
  async function register(args: Args): Promise<unknown> {
    return outcomeResult(await caller.pool.send(CONTRACT, [fnCall('register_agent', args)]));
  }

  const tcbOf = (args: Args) => JSON.parse(args.tcb_info) as Json;
  const withTcb = (args: Args, tcb: Json): Args => ({ ...args, tcb_info: JSON.stringify(tcb) });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shadebox-dstack-reg-'));
    chain = await startChain();
    const key = rng.keyPair();
    outcomeResult(
      await chain.owner.send(CONTRACT, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 10n * ONE_NEAR },
        { type: 'AddKey', publicKey: key.publicKey, accessKey: fullAccessKey() },
      ]),
    );
    outcomeResult(
      await new KeyPool(chain.rpc, CONTRACT, [key]).send(CONTRACT, [
        { type: 'DeployContract', code: readAgentWasm() },
        fnCall('init', {
          owner_id: chain.root.accountId,
          mpc_contract_id: 'signer.test.near',
          requires_tee: true,
        }),
      ]),
    );
    for (const codehash of [API_IMAGE, APP_IMAGE])
      outcomeResult(await chain.owner.send(CONTRACT, [fnCall('approve_codehash', { codehash })]));
    const callerKey = rng.keyPair();
    const accountId = 'caller.test.near';
    outcomeResult(
      await chain.owner.send(accountId, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 5n * ONE_NEAR },
        { type: 'AddKey', publicKey: callerKey.publicKey, accessKey: fullAccessKey() },
      ]),
    );
    caller = { accountId, pool: new KeyPool(chain.rpc, accountId, [callerKey]) };
  });
  after(async () => {
    await api?.stop();
    for (const s of servers) await s.close();
    await chain?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the agent API in dstack mode registers with the simulated quote; the record is its checksum and the app image', async () => {
    const { sim, socket } = await serve('agent', compose(API_IMAGE, APP_IMAGE));
    const logs: string[] = [];
    api = await startAgentApi(
      loadAgentApiConfig({
        CHAIN_ACCOUNT_ID: chain.root.accountId,
        CHAIN_ACCOUNT_SECRET_KEY: chain.root.secretKey,
        AGENT_CONTRACT_ID: CONTRACT,
        NEAR_RPC_URL: chain.node.rpcUrl,
        AGENT_API_PORT: '0',
        AGENT_FUNDING_AMOUNT: '1',
        TEE_MODE: 'dstack',
        DSTACK_ENDPOINT: socket,
      }),
      { log: captureLogs(logs).log },
    );
    const accountId = await ready(api);
    const record = (await viewFunction(chain.rpc, CONTRACT, 'get_agent', { account_id: accountId })) as Json;
    assert.equal(record.codehash, APP_IMAGE);
    // The checksum is a quote of this simulator's over the account id.
    const again = await dstackProvider(socket).registrationArgs(accountId, undefined);
    assert.equal(record.checksum, again.checksum);
    const q = decodeTdxQuote(Buffer.from(String(again.quote_hex), 'hex'));
    assert.equal(q.simulated, true);
    assert.equal(q.reportData.toString('utf8'), accountId);
    assert.deepEqual(q.rtmr3, sim.rtmr3);
    // The agent signs through the contract it registered with.
    const r = await fetch(`${api.url}/call`, {
      method: 'POST',
      body: JSON.stringify({
        methodName: 'request_signature',
        args: { path: 'eth-1', payload: '42'.repeat(32), key_type: 'Ecdsa' },
      }),
    });
    assert.equal(r.status, 200, await r.clone().text());
    assert.equal(((await r.json()) as Json).scheme, 'Secp256k1');
  });

  it('refuses a quote whose report data is another account', async () => {
    const { socket } = await serve('report-data', compose(API_IMAGE, APP_IMAGE));
    const args = await dstackProvider(socket).registrationArgs('someone-else.test.near', undefined);
    await assert.rejects(register(args as Args), /Invalid TDX quote: report_data does not match the caller/);
  });

  it('refuses a tcb_info whose compose hash is not the quote’s: another app_compose, a changed event, a forged log', async () => {
    const { socket } = await serve('compose', compose(API_IMAGE, APP_IMAGE));
    const args = (await dstackProvider(socket).registrationArgs(caller.accountId, undefined)) as Args;
    const other = new DstackSimulator({ composeText: compose(API_IMAGE, APP_IMAGE, '    # another app') });

    // Another app_compose (its images approved too) under this quote's event log.
    const swapped = { ...tcbOf(args), app_compose: other.compose.text };
    await assert.rejects(
      register(withTcb(args, swapped)),
      /tcb_info: the compose-hash event does not match sha256\(app_compose\)/,
    );

    // The compose-hash event's payload changed to the other compose's hash, its digest left as it was.
    const log = tcbOf(args).event_log as EventLogEntry[];
    const changed = log.map((e) =>
      e.event === 'compose-hash' ? { ...e, event_payload: other.compose.composeHash } : e,
    );
    await assert.rejects(
      register(withTcb(args, { ...tcbOf(args), app_compose: other.compose.text, event_log: changed })),
      /tcb_info: the digest of event `compose-hash` does not match its payload/,
    );

    // A consistent log for the other compose (digests recomputed, claimed rtmr3 dropped): it does not replay to
    // the quote's RTMR3.
    const forged = log.map((e) =>
      e.event === 'compose-hash'
        ? runtimeEvent('compose-hash', Buffer.from(other.compose.composeHash, 'hex'))
        : e,
    );
    const { rtmr3: _claimed, ...rest } = tcbOf(args);
    await assert.rejects(
      register(withTcb(args, { ...rest, app_compose: other.compose.text, event_log: forged })),
      /tcb_info: the event log does not replay to the quote's RTMR3/,
    );

    // A claimed RTMR3 other than the quote's.
    await assert.rejects(
      register(withTcb(args, { ...tcbOf(args), rtmr3: '07'.repeat(48) })),
      /tcb_info: rtmr3 does not match the quote/,
    );
    await assert.rejects(
      viewFunction(chain.rpc, CONTRACT, 'get_agent', { account_id: caller.accountId }),
      /no worker found/,
    );
  });

  it('refuses an app or API image digest (codehash) that is not approved, then accepts the sound quote', async () => {
    const app = await serve('app-image', compose(API_IMAGE, UNAPPROVED));
    const appArgs = await dstackProvider(app.socket).registrationArgs(caller.accountId, undefined);
    await assert.rejects(
      register(appArgs as Args),
      new RegExp(`App image codehash ${UNAPPROVED} is not approved`),
    );
    const apiImage = await serve('api-image', compose(UNAPPROVED, APP_IMAGE));
    const apiArgs = await dstackProvider(apiImage.socket).registrationArgs(caller.accountId, undefined);
    await assert.rejects(
      register(apiArgs as Args),
      new RegExp(`API image codehash ${UNAPPROVED} is not approved`),
    );

    const { socket } = await serve('sound', compose(API_IMAGE, APP_IMAGE));
    const args = (await dstackProvider(socket).registrationArgs(caller.accountId, undefined)) as Args;
    assert.equal(await register(args), true);
    const checksum = createHash('sha256').update(Buffer.from(args.quote_hex, 'hex')).digest('hex');
    assert.deepEqual(await viewFunction(chain.rpc, CONTRACT, 'get_agent', { account_id: caller.accountId }), {
      checksum,
      codehash: APP_IMAGE,
    });
  });
});
