/**
 * The receipt → origin mapping nearcore keeps in its `ReceiptToTx` column (`save_receipt_to_tx`, on by
 * default): for every receipt a chunk creates, where it came from — the transaction it was converted from
 * (`FromTransaction {tx_hash, sender_account_id}`) or the receipt whose execution made it (`FromReceipt
 * {parent_receipt_id, parent_predecessor_id}`) — with its receiver and the shard that created it. Written with
 * the block that created the receipt, so a receipt still delayed, postponed or in flight is already mapped, and
 * a walk up any number of hops reads one entry per hop (`EXPERIMENTAL_receipt_to_tx`,
 * rpc/methods/receipt-to-tx.ts).
 *
 * Every created receipt is mapped, as nearcore's runtime maps them: the receipt a transaction converts into,
 * every receipt an action receipt's execution makes (action, data and refund receipts alike), a yield's resume
 * on timeout (its parent is the yield receipt) and a global contract distribution's forward to the next shard.
 *
 * A regular node collects the entries with the block that wrote them (nearcore tags them
 * `ReceiptSource::ReceiptToTxGc` in `ProcessedReceiptIds` of that block), so each height also lists the ids it
 * mapped; an entry below the served horizon is not served (the GC view of a node with an archival endpoint).
 */
import { base58Decode, base58Encode } from '@shadebox/primitives';
import type { CreatedReceiptOrigin } from '../runtime/receipt-origin.js';
import type { KeyValueStore, WriteBatch } from '../store/key-value-store.js';
import { Col, heightKey } from './columns.js';

export type { CreatedReceiptOrigin, ReceiptOrigin } from '../runtime/receipt-origin.js';

/** The stored entry (JSON): nearcore's `ReceiptToTxInfoV1` plus the height of the block that created it. */
export interface ReceiptOriginRecord {
  /** The transaction's hash, or the parent receipt's id (base58). */
  parent: string;
  /** `transaction` (parent is a transaction, `account` its signer) or `receipt` (`account` is the parent
   * receipt's predecessor). */
  kind: 'transaction' | 'receipt';
  account: string;
  receiver: string;
  shard: number;
  height: number;
}

const utf8 = new TextEncoder();
const utf8d = new TextDecoder();

/** Adds to `batch` the entries one block's chunks created, and the list of their ids under the height. */
export function writeReceiptOrigins(
  batch: WriteBatch,
  height: number,
  byShard: ReadonlyArray<ReadonlyArray<CreatedReceiptOrigin>>,
): void {
  const ids: string[] = [];
  byShard.forEach((created, shard) => {
    for (const { receiptId, receiverId, origin } of created) {
      const record: ReceiptOriginRecord =
        origin.kind === 'transaction'
          ? {
              parent: base58Encode(origin.txHash),
              kind: 'transaction',
              account: origin.senderId,
              receiver: receiverId,
              shard,
              height,
            }
          : {
              parent: base58Encode(origin.parentReceiptId),
              kind: 'receipt',
              account: origin.parentPredecessorId,
              receiver: receiverId,
              shard,
              height,
            };
      batch.put(Col.ReceiptToTx, receiptId, utf8.encode(JSON.stringify(record)));
      ids.push(base58Encode(receiptId));
    }
  });
  if (ids.length > 0) batch.put(Col.ReceiptToTxByHeight, heightKey(height), utf8.encode(JSON.stringify(ids)));
}

/** Adds to `batch` the deletion of every entry block `height` wrote (garbage collection, `sandbox_revert`). */
export function deleteReceiptOrigins(
  batch: WriteBatch,
  store: Pick<KeyValueStore, 'get'>,
  height: number,
): void {
  const key = heightKey(height);
  const raw = store.get(Col.ReceiptToTxByHeight, key);
  if (!raw) return;
  for (const id of JSON.parse(utf8d.decode(raw)) as string[]) batch.delete(Col.ReceiptToTx, base58Decode(id));
  batch.delete(Col.ReceiptToTxByHeight, key);
}

export function parseReceiptOrigin(raw: Uint8Array | undefined): ReceiptOriginRecord | undefined {
  return raw ? (JSON.parse(utf8d.decode(raw)) as ReceiptOriginRecord) : undefined;
}
