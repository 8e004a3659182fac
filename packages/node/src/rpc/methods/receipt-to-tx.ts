/**
 * `EXPERIMENTAL_receipt_to_tx` (nearcore 2.12+, chain/jsonrpc/src/api/receipts.rs): the transaction a receipt
 * descends from, `{transaction_hash, sender_account_id}`, found by walking the receipt chain upwards — the
 * receipt's parent is the outcome (a transaction's or a receipt's) whose `receipt_ids` names it — until an
 * outcome is a transaction's. Params `RpcReceiptToTxRequest {receipt_id, block_height?, shard_id?, window?}`.
 *
 * nearcore reads each parent from its `ReceiptToTx` column (`save_receipt_to_tx`), falling back to a scan of
 * blocks bounded by the hints. This node keeps no such column: it scans its stored blocks downwards from the
 * receipt's execution (or `block_height`), each block's transactions and incoming receipts and the receipts
 * they executed in place, which finds every parent a block of this node records. A receipt this node never
 * stored is UNKNOWN_RECEIPT `{receipt_id}` with nearcore's message; so is one whose ancestry leaves the
 * stored blocks (garbage collected on a regular node).
 */
import { base58Decode, base58Encode } from '@shadebox/primitives';
import type { Chain } from '../../chain/chain.js';
import type { ChunkRecord } from '../../chain/records.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';
import { optional, readCryptoHash, readFields, readU64, structEntries } from '../serde.js';

/** How many ancestors a walk follows before DEPTH_EXCEEDED (a receipt chain is far shorter in practice). */
export const RECEIPT_TO_TX_DEPTH_LIMIT = 1_000;

export function receiptToTx(ctx: RpcContext, params: unknown) {
  const f = readFields(structEntries(params, 'RpcReceiptToTxRequest'), {
    receipt_id: { read: readCryptoHash },
    block_height: optional(readU64),
    shard_id: optional(readU64),
    window: optional(readU64),
  });
  const receiptId = base58Encode(f.receipt_id);
  const chain = ctx.chain;
  if (!chain.receipt(f.receipt_id)) throw unknownReceipt(receiptId);

  const parents = new ParentIndex(
    chain,
    chain.outcome(f.receipt_id)?.height ?? f.block_height ?? chain.head.height,
  );
  let id = receiptId;
  for (let depth = 0; depth < RECEIPT_TO_TX_DEPTH_LIMIT; depth++) {
    const parent = parents.parentOf(id);
    if (!parent) throw unknownReceipt(receiptId);
    const tx = chain.transaction(base58Decode(parent));
    if (tx) return { transaction_hash: parent, sender_account_id: tx.signerId };
    id = parent;
  }
  throw handlerError(
    'DEPTH_EXCEEDED',
    { limit: RECEIPT_TO_TX_DEPTH_LIMIT, receipt_id: receiptId },
    `Receipt chain for ${receiptId} exceeds the depth limit of ${RECEIPT_TO_TX_DEPTH_LIMIT}`,
  );
}

function unknownReceipt(receiptId: string) {
  return handlerError(
    'UNKNOWN_RECEIPT',
    { receipt_id: receiptId },
    `Receipt with id ${receiptId} has never been observed on this node`,
  );
}

/**
 * child receipt id → the id of the outcome that made it, filled block by block from `from` downwards as far as
 * a question needs (a parent was executed at or before its child).
 */
class ParentIndex {
  private readonly parents = new Map<string, string>();
  private next: number;

  constructor(
    private readonly chain: Chain,
    from: number,
  ) {
    this.next = from;
  }

  parentOf(id: string): string | undefined {
    while (!this.parents.has(id) && this.next >= this.chain.earliestHeight()) this.scan(this.next--);
    return this.parents.get(id);
  }

  /** Every outcome a block records: its chunks' transactions and incoming receipts, and what they ran in place. */
  private scan(height: number): void {
    const block = this.chain.blockByHeight(height);
    if (!block) return;
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      const outcome = this.chain.outcome(base58Decode(id));
      if (!outcome) return;
      for (const child of outcome.view.outcome.receipt_ids) {
        this.parents.set(child, id);
        // A receipt executed in the block that made it (a local receipt) is in no chunk's receipt list.
        if (this.chain.outcome(base58Decode(child))?.height === height) visit(child);
      }
    };
    for (const chunkHash of block.chunkHashes) {
      const chunk = this.chain.chunk(chunkHash) as ChunkRecord | undefined;
      if (!chunk) continue;
      const view = chunk.view as {
        transactions: Array<{ hash: string }>;
        receipts: Array<{ receipt_id: string }>;
      };
      for (const tx of view.transactions) visit(tx.hash);
      for (const receipt of view.receipts) visit(receipt.receipt_id);
    }
  }
}
