/**
 * What the chain stores about blocks, chunks, transactions, receipts and outcomes. Views are stored already in
 * their RPC JSON form (they never change once written), next to the few internal fields the node needs.
 */

import type { FinalityPointers } from './doomslug-finality.js';

/** `ExecutionOutcomeWithIdView` as the RPC returns it. */
export interface OutcomeView {
  proof: Array<{ hash: string; direction: 'Left' | 'Right' }>;
  block_hash: string;
  id: string;
  outcome: {
    logs: string[];
    receipt_ids: string[];
    gas_burnt: number;
    tokens_burnt: string;
    executor_id: string;
    status: unknown;
    metadata: { version: number; gas_profile: unknown[] | null; contracts?: unknown[] };
  };
}

export interface OutcomeRecord {
  height: number;
  /** For receipts: the predecessor (`system` marks refunds). Absent for transactions. */
  predecessorId?: string;
  view: OutcomeView;
}

export interface TransactionRecord {
  height: number;
  blockHash: string;
  shardId: number;
  signerId: string;
  /** `SignedTransactionView`. */
  view: Record<string, unknown>;
}

export interface ReceiptRecord {
  /** `ReceiptView`. */
  view: Record<string, unknown>;
}

export interface ChunkRecord {
  blockHash: string;
  height: number;
  shardId: number;
  /** `ChunkView` (author, header, transactions, receipts). */
  view: Record<string, unknown>;
  /** The ids of the outcomes applying this chunk produced, in execution order (transactions, then receipts):
   * nearcore's `OutcomeIds` column, what `EXPERIMENTAL_indexer_block` lists them by. Absent in chunks stored
   * before it was kept, and in genesis chunks (nothing executed). */
  outcomeIds?: string[];
}

/** What applying one shard's chunk produced; it goes into the next block's chunk header for that shard. */
export interface ChunkExtra {
  stateRoot: string;
  outcomeRoot: string;
  gasUsed: string;
  balanceBurnt: string;
  outgoingReceiptsRoot: string;
  validatorProposals: Array<{
    account_id: string;
    public_key: string;
    stake: string;
    validator_stake_struct_version: 'V1';
  }>;
}

export interface BlockRecord {
  height: number;
  hash: string;
  prevHash: string;
  /** `BlockView` (author, header, chunks) as JSON text, served as is. */
  viewJson: string;
  /** Results of applying this block's chunks, by shard: the next block's chunk headers carry them. */
  chunkExtras: ChunkExtra[];
  /** Chunk hashes by shard. */
  chunkHashes: string[];
  /** The gas price the next block applies its chunks with (`header.gas_price`). */
  gasPrice: string;
  totalSupply: string;
  timestampNs: string;
  randomValue: string;
  epochId: string;
  nextEpochId: string;
  /** Merkle frontier of all block hashes up to and including this one. */
  blockMerkleTree: { path: string[]; size: number };
  /** The header's `last_ds_final_block` and `last_final_block` with their heights (chain/doomslug-finality.ts);
   * absent in blocks stored before they were kept, which had no skipped heights. */
  finality?: FinalityPointers;
}
