/**
 * The built-in 2.0 agent contract (packages/contracts/assembly/agent-v2, the interface of the Shade Agent
 * Framework's shade-contract-template) on a real node, through real transactions: every method, every
 * refusal with the template's message, and `request_signature` answered by Shadebox's signer and MPC
 * responder, whose signatures verify under the keys derived for (agent contract, path).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { readAgentV2Wasm, readSignerWasm } from '@shadebox/contracts';
import {
  derivedPublicKey,
  najToEd25519PublicKey,
  najToSecp256k1PublicKey,
  RootKeys,
  type RunningResponder,
  startResponder,
} from '@shadebox/mpc';
import { type Action, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import type { Json } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { createAccount, type Signer, sendTx } from './support/transactions.js';

const Z48 = '0'.repeat(96);
const MOCK_MEASUREMENTS = {
  rtmrs: { mrtd: Z48, rtmr0: Z48, rtmr1: Z48, rtmr2: Z48 },
  key_provider_event_digest: Z48,
  app_compose_hash_payload: '0'.repeat(64),
};
const DEFAULT_PPID = '0'.repeat(32);
const SEVEN_DAYS_MS = '604800000';
/** The template's storage deposit: 486 bytes at 1e19 yocto. */
const REGISTER_DEPOSIT = 4_860_000_000_000_000_000_000n;

/** ShadeClient's fake attestation outside a TEE (shade-agent-js attestation-transform.ts), as it sends it. */
const FAKE_ATTESTATION = {
  quote: [],
  collateral: {
    pck_crl_issuer_chain: '',
    root_ca_crl: '',
    pck_crl: '',
    tcb_info_issuer_chain: '',
    tcb_info: '',
    tcb_info_signature: '',
    qe_identity_issuer_chain: '',
    qe_identity: '',
    qe_identity_signature: '',
  },
  tcb_info: {
    mrtd: Z48,
    rtmr0: Z48,
    rtmr1: Z48,
    rtmr2: Z48,
    rtmr3: Z48,
    os_image_hash: '',
    compose_hash: '0'.repeat(64),
    device_id: '0'.repeat(64),
    app_compose: '',
    event_log: [],
  },
};

const panicked = (msg: string) => ({
  Failure: {
    ActionError: {
      index: 0,
      kind: { FunctionCallError: { ExecutionError: `Smart contract panicked: ${msg}` } },
    },
  },
});
const returned = (value: unknown) => ({
  SuccessValue: Buffer.from(JSON.stringify(value)).toString('base64'),
});

describe('the built-in 2.0 agent contract (agent-v2.wasm)', () => {
  let t: TestNode;
  let owner: Signer;
  let alice: Signer;
  let contract: Signer;
  let signer: Signer;
  let responderAccount: Signer;
  let responder: RunningResponder;
  const rootKeys = RootKeys.fromSeed('agent-v2 test');
  /** Implicit agent accounts (64 hex), funded by transfer as ShadeClient's fund() does. */
  const agents: Signer[] = [];

  async function call(
    from: Signer,
    method: string,
    args: unknown = {},
    o: { deposit?: bigint; gas?: bigint; receiver?: string; raw?: Uint8Array } = {},
  ): Promise<Json> {
    const action: Action = {
      type: 'FunctionCall',
      methodName: method,
      args: o.raw ?? Buffer.from(JSON.stringify(args)),
      gas: o.gas ?? 100n * TGAS,
      deposit: o.deposit ?? 0n,
    };
    return sendTx(t.url, {
      signerId: from.accountId,
      key: from.key,
      receiverId: o.receiver ?? contract.accountId,
      actions: [action],
    });
  }

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

  /** A view that fails: nearcore answers with the contract's error in `result.error`. */
  async function viewError(
    method: string,
    args: unknown = {},
    accountId = contract.accountId,
  ): Promise<string> {
    const r = await rpc(t.url, 'query', {
      request_type: 'call_function',
      finality: 'optimistic',
      account_id: accountId,
      method_name: method,
      args_base64: Buffer.from(JSON.stringify(args)).toString('base64'),
    });
    assert.equal(typeof r.error, 'string', `${method} did not fail`);
    return r.error;
  }

  const logsOf = (r: Json): string[] => r.receipts_outcome.flatMap((o: Json) => o.outcome.logs);
  const events = (r: Json) =>
    logsOf(r)
      .filter((l) => l.startsWith('EVENT_JSON:'))
      .map((l) => JSON.parse(l.slice('EVENT_JSON:'.length)));

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

  const register = (agent: Signer, deposit = REGISTER_DEPOSIT) =>
    call(agent, 'register_agent', { attestation: FAKE_ATTESTATION }, { deposit, gas: 300n * TGAS });

  before(async () => {
    t = await startTestNode();
    owner = t.rootSigner;
    alice = await createAccount(t.url, owner, `alice.${t.rootId}`, 20n * ONE_NEAR);
    contract = await createAccount(t.url, owner, `agent-v2.${t.rootId}`, 20n * ONE_NEAR);
    signer = await createAccount(t.url, owner, `signer.${t.rootId}`, 20n * ONE_NEAR);
    responderAccount = await createAccount(t.url, owner, `responder.${t.rootId}`, 20n * ONE_NEAR);
    await sendTx(t.url, {
      signerId: signer.accountId,
      key: signer.key,
      receiverId: signer.accountId,
      actions: [
        { type: 'DeployContract', code: readSignerWasm() },
        {
          type: 'FunctionCall',
          methodName: 'init',
          args: Buffer.from(
            JSON.stringify({
              owner_id: owner.accountId,
              public_keys: { secp256k1: rootKeys.secp256k1.publicKey, ed25519: rootKeys.ed25519.publicKey },
              responders: [responderAccount.accountId],
            }),
          ),
          gas: 100n * TGAS,
          deposit: 0n,
        },
      ],
    });
    await sendTx(t.url, {
      signerId: contract.accountId,
      key: contract.key,
      receiverId: contract.accountId,
      actions: [{ type: 'DeployContract', code: readAgentV2Wasm() }],
    });
    responder = await startResponder({
      rpcUrl: t.url,
      signerContractId: signer.accountId,
      responderAccountId: responderAccount.accountId,
      responderSecretKey: responderAccount.key.toString(),
      rootKeys,
      fetch: t.node.fetch,
      subscribeToBlocks: (listener) => {
        t.node.chain.on('block', listener);
        return () => {
          t.node.chain.off('block', listener);
        };
      },
    });
    for (let i = 0; i < 3; i++) agents.push(await implicitAgent());
  });

  after(async () => {
    await responder?.stop();
    await t?.stop();
  });

  it('new: only by the contract account, once; get_contract_info', async () => {
    const args = {
      requires_tee: false,
      attestation_expiration_time_ms: SEVEN_DAYS_MS,
      owner_id: owner.accountId,
      mpc_contract_id: signer.accountId,
    };
    assert.deepEqual((await call(alice, 'new', args)).status, panicked('Method new is private'));
    assert.deepEqual((await call(contract, 'new', args)).status, { SuccessValue: '' });
    assert.deepEqual(
      (await call(contract, 'new', args)).status,
      panicked('The contract has already been initialized'),
    );
    assert.deepEqual(await view('get_contract_info'), {
      requires_tee: false,
      attestation_expiration_time_ms: SEVEN_DAYS_MS,
      owner_id: owner.accountId,
      mpc_contract_id: signer.accountId,
    });
  });

  it('owner methods refuse any other caller: "Caller is not the owner"', async () => {
    const calls: Array<[string, unknown]> = [
      ['approve_measurements', { measurements: MOCK_MEASUREMENTS }],
      ['remove_measurements', { measurements: MOCK_MEASUREMENTS }],
      ['approve_ppids', { ppids: [DEFAULT_PPID] }],
      ['remove_ppids', { ppids: [DEFAULT_PPID] }],
      ['whitelist_agent_for_local', { account_id: agents[0]!.accountId }],
      ['remove_agent_from_whitelist_for_local', { account_id: agents[0]!.accountId }],
      ['remove_agent', { account_id: agents[0]!.accountId }],
      ['update_owner_id', { owner_id: alice.accountId }],
      ['update_mpc_contract_id', { mpc_contract_id: alice.accountId }],
      ['update_attestation_expiration_time', { attestation_expiration_time_ms: '1' }],
    ];
    for (const [method, args] of calls) {
      const r = await call(alice, method, args);
      assert.deepEqual(r.status, panicked('Caller is not the owner'), method);
    }
    const update = await call(alice, 'update_contract', undefined, { raw: new Uint8Array(9) });
    assert.deepEqual(update.status, panicked('Caller is not the owner'));
  });

  it('register_agent in local mode: whitelist, mock measurements and default PPID required, in that order', async () => {
    const [a] = agents;
    assert.deepEqual((await register(a!)).status, panicked('Agent needs to be whitelisted for local mode'));
    assert.deepEqual((await call(owner, 'whitelist_agent_for_local', { account_id: a!.accountId })).status, {
      SuccessValue: '',
    });
    // Whitelisting again succeeds, as the template's (a set insert).
    assert.deepEqual((await call(owner, 'whitelist_agent_for_local', { account_id: a!.accountId })).status, {
      SuccessValue: '',
    });
    assert.deepEqual(await view('get_whitelisted_agents_for_local'), [a!.accountId]);
    assert.deepEqual(
      (await register(a!)).status,
      panicked('Default measurements must be approved for local mode'),
    );
    // Other measurements do not count.
    const other = { ...MOCK_MEASUREMENTS, app_compose_hash_payload: 'ab'.repeat(32) };
    await call(owner, 'approve_measurements', { measurements: other });
    assert.deepEqual(
      (await register(a!)).status,
      panicked('Default measurements must be approved for local mode'),
    );
    for (let i = 0; i < 2; i++) {
      const r = await call(owner, 'approve_measurements', { measurements: MOCK_MEASUREMENTS });
      assert.deepEqual(r.status, { SuccessValue: '' });
    }
    assert.deepEqual(await view('get_approved_measurements'), [other, MOCK_MEASUREMENTS]);
    assert.deepEqual(await view('get_approved_measurements', { from_index: 1, limit: 5 }), [
      MOCK_MEASUREMENTS,
    ]);
    assert.deepEqual((await register(a!)).status, panicked('Default PPID must be approved for local mode'));
    // Uppercase hex is the same PPID (serde's hex reads either case); shown lowercase.
    await call(owner, 'approve_ppids', { ppids: ['AB'.repeat(16), DEFAULT_PPID, DEFAULT_PPID] });
    assert.deepEqual(await view('get_approved_ppids'), ['ab'.repeat(16), DEFAULT_PPID]);
    assert.deepEqual(await view('get_approved_ppids', { from_index: 1 }), [DEFAULT_PPID]);
  });

  it('register_agent: the storage deposit (0.00486 NEAR) for a new agent; true, the expiry and an event', async () => {
    const [a] = agents;
    assert.deepEqual(
      (await register(a!, REGISTER_DEPOSIT - 1n)).status,
      panicked('Attached deposit must be greater than storage cost "0.00486 NEAR"'),
    );
    const before = (await rpc(t.url, 'block', { finality: 'optimistic' })).header.timestamp;
    const r = await register(a!);
    assert.deepEqual(r.status, returned(true));
    const agent = await view('get_agent', { account_id: a!.accountId });
    assert.equal(agent.account_id, a!.accountId);
    assert.deepEqual(agent.measurements, MOCK_MEASUREMENTS);
    assert.equal(agent.ppid, DEFAULT_PPID);
    assert.equal(agent.validity, 'Valid');
    const validUntil = BigInt(agent.valid_until_ms);
    const nowMs = BigInt(before) / 1_000_000n;
    assert.ok(validUntil >= nowMs + 604_800_000n, `valid_until_ms ${validUntil} from ${nowMs}`);
    assert.deepEqual(events(r), [
      {
        standard: 'shade-contract-template',
        version: '1.0.0',
        event: 'agent_registered',
        data: [
          {
            account_id: a!.accountId,
            measurements: MOCK_MEASUREMENTS,
            ppid: DEFAULT_PPID,
            advisory_ids_truncated: [],
            number_of_advisory_ids: 0,
            current_time_ms: String(validUntil - 604_800_000n),
            valid_until_ms: agent.valid_until_ms,
          },
        ],
      },
    ]);
    // Re-registration needs no deposit (the template's rule) and renews the expiry.
    assert.deepEqual((await register(a!, 0n)).status, returned(true));
    assert.equal(await view('get_agent', { account_id: agents[1]!.accountId }), null);
  });

  it('register_agent refuses an attestation of another shape, naming the field', async () => {
    const r = await call(
      agents[0]!,
      'register_agent',
      { attestation: { ...FAKE_ATTESTATION, tcb_info: { ...FAKE_ATTESTATION.tcb_info, rtmr3: '00' } } },
      { deposit: REGISTER_DEPOSIT },
    );
    assert.deepEqual(
      r.status,
      panicked('Invalid argument `attestation.tcb_info.rtmr3`: expected 96 hex digits (48 bytes)'),
    );
    const missing = await call(agents[0]!, 'register_agent', {}, { deposit: REGISTER_DEPOSIT });
    assert.deepEqual(missing.status, panicked('Missing argument `attestation`'));
  });

  it('request_signature: ECDSA and EdDSA from the MPC contract, with the template gas and 1 yocto; signatures verify', async () => {
    const [a] = agents;
    const payload = 'be'.repeat(16) + 'ef'.repeat(16);
    const r = await call(
      a!,
      'request_signature',
      { path: 'ethereum-1', payload, key_type: 'Ecdsa' },
      {
        gas: 300n * TGAS,
      },
    );
    const answer = JSON.parse(Buffer.from(r.status.SuccessValue, 'base64').toString());
    assert.equal(answer.scheme, 'Secp256k1');
    const status = await rpc(t.url, 'EXPERIMENTAL_tx_status', {
      tx_hash: r.transaction.hash,
      sender_account_id: a!.accountId,
      wait_until: 'FINAL',
    });
    const signAction = status.receipts
      .filter((x: Json) => x.receiver_id === signer.accountId)
      .flatMap((x: Json) => x.receipt.Action?.actions ?? [])
      .find((x: Json) => x.FunctionCall?.method_name === 'sign').FunctionCall;
    assert.deepEqual(JSON.parse(Buffer.from(signAction.args, 'base64').toString()), {
      request: { payload_v2: { Ecdsa: payload }, path: 'ethereum-1', domain_id: 0 },
    });
    assert.equal(signAction.deposit, '1');
    assert.ok(BigInt(signAction.gas) >= 15n * TGAS);
    const key = najToSecp256k1PublicKey(
      derivedPublicKey(rootKeys.secp256k1.publicKey, contract.accountId, 'ethereum-1'),
    );
    const rBytes = Buffer.from(answer.big_r.affine_point.slice(2), 'hex');
    const sBytes = Buffer.from(answer.s.scalar, 'hex');
    const sig = new secp256k1.Signature(
      BigInt(`0x${rBytes.toString('hex')}`),
      BigInt(`0x${sBytes.toString('hex')}`),
    ).addRecoveryBit(answer.recovery_id);
    assert.deepEqual(
      sig.recoverPublicKey(Buffer.from(payload, 'hex')).toBytes(false),
      Uint8Array.from([4, ...key]),
    );

    const message = Buffer.from('a Solana message signed for the agent, 32+ bytes long').toString('hex');
    const e = await call(
      a!,
      'request_signature',
      { path: 'solana-1', payload: message, key_type: 'Eddsa' },
      {
        gas: 300n * TGAS,
      },
    );
    const ed = JSON.parse(Buffer.from(e.status.SuccessValue, 'base64').toString());
    assert.equal(ed.scheme, 'Ed25519');
    const edKey = najToEd25519PublicKey(
      derivedPublicKey(rootKeys.ed25519.publicKey, contract.accountId, 'solana-1', 1),
    );
    assert.ok(ed25519.verify(Uint8Array.from(ed.signature), Buffer.from(message, 'hex'), edKey));
  });

  it('request_signature: refused for an unregistered caller and an unknown key type', async () => {
    const r = await call(agents[1]!, 'request_signature', {
      path: 'p',
      payload: '00'.repeat(32),
      key_type: 'Ecdsa',
    });
    assert.deepEqual(r.status, panicked('Agent not registered'));
    const k = await call(agents[0]!, 'request_signature', {
      path: 'p',
      payload: '00'.repeat(32),
      key_type: 'ecdsa',
    });
    assert.deepEqual(k.status, panicked('Invalid key type'));
    // Only register_agent is payable, as near-sdk's #[payable] makes it.
    const paid = await call(
      agents[0]!,
      'request_signature',
      { path: 'p', payload: '00'.repeat(32), key_type: 'Ecdsa' },
      { deposit: 1n },
    );
    assert.deepEqual(paid.status, panicked("Method request_signature doesn't accept deposit"));
    const owned = await call(owner, 'approve_ppids', { ppids: [DEFAULT_PPID] }, { deposit: 1n });
    assert.deepEqual(owned.status, panicked("Method approve_ppids doesn't accept deposit"));
  });

  it('get_agents is paginated (from_index, limit; all by default)', async () => {
    const [, b, c] = agents;
    for (const agent of [b!, c!]) {
      await call(owner, 'whitelist_agent_for_local', { account_id: agent.accountId });
      assert.deepEqual((await register(agent)).status, returned(true));
    }
    const all = await view('get_agents');
    assert.deepEqual(
      all.map((x: Json) => x.account_id),
      agents.map((x) => x.accountId),
    );
    const page = await view('get_agents', { from_index: 1, limit: 1 });
    assert.deepEqual(
      page.map((x: Json) => x.account_id),
      [b!.accountId],
    );
    assert.deepEqual(await view('get_agents', { from_index: 7 }), []);
  });

  it('an agent no longer valid is removed and its request fails: "Invalid agent: [..]" (unapproved PPID, not whitelisted)', async () => {
    const [, b, c] = agents;
    // b: its whitelisting removed.
    assert.deepEqual(
      (await call(owner, 'remove_agent_from_whitelist_for_local', { account_id: b!.accountId })).status,
      { SuccessValue: '' },
    );
    assert.deepEqual(
      (await call(owner, 'remove_agent_from_whitelist_for_local', { account_id: b!.accountId })).status,
      panicked('Agent not in whitelist for local'),
    );
    assert.deepEqual((await view('get_agent', { account_id: b!.accountId })).validity, {
      Invalid: ['NotWhitelistedForLocal'],
    });
    const rb = await call(b!, 'request_signature', {
      path: 'p',
      payload: '00'.repeat(32),
      key_type: 'Ecdsa',
    });
    assert.deepEqual(rb.status, panicked('Invalid agent: [NotWhitelistedForLocal]'));
    assert.deepEqual(events(rb), [
      {
        standard: 'shade-contract-template',
        version: '1.0.0',
        event: 'agent_removed',
        data: [{ account_id: b!.accountId, reasons: ['NotWhitelistedForLocal'] }],
      },
    ]);
    // The removal stays (it happened in the call's own receipt, the failure in the next one).
    assert.equal(await view('get_agent', { account_id: b!.accountId }), null);

    // c: the default PPID removed (every listed PPID must be approved, or nothing is removed).
    assert.deepEqual(
      (await call(owner, 'remove_ppids', { ppids: [DEFAULT_PPID, 'cd'.repeat(16)] })).status,
      panicked('PPID not in approved list'),
    );
    assert.deepEqual(await view('get_approved_ppids'), ['ab'.repeat(16), DEFAULT_PPID]);
    assert.deepEqual((await call(owner, 'remove_ppids', { ppids: [DEFAULT_PPID] })).status, {
      SuccessValue: '',
    });
    assert.deepEqual((await view('get_agent', { account_id: c!.accountId })).validity, {
      Invalid: ['InvalidPpid'],
    });
    const rc = await call(c!, 'request_signature', {
      path: 'p',
      payload: '00'.repeat(32),
      key_type: 'Ecdsa',
    });
    assert.deepEqual(rc.status, panicked('Invalid agent: [InvalidPpid]'));
    assert.equal(await view('get_agent', { account_id: c!.accountId }), null);
    // Registering needs the default PPID back.
    assert.deepEqual((await register(c!)).status, panicked('Default PPID must be approved for local mode'));
    await call(owner, 'approve_ppids', { ppids: [DEFAULT_PPID] });
  });

  it('unapproved measurements and an expired attestation make an agent invalid', async () => {
    const [a, , c] = agents;
    assert.deepEqual((await register(c!)).status, returned(true));
    // Measurements: removing the mock ones invalidates every local agent.
    const other = { ...MOCK_MEASUREMENTS, app_compose_hash_payload: 'ab'.repeat(32) };
    assert.deepEqual((await call(owner, 'remove_measurements', { measurements: other })).status, {
      SuccessValue: '',
    });
    assert.deepEqual(
      (await call(owner, 'remove_measurements', { measurements: other })).status,
      panicked('Measurements not in approved list'),
    );
    await call(owner, 'remove_measurements', { measurements: MOCK_MEASUREMENTS });
    assert.deepEqual((await view('get_agent', { account_id: c!.accountId })).validity, {
      Invalid: ['InvalidMeasurements'],
    });
    const rc = await call(c!, 'request_signature', {
      path: 'p',
      payload: '00'.repeat(32),
      key_type: 'Ecdsa',
    });
    assert.deepEqual(rc.status, panicked('Invalid agent: [InvalidMeasurements]'));
    await call(owner, 'approve_measurements', { measurements: MOCK_MEASUREMENTS });

    // Expiry: registrations last attestation_expiration_time_ms from the block they are made in.
    assert.deepEqual(
      (await call(owner, 'update_attestation_expiration_time', { attestation_expiration_time_ms: '1000' }))
        .status,
      { SuccessValue: '' },
    );
    assert.equal((await view('get_contract_info')).attestation_expiration_time_ms, '1000');
    assert.deepEqual((await register(a!)).status, returned(true));
    assert.equal((await view('get_agent', { account_id: a!.accountId })).validity, 'Valid');
    await rpc(t.url, 'sandbox_fast_forward', { delta_height: 10 });
    assert.deepEqual((await view('get_agent', { account_id: a!.accountId })).validity, {
      Invalid: ['ExpiredAttestation'],
    });
    const ra = await call(a!, 'request_signature', {
      path: 'p',
      payload: '00'.repeat(32),
      key_type: 'Ecdsa',
    });
    assert.deepEqual(ra.status, panicked('Invalid agent: [ExpiredAttestation]'));
    assert.equal(await view('get_agent', { account_id: a!.accountId }), null);
    await call(owner, 'update_attestation_expiration_time', {
      attestation_expiration_time_ms: SEVEN_DAYS_MS,
    });
  });

  it('fail_on_invalid_agent is private; remove_agent by the owner', async () => {
    const r = await call(alice, 'fail_on_invalid_agent', { reasons: ['ManualRemoval'] });
    assert.deepEqual(r.status, panicked('Method fail_on_invalid_agent is private'));
    const [, , c] = agents;
    assert.deepEqual((await register(c!)).status, returned(true));
    assert.equal((await view('get_agent', { account_id: c!.accountId })).validity, 'Valid');
    const removed = await call(owner, 'remove_agent', { account_id: c!.accountId });
    assert.deepEqual(removed.status, { SuccessValue: '' });
    assert.deepEqual(events(removed)[0].data, [{ account_id: c!.accountId, reasons: ['ManualRemoval'] }]);
    assert.deepEqual(
      (await call(owner, 'remove_agent', { account_id: c!.accountId })).status,
      panicked('Agent not registered'),
    );
    // A removed agent registers again.
    assert.deepEqual((await register(c!)).status, returned(true));
  });

  it('argument checks: measurements hex, PPID length, account ids', async () => {
    const bad = { ...MOCK_MEASUREMENTS, rtmrs: { ...MOCK_MEASUREMENTS.rtmrs, rtmr1: 'zz'.repeat(48) } };
    assert.deepEqual(
      (await call(owner, 'approve_measurements', { measurements: bad })).status,
      panicked('Invalid argument `measurements.rtmrs.rtmr1`: expected 96 hex digits (48 bytes)'),
    );
    assert.deepEqual(
      (await call(owner, 'approve_ppids', { ppids: ['00'] })).status,
      panicked('Invalid argument `ppids`: expected 32 hex digits (16 bytes)'),
    );
    assert.deepEqual(
      (await call(owner, 'whitelist_agent_for_local', { account_id: 'Not An Account' })).status,
      panicked('Invalid argument `account_id`: Not An Account is not a valid account id'),
    );
  });

  it('the owner hands over: update_owner_id, update_mpc_contract_id', async () => {
    assert.deepEqual((await call(owner, 'update_mpc_contract_id', { mpc_contract_id: 'v1.signer' })).status, {
      SuccessValue: '',
    });
    assert.deepEqual((await call(owner, 'update_owner_id', { owner_id: alice.accountId })).status, {
      SuccessValue: '',
    });
    assert.deepEqual(await view('get_contract_info'), {
      requires_tee: false,
      attestation_expiration_time_ms: SEVEN_DAYS_MS,
      owner_id: alice.accountId,
      mpc_contract_id: 'v1.signer',
    });
    assert.deepEqual(
      (await call(owner, 'update_mpc_contract_id', { mpc_contract_id: signer.accountId })).status,
      panicked('Caller is not the owner'),
    );
    await call(alice, 'update_mpc_contract_id', { mpc_contract_id: signer.accountId });
    await call(alice, 'update_owner_id', { owner_id: owner.accountId });
  });

  it('update_contract: the input checks; a new code without migrate leaves the old one', async () => {
    assert.deepEqual(
      (await call(owner, 'update_contract', undefined, { raw: new Uint8Array(3) })).status,
      panicked('Input must be at least 8 bytes: first 8 bytes are gas (u64), followed by WASM code'),
    );
    assert.deepEqual(
      (await call(owner, 'update_contract', undefined, { raw: new Uint8Array(8) })).status,
      panicked('WASM code cannot be empty'),
    );
    const before = (
      await rpc(t.url, 'query', {
        request_type: 'view_account',
        finality: 'final',
        account_id: contract.accountId,
      })
    ).code_hash;
    const input = Buffer.concat([Buffer.from([10, 0, 0, 0, 0, 0, 0, 0]), readSignerWasm()]);
    const r = await call(owner, 'update_contract', undefined, { raw: input, gas: 300n * TGAS });
    assert.match(JSON.stringify(r.status), /MethodNotFound|migrate/);
    const after = (
      await rpc(t.url, 'query', {
        request_type: 'view_account',
        finality: 'final',
        account_id: contract.accountId,
      })
    ).code_hash;
    assert.equal(after, before);
  });

  it("requires_tee: no whitelist; an implicit account is required, and ShadeClient's fake attestation is refused (its quote is empty; the TEE path: agent-contract-v2-tee.test.ts)", async () => {
    const tee = await createAccount(t.url, owner, `tee.${t.rootId}`, 20n * ONE_NEAR);
    await sendTx(t.url, {
      signerId: tee.accountId,
      key: tee.key,
      receiverId: tee.accountId,
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
              mpc_contract_id: signer.accountId,
            }),
          ),
          gas: 100n * TGAS,
          deposit: 0n,
        },
      ],
    });
    const to = { receiver: tee.accountId };
    assert.deepEqual(
      (await call(owner, 'whitelist_agent_for_local', { account_id: agents[0]!.accountId }, to)).status,
      panicked('Whitelisting agents is not supported for TEE'),
    );
    assert.deepEqual(
      (await call(owner, 'remove_agent_from_whitelist_for_local', { account_id: agents[0]!.accountId }, to))
        .status,
      panicked('Removing agents from the whitelist is not supported for TEE'),
    );
    const named = await call(
      alice,
      'register_agent',
      { attestation: FAKE_ATTESTATION },
      { ...to, deposit: REGISTER_DEPOSIT },
    );
    assert.deepEqual(named.status, panicked('Account ID must be implicit account'));
    const implicit = await call(
      agents[0]!,
      'register_agent',
      { attestation: FAKE_ATTESTATION },
      {
        ...to,
        deposit: REGISTER_DEPOSIT,
      },
    );
    assert.match(
      JSON.stringify(implicit.status),
      /Attestation verification failed: the attestation has no quote/,
    );
    assert.match(
      await viewError('get_whitelisted_agents_for_local', {}, tee.accountId),
      /Getting whitelisted agents is not supported for TEE/,
    );
  });

  it('views of an unknown agent and bad view arguments', async () => {
    assert.equal(await view('get_agent', { account_id: 'nobody.near' }), null);
    assert.match(await viewError('get_agent', {}), /Missing argument `account_id`/);
  });

  // Last: it replaces the contract's code.
  it('update_contract: the owner deploys new code and its migrate runs; the state stays', async () => {
    const input = Buffer.concat([Buffer.from([10, 0, 0, 0, 0, 0, 0, 0]), readAgentV2Wasm()]);
    const r = await call(owner, 'update_contract', undefined, { raw: input, gas: 300n * TGAS });
    assert.deepEqual(r.status, { SuccessValue: '' });
    const migrate = r.receipts_outcome.filter((o: Json) => o.outcome.executor_id === contract.accountId);
    assert.equal(migrate.length, 2, 'update_contract, then the deploy and migrate receipt');
    assert.equal((await view('get_contract_info')).owner_id, owner.accountId);
    assert.equal((await view('get_agents')).length, 1);
    assert.deepEqual((await call(alice, 'migrate')).status, panicked('Method migrate is private'));
  });
});
