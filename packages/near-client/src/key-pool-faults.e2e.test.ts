/**
 * The key pool against a real node through a fault-injecting proxy (test-support/fault-proxy.ts): requests
 * lost before or after the node got them, resets, cut answers, an InvalidNonce for a transaction the node
 * executed (as a second node gives its copy), 429 bursts with Retry-After, gateway 5xx,
 * delays beyond the timeout, a provider that is down. Every send resolves with its outcome or fails with a
 * documented error, and the chain — read block by block, chunk by chunk — holds each transfer at most once,
 * every answered one exactly once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import { fullAccessKey, KeyPair, ONE_NEAR } from '@shadebox/primitives';
import {
  type Fault,
  type FaultProxy,
  PASS,
  randomFaults,
  startFaultProxy,
} from '../test-support/fault-proxy.js';
import { ChainUnavailableError } from './chain-unavailable-error.js';
import { KeyPool } from './key-pool.js';
import type { Outcome } from './outcome-result.js';
import { outcomeResult } from './outcome-result.js';
import { RpcClient } from './rpc-client.js';
import { RpcError } from './rpc-error.js';
import { TransactionDroppedError, TransactionFateUnknownError } from './transaction-follow-up.js';
import { viewAccount } from './view-account.js';

const FAULTS: Fault[] = [
  { kind: 'drop-request' },
  { kind: 'drop-response' },
  { kind: 'reset', forwarded: false },
  { kind: 'reset', forwarded: true },
  { kind: 'truncate' },
  { kind: 'nonce-used' },
  { kind: 'status', status: 429, retryAfter: '1' },
  { kind: 'status', status: 503 },
  { kind: 'status', status: 502, forwarded: true },
  { kind: 'status', status: 504, forwarded: true, retryAfter: '0' },
  { kind: 'delay', ms: 200 },
  { kind: 'delay', ms: 2_500 },
];

/** The errors a send may fail with (docs/agent-api.md#admission-and-retries). */
function isDocumented(e: unknown): boolean {
  return (
    e instanceof ChainUnavailableError ||
    e instanceof TransactionDroppedError ||
    e instanceof TransactionFateUnknownError
  );
}

describe('the key pool through a faulty RPC provider', () => {
  let node: RunningNode;
  let rpc: RpcClient;
  let root: KeyPool;
  const proxies: FaultProxy[] = [];

  before(async () => {
    node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
    const [account] = node.accounts;
    rpc = new RpcClient(node.rpcUrl, 20_000);
    root = new KeyPool(rpc, account.accountId, [KeyPair.fromString(account.secretKey)]);
  });
  after(async () => {
    for (const p of proxies) await p.close();
    await node?.stop();
  });

  async function proxy(): Promise<FaultProxy> {
    const p = await startFaultProxy(node.rpcUrl);
    proxies.push(p);
    return p;
  }

  async function accountWithKeys(accountId: string, count: number): Promise<KeyPair[]> {
    const keys = Array.from({ length: count }, () => KeyPair.fromRandom());
    outcomeResult(
      await root.send(accountId, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 5n * ONE_NEAR },
        ...keys.map((k) => ({ type: 'AddKey' as const, publicKey: k.publicKey, accessKey: fullAccessKey() })),
      ]),
    );
    return keys;
  }

  /** The deposits of every transfer `signerId` sent to `receiverId` in the blocks above `fromHeight`. */
  async function transfersOnChain(
    signerId: string,
    receiverId: string,
    fromHeight: number,
  ): Promise<bigint[]> {
    const head = (await rpc.call('block', { finality: 'optimistic' })).header.height as number;
    const deposits: bigint[] = [];
    for (let height = fromHeight + 1; height <= head; height++) {
      const block = await rpc.call('block', { block_id: height }).catch((e) => {
        if (e instanceof RpcError && e.causeName === 'UNKNOWN_BLOCK') return undefined;
        throw e;
      });
      if (!block) continue;
      for (const header of block.chunks) {
        if (header.height_included !== height) continue;
        const chunk = await rpc.call('chunk', { chunk_id: header.chunk_hash });
        for (const tx of chunk.transactions) {
          if (tx.signer_id !== signerId || tx.receiver_id !== receiverId) continue;
          for (const action of tx.actions)
            if (action.Transfer) deposits.push(BigInt(action.Transfer.deposit));
        }
      }
    }
    return deposits;
  }

  /**
   * Sends `count` transfers of distinct amounts concurrently from a new account with `keys` keys through
   * `client`; checks that the chain holds each at most once and every answered one exactly once.
   */
  async function sendAndCount(name: string, client: RpcClient, count: number, keys = 4) {
    const accountId = `${name}.test.near`;
    const payee = `${name}-payee.test.near`;
    const pool = new KeyPool(client, accountId, await accountWithKeys(accountId, keys), {
      followUp: { dropConfirmMs: 500, pollMs: 50, unreachableMs: 5_000, deadlineMs: 30_000 },
    });
    await accountWithKeys(payee, 0);
    const fromHeight = (await rpc.call('block', { finality: 'optimistic' })).header.height as number;
    const payeeBefore = (await viewAccount(rpc, payee))!.amount;
    const amount = (i: number) => BigInt(i + 1) * 1_000n;
    const results = await Promise.allSettled(
      Array.from({ length: count }, (_, i) => pool.send(payee, [{ type: 'Transfer', deposit: amount(i) }])),
    );
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    for (const e of failures) assert.ok(isDocumented(e), `a documented error, not ${e}`);
    const answered = results.flatMap((r, i) => (r.status === 'fulfilled' ? [{ i, outcome: r.value }] : []));
    for (const { outcome } of answered) assert.equal(outcomeResult(outcome as Outcome), null);

    const onChain = await transfersOnChain(accountId, payee, fromHeight);
    const seen = new Map<bigint, number>();
    for (const d of onChain) seen.set(d, (seen.get(d) ?? 0) + 1);
    for (const [deposit, times] of seen)
      assert.equal(times, 1, `the transfer of ${deposit} executed ${times} times`);
    for (const { i } of answered)
      assert.equal(seen.get(amount(i)), 1, `answered transfer ${i} is on chain once`);
    for (let i = 0; i < count; i++) {
      const failure =
        results[i].status === 'rejected' ? (results[i] as PromiseRejectedResult).reason : undefined;
      if (failure instanceof TransactionDroppedError)
        assert.equal(seen.has(amount(i)), false, 'dropped: not on chain');
    }
    const payeeAfter = (await viewAccount(rpc, payee))!.amount;
    assert.equal(
      payeeAfter - payeeBefore,
      onChain.reduce((a, b) => a + b, 0n),
    );
    return { pool, payee, answered: answered.length, failures };
  }

  it('a mix of faults: nothing executes twice, every send is answered or fails with a documented error', {
    timeout: 180_000,
  }, async () => {
    const p = await proxy();
    // Every fault hits send_tx (the call that must not execute twice) in turn, then one in three at random;
    // the other calls get one in three at random.
    const random = randomFaults(33, 0.35, FAULTS);
    let sends = 0;
    p.setPlan((request) => {
      if (request.method !== 'send_tx' || sends >= FAULTS.length) return random(request);
      return FAULTS[sends++];
    });
    const client = new RpcClient(p.url, { timeoutMs: 1_500, retry: { initialDelayMs: 20, maxDelayMs: 200 } });
    const { pool, payee, answered } = await sendAndCount('faults', client, 24);
    assert.ok(answered > 0);
    for (const f of FAULTS)
      assert.ok(
        p.log.some((l) => l.fault === f.kind),
        `the proxy injected ${f.kind}`,
      );
    // Faults over: the pool's keys are all usable.
    p.setPlan(PASS);
    for (let i = 0; i < 4; i++) outcomeResult(await pool.send(payee, [{ type: 'Transfer', deposit: 1n }]));
  });

  it('a 429 burst with Retry-After: every send waits and is answered once', { timeout: 60_000 }, async () => {
    const p = await proxy();
    let limited = 0;
    p.setPlan(() => (limited++ < 6 ? { kind: 'status', status: 429, retryAfter: '1' } : { kind: 'pass' }));
    const client = new RpcClient(p.url, { timeoutMs: 5_000 });
    const { answered, failures } = await sendAndCount('burst', client, 6, 2);
    assert.deepEqual(failures, []);
    assert.equal(answered, 6);
    assert.equal(p.log.filter((l) => l.fault === 'status').length, 6);
  });

  it('a send_tx whose answer is lost and whose retry is refused is answered by its outcome, once', async () => {
    const p = await proxy();
    const plan: Fault[] = [
      { kind: 'drop-response' },
      {
        kind: 'refused',
        invalidTx: { NotEnoughBalance: { signer_id: 'refused.test.near', balance: '0', cost: '1' } },
      },
    ];
    let sends = 0;
    p.setPlan((r) => (r.method === 'send_tx' && sends < plan.length ? plan[sends++] : { kind: 'pass' }));
    const client = new RpcClient(p.url, { timeoutMs: 5_000, retry: { initialDelayMs: 10 } });
    const { answered, failures } = await sendAndCount('refused', client, 1, 1);
    assert.deepEqual(failures, []);
    assert.equal(answered, 1);
    assert.equal(sends, 2, 'the answer was lost, the retry refused');
  });

  it('two providers, one of them down: every send is answered once through the other', {
    timeout: 60_000,
  }, async () => {
    const down = await proxy();
    await down.down();
    const upProvider = await proxy();
    const client = new RpcClient([down.url, upProvider.url], { timeoutMs: 5_000 });
    const { answered, failures } = await sendAndCount('failover', client, 8, 2);
    assert.deepEqual(failures, []);
    assert.equal(answered, 8);
    assert.equal(down.log.length, 0);
  });
});
