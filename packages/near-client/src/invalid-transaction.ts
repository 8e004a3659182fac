/**
 * A transaction the chain refused (nearcore's `InvalidTxError`), read from the error object, never from its
 * text. nearcore puts the `InvalidTxError` JSON in two shapes:
 * - the JSON-RPC error of `send_tx` / `broadcast_tx_*`: cause `INVALID_TRANSACTION`, `data` (and in some
 *   versions `cause.info`) `{"TxExecutionError": {"InvalidTxError": …}}`;
 * - a transaction outcome whose status is `{"Failure": {"InvalidTxError": …}}`.
 * `InvalidNonce` is `{"InvalidNonce": {"tx_nonce", "ak_nonce"}}`; `Expired` is the bare string.
 */
import { RpcError } from './rpc-error.js';

/** nearcore's `InvalidTxError` as JSON: a bare variant name or `{Variant: fields}`. */
export type InvalidTxErrorJson = string | Record<string, unknown>;

/** The transaction was refused; `invalidTx` is nearcore's `InvalidTxError` JSON. */
export class InvalidTransactionError extends RpcError {
  constructor(
    method: string,
    // biome-ignore lint/suspicious/noExplicitAny: the JSON-RPC error object or the outcome's failure.
    error: any,
    readonly invalidTx: InvalidTxErrorJson,
  ) {
    super(method, error);
  }

  /** The variant's name: `InvalidNonce`, `Expired`, `NotEnoughBalance` … */
  get variant(): string {
    return typeof this.invalidTx === 'string' ? this.invalidTx : (Object.keys(this.invalidTx)[0] ?? '');
  }
}

/** The nonce was not above the access key's (`InvalidNonce {tx_nonce, ak_nonce}`). */
export class InvalidNonceError extends InvalidTransactionError {
  readonly txNonce: bigint;
  readonly akNonce: bigint;

  constructor(
    method: string,
    // biome-ignore lint/suspicious/noExplicitAny: see InvalidTransactionError.
    error: any,
    invalidTx: { InvalidNonce: { tx_nonce: unknown; ak_nonce: unknown } },
  ) {
    super(method, error, invalidTx);
    this.txNonce = toBigInt(invalidTx.InvalidNonce.tx_nonce);
    this.akNonce = toBigInt(invalidTx.InvalidNonce.ak_nonce);
  }
}

/** The transaction's block hash is too old (`Expired`): sign again with a recent one. */
export class ExpiredTransactionError extends InvalidTransactionError {}

/** The `InvalidTxError` JSON inside a JSON-RPC error object or a transaction outcome, if there is one. */
export function invalidTxErrorOf(value: unknown): InvalidTxErrorJson | undefined {
  // biome-ignore lint/suspicious/noExplicitAny: JSON inspected field by field.
  const v = value as any;
  if (v === null || typeof v !== 'object') return undefined;
  const candidates = [
    v.data?.TxExecutionError?.InvalidTxError,
    v.cause?.info?.TxExecutionError?.InvalidTxError,
    v.cause?.info?.InvalidTxError,
    v.data?.InvalidTxError,
    v.status?.Failure?.InvalidTxError,
    v.Failure?.InvalidTxError,
    v.TxExecutionError?.InvalidTxError,
    v.InvalidTxError,
  ];
  for (const c of candidates) {
    if (typeof c === 'string' || (c !== null && typeof c === 'object' && !Array.isArray(c))) return c;
  }
  return undefined;
}

/**
 * The error to throw for a JSON-RPC error object (or a failed outcome) of `method`: `InvalidNonceError`,
 * `ExpiredTransactionError` or `InvalidTransactionError` when it holds an `InvalidTxError`, else `RpcError`.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above.
export function rpcErrorOf(method: string, error: any): RpcError {
  const invalid = invalidTxErrorOf(error);
  if (invalid === undefined) return new RpcError(method, error);
  if (invalid === 'Expired') return new ExpiredTransactionError(method, error, invalid);
  const nonce = typeof invalid === 'object' ? invalid.InvalidNonce : undefined;
  if (nonce !== null && typeof nonce === 'object') {
    return new InvalidNonceError(
      method,
      error,
      invalid as { InvalidNonce: { tx_nonce: unknown; ak_nonce: unknown } },
    );
  }
  return new InvalidTransactionError(method, error, invalid);
}

function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  return -1n;
}
