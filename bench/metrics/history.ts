/**
 * Shadebox only: historical `view_account` reads on an archival node, against reads at the head.
 *
 * Setup: a fresh archival node on an LMDB home (`--home <tmp> --archival`); `accounts` (64) funded accounts
 * are created (near-signers.ts), then `rounds` times: each account sends 1 yoctoNEAR to its neighbour
 * (`send_tx`, `wait_until: "NONE"`) and `sandbox_produce_blocks {count: 500}` makes the next 500 blocks (the
 * first takes the transfers, the next ones run their receipts). Every account's balance, nonce-bearing key
 * and storage therefore change every 500 blocks, over a chain of more than `depth` (10,000) blocks.
 *
 * Measured, with the read metric's load (closed loop, same connections, warmup and window):
 * - historical: `query view_account` with `block_id` = a height of the `spread` (128) heights centred on
 *   final − `depth`, for each of the accounts;
 * - head: the same with `block_id` = one of the `spread` heights ending at the final head.
 * Both cycle through accounts × heights = 8,192 distinct requests in a fixed shuffled order. The node keeps
 * read answers until the head moves (rpc/read-cache.ts, at most 4,096, emptied when full), so no request
 * is answered from that cache: each one is different from the 8,191 sent before it. `finality: "final"` is
 * not used at the head because it could only vary by account (64 requests, all cached after the first pass).
 */

import { block, sendTransaction } from '@shadebox/near-client';
import type { LoadResult } from '../load.js';
import { createSigners } from '../near-signers.js';
import { PooledRpcClient } from '../rpc.js';
import { type Launcher, startShadebox } from '../shadebox-node.js';
import { measureReadThroughput, type ReadThroughputOptions } from './read-throughput.js';
import { tempHome } from './store-size.js';

export interface HistoryOptions extends ReadThroughputOptions {
  accounts: number;
  /** How far back the historical reads go (blocks below the final head). */
  depth: number;
  /** Distinct heights per query kind. */
  spread: number;
  /** Blocks between two changes of every account. */
  changeEvery: number;
}

export const HISTORY_DEFAULTS = { accounts: 64, depth: 10_000, spread: 128, changeEvery: 500 } as const;

export interface HistoryResult {
  archival: true;
  accounts: number;
  /** Height of the final head when the reads ran, and the centre of the historical heights. */
  finalHeight: number;
  historicalHeight: number;
  spread: number;
  distinctRequests: number;
  /** Time to build the chain (accounts, transfers, blocks). */
  setupMs: number;
  head: LoadResult;
  historical: LoadResult;
  /** historical / head req/s (target ≥ 0.8). */
  ratio: number;
}

export async function measureHistoricalReads(
  launcher: Launcher,
  options: HistoryOptions,
): Promise<HistoryResult> {
  const home = tempHome('history');
  const server = await startShadebox({ launcher, home: home.path, archival: true });
  const client = new PooledRpcClient(server.rpcUrl, 8);
  try {
    if (!server.account) throw new Error('the ready line gave no genesis account key');
    const t0 = performance.now();
    const signers = await createSigners(client, server.account, options.accounts);
    const rounds = Math.ceil((options.depth + options.spread) / options.changeEvery) + 1;
    for (let round = 0; round < rounds; round++) {
      // A hash from this round: the previous rounds' blocks are beyond the transaction validity period.
      const hash = (await block(client, { finality: 'final' })).header.hash;
      // One account after another: each has its own nonce, and the pool accepts them in any order.
      for (const [i, signer] of signers.entries()) {
        const receiver = signers[(i + 1) % signers.length].accountId;
        signer.useBlockHash(hash);
        const tx = await signer.sign(receiver, [{ type: 'Transfer', deposit: 1n }]);
        await sendTransaction(client, tx.base64, 'NONE');
      }
      await client.call('sandbox_produce_blocks', { count: options.changeEvery });
    }
    const setupMs = performance.now() - t0;
    const finalHeight = (await client.call<{ header: { height: number } }>('block', { finality: 'final' }))
      .header.height;
    const historicalHeight = finalHeight - options.depth;
    const ids = signers.map((s) => s.accountId);
    // The account must really have changed between the two: otherwise the comparison says little.
    const amount = async (block_id: number) =>
      (
        await client.call<{ amount: string }>('query', {
          request_type: 'view_account',
          block_id,
          account_id: ids[0],
        })
      ).amount;
    if ((await amount(historicalHeight)) === (await amount(finalHeight))) {
      throw new Error(`${ids[0]} has the same balance at ${historicalHeight} and ${finalHeight}`);
    }
    const half = Math.floor(options.spread / 2);
    const historical = bodies(ids, range(historicalHeight - half, options.spread));
    const head = bodies(ids, range(finalHeight - options.spread + 1, options.spread));
    const load = {
      concurrency: options.concurrency,
      warmupMs: options.warmupMs,
      durationMs: options.durationMs,
    };
    const headResult = await measureReadThroughput(server.rpcUrl, server.pid, head, load);
    const historicalResult = await measureReadThroughput(server.rpcUrl, server.pid, historical, load);
    return {
      archival: true,
      accounts: ids.length,
      finalHeight,
      historicalHeight,
      spread: options.spread,
      distinctRequests: historical.length,
      setupMs: Math.round(setupMs),
      head: headResult,
      historical: historicalResult,
      ratio: historicalResult.perSecond / headResult.perSecond,
    };
  } finally {
    await client.pool.destroy();
    await server.stop();
    home.remove();
  }
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** Every (account, height) view_account request, in a fixed pseudo-random order. */
function bodies(accounts: string[], heights: number[]): string[] {
  const all = heights.flatMap((height) =>
    accounts.map((account_id) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'bench',
        method: 'query',
        params: { request_type: 'view_account', block_id: height, account_id },
      }),
    ),
  );
  let seed = 12345;
  for (let i = all.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all;
}
