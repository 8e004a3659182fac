/**
 * The built-in 2.0 agent contract with `requires_tee: true` on a real node, through real transactions, with
 * attestations from the local dstack (`shadebox dstack`'s simulated guest agent on a Unix socket) built by the
 * agent API's dstack provider in ShadeClient's shape: a registration whose quote, measurements and PPID are
 * approved is accepted, and every refusal has its case (report data of another account, each of MRTD, RTMR0-2,
 * the key-provider digest and the compose hash unapproved, an unapproved PPID, malformed quotes, a tcb_info that
 * does not match the quote, a malformed collateral, a caller that is not an implicit account). The agent API
 * in dstack mode registers in it with no whitelist; in local mode it says that the contract requires a TEE.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type DstackAttestation2, loadAgentApiConfig, startAgentApi } from '@shadebox/agent-api';
import {
  DstackSimulator,
  type RunningDstackServer,
  runtimeEvent,
  startDstackServer,
} from '@shadebox/cli/dstack';
import { readAgentV2Wasm } from '@shadebox/contracts';
import { KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import { dstackProvider } from '../packages/agent-api/src/tee/dstack.js';
import { captureLogs, ready, until } from './agent-stack-helpers.js';
import type { Json } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { createAccount, type Signer, sendTx } from './support/transactions.js';

const SEVEN_DAYS_MS = '604800000';
const REGISTER_DEPOSIT = 5_000_000_000_000_000_000_000n;
const COMPOSE = [
  'services:',
  '  shade-agent-api:',
  '    image: shadebox-agent-api@sha256:' + 'a1'.repeat(32),
  '    volumes: ["/var/run/dstack.sock:/var/run/dstack.sock"]',
  '',
].join('\n');

const panicked = (msg: string) => ({
  Failure: {
    ActionError: {
      index: 0,
      kind: { FunctionCallError: { ExecutionError: `Smart contract panicked: ${msg}` } },
    },
  },
});
const failed = (reason: string) => panicked(`Attestation verification failed: ${reason}`);
const flipped = (hex: string) => (hex[0] === 'f' ? '0' : 'f') + hex.slice(1);
const clone = (a: DstackAttestation2): DstackAttestation2 => structuredClone(a);

describe('the built-in 2.0 agent contract with requires_tee: attestations from the local dstack', () => {
  let t: TestNode;
  let owner: Signer;
  let contract: Signer;
  let named: Signer;
  let dir: string;
  let server: RunningDstackServer;
  let sim: DstackSimulator;
  let attestation2: (accountId: string) => Promise<DstackAttestation2>;
  /** The simulator's measurements, as the owner approves them. */
  let measurements: {
    rtmrs: { mrtd: string; rtmr0: string; rtmr1: string; rtmr2: string };
    key_provider_event_digest: string;
    app_compose_hash_payload: string;
  };
  let ppid: string;
  const agents: Signer[] = [];

  async function call(from: Signer, method: string, args: unknown, deposit = 0n): Promise<Json> {
    return sendTx(t.url, {
      signerId: from.accountId,
      key: from.key,
      receiverId: contract.accountId,
      actions: [
        {
          type: 'FunctionCall',
          methodName: method,
          args: Buffer.from(JSON.stringify(args)),
          gas: 300n * TGAS,
          deposit,
        },
      ],
    });
  }
  const register = async (from: Signer, attestation: unknown) =>
    (await call(from, 'register_agent', { attestation }, REGISTER_DEPOSIT)).status;
  const ownerCall = async (method: string, args: unknown) =>
    assert.deepEqual((await call(owner, method, args)).status, { SuccessValue: '' }, method);

  async function view(method: string, args: unknown = {}): Promise<Json> {
    const r = await rpc(t.url, 'query', {
      request_type: 'call_function',
      finality: 'optimistic',
      account_id: contract.accountId,
      method_name: method,
      args_base64: Buffer.from(JSON.stringify(args)).toString('base64'),
    });
    return JSON.parse(Buffer.from(r.result).toString());
  }

  async function implicitAgent(): Promise<Signer> {
    const key = KeyPair.fromRandom();
    const accountId = Buffer.from(key.publicKey.data).toString('hex');
    await sendTx(t.url, {
      signerId: owner.accountId,
      key: owner.key,
      receiverId: accountId,
      actions: [{ type: 'Transfer', deposit: 5n * ONE_NEAR }],
    });
    return { accountId, key };
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shadebox-v2-tee-'));
    sim = new DstackSimulator({ composeText: COMPOSE });
    server = await startDstackServer(sim, join(dir, 'dstack.sock'));
    const provider = dstackProvider(join(dir, 'dstack.sock'));
    attestation2 = (accountId) => provider.attestation2!(accountId);
    measurements = {
      rtmrs: {
        mrtd: sim.mrtd.toString('hex'),
        rtmr0: sim.rtmr0.toString('hex'),
        rtmr1: sim.rtmr1.toString('hex'),
        rtmr2: sim.rtmr2.toString('hex'),
      },
      key_provider_event_digest: sim.eventLog.find((e) => e.event === 'key-provider')!.digest,
      app_compose_hash_payload: sim.compose.composeHash,
    };
    ppid = sim.ppid.toString('hex');

    t = await startTestNode();
    owner = t.rootSigner;
    named = await createAccount(t.url, owner, `named.${t.rootId}`, 20n * ONE_NEAR);
    contract = await createAccount(t.url, owner, `agent-v2-tee.${t.rootId}`, 20n * ONE_NEAR);
    const init = await sendTx(t.url, {
      signerId: contract.accountId,
      key: contract.key,
      receiverId: contract.accountId,
      actions: [
        { type: 'DeployContract', code: readAgentV2Wasm() },
        {
          type: 'FunctionCall',
          methodName: 'new',
          args: Buffer.from(
            JSON.stringify({
              requires_tee: true,
              attestation_expiration_time_ms: SEVEN_DAYS_MS,
              owner_id: owner.accountId,
              mpc_contract_id: `signer.${t.rootId}`,
            }),
          ),
          gas: 100n * TGAS,
          deposit: 0n,
        },
      ],
    });
    assert.ok('SuccessValue' in init.status);
    for (let i = 0; i < 2; i++) agents.push(await implicitAgent());
  });

  after(async () => {
    await server?.close();
    await t?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the attestation has ShadeClient's shape: the quote as bytes over the account, collateral fields, tcb_info", async () => {
    const a = await attestation2(agents[0]!.accountId);
    assert.ok(Array.isArray(a.quote) && a.quote.length > 632);
    const reportData = Buffer.from(a.quote.slice(48 + 520, 48 + 584));
    assert.equal(reportData.subarray(0, 32).toString('hex'), agents[0]!.accountId);
    assert.ok(reportData.subarray(32).equals(Buffer.alloc(32)));
    assert.deepEqual(Object.keys(a.collateral).sort(), [
      'pck_crl',
      'pck_crl_issuer_chain',
      'qe_identity',
      'qe_identity_issuer_chain',
      'qe_identity_signature',
      'root_ca_crl',
      'tcb_info',
      'tcb_info_issuer_chain',
      'tcb_info_signature',
    ]);
    assert.deepEqual(Object.keys(a.tcb_info), [
      'mrtd',
      'rtmr0',
      'rtmr1',
      'rtmr2',
      'rtmr3',
      'os_image_hash',
      'compose_hash',
      'device_id',
      'app_compose',
      'event_log',
    ]);
    assert.equal(a.tcb_info.compose_hash, sim.compose.composeHash);
  });

  it('a caller that is not an implicit account is refused', async () => {
    const a = await attestation2(agents[0]!.accountId);
    assert.deepEqual(await register(named, a), panicked('Account ID must be implicit account'));
  });

  it('malformed quotes are refused', async () => {
    const me = agents[0]!;
    const good = await attestation2(me.accountId);
    const withQuote = (quote: number[]) => ({ ...clone(good), quote });
    assert.deepEqual(
      await register(me, withQuote(good.quote.slice(0, 300))),
      panicked('Invalid TDX quote: too short'),
    );
    const v5 = good.quote.slice();
    v5[0] = 5;
    assert.deepEqual(await register(me, withQuote(v5)), panicked('Invalid TDX quote: version 5, expected 4'));
    const sgx = good.quote.slice();
    sgx[4] = 0;
    assert.deepEqual(await register(me, withQuote(sgx)), panicked('Invalid TDX quote: not a TDX quote'));
    const cut = good.quote.slice(0, good.quote.length - 40);
    assert.deepEqual(
      await register(me, withQuote(cut)),
      panicked('Invalid TDX quote: signature data is cut short'),
    );
    const notByte = good.quote.slice();
    notByte[7] = 256;
    assert.deepEqual(
      await register(me, withQuote(notByte)),
      panicked('Invalid argument `attestation.quote[7]`: 256 is out of range'),
    );
  });

  it('report data of another account is refused', async () => {
    const other = await attestation2(agents[1]!.accountId);
    const status = JSON.stringify(await register(agents[0]!, other));
    assert.match(
      status,
      /Attestation verification failed: wrong report_data hash \(found [0-9a-f]{128} expected [0-9a-f]{128}\)/,
    );
    assert.ok(
      status.includes(`found ${agents[1]!.accountId}${'0'.repeat(64)} expected ${agents[0]!.accountId}`),
    );
  });

  it('an unapproved PPID is refused', async () => {
    await ownerCall('approve_measurements', { measurements });
    await ownerCall('approve_ppids', { ppids: ['11'.repeat(16)] });
    const a = await attestation2(agents[0]!.accountId);
    assert.deepEqual(await register(agents[0]!, a), failed(`PPID ${ppid} is not in the allowed PPIDs list`));
    await ownerCall('remove_measurements', { measurements });
  });

  it('measurements with any one of MRTD, RTMR0-2, the key-provider digest or the compose hash unapproved are refused', async () => {
    await ownerCall('approve_ppids', { ppids: [ppid] });
    const a = await attestation2(agents[0]!.accountId);
    const variants: Array<[string, typeof measurements]> = [];
    for (const r of ['mrtd', 'rtmr0', 'rtmr1', 'rtmr2'] as const)
      variants.push([
        r,
        { ...measurements, rtmrs: { ...measurements.rtmrs, [r]: flipped(measurements.rtmrs[r]) } },
      ]);
    variants.push([
      'key-provider',
      { ...measurements, key_provider_event_digest: flipped(measurements.key_provider_event_digest) },
    ]);
    variants.push([
      'compose hash',
      { ...measurements, app_compose_hash_payload: flipped(measurements.app_compose_hash_payload) },
    ]);
    for (const [name, m] of variants) {
      // Only this set, differing from the TD's in `name`, is approved.
      await ownerCall('approve_measurements', { measurements: m });
      assert.deepEqual(
        await register(agents[0]!, a),
        failed(
          'wrong expected_measurements hash (found none matched expected one of the approved measurements)',
        ),
        name,
      );
      await ownerCall('remove_measurements', { measurements: m });
    }
    assert.equal(await view('get_agent', { account_id: agents[0]!.accountId }), null);
  });

  it('a tcb_info that does not match the quote is refused', async () => {
    await ownerCall('approve_measurements', { measurements });
    const me = agents[0]!;
    const good = await attestation2(me.accountId);
    const refused = async (change: (a: DstackAttestation2) => void) => {
      const a = clone(good);
      change(a);
      return JSON.stringify(await register(me, a));
    };
    assert.match(await refused((a) => (a.tcb_info.rtmr3 = flipped(a.tcb_info.rtmr3))), /wrong rtmr3 hash/);
    // An event's payload changed: its digest no longer matches; recomputed, RTMR3 no longer replays.
    assert.match(
      await refused((a) => (a.tcb_info.event_log[1]!.event_payload = '00'.repeat(20))),
      /the digest of event `app-id` does not match its payload/,
    );
    assert.match(
      await refused((a) => (a.tcb_info.event_log[1] = runtimeEvent('app-id', Buffer.alloc(20)))),
      /wrong event_log hash/,
    );
    assert.match(
      await refused((a) => (a.tcb_info.compose_hash = flipped(a.tcb_info.compose_hash))),
      /wrong app_compose_event hash/,
    );
    assert.match(await refused((a) => (a.tcb_info.app_compose += ' ')), /wrong app_compose_payload hash/);
    // tcb_info's MRTD must be the quote's.
    assert.match(
      await refused((a) => (a.tcb_info.mrtd = flipped(a.tcb_info.mrtd))),
      /wrong expected_measurements hash/,
    );
    assert.deepEqual(
      JSON.parse(
        await refused((a) => {
          delete (a.collateral as Record<string, string>).qe_identity;
        }),
      ),
      panicked('Missing argument `attestation.collateral.qe_identity`'),
    );
    assert.deepEqual(
      JSON.parse(await refused((a) => (a.collateral.pck_crl = 'not hex'))),
      panicked('Invalid argument `attestation.collateral.pck_crl`: expected hex'),
    );
  });

  it('an approved TD registers: get_agent shows its measurements, its PPID and validity', async () => {
    const me = agents[0]!;
    const r = await call(
      me,
      'register_agent',
      { attestation: await attestation2(me.accountId) },
      REGISTER_DEPOSIT,
    );
    assert.deepEqual(r.status, { SuccessValue: Buffer.from('true').toString('base64') });
    const agent = await view('get_agent', { account_id: me.accountId });
    assert.equal(agent.account_id, me.accountId);
    assert.deepEqual(agent.measurements, measurements);
    assert.equal(agent.ppid, ppid);
    assert.equal(agent.validity, 'Valid');
    const block = await rpc(t.url, 'block', { finality: 'final' });
    const nowMs = Math.floor(Number(block.header.timestamp_nanosec) / 1e6);
    const until = Number(agent.valid_until_ms);
    assert.ok(until > nowMs && until <= nowMs + Number(SEVEN_DAYS_MS), `valid_until_ms ${until}`);
  });

  it('expiry and revocation as in local mode: an expired attestation, a removed PPID make the agent invalid', async () => {
    const me = agents[1]!;
    await ownerCall('update_attestation_expiration_time', { attestation_expiration_time_ms: '1' });
    assert.deepEqual(await register(me, await attestation2(me.accountId)), {
      SuccessValue: Buffer.from('true').toString('base64'),
    });
    await ownerCall('update_attestation_expiration_time', { attestation_expiration_time_ms: SEVEN_DAYS_MS });
    // Blocks go on (approving again succeeds and changes nothing) until the 1 ms attestation has expired.
    while ((await view('get_agent', { account_id: me.accountId })).validity === 'Valid')
      await ownerCall('approve_ppids', { ppids: [ppid] });
    assert.deepEqual((await view('get_agent', { account_id: me.accountId })).validity, {
      Invalid: ['ExpiredAttestation'],
    });
    assert.deepEqual(await register(me, await attestation2(me.accountId)), {
      SuccessValue: Buffer.from('true').toString('base64'),
    });
    assert.equal((await view('get_agent', { account_id: me.accountId })).validity, 'Valid');
    await ownerCall('remove_ppids', { ppids: [ppid] });
    assert.deepEqual((await view('get_agent', { account_id: me.accountId })).validity, {
      Invalid: ['InvalidPpid'],
    });
    await ownerCall('approve_ppids', { ppids: [ppid] });
  });

  const agentApiEnv = (tee: Record<string, string>) =>
    loadAgentApiConfig({
      CHAIN_ACCOUNT_ID: owner.accountId,
      CHAIN_ACCOUNT_SECRET_KEY: owner.key.toString(),
      AGENT_CONTRACT_ID: contract.accountId,
      NEAR_RPC_URL: t.url,
      AGENT_API_PORT: '0',
      AGENT_FUNDING_AMOUNT: '1',
      ...tee,
    });

  it('the agent API in dstack mode registers with its 2.0 attestation, no whitelist', async () => {
    const api = await startAgentApi(
      agentApiEnv({ TEE_MODE: 'dstack', DSTACK_ENDPOINT: join(dir, 'dstack.sock') }),
      { log: captureLogs().log },
    );
    try {
      const accountId = await ready(api);
      const agent = await view('get_agent', { account_id: accountId });
      assert.equal(agent.validity, 'Valid');
      assert.deepEqual(agent.measurements, measurements);
      assert.equal(agent.ppid, ppid);
    } finally {
      await api.stop();
    }
  });

  it('the agent API in local mode is told that the contract requires a TEE', async () => {
    const api = await startAgentApi(agentApiEnv({ TEE_MODE: 'local', AGENT_CODEHASH: 'ab'.repeat(32) }), {
      log: captureLogs().log,
    });
    try {
      await until('the register step to fail', () => /requires a TEE/.test(api.status().lastError ?? ''));
      assert.equal(api.status().stage, 'register');
      assert.match(api.status().lastError!, /run the agent API in dstack mode \(TEE_MODE=dstack\)/);
    } finally {
      await api.stop();
    }
  });
});
