/**
 * nearcore's `TxExecutionStatus` (core/primitives/src/views.rs), in order: how far a transaction has gone,
 * and the `wait_until` levels of `send_tx` / `tx`. INCLUDED (in a block) < EXECUTED_OPTIMISTIC (every receipt
 * executed but trailing refunds) and INCLUDED_FINAL (its block final) < EXECUTED (both) < FINAL (every
 * receipt, refunds included, executed in final blocks).
 */
export const TX_EXECUTION_LEVELS = [
  'NONE',
  'INCLUDED',
  'EXECUTED_OPTIMISTIC',
  'INCLUDED_FINAL',
  'EXECUTED',
  'FINAL',
] as const;

export type TxExecutionLevel = (typeof TX_EXECUTION_LEVELS)[number];
