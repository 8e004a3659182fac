/**
 * `tx` / `EXPERIMENTAL_tx_status`: a transaction's status by hash and signer, waiting for `waitUntil`
 * (default `EXECUTED_OPTIMISTIC`). `receipts: true` asks `EXPERIMENTAL_tx_status`, which adds the receipts.
 */
import type { Outcome } from './outcome-result.js';
import type { CallOptions, RpcClient } from './rpc-client.js';
import type { TxExecutionLevel } from './send-transaction.js';

export interface TxStatusRequest {
  /** base58 transaction hash. */
  txHash: string;
  senderAccountId: string;
  waitUntil?: TxExecutionLevel;
  /** Use `EXPERIMENTAL_tx_status` (the outcome with every receipt). */
  receipts?: boolean;
}

export function txStatus(rpc: RpcClient, request: TxStatusRequest, options?: CallOptions): Promise<Outcome> {
  return rpc.call(
    request.receipts ? 'EXPERIMENTAL_tx_status' : 'tx',
    {
      tx_hash: request.txHash,
      sender_account_id: request.senderAccountId,
      wait_until: request.waitUntil ?? 'EXECUTED_OPTIMISTIC',
    },
    options,
  );
}
