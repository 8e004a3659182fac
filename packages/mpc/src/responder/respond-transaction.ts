/**
 * Sending one answer: the signer's `respond({request, response})` in its version's format, signed by the responder account's key
 * pool (@shadebox/near-client) and sent with `send_tx`. Answers are signed one after the other but sent
 * concurrently, so several requests are answered in the same block. When the chain refuses a nonce, the
 * pool is told the chain's nonce (from the error, or read again) and the error is thrown for a retry.
 */
import { ShadeboxError } from '@shadebox/errors';
import {
  block,
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
import { respondArgs, type SignerFlavor } from './signer-flavor.js';

/** The `respond` transaction executed and failed. */
export class RespondFailedError extends ShadeboxError<{ failure: unknown }> {
  constructor(failure: unknown) {
    super(`respond failed: ${JSON.stringify(failure).slice(0, 400)}`, { details: { failure } });
  }
}

export interface RespondTransactionOptions {
  pool: KeyPool;
  signerContractId: string;
  /** How the contract spells requests and responses. */
  flavor: SignerFlavor;
  /** `send_tx` wait level. */
  waitUntil: TxExecutionLevel;
  /** Gas of each `respond`. */
  gas: bigint;
  abortOnStop: AbortOnStop;
}

/**
 * Signs and sends `respond` for one request; resolves once it executed, with the height of the block it ran
 * in when known (the bookkeeping judges "still pending after the answer" from there), throws when it did not.
 */
export async function sendRespond(
  o: RespondTransactionOptions,
  request: PendingSignatureRequest,
  response: SignatureResponse,
): Promise<number | undefined> {
  const { pool } = o;
  const args = new TextEncoder().encode(JSON.stringify(respondArgs(o.flavor, request, response)));
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
    return await executedAt(o, outcome?.receipts_outcome?.[0]?.block_hash);
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

/** The height of the block `hash`, or undefined (not asked for, or not read). */
async function executedAt(o: RespondTransactionOptions, hash: unknown): Promise<number | undefined> {
  if (typeof hash !== 'string') return undefined;
  try {
    return (await o.abortOnStop.run((call) => block(o.pool.rpc, { blockId: hash }, call))).header.height;
  } catch {
    return undefined;
  }
}
