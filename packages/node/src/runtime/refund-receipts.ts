/**
 * Refund receipts: action receipts from `system` carrying one Transfer. They cost no gas. A balance refund
 * returns deposits (to the receipt's `refund_to` when a contract set one) and DeleteAccount's balance; a gas refund returns unused prepaid gas to the signer and
 * names the signer's key so a function-call key gets its allowance back.
 */
import type { PublicKey, Receipt } from '@shadebox/primitives';

export const SYSTEM_ACCOUNT = 'system';
const ZERO_ED25519: PublicKey = { keyType: 0, data: new Uint8Array(32) };

function refundReceipt(
  receiverId: string,
  amount: bigint,
  signerId: string,
  signerPublicKey: PublicKey,
  priority: bigint,
): Receipt {
  return {
    predecessorId: SYSTEM_ACCOUNT,
    receiverId,
    receiptId: new Uint8Array(32),
    priority,
    receipt: {
      kind: 'Action',
      signerId,
      signerPublicKey,
      gasPrice: 0n,
      outputDataReceivers: [],
      inputDataIds: [],
      actions: [{ type: 'Transfer', deposit: amount }],
      isPromiseYield: false,
    },
  };
}

export function balanceRefundReceipt(receiverId: string, amount: bigint, priority = 0n): Receipt {
  return refundReceipt(receiverId, amount, SYSTEM_ACCOUNT, ZERO_ED25519, priority);
}

export function gasRefundReceipt(
  receiverId: string,
  amount: bigint,
  signerPublicKey: PublicKey,
  priority = 0n,
): Receipt {
  return refundReceipt(receiverId, amount, receiverId, signerPublicKey, priority);
}

/** Who gets a balance refund of `receipt` (nearcore `Receipt::balance_refund_receiver`): the account a
 * contract named with `promise_set_refund_to`, else the predecessor. */
export function balanceRefundReceiver(receipt: Receipt): string {
  const inner = receipt.receipt;
  return (inner.kind === 'Action' ? inner.refundTo : undefined) ?? receipt.predecessorId;
}

export function isRefundReceipt(receipt: Receipt): boolean {
  return receipt.predecessorId === SYSTEM_ACCOUNT;
}
