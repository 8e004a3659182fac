/**
 * Checks a transaction that makes one action receipt against the fee schedule (fees.ts): the outcomes' gas
 * and tokens, the receipt ids, the refund receipts and their amounts.
 */
import assert from 'node:assert/strict';
import { baseDecode, baseEncode } from 'near-api-js';
import { depositOf } from './fees.js';
import type { Json } from './raw-rpc.js';
import { receiptIdBytes, receiptOutcome, receiptView } from './receipts.js';
import { applyGasPrice, blockHeight } from './rpc-calls.js';
import type { TestNode } from './test-node.js';

export interface SingleReceiptOptions {
  /** The receipt creates its receiver (CreateAccount, or a transfer creating an implicit account). */
  creates?: boolean;
  /** Index of the action expected to fail; null when the receipt fails after its actions (storage). */
  failsAt?: number | null;
}

export interface SingleReceiptCosts {
  /** Height of the block that included the transaction, and of the one that executed its receipt. */
  txHeight: number;
  receiptHeight: number;
  gasPrice: bigint;
  purchasePrice: bigint;
  /** Bought at conversion: send fees at the gas price, prepaid gas at the purchase price, deposits. */
  totalCost: bigint;
  /** Tokens burnt by the transaction and by its receipt (account creation charge included). */
  txBurnt: bigint;
  receiptBurnt: bigint;
  gasRefund: bigint;
  /** Deposits given back to the predecessor when the receipt failed. */
  depositRefund: bigint;
  /** What the signer loses in the end, deposits aside: txBurnt + receiptBurnt. */
  fee: bigint;
  status: Json;
}

/**
 * Checks a transaction that makes one action receipt and whose receipt makes nothing but refunds, against
 * the fee schedule: the outcomes' gas and tokens, the receipt ids, the refund receipts and their amounts.
 */
export async function checkSingleReceiptTx(
  t: TestNode,
  status: Json,
  options: SingleReceiptOptions = {},
): Promise<SingleReceiptCosts> {
  const { fees, url } = t;
  const tx = status.transaction;
  const actions: Json[] = tx.actions;
  const sir = tx.signer_id === tx.receiver_id;
  const txOutcome = status.transaction_outcome;
  const txHeight = await blockHeight(url, txOutcome.block_hash);
  const gasPrice = await applyGasPrice(url, txHeight);
  const purchasePrice = fees.purchasePrice(gasPrice);

  const sendGas = fees.sendGas(actions, sir, tx.receiver_id);
  const prepaid = fees.prepaidGas(actions, tx.receiver_id);
  const deposits = depositOf(actions);
  assert.equal(BigInt(txOutcome.outcome.gas_burnt), sendGas, 'tx outcome gas_burnt = send fees');
  assert.equal(BigInt(txOutcome.outcome.tokens_burnt), sendGas * gasPrice, 'tx outcome tokens_burnt');
  assert.equal(txOutcome.outcome.executor_id, tx.signer_id);
  const r1 = baseEncode(receiptIdBytes(baseDecode(tx.hash), txHeight, 0));
  assert.deepEqual(txOutcome.outcome.receipt_ids, [r1], 'receipt id = sha256(tx hash ‖ height ‖ 0)');
  assert.deepEqual(txOutcome.outcome.status, { SuccessReceiptId: r1 });

  const receipt = receiptOutcome(status, r1);
  const receiptHeight = await blockHeight(url, receipt.block_hash);
  assert.equal(receiptHeight, sir ? txHeight : txHeight + 1, 'local receipts run at once, others next block');
  const receiptPrice = await applyGasPrice(url, receiptHeight);
  const burnPrice = purchasePrice < receiptPrice ? purchasePrice : receiptPrice;
  const failed = options.failsAt !== undefined;
  const executedActions = typeof options.failsAt === 'number' ? options.failsAt + 1 : actions.length;
  const burntGas = fees.execGas(actions, tx.receiver_id, executedActions);
  const charge = options.creates && !failed ? fees.creationCharge(burnPrice) : 0n;
  assert.equal(receipt.outcome.executor_id, tx.receiver_id);
  assert.equal(BigInt(receipt.outcome.gas_burnt), burntGas, 'receipt gas_burnt = execution fees');
  assert.equal(
    BigInt(receipt.outcome.tokens_burnt),
    burntGas * burnPrice + charge,
    'receipt tokens_burnt = gas × min(purchase, block price) + creation charge',
  );
  if (failed) {
    assert.equal(receipt.outcome.status.Failure?.ActionError?.index, options.failsAt, 'failing action');
  } else {
    assert.deepEqual(receipt.outcome.status, { SuccessValue: '' });
  }

  const gasRefund = purchasePrice * prepaid - burnPrice * burntGas - charge;
  const depositRefund = failed ? deposits : 0n;
  const expectedIds: string[] = [];
  const refunds: Array<{ receiver: string; signer: string; amount: bigint }> = [];
  if (depositRefund > 0n) refunds.push({ receiver: tx.signer_id, signer: 'system', amount: depositRefund });
  if (gasRefund > 0n) refunds.push({ receiver: tx.signer_id, signer: tx.signer_id, amount: gasRefund });
  refunds.forEach((_, i) => {
    expectedIds.push(baseEncode(receiptIdBytes(baseDecode(r1), receiptHeight, i)));
  });
  assert.deepEqual(receipt.outcome.receipt_ids, expectedIds, 'refund receipt ids');
  refunds.forEach((refund, i) => {
    const view = receiptView(status, expectedIds[i]);
    assert.ok(view, 'refund receipt in EXPERIMENTAL_tx_status receipts');
    assert.equal(view.predecessor_id, 'system');
    assert.equal(view.receiver_id, refund.receiver);
    assert.equal(view.receipt.Action.signer_id, refund.signer);
    assert.equal(view.receipt.Action.gas_price, '0');
    if (refund.signer !== 'system') assert.equal(view.receipt.Action.signer_public_key, tx.public_key);
    assert.deepEqual(view.receipt.Action.actions, [{ Transfer: { deposit: refund.amount.toString() } }]);
  });

  const txBurnt = sendGas * gasPrice;
  const receiptBurnt = burntGas * burnPrice + charge;
  return {
    txHeight,
    receiptHeight,
    gasPrice,
    purchasePrice,
    totalCost: txBurnt + prepaid * purchasePrice + deposits,
    txBurnt,
    receiptBurnt,
    gasRefund,
    depositRefund,
    fee: txBurnt + receiptBurnt,
    status,
  };
}
