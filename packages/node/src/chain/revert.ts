/**
 * `sandbox_revert`: everything the blocks above a height wrote, as deletions in one store batch. For each
 * reverted block: its block record and height index, its chunks, the transactions it included, the outcomes
 * of what it executed, the receipts those produced, the receipts it left in flight, its state changes, the
 * receipt-to-transaction entries of the receipts it created, every state version it wrote and the trie nodes it
 * inserted (its trie changes' insertions taken back). Receipts produced at or below the target height (executed by a reverted
 * block) stay: the target block still refers to them. `Chain.rewindTo` commits the batch with the new head.
 */
import { base58Decode } from '@shadebox/primitives';
import { HEIGHT_BYTES, readInvertedHeight, versionKey } from '../state/versioned-state-encoding.js';
import { WriteBatch } from '../store/key-value-store.js';
import type { Chain } from './chain.js';
import { Col, heightKey } from './columns.js';
import { deleteReceiptOrigins } from './receipt-origins.js';

/** The deletions that take the chain from its head back to `height` (an existing block below the head). */
export function revertBatch(chain: Chain, height: number): WriteBatch {
  const batch = new WriteBatch();
  const outcomeIds: Uint8Array[] = [];
  let stateChangesComplete = true;
  const trieUpdate = chain.tries.update();

  for (let h = chain.head.height; h > height; h--) {
    chain.tries.revert(batch, trieUpdate, h, chain.numShards);
    const block = chain.blockByHeight(h);
    if (!block) continue;
    batch.delete(Col.Block, base58Decode(block.hash));
    batch.delete(Col.BlockHeight, heightKey(h));
    batch.delete(Col.OutgoingReceipts, heightKey(h));
    batch.delete(Col.StateChanges, heightKey(h));
    deleteReceiptOrigins(batch, chain.store, h);
    for (const chunkHash of block.chunkHashes) {
      const chunk = chain.chunk(chunkHash);
      batch.delete(Col.Chunk, base58Decode(chunkHash));
      if (!chunk) continue;
      const view = chunk.view as {
        transactions?: Array<{ hash: string }>;
        receipts?: Array<{ receipt_id: string }>;
      };
      for (const tx of view.transactions ?? []) {
        const hash = base58Decode(tx.hash);
        batch.delete(Col.Transaction, hash);
        outcomeIds.push(hash);
      }
      for (const r of view.receipts ?? []) outcomeIds.push(base58Decode(r.receipt_id));
    }
    const changes = chain.stateChanges(h);
    if (!changes) {
      stateChangesComplete = false;
      continue;
    }
    for (const change of changes) {
      batch.delete(Col.State, versionKey(new Uint8Array(Buffer.from(change.key, 'base64')), h));
    }
  }

  trieUpdate.writeTo(batch);

  // Outcomes of what the reverted blocks executed, and the receipts those produced (local receipts executed
  // in the same block included), followed transitively.
  const seen = new Set<string>();
  while (outcomeIds.length > 0) {
    const id = outcomeIds.pop() as Uint8Array;
    const key = Buffer.from(id).toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    const outcome = chain.outcome(id);
    if (!outcome || outcome.height <= height) continue;
    batch.delete(Col.Outcome, id);
    for (const receiptId of outcome.view.outcome.receipt_ids) {
      const rid = base58Decode(receiptId);
      batch.delete(Col.Receipt, rid);
      outcomeIds.push(rid);
    }
  }

  // A block without recorded state changes: find its state versions by scanning the state column.
  if (!stateChangesComplete) {
    for (const { key } of chain.store.range(Col.State)) {
      if (readInvertedHeight(key, key.length - HEIGHT_BYTES) > height) batch.delete(Col.State, key);
    }
  }
  return batch;
}
