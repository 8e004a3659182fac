/**
 * A transaction's execution level and its `FinalExecutionOutcome`, as nearcore's view client computes them
 * (chain/client/src/view_client_actor.rs `get_tx_execution_status`, chain/chain `get_final_transaction_result`).
 *
 * Levels: INCLUDED (in a block) < EXECUTED_OPTIMISTIC (every receipt executed but trailing refunds) and
 * INCLUDED_FINAL (its block final) < EXECUTED (both) < FINAL (every receipt, refunds included, executed in final
 * blocks).
 */
import { base58Decode, base58Encode, TX_EXECUTION_LEVELS, type TxExecutionLevel } from '@shadebox/primitives';
import type { Chain } from './chain.js';
import type { OutcomeRecord, OutcomeView, TransactionRecord } from './records.js';

export { TX_EXECUTION_LEVELS, type TxExecutionLevel };

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
  /** The outcomes known so far (nearcore's partial transaction result): absent only while the transaction
   * is still in the pool. */
  outcome?: {
    status: unknown;
    transaction: Record<string, unknown>;
    transaction_outcome: OutcomeView;
    receipts_outcome: OutcomeView[];
    /** The receipts EXPERIMENTAL_tx_status lists in `receipts`: those of `receipts_outcome`, less the
     * transaction's own receipt when it is local (signer == receiver), which nearcore does not store
     * (`get_transaction_result_with_receipt`). */
    receiptIds: string[];
  };
}

/**
 * The status of an included transaction, or undefined when no block has included it.
 *
 * As nearcore's `get_tx_execution_status`: the receipts awaited are every receipt id named by the outcomes
 * known; "executed ignoring refunds" waits for all of them except, for each executed receipt, its last
 * receipt when that is a refund (predecessor `system`) — a deposit refund that is not last is awaited.
 */
export function transactionStatus(chain: Chain, txHash: Uint8Array): TxStatus | undefined {
  const tx: TransactionRecord | undefined = chain.transaction(txHash);
  if (!tx) return undefined;
  const txOutcome = chain.outcome(txHash);
  if (!txOutcome) return undefined;

  // Outcomes in depth-first order from the transaction, as nearcore collects them; receipts that have not
  // executed yet are skipped.
  const outcomes: OutcomeRecord[] = [txOutcome];
  const visit = (record: OutcomeRecord) => {
    for (const id of record.view.outcome.receipt_ids) {
      const child = chain.outcome(base58Decode(id));
      if (!child) continue;
      outcomes.push(child);
      visit(child);
    }
  };
  visit(txOutcome);
  const receiptOutcomes = outcomes.slice(1);

  const executed = new Set(receiptOutcomes.map((o) => o.view.id));
  const awaiting = new Set(outcomes.flatMap((o) => o.view.outcome.receipt_ids));
  const awaitingNonRefund = new Set(awaiting);
  for (const o of receiptOutcomes) {
    const last = o.view.outcome.receipt_ids.at(-1);
    if (last === undefined || executed.has(last)) continue;
    const receipt = chain.receipt(base58Decode(last));
    if ((receipt?.view as { predecessor_id?: string } | undefined)?.predecessor_id === 'system')
      awaitingNonRefund.delete(last);
  }
  const executedIgnoringRefunds = [...awaitingNonRefund].every((id) => executed.has(id));
  const executedIncludingRefunds = [...awaiting].every((id) => executed.has(id));

  const finalHeight = chain.finalHeight('final');
  let level: TxExecutionLevel;
  if (tx.height > finalHeight) level = executedIgnoringRefunds ? 'EXECUTED_OPTIMISTIC' : 'INCLUDED';
  else if (!executedIgnoringRefunds) level = 'INCLUDED_FINAL';
  else if (!executedIncludingRefunds) level = 'EXECUTED';
  else level = receiptOutcomes.every((o) => o.height <= finalHeight) ? 'FINAL' : 'EXECUTED';

  const local = (tx.view as { receiver_id?: string }).receiver_id === tx.signerId;
  const ownReceipt = txOutcome.view.outcome.receipt_ids[0];
  return {
    level,
    outcome: {
      status: finalExecutionStatus(outcomes, base58Encode(txHash)),
      transaction: tx.view,
      transaction_outcome: txOutcome.view,
      receipts_outcome: receiptOutcomes.map((o) => o.view),
      receiptIds: receiptOutcomes.map((o) => o.view.id).filter((id) => !(local && id === ownReceipt)),
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
