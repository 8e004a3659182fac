import { latin1String } from '@shadebox/primitives';
import {
  type Column,
  checkColumn,
  checkKey,
  checkLimit,
  checkValue,
  type KeyValue,
  type KeyValueStore,
  MAX_KEY_LENGTH,
  type RangeOptions,
  type WriteBatch,
} from './key-value-store.js';
import { SortedMap } from './sorted-map.js';
import { StoreClosedError } from './store-errors.js';

/**
 * Opens an empty in-memory store with the same semantics as the LMDB store (ordered scans, atomic commits,
 * copies in and out), for tests, development and CI. Nothing is persisted.
 */
export function openMemoryStore(): KeyValueStore {
  return new MemoryStore();
}

/**
 * One column: a hash map for point reads plus an ordered map for scans. Keys and values are kept as byte
 * strings (see `byteString`): immutable, compact, and no per-entry ArrayBuffer for the garbage collector.
 * The ordered map is built on a column's first scan and kept up to date from then on: a column only ever
 * read by key (the trie's nodes, by hash) never pays for ordering its keys.
 */
interface ColumnIndex {
  readonly byKey: Map<string, string>;
  ordered: SortedMap<string> | undefined;
}

/** The ordered map of `byKey`'s entries (keys inserted in order: each lands at the end of the last leaf). */
function orderedIndexOf(byKey: Map<string, string>): SortedMap<string> {
  const ordered = new SortedMap<string>();
  const keys = [...byKey.keys()];
  // Byte strings compare as their bytes (see `byteString`); the default sort would compare the same way
  // but converts through toString per comparison.
  keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) ordered.set(key, byKey.get(key)!);
  return ordered;
}

class MemoryStore implements KeyValueStore {
  readonly kind = 'memory' as const;
  readonly #columns: (ColumnIndex | undefined)[] = new Array(256).fill(undefined);
  #closed = false;

  get(column: Column, key: Uint8Array): Uint8Array | undefined {
    const value = this.#lookup(column, key);
    return value === undefined ? undefined : stringBytes(value);
  }

  has(column: Column, key: Uint8Array): boolean {
    return this.#lookup(column, key) !== undefined;
  }

  range(column: Column, options: RangeOptions = {}): Iterable<KeyValue> {
    if (this.#closed) throw new StoreClosedError();
    checkColumn(column);
    checkLimit(options.limit);
    if (options.start !== undefined) checkKey(options.start);
    if (options.end !== undefined) checkKey(options.end);
    if (options.limit === 0) return [];
    return this.#scan(column, {
      start: options.start === undefined ? undefined : byteString(options.start),
      end: options.end === undefined ? undefined : byteString(options.end),
      reverse: options.reverse === true,
      limit: options.limit ?? Number.POSITIVE_INFINITY,
    });
  }

  commit(batch: WriteBatch): void {
    if (this.#closed) throw new StoreClosedError();
    // Validate and copy everything first; applying the staged operations below cannot fail, so a commit is
    // applied entirely or (if anything throws here) not at all.
    const staged: { column: Column; key: string; value: string | undefined }[] = [];
    for (const op of batch) {
      checkColumn(op.column);
      checkKey(op.key);
      const key = byteString(op.key);
      if (op.kind === 'put') {
        checkValue(op.value);
        staged.push({ column: op.column, key, value: byteString(op.value) });
      } else {
        staged.push({ column: op.column, key, value: undefined });
      }
    }
    for (const { column, key, value } of staged) {
      let index = this.#columns[column];
      if (value !== undefined) {
        if (index === undefined) {
          index = { byKey: new Map(), ordered: undefined };
          this.#columns[column] = index;
        }
        index.byKey.set(key, value);
        index.ordered?.set(key, value);
      } else if (index?.byKey.delete(key)) {
        index.ordered?.delete(key);
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#columns.fill(undefined);
  }

  #lookup(column: Column, key: Uint8Array): string | undefined {
    if (this.#closed) throw new StoreClosedError();
    if (!(column >= 0 && column <= 255 && (column | 0) === column)) checkColumn(column);
    if (!(key instanceof Uint8Array) || key.length > MAX_KEY_LENGTH) checkKey(key);
    return this.#columns[column]?.byKey.get(byteString(key));
  }

  /** Like the LMDB store, the snapshot is taken when the iteration starts, not when `range` is called. */
  *#scan(
    column: Column,
    range: { start?: string; end?: string; reverse: boolean; limit: number },
  ): Generator<KeyValue> {
    if (this.#closed) throw new StoreClosedError();
    const index = this.#columns[column];
    if (index === undefined) return;
    index.ordered ??= orderedIndexOf(index.byKey);
    let left = range.limit;
    for (const [key, value] of index.ordered.entries(range)) {
      yield { key: stringBytes(key), value: stringBytes(value) };
      if (--left <= 0) return;
    }
  }
}

/**
 * The bytes as a string of one char (0..255) per byte. JavaScript compares strings by UTF-16 code units, so
 * these strings sort exactly like the bytes (unsigned, shorter prefix first) and can be Map keys.
 */
const byteString = latin1String;

/**
 * The bytes of a string made by `byteString`, as a new Uint8Array. Up to 64 bytes V8 keeps a typed array on
 * its heap: copied by hand. Longer ones come from Node's Buffer pool (one shared 8 KiB slab per many arrays)
 * rather than an ArrayBuffer each, which is several times faster to make and to collect; the array is still
 * the caller's own region (as the LMDB store's, which wraps what lmdb-js copied).
 */
function stringBytes(text: string): Uint8Array {
  const n = text.length;
  if (n > 64) {
    const pooled = Buffer.from(text, 'latin1');
    return new Uint8Array(pooled.buffer, pooled.byteOffset, n);
  }
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = text.charCodeAt(i);
  return out;
}
