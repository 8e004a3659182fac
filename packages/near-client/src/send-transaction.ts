/**
 * Sending signed transactions: `send_tx` waiting for any `wait_until` level, and `broadcast_tx_async` (the
 * hash at once). The signed transaction is its borsh bytes or their base64.
 */
import { base64Encode, TX_EXECUTION_LEVELS, type TxExecutionLevel } from '@shadebox/primitives';

export { TX_EXECUTION_LEVELS, type TxExecutionLevel };

import type { Outcome } from './outcome-result.js';
import type { CallOptions, RpcClient } from './rpc-client.js';

export function signedTxBase64(signed: Uint8Array | string): string {
  return typeof signed === 'string' ? signed : base64Encode(signed);
}

/**
 * `send_tx`: resolves at `waitUntil` (default `EXECUTED_OPTIMISTIC`, nearcore's default) with the result
 * (`final_execution_status` alone at `NONE` / `INCLUDED`, the outcomes from `EXECUTED_OPTIMISTIC` on).
 */
export function sendTransaction(
  rpc: RpcClient,
  signed: Uint8Array | string,
  waitUntil: TxExecutionLevel = 'EXECUTED_OPTIMISTIC',
  options?: CallOptions,
): Promise<Outcome> {
  return rpc.call('send_tx', { signed_tx_base64: signedTxBase64(signed), wait_until: waitUntil }, options);
}

/** `broadcast_tx_async`: hands the transaction over and resolves with its hash (base58) at once. */
export function broadcastTxAsync(
  rpc: RpcClient,
  signed: Uint8Array | string,
  options?: CallOptions,
): Promise<string> {
  return rpc.call<string>('broadcast_tx_async', [signedTxBase64(signed)], options);
}
