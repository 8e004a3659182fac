/**
 * End to end: `kill -9` under load. A node runs as a child process on a home (LMDB); signers send transfers,
 * account creations and transfers creating implicit accounts, most waiting for FINAL; at a random moment the
 * node gets SIGKILL and is started again on the same home. Some rounds kill it again while it starts. After
 * each restart, with the node quiescent:
 *
 * - heights: the head is at least the highest head (and final block) any RPC answer showed before the kill,
 *   and never goes back across restarts; every block seen as final before keeps its hash;
 * - FINAL is durable: every transaction acknowledged with `final_execution_status: "FINAL"` is returned by
 *   `tx` (wait_until NONE) exactly as acknowledged (status, transaction outcome, receipt outcomes, all fields);
 *   every other transaction ever sent is now either FINAL and successful or unknown (lost with the pool), and
 *   one found unknown after a restart stays unknown;
 * - effects: every account that only receives (created accounts, implicit accounts) exists exactly when the
 *   transaction creating it is on chain, with amount == Σ deposits of the on-chain transactions paying it, to
 *   the yocto; created accounts have their key;
 * - supply: with F the final block (nothing in flight), Σ (amount + locked) over every account that can exist
 *   == total_supply of block F+1 == genesis total supply − Σ balance_burnt of the chunks of blocks 1..F+1,
 *   and each block's total_supply is its parent's minus its chunks' balance_burnt;
 * - no orphans: every block from genesis to head is readable by height and by hash (the same block), chains
 *   by prev_hash, has its chunks readable by hash with the header the block carries; every outcome of a FINAL
 *   transaction lies in a canonical block at or below F;
 * - liveness: the node makes blocks and takes transactions again (a probe transfer reaches FINAL).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  type Action,
  base58Decode,
  base58Encode,
  base64Encode,
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  ONE_NEAR as NEAR,
  nearImplicitAccountId,
  signTransaction,
  transactionHash,
} from '@shadebox/primitives';
import {
  type Json,
  killAllNodes,
  mapLimit,
  NodeChild,
  type ReadyLine,
  rpc,
  rpcRaw,
  sleep,
} from './kill9-node.js';
import { testRandom } from './test-random.js';

const rng = testRandom('test/node-kill9.test.ts');

/** Kill/restart rounds, and how many of them also kill the node while it starts again. */
const ROUNDS = 8;
const STARTUP_KILLS = 2;
const SIGNERS = 4;
/** Load before the kill, ms (uniform). */
const LOAD_MS = [100, 900] as const;

type Level = 'NONE' | 'INCLUDED' | 'EXECUTED_OPTIMISTIC' | 'FINAL';

interface SentTx {
  hash: string;
  signer: string;
  receiver: string;
  /** The receiving-only account this transaction pays (and for `create`/`implicit` creates), if any. */
  sink?: string;
  deposit: bigint;
  kind: 'transfer' | 'create' | 'implicit' | 'probe';
  /** `final`: on chain and FINAL; `lost`: unknown to the node after a restart; `open`: not known yet. */
  state: 'open' | 'final' | 'lost';
  /** The FINAL answer (from send_tx, or from `tx` once resolved). */
  outcome?: Json;
  /** Acknowledged FINAL by send_tx before a kill. */
  acked: boolean;
}

interface Signer {
  id: string;
  key: KeyPair;
  nonce: bigint;
}

/** A created or implicit account: only ever receives. */
interface Sink {
  id: string;
  creator: SentTx;
  key?: KeyPair;
}

describe('kill -9 under load', () => {
  let home: string | undefined;

  after(async () => {
    killAllNodes();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it(`keeps every FINAL transaction and a consistent chain across ${ROUNDS} kills`, {
    timeout: 180_000,
  }, async () => {
    const started = Date.now();
    home = await mkdtemp(join(tmpdir(), 'shadebox-kill9-'));
    const nodeHome = join(home, 'node');
    const tag = rng.bytes(3).toString('hex');

    let node = new NodeChild(nodeHome);
    let ready: ReadyLine = await node.ready;
    let url = ready.rpcUrl;
    const [rootAccount] = ready.accounts;
    const root: Signer = {
      id: rootAccount.accountId,
      key: KeyPair.fromString(rootAccount.secretKey),
      nonce: 0n,
    };

    const txs: SentTx[] = [];
    const sinks: Sink[] = [];
    const signers: Signer[] = [];

    // ---- observation of the chain while it runs ---------------------------------------------------------
    let maxHeadSeen = 0;
    let maxFinalSeen = 0;
    /** Hashes of blocks seen as final, by height. */
    const finalSeen = new Map<number, string>();
    let recentHash = '';

    const observe = (b: Json, finality: 'final' | 'optimistic') => {
      const h: number = b.header.height;
      if (finality === 'final') {
        if (h > maxFinalSeen) maxFinalSeen = h;
        finalSeen.set(h, b.header.hash);
        recentHash = b.header.hash;
      } else if (h > maxHeadSeen) maxHeadSeen = h;
    };

    // ---- transactions -------------------------------------------------------------------------------------
    const refreshNonce = async (s: Signer) => {
      const key = await rpc(url, 'query', {
        request_type: 'view_access_key',
        account_id: s.id,
        public_key: s.key.publicKeyString,
        finality: 'optimistic',
      });
      const onChain = BigInt(key.nonce);
      if (onChain > s.nonce) s.nonce = onChain;
    };

    const sign = (s: Signer, receiver: string, actions: Action[]) => {
      s.nonce += 1n;
      const tx = createTransaction({
        signerId: s.id,
        publicKey: s.key.publicKey,
        nonce: s.nonce,
        receiverId: receiver,
        blockHash: base58Decode(recentHash),
        actions,
      });
      return {
        hash: base58Encode(transactionHash(tx)),
        base64: base64Encode(encodeSignedTransaction(signTransaction(tx, s.key))),
      };
    };

    /** Sends `actions`, recording the transaction first; resolves with the send_tx answer. */
    const send = async (
      s: Signer,
      receiver: string,
      actions: Action[],
      level: Level,
      fields: Partial<SentTx>,
    ) => {
      const signed = sign(s, receiver, actions);
      const sent: SentTx = {
        hash: signed.hash,
        signer: s.id,
        receiver,
        deposit: 0n,
        kind: 'transfer',
        state: 'open',
        acked: false,
        ...fields,
      };
      txs.push(sent);
      const answer = await rpcRaw(url, 'send_tx', { signed_tx_base64: signed.base64, wait_until: level });
      if (answer.error) throw new Error(`send_tx ${sent.kind} by ${s.id}: ${JSON.stringify(answer.error)}`);
      if (answer.result.final_execution_status === 'FINAL') {
        assert.equal(level, 'FINAL');
        sent.state = 'final';
        sent.acked = true;
        sent.outcome = answer.result;
      }
      return sent;
    };

    const transfer = (amount: bigint): Action => ({ type: 'Transfer', deposit: amount });

    // ---- setup: signers funded from the genesis account ------------------------------------------------
    observe(await rpc(url, 'block', { finality: 'final' }), 'final');
    await refreshNonce(root);
    const genesisConfig = await rpc(url, 'EXPERIMENTAL_genesis_config', null);
    const genesisHeight: number = genesisConfig.genesis_height;
    const genesisBlock = await rpc(url, 'block', { block_id: genesisHeight });
    const genesisSupply = BigInt(genesisConfig.total_supply);
    assert.equal(BigInt(genesisBlock.header.total_supply), genesisSupply, 'genesis header total_supply');
    const rootAtGenesis = await rpc(url, 'query', {
      request_type: 'view_account',
      account_id: root.id,
      block_id: genesisHeight,
    });
    assert.equal(
      BigInt(rootAtGenesis.amount) + BigInt(rootAtGenesis.locked),
      genesisSupply,
      `${root.id} is the only account of the genesis`,
    );
    // One at a time: concurrent requests could reach the node out of nonce order.
    for (let i = 0; i < SIGNERS; i++) {
      const s: Signer = { id: `k${tag}s${i}.${root.id}`, key: rng.keyPair(), nonce: 0n };
      signers.push(s);
      const key = s.key.publicKey;
      const sent = await send(
        root,
        s.id,
        [
          { type: 'CreateAccount' },
          transfer(10_000n * NEAR),
          { type: 'AddKey', publicKey: key, accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } } },
        ],
        'FINAL',
        { kind: 'transfer', deposit: 10_000n * NEAR },
      );
      assert.equal(sent.state, 'final');
    }
    for (const s of signers) await refreshNonce(s);

    // ---- load ---------------------------------------------------------------------------------------------
    let loading = false;
    let killed = false;
    const loadErrors: unknown[] = [];

    const pickLevel = (): Level => {
      const r = rng.next();
      return r < 0.75 ? 'FINAL' : r < 0.85 ? 'INCLUDED' : r < 0.92 ? 'EXECUTED_OPTIMISTIC' : 'NONE';
    };

    /** Numbers the created accounts: names are never reused. */
    let created = 0;
    const oneTx = async (s: Signer) => {
      const r = rng.next();
      const level = pickLevel();
      if (r < 0.2) {
        const key = rng.keyPair();
        const id = `c${created++}.${s.id}`;
        const deposit = NEAR + BigInt(rng.randomInt(1, 1_000_000));
        const sink: Sink = { id, key, creator: undefined as unknown as SentTx };
        const actions: Action[] = [
          { type: 'CreateAccount' },
          transfer(deposit),
          {
            type: 'AddKey',
            publicKey: key.publicKey,
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
        ];
        // `send` records the transaction before its first await: it is the last one of `txs` here.
        const signed = send(s, id, actions, level, { kind: 'create', deposit, sink: id });
        sink.creator = txs[txs.length - 1];
        sinks.push(sink);
        await signed;
      } else if (r < 0.35) {
        const key = rng.keyPair();
        const id = nearImplicitAccountId(key.publicKey);
        const deposit = NEAR / 10n + BigInt(rng.randomInt(1, 1_000_000));
        const signed = send(s, id, [transfer(deposit)], level, { kind: 'implicit', deposit, sink: id });
        sinks.push({ id, creator: txs[txs.length - 1] });
        await signed;
      } else {
        // To a sink whose creation is FINAL (so the transfer cannot fail), or to another signer.
        const ready = sinks.filter((k) => k.creator.state === 'final');
        const deposit = BigInt(rng.randomInt(1, 1_000_000_000));
        if (ready.length > 0 && rng.next() < 0.6) {
          const sink = ready[rng.randomInt(ready.length)];
          await send(s, sink.id, [transfer(deposit)], level, { deposit, sink: sink.id });
        } else {
          const others = [...signers.filter((o) => o !== s), root];
          const to = others[rng.randomInt(others.length)];
          await send(s, to.id, [transfer(deposit)], level, { deposit });
        }
      }
    };

    const signerLoop = async (s: Signer) => {
      while (loading) {
        try {
          await oneTx(s);
        } catch (error) {
          // No answer at all is what a SIGKILL does; anything else (an RPC error) is a failure.
          // (fetch fails with a TypeError, or the body is cut short.)
          const noAnswer = error instanceof TypeError || error instanceof SyntaxError;
          if (!killed || !noAnswer) loadErrors.push(error);
          return;
        }
      }
    };

    const monitor = async () => {
      while (loading) {
        try {
          const [fin, opt] = await Promise.all([
            rpc(url, 'block', { finality: 'final' }),
            rpc(url, 'block', { finality: 'optimistic' }),
          ]);
          observe(fin, 'final');
          observe(opt, 'optimistic');
        } catch (error) {
          if (!killed) loadErrors.push(error);
          return;
        }
        await sleep(20);
      }
    };

    // ---- checks after a restart ---------------------------------------------------------------------------
    /** Hashes of the blocks checked so far, by height; and heights by hash. */
    const chain: string[] = [];
    const heightOfHash = new Map<string, number>();
    let lastHead = 0;
    let burntTo = 0n;
    let checkedTo = genesisHeight - 1;
    let prevBlock: Json;

    const checkBlock = async (h: number): Promise<Json> => {
      const b = await rpc(url, 'block', { block_id: h });
      assert.equal(b.header.height, h);
      const byHash = await rpc(url, 'block', { block_id: b.header.hash });
      assert.deepEqual(byHash, b, `block ${h} by hash`);
      for (const c of b.chunks as Json[]) {
        const chunk = await rpc(url, 'chunk', { chunk_id: c.chunk_hash });
        assert.deepEqual(chunk.header, c, `chunk ${c.chunk_hash} of block ${h}`);
        assert.equal(chunk.author, b.author);
      }
      return b;
    };

    /** Reads blocks checkedTo+1..to, checking chain links and total supply; re-reads older ones by height. */
    const checkChain = async (to: number) => {
      const old = chain.slice();
      await mapLimit(
        old.map((hash, i) => ({ hash, h: genesisHeight + i })),
        16,
        async ({ hash, h }) => {
          const b = await rpc(url, 'block', { block_id: h });
          assert.equal(b.header.hash, hash, `block ${h} kept its hash`);
        },
      );
      const heights = [];
      for (let h = checkedTo + 1; h <= to; h++) heights.push(h);
      const blocks = await mapLimit(heights, 8, checkBlock);
      for (const b of blocks) {
        const h: number = b.header.height;
        if (h === genesisHeight) {
          assert.equal(BigInt(b.header.total_supply), genesisSupply);
        } else {
          assert.equal(b.header.prev_hash, prevBlock.header.hash, `block ${h} follows block ${h - 1}`);
          const burnt = (b.chunks as Json[]).reduce((sum, c) => sum + BigInt(c.balance_burnt), 0n);
          assert.equal(
            BigInt(b.header.total_supply),
            BigInt(prevBlock.header.total_supply) - burnt,
            `total_supply of block ${h} = parent's − balance_burnt of its chunks`,
          );
          burntTo += burnt;
        }
        chain.push(b.header.hash);
        heightOfHash.set(b.header.hash, h);
        prevBlock = b;
      }
      checkedTo = to;
    };

    /** Waits until automine idles: the head stays put and is two blocks above the final block. */
    const quiescent = async () => {
      let last = -1;
      let stable = 0;
      // No deadline of its own: a node that never idles runs into the test's timeout.
      for (;;) {
        const [fin, opt] = await Promise.all([
          rpc(url, 'block', { finality: 'final' }),
          rpc(url, 'block', { finality: 'optimistic' }),
        ]);
        const head: number = opt.header.height;
        if (head === last && fin.header.height === head - 2) {
          if (++stable >= 3) return { final: fin, head };
        } else {
          stable = 0;
        }
        last = head;
        await sleep(40);
      }
    };

    const viewAccount = async (id: string, height: number) => {
      const { result, error } = await rpcRaw(url, 'query', {
        request_type: 'view_account',
        account_id: id,
        block_id: height,
      });
      if (error) {
        assert.equal(error.cause?.name, 'UNKNOWN_ACCOUNT', `view_account ${id}: ${JSON.stringify(error)}`);
        return undefined;
      }
      return { amount: BigInt(result.amount), locked: BigInt(result.locked) };
    };

    const checkAfterRestart = async (round: number) => {
      const opt = await rpc(url, 'block', { finality: 'optimistic' });
      const head: number = opt.header.height;
      assert.ok(
        head >= maxHeadSeen,
        `round ${round}: head ${head} >= highest head seen before the kill ${maxHeadSeen}`,
      );
      assert.ok(head >= maxFinalSeen + 2, `round ${round}: head ${head} >= final seen ${maxFinalSeen} + 2`);
      assert.ok(head >= lastHead, `round ${round}: head never goes back (${head} >= ${lastHead})`);
      for (const [h, hash] of finalSeen) {
        const b = await rpc(url, 'block', { block_id: h });
        assert.equal(b.header.hash, hash, `round ${round}: final block ${h} kept its hash`);
      }
      finalSeen.clear();

      // The node takes transactions and makes blocks again; waiting for FINAL also drives automine until
      // everything in flight before the kill is executed and final.
      observe(await rpc(url, 'block', { finality: 'final' }), 'final');
      await refreshNonce(root);
      const probe = await send(root, signers[0].id, [transfer(1n)], 'FINAL', { kind: 'probe', deposit: 1n });
      assert.equal(probe.state, 'final', 'the probe is FINAL');
      const { final, head: idleHead } = await quiescent();
      const F: number = final.header.height;
      lastHead = idleHead;
      if (idleHead > maxHeadSeen) maxHeadSeen = idleHead;
      await checkChain(idleHead);

      // FINAL transactions are there, as acknowledged; the others are FINAL or unknown; unknown stays unknown.
      await mapLimit(txs, 16, async (tx) => {
        const { result, error } = await rpcRaw(url, 'tx', {
          tx_hash: tx.hash,
          sender_account_id: tx.signer,
          wait_until: 'NONE',
        });
        if (error) {
          assert.equal(error.cause?.name, 'UNKNOWN_TRANSACTION', JSON.stringify(error));
          assert.notEqual(
            tx.state,
            'final',
            `round ${round}: FINAL transaction ${tx.hash} (${tx.kind}) lost`,
          );
          tx.state = 'lost';
          return;
        }
        assert.notEqual(
          tx.state,
          'lost',
          `round ${round}: ${tx.hash} was unknown after a restart, now found`,
        );
        assert.equal(result.final_execution_status, 'FINAL', `round ${round}: ${tx.hash} final once idle`);
        if (tx.state === 'final')
          assert.deepEqual(result, tx.outcome, `round ${round}: ${tx.hash} as acknowledged`);
        tx.state = 'final';
        tx.outcome = result;
        assert.deepEqual(result.status, { SuccessValue: '' }, `${tx.kind} ${tx.hash} succeeds`);
        for (const o of [result.transaction_outcome, ...result.receipts_outcome]) {
          const h = heightOfHash.get(o.block_hash);
          assert.ok(h !== undefined && h <= F, `outcome ${o.id} of ${tx.hash} in a canonical block <= final`);
        }
      });

      // Effects and supply at the final block (nothing is in flight there once the node idles).
      const next = await rpc(url, 'block', { block_id: F + 1 });
      const accounts = [root.id, ...signers.map((s) => s.id), ...sinks.map((k) => k.id)];
      const states = await mapLimit(accounts, 16, (id) => viewAccount(id, F));
      let total = 0n;
      for (const a of states) if (a) total += a.amount + a.locked;
      assert.equal(
        total,
        BigInt(next.header.total_supply),
        `round ${round}: Σ balances at ${F} == total_supply of ${F + 1}`,
      );
      assert.equal(
        total + burntTo,
        genesisSupply,
        `round ${round}: Σ balances + Σ balance_burnt == genesis supply`,
      );
      for (let i = 0; i < 1 + signers.length; i++) assert.ok(states[i], `${accounts[i]} exists`);

      const paid = new Map<string, bigint>();
      for (const tx of txs)
        if (tx.sink && tx.state === 'final') paid.set(tx.sink, (paid.get(tx.sink) ?? 0n) + tx.deposit);
      await mapLimit(sinks, 16, async (sink) => {
        const state = states[accounts.indexOf(sink.id)];
        if (sink.creator.state === 'lost') {
          assert.equal(state, undefined, `${sink.id}: its creation was lost, so it does not exist`);
          assert.equal(paid.get(sink.id), undefined);
          return;
        }
        assert.equal(sink.creator.state, 'final');
        assert.ok(state, `${sink.id} exists`);
        assert.equal(state.amount, paid.get(sink.id), `${sink.id}: amount == Σ deposits paying it`);
        assert.equal(state.locked, 0n);
        if (sink.key) {
          const key = await rpc(url, 'query', {
            request_type: 'view_access_key',
            account_id: sink.id,
            public_key: sink.key.publicKeyString,
            block_id: F,
          });
          assert.deepEqual(key.permission, 'FullAccess');
        }
      });
      for (const s of signers) await refreshNonce(s);
      observe(final, 'final');
      return { head: idleHead, final: F };
    };

    // ---- rounds -------------------------------------------------------------------------------------------
    const startupKillRounds = new Set<number>();
    while (startupKillRounds.size < STARTUP_KILLS) startupKillRounds.add(1 + rng.randomInt(ROUNDS - 1));
    const stats: string[] = [];
    let acked = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      loading = true;
      killed = false;
      const workers = [...signers.map(signerLoop), monitor()];
      const loadMs = rng.randomInt(LOAD_MS[0], LOAD_MS[1]);
      await sleep(loadMs);
      // And on until this run has had its share of FINAL acknowledgements, so that the check at the end counts
      // transactions, not how fast a loaded machine is (the test's timeout bounds it).
      while (txs.filter((t) => t.acked).length <= round * 5) await sleep(20);
      killed = true;
      loading = false;
      await node.kill9();
      await Promise.all(workers);
      assert.deepEqual(loadErrors, [], `round ${round}: no errors under load`);
      const before = txs.filter((t) => t.acked).length;

      const t0 = Date.now();
      node = new NodeChild(nodeHome);
      if (startupKillRounds.has(round)) {
        // Once more, while it opens the store and catches up (executing receipts left in flight).
        const wait = rng.randomInt(200, 1300);
        await Promise.race([node.ready.then(() => sleep(rng.randomInt(0, 60))), sleep(wait)]);
        await node.kill9();
        node = new NodeChild(nodeHome);
      }
      ready = await node.ready;
      url = ready.rpcUrl;
      assert.equal(ready.accounts[0].secretKey, rootAccount.secretKey, 'the same genesis account key');
      const startMs = Date.now() - t0;
      const { head, final } = await checkAfterRestart(round);
      acked = before;
      stats.push(
        `round ${round}: load ${loadMs} ms, restart ${startMs} ms${startupKillRounds.has(round) ? ' (killed while starting too)' : ''}, head ${head}, final ${final}, txs ${txs.length} (FINAL acked ${acked}, lost ${txs.filter((t) => t.state === 'lost').length})`,
      );
    }
    await node.kill9();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`kill -9: ${ROUNDS} rounds in ${seconds} s\n${stats.join('\n')}`);
    assert.ok(acked > ROUNDS * 5, `enough FINAL transactions acknowledged (${acked})`);
  });
});
