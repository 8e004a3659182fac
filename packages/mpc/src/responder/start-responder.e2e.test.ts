/**
 * The responder against a real node (memory, automine) and Shadebox's signer contract
 * (packages/contracts/build/signer.wasm): requests found in receipts are answered once, a request settled
 * elsewhere is not answered again, a restarted responder catches up from the height it saved, 50 concurrent
 * requests from several predecessors are all answered, and a user's `sign` resolves to a signature that
 * verifies under the derived key. NEAR's production signers are tested in
 * packages/cli/src/chain-signatures/production-signer.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  ChainUnavailableError,
  KeyPool,
  outcomeResult,
  RpcClient,
  type SignedTx,
  sendTransaction,
  viewFunction,
} from '@shadebox/near-client';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import { type Action, fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
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
import { respondTo } from './signature-request.js';
import { UnknownSignerError } from './signer-flavor.js';
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

  /** Signs with the key's next nonce and the head's block hash, without sending. */
  async sign(receiverId: string, actions: Action[]): Promise<SignedTx> {
    await this.freshBlockHash();
    return this.pool.sign(receiverId, actions);
  }

  /** Signs from now on with the head's hash: after a fast-forward the pool's last one has expired. */
  async freshBlockHash(): Promise<void> {
    this.pool.useBlockHash((await this.rpc.call<Json>('block', { finality: 'optimistic' })).header.hash);
  }

  /** Sends and waits for EXECUTED_OPTIMISTIC (asking again when the node's own wait runs out on a loaded
   * machine); throws when the transaction failed. */
  async send(receiverId: string, actions: Action[]): Promise<Json> {
    // A fresh block hash: after a fast-forward the pool's last one has expired.
    await this.freshBlockHash();
    const signed = await this.pool.sign(receiverId, actions);
    await sendTransaction(this.rpc, signed.bytes, 'NONE');
    for (let attempt = 0; ; attempt++) {
      try {
        const outcome = await this.rpc.call<Json>('tx', {
          signed_tx_base64: signed.base64,
          wait_until: 'EXECUTED_OPTIMISTIC',
        });
        outcomeResult(outcome);
        return outcome;
      } catch (err) {
        if (!(err instanceof ChainUnavailableError) || attempt >= 10) throw err;
      }
    }
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
  timeoutMs = 60_000,
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

  const signerWasm = fileURLToPath(new URL('../../../contracts/build/signer.wasm', import.meta.url));

  /** Shadebox's signer at `signer<suffix>.test.near`, answering responders `mpc-responder<suffix>-{1,2}`. */
  async function deploySigner(suffix: string) {
    const signer = await root.createAccount(
      `signer${suffix}.${root.accountId}`,
      new Uint8Array(readFileSync(signerWasm)),
    );
    const responder = await root.createAccount(`mpc-responder${suffix}-1.${root.accountId}`);
    const other = await root.createAccount(`mpc-responder${suffix}-2.${root.accountId}`);
    await signer.call(signer.accountId, 'init', {
      owner_id: root.accountId,
      public_keys: rootKeys.publicKeys(),
      responders: [responder.accountId, other.accountId],
    });
    return { signer, responder, other };
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

  /** Sends `sign` (not waiting) and returns the transaction, to be awaited with `resultOf`. */
  async function sendSign(who: Sender, signer: { accountId: string }, request: Json): Promise<SignedTx> {
    const tx = await who.sign(signer.accountId, [
      {
        type: 'FunctionCall',
        methodName: 'sign',
        args: new TextEncoder().encode(JSON.stringify({ request })),
        gas: 50n * TGAS,
        deposit: 1n,
      },
    ]);
    await sendTransaction(rpc, tx.bytes, 'NONE');
    return tx;
  }

  /** The `sign` transaction's outcome once executed: the response, or the failure. */
  async function resultOf(tx: SignedTx): Promise<{ response?: SignatureResponse; failure?: Json }> {
    // Waits as long as the request may take on a loaded machine (the node's own wait is shorter: retried).
    const patient = new RpcClient([node.rpcUrl], 120_000);
    let o: Json;
    for (let attempt = 0; ; attempt++) {
      try {
        o = await patient.call<Json>('tx', {
          signed_tx_base64: tx.base64,
          wait_until: 'EXECUTED_OPTIMISTIC',
        });
        break;
      } catch (err) {
        if (attempt >= 5) throw err;
      }
    }
    if (o.status.SuccessValue === undefined) return { failure: o.status.Failure };
    return { response: JSON.parse(Buffer.from(o.status.SuccessValue, 'base64').toString('utf8')) };
  }

  /** Until `running` has read the blocks back to the head (its lookback on start). */
  async function caughtUp(running: { scannedHeight: number }) {
    const head = (await rpc.call<Json>('block', { finality: 'optimistic' })).header.height;
    await until('the responder caught up', async () => running.scannedHeight >= head);
  }

  const ecdsaRequest = (predecessor: string, path: string, payload: string): PendingSignatureRequest => ({
    tweak: bytesToHex(deriveTweak(predecessor, path)),
    payload: { Ecdsa: payload },
    domain_id: 0,
  });

  test('answers requests found in receipts once, in every request form; refused calls are not candidates', async () => {
    const { signer, responder } = await deploySigner('-once');
    const alice = await root.createAccount(`alice-once.${root.accountId}`);
    const bob = await root.createAccount(`bob-once.${root.accountId}`);
    const running = await respondFor(signer, responder);
    try {
      assert.equal(running.flavor, 'shadebox');
      const message = bytesToHex(new TextEncoder().encode('a Solana message of any length'));
      const legacy = Array.from({ length: 32 }, (_, i) => i + 1);
      const txs = [
        await sendSign(alice, signer, {
          path: 'ethereum-1',
          payload_v2: { Ecdsa: 'ab'.repeat(32) },
          domain_id: 0,
        }),
        await sendSign(bob, signer, { path: 'solana-1', payload_v2: { Eddsa: message }, domain_id: 1 }),
        // The legacy form: `payload` as 32 numbers and `key_version`.
        await sendSign(bob, signer, { path: 'legacy', payload: legacy, key_version: 0 }),
        // Refused by the contract (unknown domain): nothing yields, nothing to answer.
        await sendSign(alice, signer, { path: 'x', payload_v2: { Ecdsa: '01'.repeat(32) }, domain_id: 2 }),
      ];
      const results = await Promise.all(txs.map(resultOf));
      checkResponse(
        rootKeys,
        ecdsaRequest(alice.accountId, 'ethereum-1', 'ab'.repeat(32)),
        results[0].response!,
      );
      checkResponse(
        rootKeys,
        {
          tweak: bytesToHex(deriveTweak(bob.accountId, 'solana-1')),
          payload: { Eddsa: message },
          domain_id: 1,
        },
        results[1].response!,
      );
      checkResponse(
        rootKeys,
        ecdsaRequest(bob.accountId, 'legacy', bytesToHex(Uint8Array.from(legacy))),
        results[2].response!,
      );
      assert.ok(results[3].failure !== undefined, 'domain 2 is refused by the contract');
      // Answered once each: later blocks do not bring them back.
      await root.send(root.accountId, [{ type: 'Transfer', deposit: 1n }]);
      await until('nothing in flight', async () => running.stats.inFlight === 0);
      assert.equal(running.stats.responded, 3);
      assert.equal(running.stats.requestsSeen, 3);
      assert.equal(running.stats.failedSends, 0);
    } finally {
      await running.stop();
    }
  });

  test('the nonce is re-read after InvalidNonce; a duplicate arriving after the answer is answered too', async () => {
    const { signer, responder } = await deploySigner('-nonce');
    const carol = await root.createAccount(`carol-nonce.${root.accountId}`);
    const running = await respondFor(signer, responder, { retryBaseMs: 10, reanswerAfterMs: 150 });
    try {
      // The same key sends transactions behind the responder's back: its local nonce goes stale.
      for (let i = 0; i < 3; i++)
        await responder.send(responder.accountId, [{ type: 'Transfer', deposit: 1n }]);
      const request = { path: 'x', payload_v2: { Ecdsa: '11'.repeat(32) }, domain_id: 0 };
      const first = await resultOf(await sendSign(carol, signer, request));
      checkResponse(rootKeys, ecdsaRequest(carol.accountId, 'x', '11'.repeat(32)), first.response!);
      assert.ok(running.stats.failedSends >= 1, 'the first send failed on the stale nonce');
      // The same request again: a new receipt, pending again, answered again with the same signature.
      const second = await resultOf(await sendSign(carol, signer, request));
      assert.deepEqual(second.response, first.response);
      // The user may see the answer before the responder has read where its `respond` ran.
      await until('both answers counted', async () => running.stats.responded >= 2);
    } finally {
      await running.stop();
    }
  });

  test('with a block subscription: answers on the next block and does not poll between blocks', async () => {
    const { signer, responder } = await deploySigner('-sub');
    const dave = await root.createAccount(`dave-sub.${root.accountId}`);
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
      await caughtUp(running);
      // Wait for the chain to be idle (automine makes blocks until the earlier work is final).
      let last = -1;
      await until('the chain is idle', async () => {
        const height = (await rpc.call<Json>('block', { finality: 'optimistic' })).header.height;
        const idle = height === last;
        last = height;
        if (!idle) await new Promise((r) => setTimeout(r, 200));
        return idle;
      });
      await new Promise((r) => setTimeout(r, 100));
      let blocks = 0;
      const counter = () => blocks++;
      node.chain.on('block', counter);
      const idlePolls = running.stats.polls;
      await new Promise((r) => setTimeout(r, 400));
      node.chain.off('block', counter);
      // At most one poll per block made meanwhile (automine may still finish earlier work).
      assert.ok(
        running.stats.polls - idlePolls <= blocks,
        `${running.stats.polls - idlePolls} polls, ${blocks} blocks`,
      );
      const { response } = await resultOf(
        await sendSign(dave, signer, { path: 'y', payload_v2: { Ecdsa: '22'.repeat(32) }, domain_id: 0 }),
      );
      checkResponse(rootKeys, ecdsaRequest(dave.accountId, 'y', '22'.repeat(32)), response!);
      assert.ok(running.stats.polls > idlePolls, 'a block made a poll');
    } finally {
      await running.stop();
    }
    assert.equal(subscribed, 0, 'stop() unsubscribes');
  });

  test('a request settled by another responder, or by the timeout, is not answered again', async () => {
    const { signer, responder, other } = await deploySigner('-settled');
    const erin = await root.createAccount(`erin-settled.${root.accountId}`);
    // While no responder of ours runs: one request answered by another responder's hand-made `respond`…
    const answered = await sendSign(erin, signer, {
      path: 'p',
      payload_v2: { Ecdsa: '33'.repeat(32) },
      domain_id: 0,
    });
    const request = ecdsaRequest(erin.accountId, 'p', '33'.repeat(32));
    await until('the request is pending', () =>
      viewFunction(rpc, signer.accountId, 'get_pending_request', { request }),
    );
    await other.call(signer.accountId, 'respond', { request, response: respondTo(rootKeys, request) });
    checkResponse(rootKeys, request, (await resultOf(answered)).response!);
    // …and one left to time out (200 blocks, skipped at once).
    const timedOut = await sendSign(erin, signer, {
      path: 'q',
      payload_v2: { Ecdsa: '44'.repeat(32) },
      domain_id: 0,
    });
    const late = ecdsaRequest(erin.accountId, 'q', '44'.repeat(32));
    await until('the request is pending', () =>
      viewFunction(rpc, signer.accountId, 'get_pending_request', { request: late }),
    );
    await rpc.call('sandbox_fast_forward', { delta_height: 205 });
    const failure = (await resultOf(timedOut)).failure;
    assert.match(JSON.stringify(failure), /Request has timed out/);

    // A responder started now reads both `sign` receipts back, finds neither pending, and answers nothing.
    const running = await respondFor(signer, responder, { lookbackBlocks: 400 });
    try {
      const head = (await rpc.call<Json>('block', { finality: 'optimistic' })).header.height;
      await until('the blocks are read', async () => running.scannedHeight >= head, 60_000);
      await root.send(root.accountId, [{ type: 'Transfer', deposit: 1n }]);
      await until('nothing in flight', async () => running.stats.inFlight === 0);
      assert.equal(running.stats.requestsSeen, 0);
      assert.equal(running.stats.responded, 0);
    } finally {
      await running.stop();
    }
  });

  test('restarted with its saved height, a responder answers what arrived while it was down', async () => {
    const { signer, responder } = await deploySigner('-restart');
    const frank = await root.createAccount(`frank-restart.${root.accountId}`);
    const home = mkdtempSync(join(tmpdir(), 'shadebox-responder-'));
    const heightFile = join(home, 'mpc_responder.json');
    try {
      // No lookback: only the saved height lets it find what came while it was stopped.
      const first = await respondFor(signer, responder, { heightFile, lookbackBlocks: 0 });
      const answered = await resultOf(
        await sendSign(frank, signer, { path: 'a', payload_v2: { Ecdsa: '55'.repeat(32) }, domain_id: 0 }),
      );
      checkResponse(rootKeys, ecdsaRequest(frank.accountId, 'a', '55'.repeat(32)), answered.response!);
      await first.stop();
      assert.ok(existsSync(heightFile), 'the height is saved');

      const waiting = await sendSign(frank, signer, {
        path: 'b',
        payload_v2: { Ecdsa: '66'.repeat(32) },
        domain_id: 0,
      });
      const request = ecdsaRequest(frank.accountId, 'b', '66'.repeat(32));
      await until('the request is pending', () =>
        viewFunction(rpc, signer.accountId, 'get_pending_request', { request }),
      );
      // More blocks go by before the restart.
      for (let i = 0; i < 3; i++) await root.send(root.accountId, [{ type: 'Transfer', deposit: 1n }]);

      const second = await respondFor(signer, responder, { heightFile, lookbackBlocks: 0 });
      try {
        checkResponse(rootKeys, request, (await resultOf(waiting)).response!);
        // The user may see the answer before the responder has read where its `respond` ran.
        await until('the answer counted', async () => second.stats.responded >= 1);
        await until('nothing in flight', async () => second.stats.inFlight === 0);
        assert.equal(
          second.stats.responded,
          1,
          'the request answered before the restart is not answered again',
        );
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('after a sandbox_revert, requests in the new blocks at heights already read are answered', async () => {
    const { signer, responder } = await deploySigner('-revert');
    const grace = await root.createAccount(`grace-revert.${root.accountId}`);
    const running = await respondFor(signer, responder, {
      fetch: node.fetch,
      subscribeToBlocks: (listener) => {
        node.chain.on('block', listener);
        return () => {
          node.chain.off('block', listener);
        };
      },
    });
    try {
      const before = { path: 'r', payload_v2: { Ecdsa: '77'.repeat(32) }, domain_id: 0 };
      const first = await resultOf(await sendSign(grace, signer, before));
      checkResponse(rootKeys, ecdsaRequest(grace.accountId, 'r', '77'.repeat(32)), first.response!);
      const snapshot = await rpc.call<string>('sandbox_snapshot', []);
      // The responder reads the blocks above the snapshot; the revert makes new ones at those heights.
      for (let i = 0; i < 4; i++) await root.send(root.accountId, [{ type: 'Transfer', deposit: 1n }]);
      await caughtUp(running);
      await rpc.call('sandbox_revert', { snapshot_id: snapshot });

      // A new request, and the one answered before the revert (its answer is reverted with the rest).
      const other = { path: 'r', payload_v2: { Ecdsa: '88'.repeat(32) }, domain_id: 0 };
      const results = await Promise.all([
        resultOf(await sendSign(grace, signer, other)),
        resultOf(await sendSign(grace, signer, before)),
      ]);
      checkResponse(rootKeys, ecdsaRequest(grace.accountId, 'r', '88'.repeat(32)), results[0].response!);
      assert.deepEqual(results[1].response, first.response);
    } finally {
      await running.stop();
    }
  });

  test("with the node's in-process RPC and block notifications, the respond is in the block after the yield", async () => {
    const { signer, responder } = await deploySigner('-next');
    const user = await root.createAccount(`user-next.${root.accountId}`);
    const running = await respondFor(signer, responder, {
      fetch: node.fetch,
      subscribeToBlocks: (listener) => {
        node.chain.on('block', listener);
        return () => {
          node.chain.off('block', listener);
        };
      },
    });
    try {
      await caughtUp(running);
      for (const [i, path] of ['next-1', 'next-2'].entries()) {
        const payload = bytesToHex(new Uint8Array(32).fill(0x60 + i));
        const tx = await sendSign(user, signer, { path, payload_v2: { Ecdsa: payload }, domain_id: 0 });
        const { response } = await resultOf(tx);
        checkResponse(rootKeys, ecdsaRequest(user.accountId, path, payload), response!);
        // The `sign` receipt parked the yield in block H; the responder read H, checked the request and sent
        // `respond` before the producer made H + 1, which includes it.
        const outcome = await rpc.call<Json>('tx', { tx_hash: tx.hash, sender_account_id: user.accountId });
        const yieldBlock = await rpc.call<Json>('block', {
          block_id: outcome.receipts_outcome[0].block_hash,
        });
        const next = await rpc.call<Json>('block', { block_id: yieldBlock.header.height + 1 });
        const included = await Promise.all(
          next.chunks.map((c: Json) => rpc.call<Json>('chunk', { chunk_id: c.chunk_hash })),
        );
        const responds = included
          .flatMap((c: Json) => c.transactions)
          .filter((t: Json) => t.signer_id === responder.accountId && t.receiver_id === signer.accountId);
        assert.equal(responds.length, 1, `a respond in block ${yieldBlock.header.height + 1}`);
      }
      assert.equal(running.stats.responded, 2);
    } finally {
      await running.stop();
    }
  });

  test('50 concurrent requests from several predecessors: each answered once', async () => {
    const { signer, responder } = await deploySigner('-many');
    const users = await Promise.all(
      ['g', 'h', 'i', 'j', 'k'].map((name) => root.createAccount(`${name}-many.${root.accountId}`)),
    );
    const running = await respondFor(signer, responder);
    try {
      await caughtUp(running);
      const txs: Array<{ tx: SignedTx; request: PendingSignatureRequest }> = [];
      for (let i = 0; i < 50; i++) {
        const user = users[i % users.length];
        const payload = bytesToHex(Uint8Array.from({ length: 32 }, (_, j) => (i * 13 + j) & 0x7f));
        const path = `path-${i}`;
        const tx = await sendSign(user, signer, { path, payload_v2: { Ecdsa: payload }, domain_id: 0 });
        txs.push({ tx, request: ecdsaRequest(user.accountId, path, payload) });
      }
      const results = await Promise.all(txs.map(({ tx }) => resultOf(tx)));
      for (const [i, r] of results.entries()) {
        assert.equal(r.failure, undefined, `request ${i}: ${JSON.stringify(r.failure)}`);
        checkResponse(rootKeys, txs[i].request, r.response!);
      }
      await until('nothing in flight', async () => running.stats.inFlight === 0);
      assert.equal(running.stats.responded, 50);
      assert.equal(running.stats.requestsSeen, 50);
    } finally {
      await running.stop();
    }
  });

  test('fails fast on an account without that key, or a contract that is not a signer; stop() is idempotent', async () => {
    await assert.rejects(
      startResponder({
        rpcUrl: node.rpcUrl,
        signerContractId: 'nobody.test.near',
        responderAccountId: 'nobody.test.near',
        responderSecretKey: rng.keyPair('ed25519').toString(),
        rootKeys,
      }),
    );
    await assert.rejects(
      startResponder({
        rpcUrl: node.rpcUrl,
        signerContractId: 'nobody.test.near',
        responderAccountId: root.accountId,
        responderSecretKey: root.keyPair.toString(),
        rootKeys,
      }),
      UnknownSignerError,
    );
    const running = await startResponder({
      rpcUrl: node.rpcUrl,
      signerContractId: 'nobody.test.near',
      flavor: 'shadebox',
      responderAccountId: root.accountId,
      responderSecretKey: root.keyPair.toString(),
      rootKeys,
      log: {},
    });
    await until('a cycle', async () => running.stats.polls > 0);
    // Stopping twice resolves both times (no wall-clock bound: speed is the benchmark's business).
    await running.stop();
    await running.stop();
  });

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
