import { InvalidBytesError, InvalidColumnError, KeyTooLongError } from './store-errors.js';

/**
 * A column id: one byte (0..255). Each column is a separate ordered key space; the LMDB store prefixes it to
 * every key, the memory store keeps one index per column.
 */
export type Column = number;

/**
 * Longest key (in bytes, without the column byte) that a store accepts. LMDB limits a key to 4026 bytes with
 * the 8 KiB pages the LMDB store creates; both stores enforce the same limit so they behave the same.
 */
export const MAX_KEY_LENGTH = 4000;

/** Bounds of a range scan over one column. Keys compare as unsigned bytes, shorter prefix first. */
export interface RangeOptions {
  /** Smallest key returned (inclusive). Default: the first key of the column. */
  start?: Uint8Array;
  /** Key after the last one returned (exclusive). Default: past the last key of the column. */
  end?: Uint8Array;
  /** Return keys in descending order (still only keys in `[start, end)`). */
  reverse?: boolean;
  /** Stop after this many entries. */
  limit?: number;
}

/** One entry of a range scan. Both arrays are fresh copies owned by the caller. */
export interface KeyValue {
  key: Uint8Array;
  value: Uint8Array;
}

/** An ordered binary key-value store with columns and atomic batches. */
export interface KeyValueStore {
  /** The value stored at `key`, as a fresh copy, or undefined. Synchronous: this is the hot path. */
  get(column: Column, key: Uint8Array): Uint8Array | undefined;
  /** Whether `key` is present. */
  has(column: Column, key: Uint8Array): boolean;
  /**
   * Entries of `column` with keys in `[start, end)`, in byte order of their keys (column prefix stripped),
   * read lazily. The scan sees one consistent snapshot, taken when its iteration starts: commits made while
   * it is being iterated are not visible to it. Iterate it to the end or leave the loop with `break`/`return`
   * (which closes it). An abandoned half-read iterator keeps its snapshot: in LMDB a read transaction (which
   * stops LMDB reusing freed pages) until it is garbage collected; in memory, later commits keep copying the
   * parts they change.
   */
  range(column: Column, options?: RangeOptions): Iterable<KeyValue>;
  /** Applies every put and delete in one atomic, durable transaction. Either all of it is visible afterwards or none. */
  commit(batch: WriteBatch): void;
  /** Closes the store; any later call throws `StoreClosedError`. Closing twice is harmless. */
  close(): Promise<void>;
  readonly kind: 'lmdb' | 'memory';
}

/** One operation of a `WriteBatch`. */
export type WriteOp =
  | { readonly kind: 'put'; readonly column: Column; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly kind: 'delete'; readonly column: Column; readonly key: Uint8Array };

/**
 * An ordered list of puts and deletes, applied atomically by `KeyValueStore.commit`. Keys and values are
 * copied when added, so the caller may reuse its arrays. When one key is written several times, the last
 * operation wins. A batch can be committed to several stores; it is not cleared by a commit.
 */
export class WriteBatch implements Iterable<WriteOp> {
  readonly #ops: WriteOp[] = [];
  /** Small copies are packed into shared chunks: one allocation per 64 KiB instead of one per array. */
  #chunk = new Uint8Array(0);
  #chunkUsed = 0;
  #putBytes = 0;

  /** Adds a put of `value` at `key` in `column`. */
  put(column: Column, key: Uint8Array, value: Uint8Array): void {
    checkColumn(column);
    checkKey(key);
    checkValue(value);
    this.#ops.push({ kind: 'put', column, key: this.#copy(key), value: this.#copy(value) });
    this.#putBytes += key.length + value.length;
  }

  /** Adds a delete of `key` in `column` (a no-op at commit if the key is absent). */
  delete(column: Column, key: Uint8Array): void {
    checkColumn(column);
    checkKey(key);
    this.#ops.push({ kind: 'delete', column, key: this.#copy(key) });
  }

  /** Number of operations added so far. */
  get size(): number {
    return this.#ops.length;
  }

  /** Bytes of the keys and values of the puts added so far (what the batch writes, before any overhead). */
  get putBytes(): number {
    return this.#putBytes;
  }

  /** Removes every operation. */
  clear(): void {
    this.#ops.length = 0;
    this.#putBytes = 0;
    this.#chunk = new Uint8Array(0);
    this.#chunkUsed = 0;
  }

  /** The operations in the order they were added. Their arrays belong to the batch: do not modify them. */
  [Symbol.iterator](): IterableIterator<WriteOp> {
    return this.#ops[Symbol.iterator]();
  }

  #copy(bytes: Uint8Array): Uint8Array {
    const n = bytes.length;
    if (n > CHUNK_ITEM_MAX) return new Uint8Array(bytes); // always a copy (unlike Buffer#slice)
    if (this.#chunkUsed + n > this.#chunk.length) {
      this.#chunk = new Uint8Array(CHUNK_SIZE);
      this.#chunkUsed = 0;
    }
    const copy = this.#chunk.subarray(this.#chunkUsed, this.#chunkUsed + n);
    copy.set(bytes);
    this.#chunkUsed += n;
    return copy;
  }
}

const CHUNK_SIZE = 64 * 1024;
const CHUNK_ITEM_MAX = 4 * 1024;

/** Throws `InvalidColumnError` unless `column` is an integer in 0..255. */
export function checkColumn(column: Column): void {
  if (!Number.isInteger(column) || column < 0 || column > 255) throw new InvalidColumnError(column);
}

/** Throws unless `key` is a Uint8Array of at most `MAX_KEY_LENGTH` bytes. */
export function checkKey(key: Uint8Array): void {
  if (!(key instanceof Uint8Array)) throw new InvalidBytesError('key');
  if (key.length > MAX_KEY_LENGTH) throw new KeyTooLongError(key.length, MAX_KEY_LENGTH);
}

/** Throws unless `value` is a Uint8Array. */
export function checkValue(value: Uint8Array): void {
  if (!(value instanceof Uint8Array)) throw new InvalidBytesError('value');
}

/** Throws `RangeError` unless `limit` is undefined or a non-negative integer. */
export function checkLimit(limit: number | undefined): void {
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) {
    throw new RangeError(`limit must be a non-negative integer, got ${String(limit)}`);
  }
}
