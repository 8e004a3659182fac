/**
 * The soak's end checks, made once the load has stopped:
 * - finality: every accepted transaction is asked for with `tx` `wait_until: "FINAL"` on the archival
 *   endpoint and must come back with `final_execution_status: "FINAL"` (the regular endpoint forgets
 *   transactions older than 5 epochs, and `tx` then waits for an unknown one until it times out, as nearcore's
 *   does);
 * - supply: on the archival endpoint, every block from genesis to the final head is read: each block's
 *   `total_supply` must be its parent's minus the `balance_burnt` of its chunk headers, and each must name the
 *   previous one as parent. Every account that ever existed (the genesis records, and every account a block's
 *   `EXPERIMENTAL_changes_in_block` touched) is read at the final block F: Σ (amount + locked) must equal the
 *   `total_supply` of block F + 1 (what block F's outcomes burnt is in the chunk headers of F + 1), i.e.
 *   genesis supply = Σ balances + Σ burnt. Tokens travelling in receipts (a deposit, the prepaid gas of
 *   a callback, a yield waiting for its response) are in no balance, so the check first waits until the head
 *   has stopped moving (automine makes blocks only while there is work, and until that work is final: the head
 *   then rests at F + 2), when nothing is in flight after block F.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { block, txStatus, viewAccount } from '@shadebox/near-client';
import type { PooledRpcClient } from '../rpc.js';
import type { AcceptedTx } from './workload.js';

const CONCURRENCY = 16;

/** Runs `work` over `items` with at most CONCURRENCY at once. */
async function forEachConcurrent<T>(items: readonly T[], work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}

export interface FinalityCheck {
  accepted: number;
  final: number;
  /** Up to ten transactions that are not FINAL, with what `tx` said. */
  notFinal: Array<{ hash: string; kind: string; reason: string }>;
  notFinalCount: number;
  ok: boolean;
}

export async function checkFinality(client: PooledRpcClient, accepted: AcceptedTx[]): Promise<FinalityCheck> {
  let final = 0;
  let notFinalCount = 0;
  const notFinal: FinalityCheck['notFinal'] = [];
  const miss = (tx: AcceptedTx, reason: string) => {
    notFinalCount++;
    if (notFinal.length < 10) notFinal.push({ hash: tx.hash, kind: tx.kind, reason: reason.slice(0, 300) });
  };
  await forEachConcurrent(accepted, async (tx) => {
    try {
      const outcome = await txStatus(client, {
        txHash: tx.hash,
        senderAccountId: tx.signerId,
        waitUntil: 'FINAL',
      });
      if (outcome.final_execution_status === 'FINAL') final++;
      else miss(tx, `final_execution_status ${outcome.final_execution_status}`);
    } catch (error) {
      miss(tx, error instanceof Error ? error.message : String(error));
    }
  });
  return { accepted: accepted.length, final, notFinal, notFinalCount, ok: notFinalCount === 0 };
}

/** Resolves once the optimistic head has not moved for `quietMs` (at most `timeoutMs`); false on timeout. */
export async function waitForQuietChain(client: PooledRpcClient, quietMs = 3000, timeoutMs = 120_000) {
  const deadline = performance.now() + timeoutMs;
  let height = -1;
  let since = performance.now();
  while (performance.now() < deadline) {
    const head = (await block(client, { finality: 'optimistic' })).header.height;
    if (head !== height) {
      height = head;
      since = performance.now();
    } else if (performance.now() - since >= quietMs) {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

export interface SupplyCheck {
  genesisSupply: string;
  /** The final block F's height, and the total_supply of block F + 1. */
  finalHeight: number;
  finalSupply: string;
  /** Σ balance_burnt of every chunk header from genesis to block F + 1. */
  burnt: string;
  /** Σ (amount + locked) of every account at block F. */
  balances: string;
  accounts: number;
  blocks: number;
  /** What did not add up (empty when everything did). */
  problems: string[];
  ok: boolean;
}

interface BlockFacts {
  height: number;
  hash: string;
  prevHash: string;
  supply: bigint;
  burnt: bigint;
}

export async function checkSupply(
  archival: PooledRpcClient,
  nodeHome: string,
  knownAccounts: readonly string[],
): Promise<SupplyCheck> {
  const problems: string[] = [];
  const genesisConfig = await archival.call<{ genesis_height: number; total_supply: string }>(
    'EXPERIMENTAL_genesis_config',
    null,
  );
  const genesisSupply = BigInt(genesisConfig.total_supply);
  const genesis = await block(archival, { blockId: genesisConfig.genesis_height });
  if (BigInt(genesis.header.total_supply as string) !== genesisSupply) {
    problems.push(
      `the genesis block's total_supply ${genesis.header.total_supply} is not the genesis config's`,
    );
  }
  const F = (await block(archival, { finality: 'final' })).header.height;
  const g = genesis.header.height;
  // The block after F carries what F's outcomes burnt; on a quiet automine chain it exists (head = F + 2).
  const next = await block(archival, { blockId: F + 1 });
  const H = F;

  const accounts = new Set<string>(knownAccounts);
  const records = (JSON.parse(readFileSync(join(nodeHome, 'genesis.json'), 'utf8')).records ?? []) as Array<
    Record<string, { account_id?: string }>
  >;
  for (const record of records) if (record.Account?.account_id) accounts.add(record.Account.account_id);

  const heights = Array.from({ length: F + 1 - g }, (_, i) => g + 1 + i);
  const facts: Array<BlockFacts | undefined> = new Array(heights.length);
  await forEachConcurrent(heights, async (h, i) => {
    let b: Awaited<ReturnType<typeof block>>;
    try {
      b = await block(archival, { blockId: h });
    } catch {
      return; // a height without a block; the parent links below show that none is missing
    }
    facts[i] = {
      height: h,
      hash: b.header.hash,
      prevHash: b.header.prev_hash,
      supply: BigInt(b.header.total_supply as string),
      burnt: b.chunks.reduce((s, c) => s + BigInt(c.balance_burnt as string), 0n),
    };
    if (h <= H) {
      const { changes } = await archival.call<{ changes: Array<{ type: string; account_id: string }> }>(
        'EXPERIMENTAL_changes_in_block',
        { block_id: h },
      );
      for (const c of changes) if (c.type === 'account_touched') accounts.add(c.account_id);
    }
  });

  let prev: BlockFacts = {
    height: g,
    hash: genesis.header.hash,
    prevHash: genesis.header.prev_hash,
    supply: genesisSupply,
    burnt: 0n,
  };
  let burnt = 0n;
  let blocks = 0;
  for (const f of facts) {
    if (!f) continue;
    blocks++;
    if (f.prevHash !== prev.hash && problems.length < 20) {
      problems.push(`block ${f.height}'s parent is not block ${prev.height}`);
    }
    if (f.supply !== prev.supply - f.burnt && problems.length < 20) {
      problems.push(
        `block ${f.height}: total_supply ${f.supply} ≠ ${prev.supply} (block ${prev.height}) − burnt ${f.burnt}`,
      );
    }
    burnt += f.burnt;
    prev = f;
  }
  if (prev.height !== F + 1) problems.push(`the walk ended at block ${prev.height}, not at block ${F + 1}`);
  const finalSupply = BigInt(next.header.total_supply as string);
  if (genesisSupply - burnt !== finalSupply) {
    problems.push(
      `genesis supply − Σ burnt = ${genesisSupply - burnt} ≠ total_supply ${finalSupply} of block ${F + 1}`,
    );
  }

  let balances = 0n;
  await forEachConcurrent([...accounts], async (id) => {
    const a = await viewAccount(archival, id, { blockId: H });
    if (a) balances += a.amount + a.locked;
  });
  if (balances !== finalSupply) {
    problems.push(
      `Σ balances of ${accounts.size} accounts at block ${H} = ${balances} ≠ total_supply ${finalSupply} of block ${F + 1} (difference ${finalSupply - balances})`,
    );
  }
  return {
    genesisSupply: genesisSupply.toString(),
    finalHeight: F,
    finalSupply: finalSupply.toString(),
    burnt: burnt.toString(),
    balances: balances.toString(),
    accounts: accounts.size,
    blocks,
    problems,
    ok: problems.length === 0,
  };
}
