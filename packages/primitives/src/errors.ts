/**
 * The primitive-level error classes. Each carries a short message and a `details` object with the facts
 * (never a secret key or seed).
 */

import { ShadeboxError } from '@shadebox/errors';

export class PrimitivesError<D extends object = Record<string, unknown>> extends ShadeboxError<D> {
  constructor(message: string, details: D) {
    super(message, { details });
  }
}

/** Borsh input that cannot be decoded (truncated, bad enum tag, bad UTF-8, trailing bytes, ...) or a value
 * that cannot be encoded. */
export class BorshError extends PrimitivesError<{ reason: string; offset?: number }> {
  constructor(reason: string, offset?: number) {
    super(offset === undefined ? `borsh: ${reason}` : `borsh: ${reason} at offset ${offset}`, {
      reason,
      offset,
    });
  }
}

export class InvalidAccountIdError extends PrimitivesError<{ accountId: string; reason: string }> {
  constructor(accountId: string, reason: string) {
    super(`invalid account id ${JSON.stringify(truncate(accountId))}: ${reason}`, { accountId, reason });
  }
}

export class InvalidPublicKeyError extends PrimitivesError<{ reason: string }> {
  constructor(reason: string) {
    super(`invalid public key: ${reason}`, { reason });
  }
}

export class InvalidSignatureError extends PrimitivesError<{ reason: string }> {
  constructor(reason: string) {
    super(`invalid signature: ${reason}`, { reason });
  }
}

/** A secret key string or seed that cannot be used. The message never contains the key itself. */
export class InvalidSecretKeyError extends PrimitivesError<{ reason: string }> {
  constructor(reason: string) {
    super(`invalid secret key: ${reason}`, { reason });
  }
}

/** Text that is not valid base58 / base64 / hex / UTF-8, or a hash of the wrong length. */
export class EncodingError extends PrimitivesError<{ encoding: string; reason: string }> {
  constructor(encoding: string, reason: string) {
    super(`invalid ${encoding}: ${reason}`, { encoding, reason });
  }
}

export class InvalidAmountError extends PrimitivesError<{ amount: string; reason: string }> {
  constructor(amount: string, reason: string) {
    super(`invalid amount ${JSON.stringify(truncate(amount))}: ${reason}`, { amount, reason });
  }
}

/** A JSON view (RPC shape) that does not have the expected form. */
export class InvalidViewError extends PrimitivesError<{ path: string; reason: string }> {
  constructor(path: string, reason: string) {
    super(`invalid view at ${path}: ${reason}`, { path, reason });
  }
}

function truncate(s: string): string {
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}
