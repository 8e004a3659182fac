/**
 * JSON-RPC errors exactly as nearcore shapes them (chain/jsonrpc-primitives/src/errors.rs): `name` is
 * REQUEST_VALIDATION_ERROR, HANDLER_ERROR or INTERNAL_ERROR; `cause` is `{name, info}` (no `info` key for a
 * unit cause); then the legacy `code`, `message` and `data`. The HTTP status follows nearcore's `rpc_handler`.
 */

import { ShadeboxError } from '@shadebox/errors';

export type ErrorName = 'REQUEST_VALIDATION_ERROR' | 'HANDLER_ERROR' | 'INTERNAL_ERROR';

/** The error a JSON-RPC answer carries (the node's side; clients have their own `RpcError`). */
export class RpcResponseError extends ShadeboxError<{ name: ErrorName; cause: string; code: number }> {
  constructor(
    readonly errorName: ErrorName,
    readonly errorCause: { name: string; info?: unknown },
    readonly code: number,
    readonly rpcMessage: string,
    readonly data: unknown,
  ) {
    const text =
      typeof data === 'string'
        ? data
        : JSON.stringify(data, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));
    super(`${errorCause.name}: ${text}`, { details: { name: errorName, cause: errorCause.name, code } });
  }

  /** The error object of the answer, exactly as nearcore writes it. */
  // biome-ignore lint/suspicious/noExplicitAny: the wire object, typed by its readers
  override toJSON(): any {
    const out: Record<string, unknown> = {
      name: this.errorName,
      cause: this.errorCause,
      code: this.code,
      message: this.rpcMessage,
    };
    if (this.data !== undefined) out.data = this.data;
    return out;
  }
}

/** Malformed params: PARSE_ERROR, HTTP 400. */
export function parseError(message: string): RpcResponseError {
  return new RpcResponseError(
    'REQUEST_VALIDATION_ERROR',
    { name: 'PARSE_ERROR', info: { error_message: message } },
    -32700,
    'Parse error',
    message,
  );
}

export function methodNotFound(method: string): RpcResponseError {
  return new RpcResponseError(
    'REQUEST_VALIDATION_ERROR',
    { name: 'METHOD_NOT_FOUND', info: { method_name: method } },
    -32601,
    'Method not found',
    method,
  );
}

/** A method's own error: `cause` is the method error enum as `{name, info}`. */
export function handlerError(name: string, info: unknown, data: unknown): RpcResponseError {
  const cause = info === undefined ? { name } : { name, info };
  return new RpcResponseError('HANDLER_ERROR', cause, -32000, 'Server error', data);
}

export function internalError(message: string): RpcResponseError {
  return new RpcResponseError(
    'INTERNAL_ERROR',
    { name: 'INTERNAL_ERROR', info: { error_message: message } },
    -32000,
    'Server error',
    message,
  );
}

/** nearcore: 400 for request validation, 408 for timeouts, 500 for internal errors, 422 for an unknown block
 * asked by a numeric height below the head, 200 otherwise. */
export function httpStatusOf(error: RpcResponseError, params: unknown, headHeight: number): number {
  if (error.errorName === 'REQUEST_VALIDATION_ERROR') return 400;
  if (error.errorName === 'INTERNAL_ERROR') return 500;
  if (error.errorCause.name === 'TIMEOUT_ERROR') return 408;
  if (error.errorCause.name === 'UNKNOWN_BLOCK') {
    const blockId = (params as { block_id?: unknown } | null)?.block_id;
    if (typeof blockId === 'number' && blockId < headHeight) return 422;
  }
  return 200;
}
