/**
 * A transaction's execution level and its `FinalExecutionOutcome`, as nearcore's view client computes them
 * (chain/client/src/view_client_actor.rs `get_tx_execution_status`, chain/chain `get_final_transaction_result`).
 *
 * Levels: INCLUDED (in a block) < EXECUTED_OPTIMISTIC (every non-refund receipt executed) and INCLUDED_FINAL
 * (its block final) < EXECUTED (both) < FINAL (every receipt, refunds included, executed in final blocks).
 */
import { base58Decode, base58Encode } from '@shadebox/primitives';
import type { Chain } from './chain.js';
import type { OutcomeRecord, OutcomeView, TransactionRecord } from './records.js';

export const TX_EXECUTION_LEVELS = [
  'NONE',
  'INCLUDED',
  'EXECUTED_OPTIMISTIC',
  'INCLUDED_FINAL',
  'EXECUTED',
  'FINAL',
] as const;
export type TxExecutionLevel = (typeof TX_EXECUTION_LEVELS)[number];

/** Which reached levels satisfy a wait for `wanted`. */
const SATISFIES: Record<TxExecutionLevel, readonly TxExecutionLevel[]> = {
  NONE: TX_EXECUTION_LEVELS,
  INCLUDED: ['INCLUDED', 'EXECUTED_OPTIMISTIC', 'INCLUDED_FINAL', 'EXECUTED', 'FINAL'],
  EXECUTED_OPTIMISTIC: ['EXECUTED_OPTIMISTIC', 'EXECUTED', 'FINAL'],
  INCLUDED_FINAL: ['INCLUDED_FINAL', 'EXECUTED', 'FINAL'],
  EXECUTED: ['EXECUTED', 'FINAL'],
  FINAL: ['FINAL'],
};

export function levelSatisfies(reached: TxExecutionLevel, wanted: TxExecutionLevel): boolean {
  return SATISFIES[wanted].includes(reached);
}

export interface TxStatus {
  level: TxExecutionLevel;
  /** Absent while some non-refund receipt has not executed yet. */
  outcome?: {
    status: unknown;
    transaction: Record<string, unknown>;
    transaction_outcome: OutcomeView;
    receipts_outcome: OutcomeView[];
    /** Receipt ids in the order of `receipts_outcome` (for EXPERIMENTAL_tx_status's `receipts`). */
    receiptIds: string[];
  };
}

/** The status of an included transaction, or undefined when no block has included it. */
export function transactionStatus(chain: Chain, txHash: Uint8Array): TxStatus | undefined {
  const tx: TransactionRecord | undefined = chain.transaction(txHash);
  if (!tx) return undefined;
  const txOutcome = chain.outcome(txHash);
  if (!txOutcome) return undefined;

  // Outcomes in depth-first order from the transaction, as nearcore collects them.
  const outcomes: OutcomeRecord[] = [txOutcome];
  let pendingNonRefund = false;
  let pendingRefund = false;
  const visit = (record: OutcomeRecord) => {
    for (const id of record.view.outcome.receipt_ids) {
      const child = chain.outcome(base58Decode(id));
      if (!child) {
        const receipt = chain.receipt(base58Decode(id));
        if ((receipt?.view as { predecessor_id?: string } | undefined)?.predecessor_id === 'system')
          pendingRefund = true;
        else pendingNonRefund = true;
        continue;
      }
      outcomes.push(child);
      visit(child);
    }
  };
  visit(txOutcome);

  const finalHeight = chain.finalHeight('final');
  const txFinal = tx.height <= finalHeight;
  if (pendingNonRefund) return { level: txFinal ? 'INCLUDED_FINAL' : 'INCLUDED' };

  let level: TxExecutionLevel;
  if (!txFinal) level = 'EXECUTED_OPTIMISTIC';
  else if (!pendingRefund && outcomes.every((o) => o.height <= finalHeight)) level = 'FINAL';
  else level = 'EXECUTED';

  return {
    level,
    outcome: {
      status: finalExecutionStatus(outcomes, base58Encode(txHash)),
      transaction: tx.view,
      transaction_outcome: txOutcome.view,
      receipts_outcome: outcomes.slice(1).map((o) => o.view),
      receiptIds: outcomes.slice(1).map((o) => o.view.id),
    },
  };
}

/** nearcore's `FinalExecutionStatus`: follow `SuccessReceiptId` links from the transaction. */
function finalExecutionStatus(outcomes: OutcomeRecord[], txHash: string): unknown {
  let lookingFor = txHash;
  for (const o of outcomes) {
    if (o.view.id !== lookingFor) continue;
    const status = o.view.outcome.status as Record<string, unknown> | string;
    if (status === 'Unknown') return outcomes.length === 1 ? 'NotStarted' : 'Started';
    if (typeof status === 'object' && 'SuccessReceiptId' in status) {
      lookingFor = status.SuccessReceiptId as string;
      continue;
    }
    return status;
  }
  return 'Started';
}
