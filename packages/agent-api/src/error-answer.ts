/**
 * Every error a route can end with, mapped to the one JSON error shape `{"error": {code, message, field?}}`
 * and its HTTP status (docs/agent-api.md#errors). Anything unexpected is a generic 500, logged.
 */
import {
  ChainUnavailableError,
  ContractError,
  InvalidTransactionError,
  RpcError,
} from '@shadebox/near-client';
import { HttpError } from './http-error.js';
import { type AgentApiLogger, errorMessage } from './logger.js';

/** A route's answer before it is written: JSON body (redacted when written) and extra headers. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function errorAnswer(e: unknown, log: AgentApiLogger): Answer {
  let status = 500;
  let error: Record<string, string> = { code: 'internal', message: 'internal error' };
  let headers: Record<string, string> | undefined;
  if (e instanceof HttpError) {
    status = e.status;
    error = { code: e.code, message: e.message };
    if (e.field) error.field = e.field;
    headers = e.headers;
  } else if (e instanceof ContractError) {
    status = 422;
    error = { code: e.panic ? 'contract_panic' : 'contract_error', message: e.message };
  } else if (e instanceof ChainUnavailableError) {
    status = e.timeout ? 504 : 502;
    error = { code: e.timeout ? 'chain_timeout' : 'chain_unreachable', message: e.message };
  } else if (
    e instanceof InvalidTransactionError ||
    (e instanceof RpcError && e.causeName === 'INVALID_TRANSACTION')
  ) {
    status = 422;
    error = { code: 'invalid_transaction', message: e.message };
  } else if (e instanceof RpcError) {
    status = 502;
    error = { code: 'chain_error', message: e.message };
  } else {
    log.error({ error: errorMessage(e) }, 'request failed');
  }
  return { status, body: { error }, headers };
}

export const success = (result: unknown): Answer => ({ status: 200, body: result });
