/**
 * The stored account record as of a block, for `query`: the requests of one head read the same accounts at
 * the same one or two blocks (`final`, `optimistic`), so the records read at the last few blocks are kept.
 * The state as of a block never changes once the block is stored (a patch or a revert makes new blocks), and
 * the records are kept per chain object and by block hash, so no other block or chain is answered from them.
 */
import type { Chain } from '../chain/chain.js';
import type { BlockRecord } from '../chain/records.js';
import { accountKey } from '../state/state-keys.js';

/** Blocks kept per chain, and accounts kept per block. */
const BLOCKS = 4;
const ACCOUNTS = 1024;

const byChain = new WeakMap<Chain, Map<string, Map<string, Uint8Array | null>>>();

/** The account's record (borsh) at `block`, undefined when there is none. The bytes are shared: read only. */
export function accountAt(chain: Chain, block: BlockRecord, accountId: string): Uint8Array | undefined {
  let blocks = byChain.get(chain);
  if (!blocks) {
    blocks = new Map();
    byChain.set(chain, blocks);
  }
  let accounts = blocks.get(block.hash);
  if (!accounts) {
    if (blocks.size >= BLOCKS) blocks.delete(blocks.keys().next().value as string);
    accounts = new Map();
    blocks.set(block.hash, accounts);
  }
  const known = accounts.get(accountId);
  if (known !== undefined) return known ?? undefined;
  const bytes = chain.stateValue(accountKey(accountId), block.height);
  if (accounts.size >= ACCOUNTS) accounts.clear();
  accounts.set(accountId, bytes ?? null);
  return bytes;
}
