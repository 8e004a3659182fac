/**
 * Following a transaction whose `send_tx` gave no answer (it timed out, or its response was lost): `tx` tells
 * whether the node knows it, and waits for it when it does, until the transaction is known executed at the
 * level asked or known dropped.
 *
 * The rule for "dropped": `tx` with `wait_until: NONE` answers `UNKNOWN_TRANSACTION` (the transaction is
 * neither in the node's pool nor on its chain) on every read for at least `dropConfirmMs`. A node forgets a
 * transaction it accepted only when it drops it, e.g. when the signer's balance no longer covers it at
 * inclusion (nearcore drops such transactions too, without telling anyone). The confirmation interval covers
 * a transaction between a pool and a block on nodes where that is not one step. The key pool re-sends a
 * dropped transaction on the same access key with its own nonce when the key allows it, so even a wrong
 * verdict cannot execute the call twice: the access key accepts one transaction per nonce.
 */
import { ShadeboxError } from '@shadebox/errors';
import { TX_EXECUTION_LEVELS, type TxExecutionLevel } from '@shadebox/primitives';
import { ChainUnavailableError } from './chain-unavailable-error.js';
import type { Outcome } from './outcome-result.js';
import type { RpcClient } from './rpc-client.js';
import { RpcError } from './rpc-error.js';

export interface FollowUpOptions {
  /** The level the sender asked `send_tx` for; the follow-up waits for it. */
  waitUntil: TxExecutionLevel;
  /** How long the transaction must stay unknown to count as dropped, in ms. Default 2000. */
  dropConfirmMs?: number;
  /** Pause between reads while the transaction is unknown or the node unreachable, in ms. Default 250. */
  pollMs?: number;
  /** Time allowed for one waiting `tx`, in ms. Default three times the client's timeout. */
  waitTimeoutMs?: number;
  /** How long to follow before giving up (the transaction's fate stays unknown), in ms. Default 120000. */
  deadlineMs?: number;
  /** Give up sooner when no endpoint can be reached for this long, in ms. Default 10000. */
  unreachableMs?: number;
  signal?: AbortSignal;
}

export type FollowUpResult = { state: 'executed'; outcome: Outcome } | { state: 'dropped' };

/** A transaction the node dropped, and whose one re-send it dropped too. */
export class TransactionDroppedError extends ShadeboxError<{ txHashes: string[]; signerId: string }> {
  constructor(txHashes: string[], signerId: string) {
    super(`transaction of ${signerId} dropped by the node, and its re-send too (${txHashes.join(', ')})`, {
      details: { txHashes, signerId },
    });
  }
}

/** The transaction's fate could not be learnt before the follow-up's deadline. */
export class TransactionFateUnknownError extends ShadeboxError<{ txHash: string; signerId: string }> {
  constructor(txHash: string, signerId: string, cause: unknown) {
    super(`transaction ${txHash} of ${signerId}: the node did not tell whether it executed`, {
      details: { txHash, signerId },
      cause,
    });
  }
}

/** Whether a reached level satisfies a wait for `wanted` (nearcore's order of TxExecutionStatus). */
export function levelReached(reached: string, wanted: TxExecutionLevel): boolean {
  const r = TX_EXECUTION_LEVELS.indexOf(reached as TxExecutionLevel);
  if (r < 0) return false;
  // INCLUDED_FINAL does not imply EXECUTED_OPTIMISTIC (the receipts may not have run): compare in the lattice.
  if (wanted === 'EXECUTED_OPTIMISTIC' && reached === 'INCLUDED_FINAL') return false;
  return r >= TX_EXECUTION_LEVELS.indexOf(wanted);
}

/** Follows the transaction `txHash` of `signerId` until it is executed at `waitUntil` or known dropped. */
export async function followTransaction(
  rpc: RpcClient,
  txHash: string,
  signerId: string,
  options: FollowUpOptions,
): Promise<FollowUpResult> {
  const dropConfirmMs = options.dropConfirmMs ?? 2_000;
  const pollMs = options.pollMs ?? 250;
  const waitTimeoutMs = options.waitTimeoutMs ?? rpc.timeoutMs * 3;
  const deadline = Date.now() + (options.deadlineMs ?? 120_000);
  const params = (waitUntil: TxExecutionLevel) => ({
    tx_hash: txHash,
    sender_account_id: signerId,
    wait_until: waitUntil,
  });
  const unreachableMs = options.unreachableMs ?? 10_000;
  let unknownSince: number | undefined;
  let unreachableSince: number | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    options.signal?.throwIfAborted();
    try {
      const now = await rpc.call('tx', params('NONE'), { signal: options.signal });
      unknownSince = undefined;
      unreachableSince = undefined;
      if (levelReached(String(now?.final_execution_status), options.waitUntil) && now?.status !== undefined) {
        return { state: 'executed', outcome: now };
      }
      const outcome = await rpc.call('tx', params(options.waitUntil), {
        timeoutMs: waitTimeoutMs,
        signal: options.signal,
      });
      return { state: 'executed', outcome };
    } catch (e) {
      if (options.signal?.aborted) throw e;
      lastError = e;
      if (e instanceof RpcError && e.causeName === 'UNKNOWN_TRANSACTION') {
        unreachableSince = undefined;
        unknownSince ??= Date.now();
        if (Date.now() - unknownSince >= dropConfirmMs) return { state: 'dropped' };
      } else if (e instanceof ChainUnavailableError) {
        unknownSince = undefined;
        if (!e.timeout) {
          unreachableSince ??= Date.now();
          if (Date.now() - unreachableSince >= unreachableMs) throw e;
        }
      } else {
        throw e;
      }
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  // Out of time: the node's own answer (unreachable, timed out) when it gave one, else the unknown fate.
  if (lastError instanceof ChainUnavailableError) throw lastError;
  throw new TransactionFateUnknownError(txHash, signerId, lastError);
}
