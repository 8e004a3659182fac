/**
 * Garbage collection of a regular (non-archival) node, as nearcore's `clear_data`: everything a block wrote —
 * its block record, chunks, transactions, receipts, outcomes, state changes, outgoing-receipt list, the
 * receipt-to-transaction entries of the receipts it created (chain/receipt-origins.ts) — and the
 * state versions only heights below the horizon need, for blocks older than `gc_num_epochs_to_keep` epochs.
 *
 * The horizon (nearcore's `gc_stop_height`) is the first height of the epoch `gc_num_epochs_to_keep - 1`
 * epochs before the head's: the head's epoch and the `gc_num_epochs_to_keep - 1` before it are kept whole.
 *
 * Work is incremental: after each block, at most `heightsPerStep` heights are collected, in a batch of their
 * own that also advances the earliest served height recorded in Meta (`earliest`), so a crash at any moment
 * leaves either the heights and the old horizon, or neither and the new one. Once the heights are gone, the
 * state versions below the horizon go (`VersionedState.prune`, at most `stateDeletionsPerStep` deletions per
 * block); reads below the horizon answer as garbage collected whatever is left of them. Trie nodes go with
 * their block: collecting a height applies that block's trie deletions (chain/shard-tries.ts), so the tries of
 * the kept blocks stay whole and nothing else does.
 *
 * A collected block leaves a header stub in the Block column (`{height, hash, collected}`) and its height
 * index entry (height → hash), about 150 bytes a block, so that `query` can answer GARBAGE_COLLECTED_BLOCK
 * with the block's height and hash, as nearcore (which keeps headers) does. Genesis is never collected.
 *
 * Mode `view` deletes nothing: it only moves the served horizon (a node that keeps its full history for an
 * archival endpoint while its regular endpoint answers as a regular node would).
 *
 * A history budget (`historyBudgetBytes`, `--memory` nodes by default: their history is their RSS) bounds the
 * kept heights by bytes as well: past it, the oldest heights go even inside the kept epochs, as if their epochs
 * had ended, with the same answers (GARBAGE_COLLECTED_BLOCK, UNKNOWN_BLOCK, UNKNOWN_TRANSACTION). It counts what
 * each block's batch wrote (keys and values, `Chain.lastBlockBytes`) for the blocks made since the node
 * started, and never collects the head's epoch or the last `transaction_validity_period` heights (the blocks a
 * transaction may name as its base, and the epoch's headers `validators` reads).
 */
import { base58Decode } from '@shadebox/primitives';
import { WriteBatch } from '../store/key-value-store.js';
import type { Chain } from './chain.js';
import { EARLIEST_KEY } from './chain-store.js';
import { Col, heightKey } from './columns.js';
import { deleteReceiptOrigins } from './receipt-origins.js';
import type { BlockRecord, ChunkRecord, OutcomeRecord } from './records.js';

export interface GarbageCollectorOptions {
  /** nearcore's `gc_num_epochs_to_keep` (already raised to its minimum, 3). */
  numEpochsToKeep: number;
  /** `delete` frees the data; `view` only applies the GC view rules. */
  mode: 'delete' | 'view';
  /** Heights collected per step (per block). Default 4. */
  heightsPerStep?: number;
  /** State version deletions per step. Default 4096. */
  stateDeletionsPerStep?: number;
  /** Heights the horizon moves past the last state pruning before the next one starts (the first runs at
   * once). Default: 64, or the epoch length if shorter. */
  statePruneEveryHeights?: number;
  /** Bytes the kept heights may have written before the oldest go, within the kept epochs (0 or undefined:
   * epochs only). */
  historyBudgetBytes?: number;
}

/** The history budget of a `--memory` node: about 350 blocks of the benchmark's transfers (48 KB each), and
 * 5 epochs of blocks with a transaction or two. */
export const DEFAULT_MEMORY_HISTORY_BUDGET_BYTES = 16 * 1024 * 1024;

const utf8 = new TextEncoder();
const utf8d = new TextDecoder();

export class GarbageCollector {
  private readonly heightsPerStep: number;
  private readonly stateDeletionsPerStep: number;
  /** State versions are pruned up to here (not persisted: a restart prunes once more, which is harmless). */
  private statePrunedTo = -1;
  /** A pruning pass waits until the horizon has moved this far past the last one. With the history budget the
   * horizon moves at nearly every block; a pass then reads each key written since the last one
   * (`VersionedState.trackWritesForPruning`; the first passes after a start scan the whole column), and a key
   * rewritten at every block (the bandwidth scheduler's state) is read once for all its versions. Versions
   * below the horizon are answered as collected meanwhile, and what they hold is bounded by these heights'
   * writes. */
  private readonly statePruneEveryHeights: number;
  /** Bytes each height written since the start wrote, oldest first, for heights not collected yet. */
  private readonly written: { height: number; bytes: number }[] = [];
  /** Index in `written` of its first entry still kept (entries before it are dropped lazily). */
  private writtenStart = 0;
  /** Sum of the bytes of the kept entries of `written`. */
  private writtenBytes = 0;
  private readonly onBlock = (block: { height: number }) => {
    if (this.options.historyBudgetBytes) this.noteWritten(block.height, this.chain.lastBlockBytes);
    this.step();
  };
  private readonly onRewind = (head: { height: number }) => {
    while (
      this.written.length > this.writtenStart &&
      this.written[this.written.length - 1].height > head.height
    ) {
      this.writtenBytes -= this.written.pop()!.bytes;
    }
  };

  constructor(
    private readonly chain: Chain,
    private readonly options: GarbageCollectorOptions,
  ) {
    this.heightsPerStep = options.heightsPerStep ?? 4;
    this.stateDeletionsPerStep = options.stateDeletionsPerStep ?? 4096;
    this.statePruneEveryHeights =
      options.statePruneEveryHeights ?? Math.max(1, Math.min(64, chain.genesis.epoch_length));
  }

  /** Collects after every block from now on (and once right away). */
  start(): void {
    // A pass then visits the keys written since the last one rather than the whole state column.
    if (this.options.mode !== 'view') this.chain.state.trackWritesForPruning(this.chain.head.height);
    this.chain.on('block', this.onBlock);
    this.chain.on('rewind', this.onRewind);
    this.step();
  }

  stop(): void {
    this.chain.off('block', this.onBlock);
    this.chain.off('rewind', this.onRewind);
  }

  /** The first height still kept for the current head: nearcore's `gc_stop_height`, raised by the history
   * budget. */
  stopHeight(): number {
    return Math.max(this.epochStopHeight(), this.budgetStopHeight());
  }

  /** nearcore's `gc_stop_height`: the first height of the epoch `gc_num_epochs_to_keep - 1` before the head's. */
  epochStopHeight(): number {
    const chain = this.chain;
    const L = chain.genesis.epoch_length;
    const headIndex = Math.max(0, Math.floor((chain.head.height - chain.genesisHeight - 1) / L));
    const keepIndex = headIndex - (this.options.numEpochsToKeep - 1);
    if (keepIndex <= 0) return chain.genesisHeight;
    return chain.genesisHeight + 1 + keepIndex * L;
  }

  /** Bytes the kept heights made since the start wrote (what the history budget bounds). */
  historyBytes(): number {
    return this.writtenBytes;
  }

  /** The lowest height such that the heights from it on wrote at most the budget, never above the head's
   * epoch start or `transaction_validity_period` heights below the head. */
  private budgetStopHeight(): number {
    const budget = this.options.historyBudgetBytes;
    const chain = this.chain;
    if (!budget || this.writtenBytes <= budget) return chain.genesisHeight;
    const head = chain.head.height;
    const ceiling = Math.min(
      chain.epochOf(head).startHeight,
      head - chain.genesis.transaction_validity_period,
    );
    let over = this.writtenBytes - budget;
    let stop = chain.genesisHeight;
    for (let i = this.writtenStart; i < this.written.length && over > 0; i++) {
      over -= this.written[i].bytes;
      stop = this.written[i].height + 1;
    }
    return Math.max(chain.genesisHeight, Math.min(stop, ceiling));
  }

  private noteWritten(height: number, bytes: number): void {
    this.written.push({ height, bytes });
    this.writtenBytes += bytes;
  }

  /** Forgets the written bytes of the heights below `height` (collected). */
  private forgetWritten(height: number): void {
    while (this.writtenStart < this.written.length && this.written[this.writtenStart].height < height) {
      this.writtenBytes -= this.written[this.writtenStart++].bytes;
    }
    if (this.writtenStart > 1024 && this.writtenStart * 2 > this.written.length) {
      this.written.splice(0, this.writtenStart);
      this.writtenStart = 0;
    }
  }

  /** One bounded step; returns whether there is more to do. */
  step(): boolean {
    const target = this.stopHeight();
    const tail = this.chain.earliestHeight();
    if (this.options.mode === 'view') {
      if (target > tail) this.chain.setEarliestHeight(target);
      this.forgetWritten(target);
      return false;
    }
    // A pruning pass that is due goes before more collection: with the history budget the horizon can move at
    // every block, and a pass that waited for collection to catch up would never run.
    if (
      this.statePrunedTo < tail &&
      (this.statePrunedTo < 0 || tail - this.statePrunedTo >= this.statePruneEveryHeights)
    ) {
      const batch = new WriteBatch();
      const deleted = this.chain.state.prune(batch, tail, { limit: this.stateDeletionsPerStep });
      if (deleted > 0) this.chain.store.commit(batch);
      if (deleted < this.stateDeletionsPerStep) this.statePrunedTo = tail;
      return true;
    }
    if (tail < target) {
      const end = Math.min(target, tail + this.heightsPerStep);
      const batch = new WriteBatch();
      // Trie nodes: each collected block's deletions (the nodes of the state before it that it made
      // unreachable), as nearcore's GC applies a canonical block's TrieChanges deletions.
      const trieUpdate = this.chain.tries.update();
      for (let h = tail; h < end; h++) {
        this.collectHeight(batch, h);
        this.chain.tries.collect(batch, trieUpdate, h, this.chain.numShards);
      }
      trieUpdate.writeTo(batch);
      batch.put(Col.Meta, EARLIEST_KEY, heightKey(end));
      this.chain.store.commit(batch);
      this.chain.setEarliestHeight(end);
      this.forgetWritten(end);
      return end < target;
    }
    return false;
  }

  /** Runs steps until nothing is left (tests, tools). */
  collectAll(): void {
    while (this.step()) {
      // bounded steps until done
    }
  }

  /** Adds to `batch` the deletions of everything block `height` wrote but its header index. */
  private collectHeight(batch: WriteBatch, height: number): void {
    const store = this.chain.store;
    const key = heightKey(height);
    batch.delete(Col.StateChanges, key);
    batch.delete(Col.OutgoingReceipts, key);
    deleteReceiptOrigins(batch, store, height);
    if (height === this.chain.genesisHeight) return;
    const hash = store.get(Col.BlockHeight, key);
    const raw = hash && store.get(Col.Block, hash);
    if (!hash || !raw) return;
    const record = JSON.parse(utf8d.decode(raw)) as BlockRecord | { collected: true };
    if ('collected' in record) return;
    const deleteOutcome = (id: Uint8Array, isReceipt: boolean) => {
      const rawOutcome = store.get(Col.Outcome, id);
      const outcome = rawOutcome && (JSON.parse(utf8d.decode(rawOutcome)) as OutcomeRecord);
      if (!outcome || outcome.height !== height) return;
      batch.delete(Col.Outcome, id);
      if (isReceipt) batch.delete(Col.Receipt, id);
      // Receipts executed in the same block (local receipts) have no other trace in the chunk.
      for (const child of outcome.view.outcome.receipt_ids) deleteOutcome(base58Decode(child), true);
    };
    for (const chunkHash of record.chunkHashes) {
      const chunkKey = base58Decode(chunkHash);
      const rawChunk = store.get(Col.Chunk, chunkKey);
      if (!rawChunk) continue;
      const chunk = JSON.parse(utf8d.decode(rawChunk)) as ChunkRecord;
      const view = chunk.view as {
        transactions: Array<{ hash: string }>;
        receipts: Array<{ receipt_id: string }>;
      };
      for (const tx of view.transactions) {
        const txHash = base58Decode(tx.hash);
        batch.delete(Col.Transaction, txHash);
        deleteOutcome(txHash, false);
      }
      for (const receipt of view.receipts) deleteOutcome(base58Decode(receipt.receipt_id), true);
      batch.delete(Col.Chunk, chunkKey);
    }
    batch.put(
      Col.Block,
      hash,
      utf8.encode(JSON.stringify({ height, hash: record.hash, prevHash: record.prevHash, collected: true })),
    );
  }
}
