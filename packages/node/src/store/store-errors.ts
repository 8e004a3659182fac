import { ShadeboxError } from '@shadebox/errors';

/** Base class of every error thrown by the storage layer. */
export class StoreError extends ShadeboxError {
  override name = 'StoreError';
}

/** A column id is not an integer in 0..255. */
export class InvalidColumnError extends StoreError {
  override name = 'InvalidColumnError';
  constructor(readonly column: unknown) {
    super(`column must be an integer in 0..255, got ${String(column)}`, {
      details: { column: String(column) },
    });
  }
}

/** A key or value is not a Uint8Array. */
export class InvalidBytesError extends StoreError {
  override name = 'InvalidBytesError';
  constructor(readonly what: 'key' | 'value') {
    super(`${what} must be a Uint8Array`, { details: { what } });
  }
}

/** A key is longer than the store accepts (see `MAX_KEY_LENGTH`). */
export class KeyTooLongError extends StoreError {
  override name = 'KeyTooLongError';
  constructor(
    readonly length: number,
    readonly max: number,
  ) {
    super(`key of ${length} bytes is longer than the maximum of ${max} bytes`, { details: { length, max } });
  }
}

/** The store has been closed. */
export class StoreClosedError extends StoreError {
  override name = 'StoreClosedError';
  constructor() {
    super('the store is closed');
  }
}

/** A write was attempted on a store opened read-only. */
export class ReadOnlyStoreError extends StoreError {
  override name = 'ReadOnlyStoreError';
  constructor() {
    super('the store is open read-only');
  }
}

/** Bytes read from the store do not have the expected layout. */
export class StoreCorruptionError extends StoreError {
  override name = 'StoreCorruptionError';
}
