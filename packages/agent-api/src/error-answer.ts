/**
 * Every error a route can end with, mapped to the one JSON error shape
 * `{"error": {code, message, field?, details?}}` and its HTTP status (docs/agent-api.md#errors). Messages are
 * sentences that say what to do; nearcore's own error object, when there is one, is under `details`, never
 * in the message. Anything unexpected is a generic 500, logged.
 */
import {
  ChainUnavailableError,
  ContractError,
  InvalidTransactionError,
  RpcError,
} from '@shadebox/near-client';
import { describeContractFailure } from './contract-failure.js';
import { HttpError } from './http-error.js';
import { describeInvalidTransaction } from './invalid-transaction-answer.js';
import { type AgentApiLogger, errorMessage } from './logger.js';

/** A route's answer before it is written: JSON body (redacted when written) and extra headers. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function errorAnswer(e: unknown, log: AgentApiLogger): Answer {
  let status = 500;
  let error: Record<string, unknown> = { code: 'internal', message: 'internal error' };
  let headers: Record<string, string> | undefined;
  if (e instanceof HttpError) {
    status = e.status;
    error = { code: e.code, message: e.message };
    if (e.field) error.field = e.field;
    headers = e.headers;
  } else if (e instanceof ContractError) {
    const failure = describeContractFailure(e);
    status = failure.status;
    error = { code: failure.code, message: failure.message };
    if (failure.field) error.field = failure.field;
    if (e.nearError !== undefined) error.details = e.nearError;
  } else if (e instanceof ChainUnavailableError) {
    status = e.timeout ? 504 : 502;
    error = {
      code: e.timeout ? 'chain_timeout' : 'chain_unreachable',
      message: e.timeout
        ? `${e.message}: the node did not answer in time; a call may still complete, so check its effect before sending it again`
        : `${e.message}: check that the node runs and that NEAR_RPC_URL names it`,
    };
    // Every endpoint rests (a provider's Retry-After, or a backoff): the caller may come back then.
    if (e.retryAfterMs !== undefined) headers = { 'retry-after': String(Math.ceil(e.retryAfterMs / 1000)) };
  } else if (
    e instanceof InvalidTransactionError ||
    (e instanceof RpcError && e.causeName === 'INVALID_TRANSACTION')
  ) {
    status = 422;
    error = {
      code: 'invalid_transaction',
      message: describeInvalidTransaction(e instanceof InvalidTransactionError ? e.invalidTx : undefined),
      details: e.error,
    };
  } else if (e instanceof RpcError) {
    status = 502;
    error = {
      code: 'chain_error',
      message: `the node refused the ${e.method} request (${e.causeName ?? 'error'}): see details; check NEAR_RPC_URL names a NEAR node`,
      details: e.error,
    };
  } else {
    log.error({ error: errorMessage(e) }, 'request failed');
  }
  return { status, body: { error }, headers };
}

export const success = (result: unknown): Answer => ({ status: 200, body: result });
