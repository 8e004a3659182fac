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
import { protocolFeatureEnabled } from '../config/protocol-version.js';
import {
  getPendingDataCount,
  getPostponedReceipt,
  getPostponedReceiptId,
  getPromiseYieldIndices,
  getPromiseYieldReceipt,
  getPromiseYieldStatus,
  getPromiseYieldTimeout,
  getReceivedData,
  hasPromiseYieldReceipt,
  migrateLegacyPromiseYieldQueue,
  removePendingDataCount,
  removePostponedReceipt,
  removePostponedReceiptId,
  removePromiseYieldReceipt,
  removePromiseYieldStatus,
  removePromiseYieldTimeout,
  setPendingDataCount,
  setPostponedReceipt,
  setPostponedReceiptId,
  setPromiseYieldIndices,
  setPromiseYieldReceipt,
  setReceivedData,
} from '../state/receipt-state.js';
import type { StateUpdate } from '../state/state-update.js';
import { removeYieldIdMappingsOfDataId } from '../state/yield-id-state.js';
import type { GasProfile } from '../vm/gas-profile.js';
import type { AccountContractView, ValidatorProposal } from './action-result.js';
import { applyActionReceipt } from './apply-action-receipt.js';
import { runBandwidthScheduler } from './bandwidth-scheduler.js';
import { InvalidTxError } from './errors.js';
import { applyGlobalContractDistribution, type DistributionReceipt } from './global-contract-distribution.js';
import type { CreatedReceiptOrigin } from './receipt-origin.js';
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
  /** Receipts: nearcore's `ExecutionMetadata` (V3 before protocol 85, V4 from 85 with the contracts). */
  metadata?: { version: 3 | 4; profile: GasProfile; contracts: AccountContractView[] };
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
  /** Where each receipt this chunk created came from (local ones included): nearcore's `ReceiptToTx` entries
   * (runtime/receipt-origin.ts; stored by chain/receipt-origins.ts). */
  receiptOrigins: CreatedReceiptOrigin[];
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
    receiptOrigins: [],
    gasUsed: 0n,
    balanceBurnt: 0n,
    validatorProposals: [],
  };
  const localReceipts: Receipt[] = [];
  if (validatorAccountsUpdate) applyValidatorAccountsUpdate(state, validatorAccountsUpdate);
  const shardId = block.shardId ?? 0;
  // A home made before the yield queue was kept per shard: its one queue becomes shard 0's.
  if (shardId === 0 && migrateLegacyPromiseYieldQueue(state)) state.commit({ type: 'migration' });
  runBandwidthScheduler(state, params.bandwidthScheduler, shardId, block.numShards ?? 1);

  for (const tx of transactions) {
    const t = tx.signedTransaction.transaction;
    try {
      const cost = validateTransaction(params, tx.signedTransaction, tx.hash, tx.size, block.gasPrice, {
        signatureVerified: tx.signatureVerified,
      });
      const verified = verifyAndChargeTransaction(params, state, tx.signedTransaction, cost, block.height, {
        inChunk: true,
      });
      if (verified.depositFailed) {
        // nearcore's DepositFailed: included, the conversion's gas burnt, no receipt, a failed outcome.
        state.commit({ type: 'transaction_processing', tx_hash: b58(tx.hash) });
        out.transactions.push(tx);
        out.outcomes.push({
          id: tx.hash,
          executorId: t.signerId,
          gasBurnt: cost.gasBurnt,
          tokensBurnt: cost.burntAmount,
          logs: [],
          receiptIds: [],
          status: { Failure: { InvalidTxError: verified.depositFailed.toJSON() } },
        });
        out.gasUsed += cost.gasBurnt;
        out.balanceBurnt += cost.burntAmount;
        continue;
      }
      const receiptId = createReceiptIdFromTransaction(tx.hash, block.height);
      const receipt: Receipt = {
        predecessorId: t.signerId,
        receiverId: t.receiverId,
        receiptId,
        priority: 0n,
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
      out.receiptOrigins.push({
        receiptId,
        receiverId: t.receiverId,
        origin: { kind: 'transaction', txHash: tx.hash, senderId: t.signerId },
      });
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
  resolveYieldTimeouts(block, state, out);
  return out;
}

/** Routes one incoming receipt (nearcore `process_receipt`): data is stored and may complete a postponed
 * receipt; an action receipt runs now or waits for its data; a yield waits for its resume. */
function applyReceipt(
  params: RuntimeParams,
  block: BlockContext,
  state: StateUpdate,
  receipt: Receipt,
  out: ChunkResult,
) {
  const accountId = receipt.receiverId;
  const inner = receipt.receipt;
  const receiptHash = b58(receipt.receiptId);
  if (inner.kind === 'GlobalContractDistribution') {
    const before = out.outgoingReceipts.length;
    applyGlobalContractDistribution(block, state, receipt as DistributionReceipt, out.outgoingReceipts);
    // The forward to the next shard descends from the distribution receipt.
    for (const forwarded of out.outgoingReceipts.slice(before)) noteCreatedBy(out, forwarded, receipt);
    return;
  }
  if (inner.kind === 'Data') {
    if (inner.isPromiseResume) {
      // A timeout's resume (no data) after a resume was sent: the sent one wakes the yield (nearcore checks the
      // yield's status).
      if (inner.data === null && getPromiseYieldStatus(state, accountId, inner.dataId) === 'ResumeInitiated')
        return;
      const yielded = getPromiseYieldReceipt(state, accountId, inner.dataId);
      // A second resume (or one after the timeout) finds nothing to wake: it is dropped.
      if (!yielded) return;
      removePromiseYieldReceipt(state, accountId, inner.dataId);
      removePromiseYieldStatus(state, accountId, inner.dataId);
      setReceivedData(state, accountId, inner.dataId, inner.data);
      executeActionReceipt(params, block, state, yielded, out);
      return;
    }
    setReceivedData(state, accountId, inner.dataId, inner.data);
    const waitingId = getPostponedReceiptId(state, accountId, inner.dataId);
    if (waitingId) {
      removePostponedReceiptId(state, accountId, inner.dataId);
      const pending = getPendingDataCount(state, accountId, waitingId) ?? 0;
      if (pending <= 1) {
        removePendingDataCount(state, accountId, waitingId);
        const ready = getPostponedReceipt(state, accountId, waitingId);
        if (!ready) throw new Error(`postponed receipt ${b58(waitingId)} should be in the state`);
        removePostponedReceipt(state, accountId, waitingId);
        executeActionReceipt(params, block, state, ready, out);
        return;
      }
      setPendingDataCount(state, accountId, waitingId, pending - 1);
    }
    state.commit({ type: 'postponed_receipt', receipt_hash: receiptHash });
    return;
  }
  if (inner.isPromiseYield) {
    setPromiseYieldReceipt(state, receipt as Receipt & { receipt: { kind: 'Action' } });
    state.commit({ type: 'postponed_receipt', receipt_hash: receiptHash });
    return;
  }
  let missing = 0;
  for (const dataId of inner.inputDataIds) {
    if (!getReceivedData(state, accountId, dataId)) {
      missing++;
      setPostponedReceiptId(state, accountId, dataId, receipt.receiptId);
    }
  }
  if (missing === 0) {
    executeActionReceipt(params, block, state, receipt, out);
    return;
  }
  setPendingDataCount(state, accountId, receipt.receiptId, missing);
  setPostponedReceipt(state, receipt);
  state.commit({ type: 'postponed_receipt', receipt_hash: receiptHash });
}

function executeActionReceipt(
  params: RuntimeParams,
  block: BlockContext,
  state: StateUpdate,
  receipt: Receipt,
  out: ChunkResult,
) {
  const exec = applyActionReceipt(params, block, state, receipt as Parameters<typeof applyActionReceipt>[3]);
  // Every new receipt gets an id by position; the outcome lists the action receipts among them.
  const receiptIds: Uint8Array[] = [];
  exec.result.newReceipts.forEach((created, index) => {
    created.receiptId = createReceiptIdFromReceiptId(receipt.receiptId, block.height, index);
    if (created.receipt.kind === 'Action') receiptIds.push(created.receiptId);
    out.outgoingReceipts.push(created);
    noteCreatedBy(out, created, receipt);
  });
  const status = exec.status;
  out.outcomes.push({
    id: receipt.receiptId,
    executorId: receipt.receiverId,
    gasBurnt: exec.result.gasBurnt,
    tokensBurnt: exec.tokensBurnt,
    logs: exec.result.logs,
    receiptIds,
    status:
      status.kind === 'Failure'
        ? { Failure: status.failure.toJSON() }
        : status.kind === 'ReceiptIndex'
          ? { SuccessReceiptId: exec.result.newReceipts[status.index].receiptId }
          : { SuccessValue: base64Encode(status.value) },
    receipt,
    metadata: {
      version: protocolFeatureEnabled('ExecutionMetadataV4', params.protocolVersion) ? 4 : 3,
      profile: exec.result.profile,
      contracts: exec.result.contracts,
    },
  });
  out.gasUsed += exec.result.gasBurnt;
  out.balanceBurnt += exec.tokensBurnt + exec.otherBurnt - exec.contractReward - exec.subsidized;
  if (!isRefundReceipt(receipt)) out.validatorProposals.push(...exec.result.validatorProposals);
}

/** Yields nobody resumed within `yield_timeout_length_in_blocks` get a resume without data (nearcore
 * `resolve_promise_yield_timeouts`): their callback runs and sees the promise as failed. */
function resolveYieldTimeouts(block: BlockContext, state: StateUpdate, out: ChunkResult): void {
  const shardId = block.shardId ?? 0;
  const indices = getPromiseYieldIndices(state, shardId);
  const initialFirst = indices.firstIndex;
  let created = 0;
  while (indices.firstIndex < indices.nextAvailableIndex) {
    const entry = getPromiseYieldTimeout(state, shardId, indices.firstIndex);
    if (!entry) throw new Error(`yield timeout #${indices.firstIndex} should be in the state`);
    if (entry.expiresAt > block.height) break;
    // A timed-out yield frees the id it was created with (`YieldWithId`).
    removeYieldIdMappingsOfDataId(state, entry.accountId, entry.dataId);
    if (hasPromiseYieldReceipt(state, entry.accountId, entry.dataId)) {
      const resume: Receipt = {
        predecessorId: entry.accountId,
        receiverId: entry.accountId,
        receiptId: createReceiptIdFromReceiptId(entry.dataId, block.height, created++),
        priority: 0n,
        receipt: { kind: 'Data', dataId: entry.dataId, data: null, isPromiseResume: true },
      };
      out.outgoingReceipts.push(resume);
      // nearcore maps the timeout's resume to the yield receipt it wakes.
      const yielded = getPromiseYieldReceipt(state, entry.accountId, entry.dataId);
      if (yielded) noteCreatedBy(out, resume, yielded);
    }
    removePromiseYieldTimeout(state, shardId, indices.firstIndex);
    indices.firstIndex += 1n;
  }
  if (indices.firstIndex !== initialFirst) {
    setPromiseYieldIndices(state, shardId, indices);
    state.commit({ type: 'updated_delayed_receipts' });
  }
}

/** Records that `parent`'s execution created `child` (a `FromReceipt` origin). */
function noteCreatedBy(out: ChunkResult, child: Receipt, parent: Receipt): void {
  out.receiptOrigins.push({
    receiptId: child.receiptId,
    receiverId: child.receiverId,
    origin: { kind: 'receipt', parentReceiptId: parent.receiptId, parentPredecessorId: parent.predecessorId },
  });
}

const b58 = (bytes: Uint8Array) => base58Encode(bytes);
