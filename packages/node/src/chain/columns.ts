/**
 * The store's columns. Everything a block changes is written in one batch across these columns.
 */
export const Col = {
  /** Versioned state (state/versioned-state.ts). */
  State: 1,
  /** block hash (32 bytes) -> block record JSON. */
  Block: 2,
  /** height (u64 BE) -> block hash. */
  BlockHeight: 3,
  /** chunk hash -> chunk record JSON. */
  Chunk: 4,
  /** tx hash -> transaction record JSON. */
  Transaction: 5,
  /** transaction hash or receipt id -> outcome record JSON. */
  Outcome: 6,
  /** receipt id -> receipt record JSON. */
  Receipt: 7,
  /** height (u64 BE) -> borsh list of receipts produced by that block, executed by the next one. */
  OutgoingReceipts: 8,
  /** string keys -> small values (head height, genesis hash). */
  Meta: 9,
  /** height (u64 BE) -> the state changes of that block (for the `changes` RPC). */
  StateChanges: 10,
  /** receipt id -> where it came from (chain/receipt-origins.ts): nearcore's `ReceiptToTx`. */
  ReceiptToTx: 11,
  /** height (u64 BE) -> the ids of the receipts that block mapped in ReceiptToTx (what its collection deletes). */
  ReceiptToTxByHeight: 12,
  /** node or value hash -> `rc (u32 LE) ‖ bytes`: the shards' trie nodes and values (chain/shard-tries.ts). */
  TrieNodes: 13,
  /** height (u64 BE) ‖ shard (u16 BE) -> that block's trie changes of the shard (hashes and counts). */
  TrieChanges: 14,
} as const;

export function heightKey(height: number): Uint8Array {
  const key = new Uint8Array(8);
  new DataView(key.buffer).setBigUint64(0, BigInt(height));
  return key;
}

export function metaKey(name: string): Uint8Array {
  return new TextEncoder().encode(name);
}
