/**
 * The responder against a real node (memory, automine): a small WAT contract that behaves like the signer's
 * `pending_requests`/`respond` pair, and — when packages/contracts/build/signer.wasm is built — the real
 * signer contract end to end (a user's `sign` resolves to a signature that verifies under the derived key).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  KeyPool,
  outcomeResult,
  RpcClient,
  type SignedTx,
  sendTransaction,
  viewFunction,
  viewFunctionRaw,
} from '@shadebox/near-client';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import { type Action, fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import wabtInit from 'wabt';
import { testRandom } from '../../../../test/test-random.js';
import {
  bytesToHex,
  deriveEd25519PublicKey,
  deriveSecp256k1PublicKey,
  deriveTweak,
  ed25519PublicKeyToNaj,
  secp256k1PublicKeyToNaj,
} from '../derivation.js';
import { RootKeys } from '../root-keys.js';
import {
  type EcdsaSignatureResponse,
  type EddsaSignatureResponse,
  recoverEcdsaPublicKey,
  type SignatureResponse,
  verifyEddsaResponse,
} from '../signing.js';
import { latencySummary } from './responder-stats.js';
import type { PendingSignatureRequest } from './signature-request.js';
import { startResponder } from './start-responder.js';

const rng = testRandom('packages/mpc/src/responder/start-responder.e2e.test.ts');

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers
type Json = any;

/** One account signing with its key through near-client's key pool. */
class Sender {
  readonly pool: KeyPool;
  constructor(
    readonly rpc: RpcClient,
    readonly accountId: string,
    readonly keyPair: KeyPair,
  ) {
    this.pool = new KeyPool(rpc, accountId, [keyPair]);
  }

  /** Signs with the key's next nonce, without sending. */
  async sign(receiverId: string, actions: Action[]): Promise<SignedTx> {
    return this.pool.sign(receiverId, actions);
  }

  /** Sends and waits for EXECUTED_OPTIMISTIC; throws when the transaction failed. */
  async send(receiverId: string, actions: Action[]): Promise<Json> {
    const outcome = await this.pool.send(receiverId, actions, { waitUntil: 'EXECUTED_OPTIMISTIC' });
    outcomeResult(outcome);
    return outcome;
  }

  async call(receiverId: string, methodName: string, args: unknown, deposit = 0n, gas = 100n * TGAS) {
    return this.send(receiverId, [
      {
        type: 'FunctionCall',
        methodName,
        args: new TextEncoder().encode(typeof args === 'string' ? args : JSON.stringify(args)),
        gas,
        deposit,
      },
    ]);
  }

  /** Creates `<name>` (a sub-account of this one) with a fresh key, 50 NEAR and optionally a contract. */
  async createAccount(accountId: string, code?: Uint8Array): Promise<Sender> {
    const keyPair = rng.keyPair('ed25519');
    const actions: Action[] = [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: 50n * ONE_NEAR },
      { type: 'AddKey', publicKey: keyPair.publicKey, accessKey: fullAccessKey() },
    ];
    if (code) actions.push({ type: 'DeployContract', code });
    await this.send(accountId, actions);
    return new Sender(this.rpc, accountId, keyPair);
  }
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function checkResponse(rootKeys: RootKeys, request: PendingSignatureRequest, response: SignatureResponse) {
  if (request.domain_id === 0) {
    const payload = Uint8Array.from(Buffer.from((request.payload as { Ecdsa: string }).Ecdsa, 'hex'));
    const derived = deriveSecp256k1PublicKey(rootKeys.secp256k1PublicKey, request.tweak);
    assert.equal(response.scheme, 'Secp256k1');
    assert.deepEqual(recoverEcdsaPublicKey(response as EcdsaSignatureResponse, payload), derived);
  } else {
    const message = Uint8Array.from(Buffer.from((request.payload as { Eddsa: string }).Eddsa, 'hex'));
    const derived = deriveEd25519PublicKey(rootKeys.ed25519PublicKey, request.tweak);
    assert.equal(response.scheme, 'Ed25519');
    assert.ok(verifyEddsaResponse(response as EddsaSignatureResponse, message, derived));
  }
}

// A stand-in for the signer: `set_pending(json)` stores what `pending_requests` answers; `respond` appends
// its arguments and a newline to a log that the view `responses` returns. It never removes requests: the
// test does, to check the responder answers each request once while it stays pending.
const FAKE_SIGNER_WAT = `
(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "storage_write" (func $storage_write (param i64 i64 i64 i64 i64) (result i64)))
  (import "env" "storage_read" (func $storage_read (param i64 i64 i64) (result i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory 16)
  (data (i32.const 0) "p")
  (data (i32.const 8) "log")
  (data (i32.const 16) "[]")
  (func (export "set_pending")
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 1024))
    (drop (call $storage_write (i64.const 1) (i64.const 0) (call $register_len (i64.const 0)) (i64.const 1024) (i64.const 1))))
  (func (export "pending_requests")
    (if (i64.eq (call $storage_read (i64.const 1) (i64.const 0) (i64.const 0)) (i64.const 1))
      (then
        (call $read_register (i64.const 0) (i64.const 1024))
        (call $value_return (call $register_len (i64.const 0)) (i64.const 1024)))
      (else (call $value_return (i64.const 2) (i64.const 16)))))
  (func (export "respond") (local $old i64) (local $in i64)
    (if (i64.eq (call $storage_read (i64.const 3) (i64.const 8) (i64.const 0)) (i64.const 1))
      (then
        (local.set $old (call $register_len (i64.const 0)))
        (call $read_register (i64.const 0) (i64.const 1024))))
    (call $input (i64.const 1))
    (local.set $in (call $register_len (i64.const 1)))
    (call $read_register (i64.const 1) (i64.add (i64.const 1024) (local.get $old)))
    (i32.store8 (i32.wrap_i64 (i64.add (i64.const 1024) (i64.add (local.get $old) (local.get $in)))) (i32.const 10))
    (drop (call $storage_write (i64.const 3) (i64.const 8)
      (i64.add (i64.add (local.get $old) (local.get $in)) (i64.const 1)) (i64.const 1024) (i64.const 1))))
  (func (export "responses")
    (if (i64.eq (call $storage_read (i64.const 3) (i64.const 8) (i64.const 0)) (i64.const 1))
      (then
        (call $read_register (i64.const 0) (i64.const 1024))
        (call $value_return (call $register_len (i64.const 0)) (i64.const 1024)))
      (else (call $value_return (i64.const 2) (i64.const 16))))))
`;

async function wat(src: string): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const mod = wabt.parseWat('fake-signer.wat', src);
  try {
    mod.validate();
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

async function responsesOf(
  rpc: RpcClient,
  contractId: string,
): Promise<Array<{ request: Json; response: Json }>> {
  const { result } = await viewFunctionRaw(rpc, contractId, 'responses', new Uint8Array());
  const text = Buffer.from(result).toString('utf8');
  if (text === '[]') return [];
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe('responder', () => {
  let node: RunningNode;
  let rpc: RpcClient;
  let root: Sender;
  const rootKeys = RootKeys.generate();

  before(async () => {
    node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
    const genesis = node.accounts[0];
    rpc = new RpcClient(node.rpcUrl);
    root = new Sender(rpc, genesis.accountId, KeyPair.fromString(genesis.secretKey));
  });
  after(async () => {
    await node?.stop();
  });

  /** `signer`'s response log once it has `count` entries. */
  function responsesUntil(signer: { accountId: string }, count: number) {
    return until(`${count} responses`, async () => {
      const log = await responsesOf(rpc, signer.accountId);
      return log.length >= count ? log : undefined;
    });
  }

  /** Lists one ECDSA request (payload `byte` × 32) in the stand-in and checks the first response to it. */
  async function askOnce(signer: Sender, predecessor: string, path: string, byte: string) {
    const request: PendingSignatureRequest = {
      tweak: bytesToHex(deriveTweak(predecessor, path)),
      payload: { Ecdsa: byte.repeat(32) },
      domain_id: 0,
    };
    await signer.call(signer.accountId, 'set_pending', [{ request, count: 1 }]);
    const log = await responsesUntil(signer, 1);
    checkResponse(rootKeys, log[0].request, log[0].response);
  }

  /** A stand-in signer contract and a responder account, named with `suffix`. */
  async function standIn(suffix: string) {
    const signer = await root.createAccount(
      `fake-signer${suffix}.${root.accountId}`,
      await wat(FAKE_SIGNER_WAT),
    );
    const responder = await root.createAccount(`fake-responder${suffix}.${root.accountId}`);
    return { signer, responder };
  }

  /** A responder answering `signer`'s requests from `responder`'s account. */
  function respondFor(
    signer: { accountId: string },
    responder: { accountId: string; keyPair: KeyPair },
    options: Partial<Parameters<typeof startResponder>[0]> = {},
  ) {
    return startResponder({
      rpcUrl: node.rpcUrl,
      signerContractId: signer.accountId,
      responderAccountId: responder.accountId,
      responderSecretKey: responder.keyPair.toString(),
      rootKeys,
      ...options,
    });
  }

  test('with a stand-in signer: answers each pending request once while listed, again after it returns', async () => {
    const { signer, responder } = await standIn('');
    const requests: PendingSignatureRequest[] = [
      {
        tweak: bytesToHex(deriveTweak('alice.test.near', 'ethereum-1')),
        payload: { Ecdsa: 'ab'.repeat(32) },
        domain_id: 0,
      },
      {
        tweak: bytesToHex(deriveTweak('bob.test.near', 'solana-1')),
        payload: { Eddsa: bytesToHex(new TextEncoder().encode('a Solana message of any length')) },
        domain_id: 1,
      },
      // Cannot be answered (domain 2): skipped, not retried.
      { tweak: '00'.repeat(32), payload: { Ecdsa: '01'.repeat(32) }, domain_id: 2 },
    ];
    const warnings: string[] = [];
    const running = await respondFor(signer, responder, {
      log: { warn: (_obj, msg) => warnings.push(String(msg)) },
    });
    try {
      await signer.call(
        signer.accountId,
        'set_pending',
        requests.map((request) => ({ request, count: 1 })),
      );
      const answered = await responsesUntil(signer, 2);
      assert.deepEqual(answered.map((r) => r.request).sort(byTweak), requests.slice(0, 2).sort(byTweak));
      for (const { request, response } of answered) checkResponse(rootKeys, request, response);
      // Still listed: they stay in flight and are not answered again.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await responsesOf(rpc, signer.accountId)).length, 2);
      assert.equal(running.stats.responded, 2);
      assert.equal(running.stats.rejected, 1);
      assert.ok(warnings.some((w) => w.includes('cannot be answered')));

      // Removed, then the first request comes back (a new request with the same key): answered again.
      await signer.call(signer.accountId, 'set_pending', []);
      await until('nothing in flight', async () => running.stats.inFlight === 0);
      await signer.call(signer.accountId, 'set_pending', [{ request: requests[0], count: 1 }]);
      const again = await responsesUntil(signer, 3);
      assert.deepEqual(again[2].request, requests[0]);
      assert.deepEqual(again[2].response, answered.find((a) => a.request.domain_id === 0)?.response);
      assert.equal(running.stats.responded, 3);
    } finally {
      await running.stop();
    }
    assert.equal(running.stats.failedSends, 0);
  });

  test('the nonce is re-read after InvalidNonce; a request listed long after its answer is answered again', async () => {
    const { signer, responder } = await standIn('2');
    const running = await respondFor(signer, responder, {
      retryBaseMs: 10,
      reanswerAfterMs: 150,
    });
    try {
      // The same key sends transactions behind the responder's back: its local nonce goes stale.
      for (let i = 0; i < 3; i++)
        await responder.send(responder.accountId, [{ type: 'Transfer', deposit: 1n }]);
      await askOnce(signer, 'carol.test.near', 'x', '11');
      assert.ok(running.stats.failedSends >= 1, 'the first send failed on the stale nonce');
      assert.ok(running.stats.responded >= 1);
      // The stand-in never drops answered requests: still listed `reanswerAfterMs` later, it is answered
      // again (as a duplicate that arrived right after the answer would be).
      const again = await responsesUntil(signer, 2);
      assert.deepEqual(again[1], again[0]);
    } finally {
      await running.stop();
    }
  });

  test('with a block subscription: answers on the next block and does not poll between blocks', async () => {
    const { signer, responder } = await standIn('3');
    let subscribed = 0;
    const running = await respondFor(signer, responder, {
      idlePollMs: 60_000,
      subscribeToBlocks: (listener) => {
        subscribed++;
        node.chain.on('block', listener);
        return () => {
          subscribed--;
          node.chain.off('block', listener);
        };
      },
    });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const idlePolls = running.stats.polls;
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(running.stats.polls, idlePolls, 'no poll without a block');
      await askOnce(signer, 'dave.test.near', 'y', '22');
      assert.ok(running.stats.polls > idlePolls);
    } finally {
      await running.stop();
    }
    assert.equal(subscribed, 0, 'stop() unsubscribes');
  });

  test('fails fast on an account without that key; stop() is prompt and idempotent', async () => {
    await assert.rejects(
      startResponder({
        rpcUrl: node.rpcUrl,
        signerContractId: 'nobody.test.near',
        responderAccountId: 'nobody.test.near',
        responderSecretKey: rng.keyPair('ed25519').toString(),
        rootKeys,
      }),
    );
    const running = await startResponder({
      rpcUrl: node.rpcUrl,
      signerContractId: 'nobody.test.near', // the view fails: counted, warned once, no crash
      responderAccountId: root.accountId,
      responderSecretKey: root.keyPair.toString(),
      rootKeys,
      log: {},
    });
    await until('a failed poll', async () => running.stats.pollErrors > 0);
    // Stopping twice resolves both times (no wall-clock bound: speed is the benchmark's business).
    await running.stop();
    await running.stop();
  });

  const signerWasm = fileURLToPath(new URL('../../../contracts/build/signer.wasm', import.meta.url));
  test('end to end with the signer contract: sign → respond → the user gets a verifying signature', {
    skip: existsSync(signerWasm) ? false : 'packages/contracts/build/signer.wasm is not built',
  }, async () => {
    const signer = await root.createAccount(
      `signer.${root.accountId}`,
      new Uint8Array(readFileSync(signerWasm)),
    );
    const responder = await root.createAccount(`mpc-responder.${root.accountId}`);
    await signer.call(signer.accountId, 'init', {
      owner_id: root.accountId,
      public_keys: rootKeys.publicKeys(),
      responders: [responder.accountId],
    });
    const alice = await root.createAccount(`alice.${root.accountId}`);
    const bob = await root.createAccount(`bob.${root.accountId}`);

    // The contract's views agree with our derivation.
    assert.equal(
      await viewFunction(rpc, signer.accountId, 'public_key', { domain_id: 1 }),
      rootKeys.ed25519PublicKey,
    );
    assert.equal(
      await viewFunction(rpc, signer.accountId, 'derived_public_key', {
        path: 'ethereum-1',
        predecessor: alice.accountId,
        domain_id: 0,
      }),
      secp256k1PublicKeyToNaj(
        deriveSecp256k1PublicKey(rootKeys.secp256k1PublicKey, deriveTweak(alice.accountId, 'ethereum-1')),
      ),
    );

    const running = await respondFor(signer, responder, {
      pollIntervalMs: 20,
      log: process.env.MPC_DEBUG ? { debug: (o) => console.log(JSON.stringify(o)) } : undefined,
    });
    try {
      const userLatencies: number[] = [];
      const signOnce = async (who: Sender, path: string, payloadV2: Json, domainId: number) => {
        const started = Date.now();
        const outcome = await who.call(
          signer.accountId,
          'sign',
          { request: { path, payload_v2: payloadV2, domain_id: domainId } },
          1n,
          50n * TGAS,
        );
        userLatencies.push(Date.now() - started);
        return JSON.parse(
          Buffer.from(outcome.status.SuccessValue, 'base64').toString('utf8'),
        ) as SignatureResponse;
      };

      const rounds = 10;
      for (let i = 0; i < rounds; i++) {
        const payload = bytesToHex(Uint8Array.from({ length: 32 }, (_, j) => (i * 31 + j * 7) & 0xff));
        const message = bytesToHex(new TextEncoder().encode(`solana transaction #${i}`));
        // Two users at once: ECDSA and EdDSA.
        const [ecdsa, eddsa] = await Promise.all([
          signOnce(alice, 'ethereum-1', { Ecdsa: payload }, 0),
          signOnce(bob, 'solana-1', { Eddsa: message }, 1),
        ]);
        checkResponse(
          rootKeys,
          {
            tweak: bytesToHex(deriveTweak(alice.accountId, 'ethereum-1')),
            payload: { Ecdsa: payload },
            domain_id: 0,
          },
          ecdsa,
        );
        checkResponse(
          rootKeys,
          {
            tweak: bytesToHex(deriveTweak(bob.accountId, 'solana-1')),
            payload: { Eddsa: message },
            domain_id: 1,
          },
          eddsa,
        );
        assert.equal(
          await viewFunction(rpc, signer.accountId, 'derived_public_key', {
            path: 'solana-1',
            predecessor: bob.accountId,
            domain_id: 1,
          }),
          ed25519PublicKeyToNaj(
            deriveEd25519PublicKey(rootKeys.ed25519PublicKey, deriveTweak(bob.accountId, 'solana-1')),
          ),
        );
      }
      // Identical requests (same predecessor, path and payload) from one account at once: one response
      // answers all of them. Submitted in nonce order, then awaited together.
      const duplicate = bytesToHex(new Uint8Array(32).fill(0x42));
      const args = new TextEncoder().encode(
        JSON.stringify({ request: { path: 'dup', payload_v2: { Ecdsa: duplicate }, domain_id: 0 } }),
      );
      const txs: SignedTx[] = [];
      for (let i = 0; i < 3; i++) {
        txs.push(
          await alice.sign(signer.accountId, [
            { type: 'FunctionCall', methodName: 'sign', args, gas: 50n * TGAS, deposit: 1n },
          ]),
        );
      }
      for (const tx of txs) await sendTransaction(rpc, tx.bytes, 'NONE');
      const outcomes = await Promise.all(
        txs.map((tx) => rpc.call('tx', { signed_tx_base64: tx.base64, wait_until: 'EXECUTED_OPTIMISTIC' })),
      );
      const dupResponses = outcomes.map((o) => {
        assert.ok(o.status.SuccessValue, JSON.stringify(o.status));
        return JSON.parse(Buffer.from(o.status.SuccessValue, 'base64').toString('utf8'));
      });
      for (const r of dupResponses) {
        assert.deepEqual(r, dupResponses[0]);
        checkResponse(
          rootKeys,
          {
            tweak: bytesToHex(deriveTweak(alice.accountId, 'dup')),
            payload: { Ecdsa: duplicate },
            domain_id: 0,
          },
          r,
        );
      }

      await until('nothing pending', async () => {
        const pending = await viewFunction(rpc, signer.accountId, 'pending_requests', {});
        return Array.isArray(pending) && pending.length === 0;
      });
      assert.equal(running.stats.failedSends, 0);
      assert.ok(running.stats.responded >= 2 * rounds);
      const summary = latencySummary(running.stats);
      console.log(
        `responder latency on automine (first seen → respond executed), ${summary.count} answers: ` +
          `mean ${summary.mean.toFixed(1)} ms, p50 ${summary.p50} ms, p95 ${summary.p95} ms, max ${summary.max} ms`,
      );
      const user = latencySummary({ latenciesMs: userLatencies });
      console.log(
        `sign latency seen by the user (send_tx → signature), ${user.count} signs: ` +
          `mean ${user.mean.toFixed(1)} ms, p50 ${user.p50} ms, p95 ${user.p95} ms, max ${user.max} ms`,
      );
    } finally {
      await running.stop();
    }
  });
});

function byTweak(a: PendingSignatureRequest, b: PendingSignatureRequest): number {
  return a.tweak < b.tweak ? -1 : a.tweak > b.tweak ? 1 : 0;
}
