/**
 * The chain after a fuzz run: once it is quiet (no receipts in flight, the head still), every block's
 * `total_supply` is its parent's minus what its chunks burnt, and the balances of every account that ever
 * existed (the genesis accounts and every account a block touched) add up to the head's total supply. For a disk
 * home, `blockDigest` records every block's hash, chunk hashes and state roots to compare after a restart.
 */

export type Call = (method: string, params: unknown) => Promise<unknown>;

interface BlockJson {
  header: {
    height: number;
    hash: string;
    prev_hash: string;
    total_supply: string;
    prev_state_root: string;
    chunk_receipts_root: string;
    outcome_root: string;
  };
  chunks: Array<{ chunk_hash: string; prev_state_root: string; balance_burnt: string; outcome_root: string }>;
}

export interface ChainCheckResult {
  genesisHeight: number;
  head: number;
  blocks: number;
  accounts: number;
  violations: string[];
  /** height → digest (hash, chunk hashes, state roots). */
  digests: Map<number, string>;
  balances: Map<string, string>;
}

/** Waits until no receipt is in flight and the head has not moved for `stillMs`. */
export async function waitQuiet(
  call: Call,
  metrics: () => Promise<string>,
  stillMs = 2000,
  timeoutMs = 180_000,
): Promise<number> {
  const end = Date.now() + timeoutMs;
  let last = -1;
  let since = Date.now();
  for (;;) {
    const head = ((await call('block', { finality: 'optimistic' })) as BlockJson).header.height;
    const inFlight = Number(/near_receipts_in_flight (\d+)/.exec(await metrics())?.[1] ?? '0');
    if (head !== last || inFlight > 0) {
      last = head;
      since = Date.now();
    } else if (Date.now() - since >= stillMs) return head;
    if (Date.now() > end)
      throw new Error(
        `the chain did not settle in ${timeoutMs} ms (head ${head}, ${inFlight} receipts in flight)`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

export function blockDigest(b: BlockJson): string {
  return JSON.stringify([
    b.header.hash,
    b.header.prev_state_root,
    b.header.outcome_root,
    b.chunks.map((c) => [c.chunk_hash, c.prev_state_root, c.outcome_root]),
  ]);
}

export async function checkChain(
  call: Call,
  head: number,
  genesisAccounts: string[],
): Promise<ChainCheckResult> {
  const violations: string[] = [];
  const genesis = (await call('EXPERIMENTAL_genesis_config', null)) as {
    genesis_height: number;
    total_supply: string;
  };
  const g = genesis.genesis_height;
  const accounts = new Set(genesisAccounts);
  const digests = new Map<number, string>();
  let prev = (await call('block', { block_id: g })) as BlockJson;
  if (prev.header.total_supply !== genesis.total_supply)
    violations.push('the genesis block total_supply is not the genesis config total_supply');
  digests.set(g, blockDigest(prev));
  let blocks = 1;
  for (let h = g + 1; h <= head; h++) {
    let b: BlockJson;
    try {
      b = (await call('block', { block_id: h })) as BlockJson;
    } catch {
      continue; // a height without a block (skipped by a fast-forward)
    }
    blocks++;
    digests.set(h, blockDigest(b));
    if (b.header.prev_hash !== prev.header.hash)
      violations.push(`block ${h}: prev_hash is not the hash of block ${prev.header.height}`);
    const burnt = b.chunks.reduce((s, c) => s + BigInt(c.balance_burnt), 0n);
    if (BigInt(b.header.total_supply) !== BigInt(prev.header.total_supply) - burnt) {
      violations.push(
        `block ${h}: total_supply ${b.header.total_supply} ≠ ${prev.header.total_supply} − burnt ${burnt}`,
      );
    }
    const effects = (await call('EXPERIMENTAL_changes_in_block', { block_id: h })) as {
      changes: Array<{ type: string; account_id: string }>;
    };
    for (const c of effects.changes) if (c.account_id) accounts.add(c.account_id);
    prev = b;
  }
  let total = 0n;
  const balances = new Map<string, string>();
  for (const id of [...accounts].sort()) {
    try {
      const a = (await call('query', {
        request_type: 'view_account',
        account_id: id,
        block_id: prev.header.hash,
      })) as { amount: string; locked: string };
      total += BigInt(a.amount) + BigInt(a.locked);
      balances.set(id, `${a.amount}/${a.locked}`);
    } catch {
      balances.set(id, 'missing');
    }
  }
  if (total !== BigInt(prev.header.total_supply)) {
    violations.push(
      `Σ balances at block ${prev.header.height} = ${total}, total_supply = ${prev.header.total_supply} (difference ${total - BigInt(prev.header.total_supply)})`,
    );
  }
  return {
    genesisHeight: g,
    head: prev.header.height,
    blocks,
    accounts: accounts.size,
    violations,
    digests,
    balances,
  };
}

/** After a restart of the same home: the same blocks, chunks and state roots, the same balances. */
export async function compareAfterRestart(call: Call, before: ChainCheckResult): Promise<string[]> {
  const out: string[] = [];
  for (const [h, digest] of before.digests) {
    let b: BlockJson;
    try {
      b = (await call('block', { block_id: h })) as BlockJson;
    } catch (e) {
      out.push(`block ${h} is gone after the restart (${(e as Error).message})`);
      continue;
    }
    if (blockDigest(b) !== digest) out.push(`block ${h} differs after the restart`);
  }
  const headHash = ((await call('block', { block_id: before.head })) as BlockJson).header.hash;
  for (const [id, was] of before.balances) {
    let now: string;
    try {
      const a = (await call('query', {
        request_type: 'view_account',
        account_id: id,
        block_id: headHash,
      })) as { amount: string; locked: string };
      now = `${a.amount}/${a.locked}`;
    } catch {
      now = 'missing';
    }
    if (now !== was)
      out.push(`account ${id} at block ${before.head}: ${was} before the restart, ${now} after`);
  }
  return out;
}
