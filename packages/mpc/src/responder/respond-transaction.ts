/**
 * Sending one answer: the signer's `respond({request, response})`, signed by the responder account's key
 * pool (@shadebox/near-client) and sent with `send_tx`. Answers are signed one after the other but sent
 * concurrently, so several requests are answered in the same block. When the chain refuses a nonce, the
 * pool is told the chain's nonce (from the error, or read again) and the error is thrown for a retry.
 */
import { ShadeboxError } from '@shadebox/errors';
import {
  InvalidNonceError,
  invalidTxErrorOf,
  type KeyPool,
  rpcErrorOf,
  sendTransaction,
  type TxExecutionLevel,
  viewAccessKey,
} from '@shadebox/near-client';
import type { SignatureResponse } from '../signing.js';
import type { AbortOnStop } from './abort-on-stop.js';
import type { PendingSignatureRequest } from './signature-request.js';

/** The `respond` transaction executed and failed. */
export class RespondFailedError extends ShadeboxError<{ failure: unknown }> {
  constructor(failure: unknown) {
    super(`respond failed: ${JSON.stringify(failure).slice(0, 400)}`, { details: { failure } });
  }
}

export interface RespondTransactionOptions {
  pool: KeyPool;
  signerContractId: string;
  /** `send_tx` wait level. */
  waitUntil: TxExecutionLevel;
  /** Gas of each `respond`. */
  gas: bigint;
  abortOnStop: AbortOnStop;
}

/** Signs and sends `respond` for one request; resolves once it executed, throws when it did not. */
export async function sendRespond(
  o: RespondTransactionOptions,
  request: PendingSignatureRequest,
  response: SignatureResponse,
): Promise<void> {
  const { pool } = o;
  const args = new TextEncoder().encode(JSON.stringify({ request, response }));
  const signed = await pool.sign(o.signerContractId, [
    { type: 'FunctionCall', methodName: 'respond', args, gas: o.gas, deposit: 0n },
  ]);
  try {
    // `send_tx` waits for execution: allow it three times a read's timeout.
    const outcome = await o.abortOnStop.run(
      (call) => sendTransaction(pool.rpc, signed.bytes, o.waitUntil, call),
      pool.rpc.timeoutMs * 3,
    );
    // Below EXECUTED_OPTIMISTIC the answer has no status: it was accepted.
    const failure = outcome?.status?.Failure;
    if (failure !== undefined) {
      throw invalidTxErrorOf(failure) === undefined
        ? new RespondFailedError(failure)
        : rpcErrorOf('send_tx', failure);
    }
  } catch (err) {
    if (err instanceof InvalidNonceError) await takeChainNonce(pool, signed.publicKey, err);
    throw err;
  }
}

/** Raises the pool's nonce of `publicKey` to the chain's: the error's `ak_nonce`, or read again. */
async function takeChainNonce(pool: KeyPool, publicKey: string, err: InvalidNonceError): Promise<void> {
  if (err.akNonce >= 0n) {
    pool.raiseNonce(publicKey, err.akNonce);
    return;
  }
  try {
    pool.raiseNonce(publicKey, (await viewAccessKey(pool.rpc, pool.accountId, publicKey)).nonce);
  } catch {
    // The next refusal tries again.
  }
}
