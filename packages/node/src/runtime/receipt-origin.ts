/**
 * Where a receipt came from, as a chunk's application reports it for every receipt it creates: the transaction
 * it was converted from, or the receipt whose execution made it (nearcore's `ReceiptToTxInfo` origins). The
 * chain stores them (chain/receipt-origins.ts) for `EXPERIMENTAL_receipt_to_tx`.
 */
export type ReceiptOrigin =
  | { kind: 'transaction'; txHash: Uint8Array; senderId: string }
  | { kind: 'receipt'; parentReceiptId: Uint8Array; parentPredecessorId: string };

/** One mapped receipt, as a chunk's application reports it. */
export interface CreatedReceiptOrigin {
  receiptId: Uint8Array;
  receiverId: string;
  origin: ReceiptOrigin;
}
