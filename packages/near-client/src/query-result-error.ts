/**
 * A `query` that nearcore answers as a result carrying an `error` text instead of a JSON-RPC error (its
 * legacy shape, still given for a missing access key and for some view-call failures).
 */
import { ShadeboxError } from '@shadebox/errors';

export interface QueryResultErrorDetails {
  requestType: string;
  accountId: string;
  /** nearcore's text, e.g. `access key ed25519:… does not exist while viewing`. */
  error: string;
}

export class QueryResultError extends ShadeboxError<QueryResultErrorDetails> {
  constructor(requestType: string, accountId: string, error: string) {
    super(`${requestType} ${accountId}: ${error}`, { details: { requestType, accountId, error } });
  }
}
