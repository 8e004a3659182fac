/**
 * Applies one shard's chunk (runtime/runtime/src/lib.rs `apply`): at an epoch's first block updates the
 * validator accounts, then converts its transactions into receipts, executes local receipts (signer ==
 * receiver) right away, then the receipts that arrived from the previous block. Receipts created here are
 * executed by the next block.
 */
import {
  base58Encode,
  base64Encode,
  createReceiptIdFromReceiptId,
  createReceiptIdFromTransaction,
  type Receipt,
  type SignedTransaction,
} from '@shadebox/primitives';
import type { StateUpdate } from '../state/state-update.js';
import type { ValidatorProposal } from './action-result.js';
import { applyActionReceipt } from './apply-action-receipt.js';
import { InvalidTxError } from './errors.js';
import { isRefundReceipt } from './refund-receipts.js';
import type { BlockContext, RuntimeParams } from './runtime-context.js';
import { applyValidatorAccountsUpdate, type ValidatorAccountsUpdate } from './validator-accounts-update.js';
import { validateTransaction, verifyAndChargeTransaction } from './verify-transaction.js';

export interface PendingTransaction {
  signedTransaction: SignedTransaction;
  hash: Uint8Array;
  /** Bytes of the whole signed transaction (the size limit counts the signature since protocol 85). */
  size: number;
  /** The signature was already checked against these exact bytes (when the transaction entered the pool). */
  signatureVerified?: boolean;
}

export type OutcomeStatus =
  | { SuccessValue: string }
  | { SuccessReceiptId: Uint8Array }
  | { Failure: unknown };

export interface Outcome {
  id: Uint8Array;
  executorId: string;
  gasBurnt: bigint;
  tokensBurnt: bigint;
  logs: string[];
  receiptIds: Uint8Array[];
  status: OutcomeStatus;
  /** Present for receipts. */
  receipt?: Receipt;
}

export interface ChunkResult {
  /** Transactions that passed the checks and were converted (the chunk's `transactions`). */
  transactions: PendingTransaction[];
  /** Transactions dropped because they no longer pass the checks, with the reason. */
  dropped: Array<{ hash: Uint8Array; error: InvalidTxError }>;
  /** Outcomes in execution order: transactions first, then receipts. */
  outcomes: Outcome[];
  /** Receipts created by this chunk, executed by the next block. */
  outgoingReceipts: Receipt[];
  gasUsed: bigint;
  balanceBurnt: bigint;
  validatorProposals: ValidatorProposal[];
}

export function applyChunk(
  params: RuntimeParams,
  block: BlockContext,
  state: StateUpdate,
  transactions: PendingTransaction[],
  incomingReceipts: Receipt[],
  /** At the first block of an epoch: the stake returns for this shard's accounts. */
  validatorAccountsUpdate?: ValidatorAccountsUpdate,
): ChunkResult {
  const out: ChunkResult = {
    transactions: [],
    dropped: [],
    outcomes: [],
    outgoingReceipts: [],
    gasUsed: 0n,
    balanceBurnt: 0n,
    validatorProposals: [],
  };
  const localReceipts: Receipt[] = [];
  if (validatorAccountsUpdate) applyValidatorAccountsUpdate(state, validatorAccountsUpdate);

  for (const tx of transactions) {
    const t = tx.signedTransaction.transaction;
    try {
      const cost = validateTransaction(params, tx.signedTransaction, tx.hash, tx.size, block.gasPrice, {
        signatureVerified: tx.signatureVerified,
      });
      verifyAndChargeTransaction(params, state, tx.signedTransaction, cost, block.height);
      const receiptId = createReceiptIdFromTransaction(tx.hash, block.height);
      const receipt: Receipt = {
        predecessorId: t.signerId,
        receiverId: t.receiverId,
        receiptId,
        priority: t.priorityFee,
        receipt: {
          kind: 'Action',
          signerId: t.signerId,
          signerPublicKey: t.publicKey,
          gasPrice: cost.receiptGasPrice,
          outputDataReceivers: [],
          inputDataIds: [],
          actions: t.actions,
          isPromiseYield: false,
        },
      };
      state.commit({ type: 'transaction_processing', tx_hash: b58(tx.hash) });
      out.transactions.push(tx);
      out.outcomes.push({
        id: tx.hash,
        executorId: t.signerId,
        gasBurnt: cost.gasBurnt,
        tokensBurnt: cost.burntAmount,
        logs: [],
        receiptIds: [receiptId],
        status: { SuccessReceiptId: receiptId },
      });
      out.gasUsed += cost.gasBurnt;
      out.balanceBurnt += cost.burntAmount;
      if (t.signerId === t.receiverId) localReceipts.push(receipt);
      else out.outgoingReceipts.push(receipt);
    } catch (e) {
      state.rollback();
      if (!(e instanceof InvalidTxError)) throw e;
      out.dropped.push({ hash: tx.hash, error: e });
    }
  }

  for (const receipt of [...localReceipts, ...incomingReceipts])
    applyReceipt(params, block, state, receipt, out);
  return out;
}

function applyReceipt(
  params: RuntimeParams,
  block: BlockContext,
  state: StateUpdate,
  receipt: Receipt,
  out: ChunkResult,
) {
  if (receipt.receipt.kind !== 'Action') {
    throw new Error('data receipts are handled by the VM layer');
  }
  const exec = applyActionReceipt(params, block, state, receipt as Parameters<typeof applyActionReceipt>[3]);
  state.commit({ type: 'receipt_processing', receipt_hash: b58(receipt.receiptId) });
  const receiptIds: Uint8Array[] = [];
  exec.result.newReceipts.forEach((created, index) => {
    created.receiptId = createReceiptIdFromReceiptId(receipt.receiptId, block.height, index);
    receiptIds.push(created.receiptId);
    out.outgoingReceipts.push(created);
  });
  out.outcomes.push({
    id: receipt.receiptId,
    executorId: receipt.receiverId,
    gasBurnt: exec.result.gasBurnt,
    tokensBurnt: exec.tokensBurnt,
    logs: exec.result.logs,
    receiptIds,
    status: exec.failure
      ? { Failure: exec.failure.toJSON() }
      : { SuccessValue: base64Encode(new Uint8Array(0)) },
    receipt,
  });
  out.gasUsed += exec.result.gasBurnt;
  out.balanceBurnt += exec.tokensBurnt + exec.otherBurnt;
  if (!isRefundReceipt(receipt)) out.validatorProposals.push(...exec.result.validatorProposals);
}

const b58 = (bytes: Uint8Array) => base58Encode(bytes);
