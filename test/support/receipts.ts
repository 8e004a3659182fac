/**
 * Receipts in the end-to-end tests: finding a receipt's outcome and view in a transaction status, refund
 * amounts, and receipt ids computed the protocol's way.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Json } from './raw-rpc.js';

/** The outcome of receipt `id` in a tx status, and its receipt view when the status has it. */
export function receiptOutcome(status: Json, id: string): Json {
  const outcome = status.receipts_outcome.find((o: Json) => o.id === id);
  assert.ok(outcome, `no outcome for receipt ${id}`);
  return outcome;
}

export function receiptView(status: Json, id: string): Json | undefined {
  return status.receipts?.find((r: Json) => r.receipt_id === id);
}

/** The deposit of a refund receipt (one Transfer), from the tx status' `receipts`. */
export function refundDeposit(status: Json, id: string): bigint {
  const view = receiptView(status, id);
  assert.ok(view, `receipt ${id} should be in EXPERIMENTAL_tx_status receipts`);
  assert.equal(view.predecessor_id, 'system');
  const [action] = view.receipt.Action.actions;
  return BigInt(action.Transfer.deposit);
}

const u64le = (n: bigint | number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};

/** sha256(base ‖ u64_le(height) ‖ u64_le(salt)), as base58 via the caller's encoder. */
export function receiptIdBytes(base: Uint8Array, height: number, salt: number): Uint8Array {
  return new Uint8Array(createHash('sha256').update(base).update(u64le(height)).update(u64le(salt)).digest());
}
