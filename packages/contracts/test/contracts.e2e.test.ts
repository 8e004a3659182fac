/**
 * The signer and agent contracts on a real node: as `npm install` built them (build/*.wasm), deployed with near-api-js,
 * answered by a JS responder that holds the root keys (noble), checked against NEAR's messages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import { type Account, actions, baseEncode } from 'near-api-js';
import { type Json, rpcRaw } from '../../../test/support/raw-rpc.js';
import { rpc } from '../../../test/support/rpc-calls.js';
import { newKey, startTestNode, type TestNode } from '../../../test/support/test-node.js';
import { base64Of } from '../../../test/support/transactions.js';
import { readAgentWasm, readSignerWasm } from '../index.js';

const PREFIX = 'near-mpc-recovery v0.1.0 epsilon derivation:';
const N = secp256k1.Point.Fn.ORDER;
const L = ed25519.Point.Fn.ORDER;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const utf8 = (s: string) => new TextEncoder().encode(s);
const be = (b: Uint8Array) => BigInt(`0x${hex(b) || '0'}`);
const le = (b: Uint8Array) => be(Uint8Array.from(b).reverse());
const to32be = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));
const to32le = (n: bigint) => to32be(n).reverse();
const tweakOf = (predecessor: string, path: string) => sha3_256(utf8(`${PREFIX}${predecessor},${path}`));
const panicked = (msg: string) => ({
  Failure: {
    ActionError: {
      index: 0,
      kind: { FunctionCallError: { ExecutionError: `Smart contract panicked: ${msg}` } },
    },
  },
});
const successJson = (v: string) => ({ SuccessValue: Buffer.from(v).toString('base64') });

// Root keys held by the JS responder.
const secpRootSk = 0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdefn;
const secpRoot = secp256k1.Point.BASE.multiply(secpRootSk);
const edRootScalar = 0x0badc0ffee0ddf00d0badc0ffee0ddf00d0badc0ffee0ddf00d0badc0ffeen % L;
const edRoot = ed25519.Point.BASE.multiply(edRootScalar);
const secpRootNaj = `secp256k1:${baseEncode(secpRoot.toBytes(false).slice(1))}`;
const edRootNaj = `ed25519:${baseEncode(edRoot.toBytes())}`;

function deriveSecp(tweak: Uint8Array): string {
  const p = secpRoot.add(secp256k1.Point.BASE.multiply(be(tweak)));
  return `secp256k1:${baseEncode(p.toBytes(false).slice(1))}`;
}
function deriveEd(tweak: Uint8Array): string {
  return `ed25519:${baseEncode(edRoot.add(ed25519.Point.BASE.multiply(le(tweak) % L)).toBytes())}`;
}

type SignatureRequest = { tweak: string; payload: { Ecdsa?: string; Eddsa?: string }; domain_id: number };

/** The response NEAR's MPC network would give, exactly as the contract re-serialises it. */
function responseFor(request: SignatureRequest, corrupt = false): string {
  const tweak = Buffer.from(request.tweak, 'hex');
  if (request.domain_id === 0) {
    const childSk = (secpRootSk + be(tweak)) % N;
    const sig = secp256k1.sign(Buffer.from(request.payload.Ecdsa!, 'hex'), to32be(childSk), {
      prehash: false,
      lowS: true,
      format: 'recovered',
    });
    const rec = sig[0];
    const r = sig.slice(1, 33);
    const s = corrupt ? new Uint8Array(32).fill(2) : sig.slice(33);
    return `{"scheme":"Secp256k1","big_r":{"affine_point":"${rec & 1 ? '03' : '02'}${hex(r)}"},"s":{"scalar":"${hex(s)}"},"recovery_id":${rec}}`;
  }
  const a = (edRootScalar + (le(tweak) % L)) % L;
  const A = ed25519.Point.BASE.multiply(a).toBytes();
  const msg = Buffer.from(request.payload.Eddsa!, 'hex');
  const r = le(sha512(Buffer.concat([Buffer.alloc(32, 9), msg]))) % L;
  const R = ed25519.Point.BASE.multiply(r).toBytes();
  const k = le(sha512(Buffer.concat([R, A, msg]))) % L;
  const S = (r + k * a) % L;
  const sig = [...R, ...to32le(S)];
  if (corrupt) sig[40] ^= 1;
  return `{"scheme":"Ed25519","signature":[${sig.join(',')}]}`;
}

describe('signer and agent contracts', () => {
  let t: TestNode;
  let signer: Account;
  let responder: Account;
  let alice: Account;
  let agent: Account;
  const workers: Account[] = [];
  const gas: Record<string, bigint> = {};

  async function account(prefix: string, amount = 50n * NEAR, code?: Buffer): Promise<Account> {
    const key = newKey();
    await t.root.createSubAccount({
      accountOrPrefix: prefix,
      publicKey: key.getPublicKey(),
      nearToTransfer: amount,
    });
    const acc = t.account(`${prefix}.${t.rootId}`, key);
    if (code) await acc.deployContract(code);
    return acc;
  }

  async function signedTx(
    from: Account,
    to: string,
    method: string,
    args: unknown,
    o: { gas?: bigint; deposit?: bigint },
  ) {
    const raw = typeof args === 'string' ? Buffer.from(args) : Buffer.from(JSON.stringify(args));
    return from.createSignedTransaction({
      receiverId: to,
      actions: [actions.functionCall(method, raw, o.gas ?? 100n * TGAS, o.deposit ?? 0n)],
    });
  }

  /** Sends a call and waits for its whole receipt tree: the FINAL EXPERIMENTAL_tx_status. */
  async function call(
    from: Account,
    to: string,
    method: string,
    args: unknown = {},
    o: { gas?: bigint; deposit?: bigint } = {},
  ) {
    const signed = await signedTx(from, to, method, args, o);
    const r = await rpc(t.url, 'send_tx', { signed_tx_base64: base64Of(signed), wait_until: 'INCLUDED' });
    return waitTx(
      r.transaction?.hash ?? baseEncode(signed.transaction.getHash?.() ?? new Uint8Array()),
      from.accountId,
    );
  }

  async function waitTx(hash: string, signerId: string): Promise<Json> {
    for (let i = 0; i < 100; i++) {
      const { result, error } = await rpcRaw(t.url, 'EXPERIMENTAL_tx_status', {
        tx_hash: hash,
        sender_account_id: signerId,
        wait_until: 'FINAL',
      });
      if (result) return result;
      if (error && error.cause?.name !== 'TIMEOUT_ERROR' && error.cause?.name !== 'UNKNOWN_TRANSACTION')
        throw new Error(JSON.stringify(error));
    }
    throw new Error('transaction did not finish');
  }

  /** Sends a call without waiting: its hash. */
  async function submit(
    from: Account,
    to: string,
    method: string,
    args: unknown,
    o: { gas?: bigint; deposit?: bigint } = {},
  ) {
    const signed = await signedTx(from, to, method, args, o);
    return rpc(t.url, 'broadcast_tx_async', { signed_tx_base64: base64Of(signed) }) as Promise<string>;
  }

  async function view(contract: string, method: string, args: unknown = {}): Promise<Json> {
    const r = await rpc(t.url, 'query', {
      request_type: 'call_function',
      finality: 'optimistic',
      account_id: contract,
      method_name: method,
      args_base64: Buffer.from(JSON.stringify(args)).toString('base64'),
    });
    return JSON.parse(Buffer.from(r.result).toString());
  }

  async function viewError(contract: string, method: string, args: unknown = {}): Promise<string> {
    const { result, error } = await rpcRaw(t.url, 'query', {
      request_type: 'call_function',
      finality: 'optimistic',
      account_id: contract,
      method_name: method,
      args_base64: Buffer.from(JSON.stringify(args)).toString('base64'),
    });
    return JSON.stringify(error ?? result);
  }

  async function pending(): Promise<Array<{ request: SignatureRequest; count: number }>> {
    return view(signer.accountId, 'pending_requests', {});
  }

  /** Waits until `pending_requests` lists a request matching `match` with `count` yields. */
  async function waitPending(match: (r: SignatureRequest) => boolean, count = 1): Promise<SignatureRequest> {
    for (let i = 0; i < 200; i++) {
      const found = (await pending()).find((p) => match(p.request) && p.count >= count);
      if (found) return found.request;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('request never became pending');
  }

  function receiptGas(status: Json, executor: string, index = 0): bigint {
    const outcomes = status.receipts_outcome.filter((o: Json) => o.outcome.executor_id === executor);
    return BigInt(outcomes[index].outcome.gas_burnt);
  }

  before(async () => {
    t = await startTestNode();
    signer = await account('signer', 50n * NEAR, readSignerWasm());
    responder = await account('responder');
    alice = await account('alice', 100n * NEAR);
    agent = await account('agent', 50n * NEAR, readAgentWasm());
    for (const w of ['worker1', 'worker2', 'worker3']) workers.push(await account(w));
  });

  after(async () => {
    await t?.stop();
    console.log(
      'gas burnt by the contract receipts:',
      Object.fromEntries(Object.entries(gas).map(([k, v]) => [k, v.toString()])),
    );
  });

  const initArgs = () => ({
    owner_id: t.rootId,
    public_keys: { secp256k1: secpRootNaj, ed25519: edRootNaj },
    responders: [responder.accountId],
  });

  it('init: only by the contract itself, only once', async () => {
    let s = await call(alice, signer.accountId, 'init', initArgs());
    assert.deepEqual(s.status, panicked('Method init is private'));
    s = await call(signer, signer.accountId, 'init', {
      ...initArgs(),
      public_keys: { secp256k1: 'secp256k1:abc', ed25519: edRootNaj },
    });
    assert.deepEqual(
      s.status,
      panicked('Invalid argument `public_keys.secp256k1`: expected base58 of 64 bytes'),
    );
    s = await call(signer, signer.accountId, 'init', initArgs());
    assert.deepEqual(s.status, { SuccessValue: '' });
    s = await call(signer, signer.accountId, 'init', initArgs());
    assert.deepEqual(s.status, panicked('The contract has already been initialized'));
  });

  it('views: public_key, derived_public_key (= the JS derivation), latest_key_version', async () => {
    assert.equal(await view(signer.accountId, 'public_key'), secpRootNaj);
    assert.equal(await view(signer.accountId, 'public_key', { domain_id: 1 }), edRootNaj);
    assert.equal(await view(signer.accountId, 'latest_key_version'), 0);
    for (const [pred, path] of [
      ['alice.test.near', 'ethereum-1'],
      ['derivation-test.testnet', 'unit-test'],
      ['x.near', ''],
    ]) {
      const tweak = tweakOf(pred, path);
      assert.equal(
        await view(signer.accountId, 'derived_public_key', { path, predecessor: pred }),
        deriveSecp(tweak),
      );
      assert.equal(
        await view(signer.accountId, 'derived_public_key', { path, predecessor: pred, domain_id: 1 }),
        deriveEd(tweak),
      );
    }
    assert.match(
      await viewError(signer.accountId, 'public_key', { domain_id: 7 }),
      /The provided domain was not found\./,
    );
  });

  it('tweak matches the reference vector', () => {
    assert.equal(
      hex(tweakOf('dwefqwg', 'frwewegwegweg')),
      'ad2d6fc1f445a1b43830415e7e6e3d03cd077673047848a085f130c24f53ee00',
    );
  });

  it('sign (ECDSA) → pending_requests → respond → the caller gets the exact response; excess deposit refunded', async () => {
    const payload = hex(sha256(utf8('hello ecdsa')));
    const hash = await submit(
      alice,
      signer.accountId,
      'sign',
      { request: { path: 'ethereum-1', payload_v2: { Ecdsa: payload }, domain_id: 0 } },
      { gas: 50n * TGAS, deposit: NEAR },
    );
    const request = await waitPending((r) => r.payload.Ecdsa === payload);
    assert.deepEqual(request, {
      tweak: hex(tweakOf(alice.accountId, 'ethereum-1')),
      payload: { Ecdsa: payload },
      domain_id: 0,
    });
    const head = await view(signer.accountId, 'get_pending_request', { request });
    assert.equal(head.data_id.length, 32);
    const response = responseFor(request);
    const r = await call(responder, signer.accountId, 'respond', { request, response: JSON.parse(response) });
    assert.deepEqual(r.status, { SuccessValue: '' });
    gas.respond_ecdsa = receiptGas(r, signer.accountId);
    const s = await waitTx(hash, alice.accountId);
    assert.deepEqual(s.status, successJson(response));
    gas.sign_ecdsa = receiptGas(s, signer.accountId);
    gas.callback_ecdsa = receiptGas(s, signer.accountId, 1);
    // the refund of 1 NEAR − 1 yocto, a detached transfer to the predecessor
    const refunds = s.receipts.filter(
      (x: Json) => x.predecessor_id === signer.accountId && x.receiver_id === alice.accountId,
    );
    assert.deepEqual(
      refunds.map((x: Json) => x.receipt.Action.actions),
      [[{ Transfer: { deposit: (NEAR - 1n).toString() } }]],
    );
    assert.equal(await view(signer.accountId, 'get_pending_request', { request }), null);
    assert.deepEqual(await pending(), []);
  });

  it('sign (EdDSA) answered through respond', async () => {
    const payload = hex(utf8('a solana transaction message, signed whole'));
    const hash = await submit(
      alice,
      signer.accountId,
      'sign',
      { request: { path: 'solana-1', payload_v2: { Eddsa: payload }, domain_id: 1 } },
      { gas: 30n * TGAS, deposit: 1n },
    );
    const request = await waitPending((r) => r.payload.Eddsa === payload);
    assert.equal(request.tweak, hex(tweakOf(alice.accountId, 'solana-1')));
    const bad = await call(responder, signer.accountId, 'respond', {
      request,
      response: JSON.parse(responseFor(request, true)),
    });
    assert.deepEqual(bad.status, panicked('The provided signature is invalid.'));
    const response = responseFor(request);
    const r = await call(responder, signer.accountId, 'respond', { request, response: JSON.parse(response) });
    assert.deepEqual(r.status, { SuccessValue: '' });
    gas.respond_eddsa = receiptGas(r, signer.accountId);
    const s = await waitTx(hash, alice.accountId);
    assert.deepEqual(s.status, successJson(response));
    gas.sign_eddsa = receiptGas(s, signer.accountId);
  });

  it('duplicates: two identical requests (one legacy-shaped) are answered by one respond', async () => {
    const bytes = sha256(utf8('duplicate'));
    const h1 = await submit(
      alice,
      signer.accountId,
      'sign',
      { request: { path: 'dup', payload_v2: { Ecdsa: hex(bytes) }, domain_id: 0 } },
      { gas: 30n * TGAS, deposit: 1n },
    );
    const h2 = await submit(
      alice,
      signer.accountId,
      'sign',
      { request: { path: 'dup', payload: [...bytes], key_version: 0 } },
      { gas: 30n * TGAS, deposit: 1n },
    );
    const request = await waitPending((r) => r.payload.Ecdsa === hex(bytes), 2);
    assert.deepEqual(
      (await pending()).map((p) => p.count),
      [2],
    );
    const response = responseFor(request);
    const r = await call(responder, signer.accountId, 'respond', { request, response: JSON.parse(response) });
    assert.deepEqual(r.status, { SuccessValue: '' });
    gas.respond_2_duplicates = receiptGas(r, signer.accountId);
    assert.deepEqual((await waitTx(h1, alice.accountId)).status, successJson(response));
    assert.deepEqual((await waitTx(h2, alice.accountId)).status, successJson(response));
    // nothing left to answer
    const again = await call(responder, signer.accountId, 'respond', {
      request,
      response: JSON.parse(response),
    });
    assert.deepEqual(
      again.status,
      panicked('This sign request has timed out, was completed, or never existed.'),
    );
  });

  it('respond: wrong signature and unregistered responder refused', async () => {
    const payload = hex(sha256(utf8('refusals')));
    const hash = await submit(
      alice,
      signer.accountId,
      'sign',
      { request: { path: 'p', payload_v2: { Ecdsa: payload }, domain_id: 0 } },
      { gas: 30n * TGAS, deposit: 1n },
    );
    const request = await waitPending((r) => r.payload.Ecdsa === payload);
    let r = await call(responder, signer.accountId, 'respond', {
      request,
      response: JSON.parse(responseFor(request, true)),
    });
    assert.deepEqual(r.status, panicked('The provided signature is invalid.'));
    // a valid signature for another key (the tweak of another path)
    const other = { ...request, tweak: hex(tweakOf(alice.accountId, 'q')) };
    r = await call(responder, signer.accountId, 'respond', {
      request,
      response: JSON.parse(responseFor(other)),
    });
    assert.deepEqual(r.status, panicked('The provided signature is invalid.'));
    r = await call(alice, signer.accountId, 'respond', {
      request,
      response: JSON.parse(responseFor(request)),
    });
    assert.deepEqual(r.status, panicked(`Not a participant: ${alice.accountId}`));
    r = await call(responder, signer.accountId, 'respond', {
      request,
      response: { scheme: 'Ed25519', signature: Array(64).fill(0) },
    });
    assert.match(JSON.stringify(r.status), /The provided signature scheme does not match/);
    r = await call(responder, signer.accountId, 'respond', {
      request,
      response: JSON.parse(responseFor(request)),
    });
    assert.deepEqual(r.status, { SuccessValue: '' });
    assert.deepEqual((await waitTx(hash, alice.accountId)).status, successJson(responseFor(request)));
  });

  it('sign: argument, domain, gas and deposit errors with NEAR messages, in NEAR order', async () => {
    const ok = hex(sha256(utf8('x')));
    const cases: Array<[unknown, { gas?: bigint; deposit?: bigint }, string]> = [
      [
        { request: { path: 'p', payload_v2: { Ecdsa: ok }, domain_id: 5 } },
        { gas: 1n * TGAS, deposit: 0n },
        'The provided domain ID, 5, was not found.',
      ],
      [
        { request: { path: 'p', payload_v2: { Ecdsa: ok }, domain_id: 0 } },
        { gas: 14n * TGAS, deposit: 0n },
        'Provided gas is lower than required. Provided: 14000000000000, required: 15000000000000',
      ],
      [
        { request: { path: 'p', payload_v2: { Ecdsa: ok }, domain_id: 0 } },
        { gas: 15n * TGAS, deposit: 0n },
        'Attached deposit is lower than required. Attached: 0, required: 1',
      ],
      [{ request: { path: 'p', payload_v2: { Eddsa: ok }, domain_id: 0 } }, {}, 'Payload is not Ecdsa'],
      [{ request: { path: 'p', payload_v2: { Ecdsa: ok }, domain_id: 1 } }, {}, 'Payload is not EdDSA'],
      [
        { request: { path: 'p', payload_v2: { Ecdsa: 'ff'.repeat(32) }, domain_id: 0 } },
        {},
        'Ecdsa payload cannot be converted to Scalar',
      ],
      [
        { request: { path: 'p', payload_v2: { Ecdsa: hex(to32be(N)) }, domain_id: 0 } },
        {},
        'Ecdsa payload cannot be converted to Scalar',
      ],
      [
        { request: { path: 'p', payload_v2: { Ecdsa: 'ab'.repeat(31) }, domain_id: 0 } },
        {},
        'Invalid argument `request.payload_v2.Ecdsa`: expected exactly 32 bytes, got 31',
      ],
      [
        { request: { path: 'p', payload_v2: { Eddsa: 'ab'.repeat(1233) }, domain_id: 1 } },
        {},
        'Invalid argument `request.payload_v2.Eddsa`: at most 1232 bytes, got 1233',
      ],
      [
        { request: { path: 'p', payload_v2: { Ecdsa: ok }, payload: [...sha256(utf8('x'))], domain_id: 0 } },
        {},
        'payload_v2 and payload are mutually exclusive',
      ],
      [
        { request: { path: 'p', payload_v2: { Ecdsa: ok }, domain_id: 0, key_version: 0 } },
        {},
        'domain_id and key_version are mutually exclusive',
      ],
      [{ request: { payload_v2: { Ecdsa: ok }, domain_id: 0 } }, {}, 'Missing argument `request.path`'],
      [
        { request: { path: 7, payload_v2: { Ecdsa: ok }, domain_id: 0 } },
        {},
        'Invalid argument `request.path`: expected a string, got a number',
      ],
      [
        { request: { path: 'p', payload_v2: { Ecdsa: 'zz'.repeat(32) }, domain_id: 0 } },
        {},
        'Invalid argument `request.payload_v2.Ecdsa`: not a hex string',
      ],
      [
        { request: { path: 'p', payload_v2: { Foo: ok }, domain_id: 0 } },
        {},
        'Invalid argument `request.payload_v2`: unknown variant `Foo`, expected `Ecdsa` or `Eddsa`',
      ],
      ['{"request": {', {}, 'Failed to parse JSON arguments: expected a string key at byte 13'],
      [{}, {}, 'Missing argument `request`'],
    ];
    for (const [args, o, msg] of cases) {
      const s = await call(alice, signer.accountId, 'sign', args, {
        gas: o.gas ?? 30n * TGAS,
        deposit: o.deposit ?? 1n,
      });
      assert.deepEqual(s.status, panicked(msg), msg);
    }
    assert.deepEqual(await pending(), []);
    // the private callbacks
    let s = await call(alice, signer.accountId, 'fail_on_timeout', {});
    assert.deepEqual(s.status, panicked('Method fail_on_timeout is private'));
    s = await call(alice, signer.accountId, 'return_signature_and_clean_state_on_success', []);
    assert.deepEqual(s.status, panicked('Method return_signature_and_clean_state_on_success is private'));
  });

  it('timeout: "Request has timed out." after 200 blocks, and the queue is cleaned', async () => {
    const payload = hex(sha256(utf8('never answered')));
    const hash = await submit(
      alice,
      signer.accountId,
      'sign',
      { request: { path: 'late', payload_v2: { Ecdsa: payload }, domain_id: 0 } },
      { gas: 30n * TGAS, deposit: 1n },
    );
    await waitPending((r) => r.payload.Ecdsa === payload);
    await rpc(t.url, 'sandbox_fast_forward', { delta_height: 205 });
    const s = await waitTx(hash, alice.accountId);
    assert.deepEqual(s.status, panicked('Request has timed out.'));
    assert.deepEqual(await pending(), []);
  });

  // ---- agent contract -------------------------------------------------------------------------------

  it('agent: init, approve (owner only), register local, get_agent', async () => {
    let s = await call(alice, agent.accountId, 'init', {
      owner_id: t.rootId,
      mpc_contract_id: signer.accountId,
    });
    assert.deepEqual(s.status, panicked('Method init is private'));
    s = await call(agent, agent.accountId, 'init', {
      owner_id: t.rootId,
      mpc_contract_id: signer.accountId,
      requires_tee: false,
    });
    assert.deepEqual(s.status, { SuccessValue: '' });
    s = await call(agent, agent.accountId, 'init', { owner_id: t.rootId, mpc_contract_id: signer.accountId });
    assert.deepEqual(s.status, panicked('The contract has already been initialized'));
    s = await call(alice, agent.accountId, 'approve_codehash', { codehash: 'aa' });
    assert.deepEqual(s.status, panicked('Only the owner can call approve_codehash'));
    s = await call(t.root, agent.accountId, 'approve_codehash', { codehash: 'c0de' });
    assert.deepEqual(s.status, { SuccessValue: '' });
    s = await call(workers[0], agent.accountId, 'register_agent', { codehash: 'bad' });
    assert.deepEqual(s.status, panicked('Codehash bad is not approved'));
    for (const w of workers) {
      s = await call(w, agent.accountId, 'register_agent', { codehash: 'c0de' });
      assert.deepEqual(s.status, successJson('true'));
    }
    assert.deepEqual(await view(agent.accountId, 'get_agent', { account_id: workers[0].accountId }), {
      codehash: 'c0de',
    });
    assert.match(
      await viewError(agent.accountId, 'get_agent', { account_id: alice.accountId }),
      /no worker found/,
    );
    assert.deepEqual(await view(agent.accountId, 'get_approved_codehashes'), ['c0de']);
  });

  it('agent: get_agents is paginated', async () => {
    const all = await view(agent.accountId, 'get_agents');
    assert.deepEqual(
      all.map((a: Json) => a.account_id),
      workers.map((w) => w.accountId),
    );
    assert.deepEqual(await view(agent.accountId, 'get_agents', { from_index: 1, limit: 1 }), [
      { account_id: workers[1].accountId, codehash: 'c0de' },
    ]);
    assert.deepEqual(await view(agent.accountId, 'get_agents', { from_index: 5 }), []);
  });

  it('agent: request_signature end to end (ECDSA and EdDSA), with the agent contract as predecessor', async () => {
    for (const [keyType, domain] of [
      ['Ecdsa', 0],
      ['Eddsa', 1],
    ] as const) {
      const payload = hex(sha256(utf8(`agent ${keyType}`)));
      const hash = await submit(
        workers[0],
        agent.accountId,
        'request_signature',
        { path: 'ethereum-1', payload, key_type: keyType },
        { gas: 100n * TGAS },
      );
      const request = await waitPending((r) => (r.payload.Ecdsa ?? r.payload.Eddsa) === payload);
      assert.deepEqual(request, {
        tweak: hex(tweakOf(agent.accountId, 'ethereum-1')),
        payload: { [keyType]: payload },
        domain_id: domain,
      });
      const response = responseFor(request);
      const r = await call(responder, signer.accountId, 'respond', {
        request,
        response: JSON.parse(response),
      });
      assert.deepEqual(r.status, { SuccessValue: '' });
      const s = await waitTx(hash, workers[0].accountId);
      assert.deepEqual(s.status, successJson(response));
      gas[`request_signature_${keyType}`] = receiptGas(s, agent.accountId);
      // A 32-byte ECDSA payload goes in the legacy form every signer version reads (chain-signatures v1
      // reads no other); EdDSA in payload_v2.
      const signCall = s.receipts
        .filter((r: Json) => r.receiver_id === signer.accountId)
        .flatMap((r: Json) => r.receipt.Action?.actions ?? [])
        .find((a: Json) => a.FunctionCall?.method_name === 'sign');
      assert.deepEqual(
        JSON.parse(Buffer.from(signCall.FunctionCall.args, 'base64').toString()),
        keyType === 'Ecdsa'
          ? { request: { payload: [...Buffer.from(payload, 'hex')], path: 'ethereum-1', key_version: 0 } }
          : { request: { payload_v2: { Eddsa: payload }, path: 'ethereum-1', domain_id: 1 } },
      );
    }
  });

  it('agent: unregistered callers, removed codehashes and removed agents cannot sign', async () => {
    let s = await call(alice, agent.accountId, 'request_signature', {
      path: 'p',
      payload: '00'.repeat(32),
      key_type: 'Ecdsa',
    });
    assert.deepEqual(s.status, panicked('no worker found'));
    s = await call(
      workers[1],
      agent.accountId,
      'request_signature',
      { path: 'p', payload: '00'.repeat(32) },
      { gas: 20n * TGAS },
    );
    assert.deepEqual(
      s.status,
      panicked('Provided gas is lower than required. Provided: 20000000000000, required: 25000000000000'),
    );
    s = await call(alice, agent.accountId, 'remove_agent', { account_id: workers[2].accountId });
    assert.deepEqual(s.status, panicked('Only the owner can call remove_agent'));
    s = await call(t.root, agent.accountId, 'remove_agent', { account_id: workers[2].accountId });
    assert.deepEqual(s.status, { SuccessValue: '' });
    assert.match(
      await viewError(agent.accountId, 'get_agent', { account_id: workers[2].accountId }),
      /no worker found/,
    );
    s = await call(workers[2], agent.accountId, 'request_signature', { path: 'p', payload: '00'.repeat(32) });
    assert.deepEqual(s.status, panicked('no worker found'));
    s = await call(t.root, agent.accountId, 'remove_codehash', { codehash: 'c0de' });
    assert.deepEqual(s.status, { SuccessValue: '' });
    s = await call(workers[1], agent.accountId, 'request_signature', { path: 'p', payload: '00'.repeat(32) });
    assert.deepEqual(s.status, panicked('The codehash of this agent (c0de) is no longer approved'));
    assert.deepEqual((await view(agent.accountId, 'get_agents')).length, 2);
  });

  it('agent: TEE-mode registration checks the quote binding, checksum and compose', async () => {
    const w = workers[1];
    const api = 'a'.repeat(64);
    const app = 'b'.repeat(64);
    const compose = JSON.stringify({
      docker_compose_file: `services:\n  api: #shade-agent-api-image\n    image: x/api@sha256:${api}\n  app: #shade-agent-app-image\n    image: x/app@sha256:${app}\n`,
    });
    // dstack runtime events (type 0x08000001): digest = sha384(type LE ‖ ':' ‖ event ‖ ':' ‖ payload), and
    // RTMR3 = the digests extended from 48 zero bytes, rtmr = sha384(rtmr ‖ digest).
    const event = (name: string, payload: Uint8Array) => ({
      imr: 3,
      event_type: 0x08000001,
      digest: hex(sha384(new Uint8Array([1, 0, 0, 8, ...utf8(`:${name}:`), ...payload]))),
      event: name,
      event_payload: hex(payload),
    });
    const eventLog = [event('app-id', new Uint8Array(20)), event('compose-hash', sha256(utf8(compose)))];
    let replayed = new Uint8Array(48);
    for (const e of eventLog)
      replayed = sha384(new Uint8Array([...replayed, ...Buffer.from(e.digest, 'hex')]));
    const quote = Buffer.alloc(48 + 584 + 4);
    quote.writeUInt16LE(4, 0);
    quote.writeUInt32LE(0x81, 4);
    quote.write(w.accountId, 48 + 520, 'utf8');
    const rtmr3 = hex(replayed);
    Buffer.from(rtmr3, 'hex').copy(quote, 48 + 472);
    const tcb = { rtmr3, app_compose: compose, event_log: eventLog };
    const args = {
      quote_hex: hex(quote),
      collateral: '{}',
      checksum: hex(sha256(quote)),
      tcb_info: JSON.stringify(tcb),
    };
    for (const c of [api, app]) await call(t.root, agent.accountId, 'approve_codehash', { codehash: c });
    let s = await call(workers[0], agent.accountId, 'register_agent', args);
    assert.deepEqual(s.status, panicked('Invalid TDX quote: report_data does not match the caller'));
    s = await call(w, agent.accountId, 'register_agent', { ...args, checksum: '00' });
    assert.match(JSON.stringify(s.status), /Invalid checksum/);
    s = await call(w, agent.accountId, 'register_agent', {
      ...args,
      tcb_info: JSON.stringify({ ...tcb, rtmr3: '00'.repeat(48) }),
    });
    assert.deepEqual(s.status, panicked('tcb_info: rtmr3 does not match the quote'));
    const { rtmr3: _, ...unclaimed } = tcb;
    s = await call(w, agent.accountId, 'register_agent', {
      ...args,
      tcb_info: JSON.stringify({ ...unclaimed, event_log: eventLog.slice(1) }),
    });
    assert.deepEqual(s.status, panicked("tcb_info: the event log does not replay to the quote's RTMR3"));
    s = await call(w, agent.accountId, 'register_agent', args);
    assert.deepEqual(s.status, successJson('true'));
    assert.deepEqual(await view(agent.accountId, 'get_agent', { account_id: w.accountId }), {
      checksum: hex(sha256(quote)),
      codehash: app,
    });
    await call(t.root, agent.accountId, 'remove_codehash', { codehash: api });
    s = await call(workers[0], agent.accountId, 'register_agent', { codehash: 'c0de' });
    assert.deepEqual(s.status, panicked('Codehash c0de is not approved'));
  });
});
