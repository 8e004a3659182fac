import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ABORT, open, type RootDatabase } from 'lmdb';
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
import { MapBudgetWatch } from './map-budget-watch.js';
import { residentFileBytes } from './resident-file-bytes.js';
import { scratchBytes } from './scratch-bytes.js';
import { ReadOnlyStoreError, StoreClosedError, StoreError } from './store-errors.js';

/** Options of `openLmdbStore`. */
export interface LmdbStoreOptions {
  /**
   * Open without write access, e.g. from a second process reading the store that the node writes. `commit`
   * then throws `ReadOnlyStoreError`. The store must already exist.
   */
  readOnly?: boolean;
  /**
   * Budget, in bytes, for the pages of `data.mdb` this process holds through LMDB's memory map. Every page a
   * read touches stays mapped, and counts in the process's RSS (RssFile), until the map is closed, so on a
   * store that keeps growing they follow its size. Past the budget, the store closes and reopens its LMDB
   * environment at the next quiet point (see `LmdbStore.remap`), which drops them; they stay in the kernel's
   * page cache, so reading them again is cheap. Undefined or 0: never remap. Measured on Linux only (the
   * process's RssFile in `/proc/self/status`); elsewhere the store never remaps. The checks are paced to how
   * fast the pages come back (see `MapBudgetWatch`), so the pages held stay within about 1.25 × the budget.
   */
  mapBudgetBytes?: number;
  /**
   * Longest wait between two comparisons of the resident size with `mapBudgetBytes`, in ms. Default 1000.
   * While the pages held grow fast the checks come more often, down to a tenth of this (at least 20 ms).
   */
  mapCheckIntervalMs?: number;
  /**
   * Called after each remap of the budget's. The closed environment's memory outside the JS heap (lmdb-js's
   * buffers, the C library's) goes back only when the JS heap collects its objects, which by then sit in the
   * old generation: a node that remaps every second and collects rarely grows its malloc heap (start-node.ts
   * has its heap trim collect after a few remaps).
   */
  onRemap?: () => void;
}

/** The LMDB store: a `KeyValueStore` whose memory map can be dropped and made again while it serves. */
export interface LmdbStore extends KeyValueStore {
  readonly kind: 'lmdb';
  /** Times the environment was closed and reopened to drop its mapped pages. */
  readonly remapCount: number;
  /** Bytes of `data.mdb` resident through this store's map now (Linux), or undefined. */
  residentMapBytes(): number | undefined;
  /**
   * Closes the LMDB environment and opens it again, dropping every page mapped so far. Only at a quiet point:
   * it returns false, and does nothing, while a range scan is open (its cursor and snapshot belong to the old
   * environment). Reads and commits are synchronous, so none is ever in flight across a remap: the ones
   * before it read the old environment, the ones after it the new one, and both see every committed write.
   */
  remap(): boolean;
}

/** LMDB page size for new stores: 8 KiB pages raise LMDB's key limit from 1978 to 4026 bytes. */
const PAGE_SIZE = 8192;
/**
 * Address space reserved for the memory map: 64 GiB, so a store is mapped once (one growing past it is mapped
 * again, larger). Address space only: the file grows with the data, and hundreds of stores fit in one process.
 * Not on Windows, where LMDB makes the file as large as its map.
 */
export const MAP_SIZE = process.platform === 'win32' ? undefined : 2 ** 36;

/**
 * Opens (creating it if needed, unless read-only) the LMDB store in directory `path`.
 *
 * Every key is stored as `column byte ‖ key` in LMDB's unnamed database, so any process can open the same
 * directory and read it (LMDB's multi-reader design; all state lives in the files, none only in JS memory).
 * Commits run in one synchronous LMDB write transaction that is flushed to disk (fdatasync, then a synced meta
 * page write) before `commit` returns.
 */
export function openLmdbStore(path: string, options: LmdbStoreOptions = {}): LmdbStore {
  const readOnly = options.readOnly === true;
  const store = new LmdbStoreImpl(path, openEnvironment(path, readOnly), readOnly);
  if (options.mapBudgetBytes !== undefined && options.mapBudgetBytes > 0) {
    store.watchMap(options.mapBudgetBytes, options.mapCheckIntervalMs ?? 1000, options.onRemap);
  }
  return store;
}

/** Opens the LMDB environment in `path` (one per process and path: lmdb-js shares an open one). */
function openEnvironment(path: string, readOnly: boolean): RootDatabase<Uint8Array, Uint8Array> {
  const db = open<Uint8Array, Uint8Array>({
    path,
    keyEncoding: 'binary',
    encoding: 'binary',
    readOnly,
    pageSize: PAGE_SIZE,
    // Durability: never `noSync`/`noMetaSync`/`mapAsync`. `overlappingSync` (lmdb-js's default on Linux and
    // macOS) lets a transaction become visible before it is flushed; turning it off makes every commit
    // flush inside the write transaction, so a commit that returned survives a crash or power loss.
    overlappingSync: false,
    noSync: false,
    noMetaSync: false,
    // Plain LMDB semantics only: no lmdb-js object cache (it lives in one process's memory), no compression.
    cache: false,
    compression: false,
    // One memory map for the store's whole life. Without it lmdb-js starts with a 128 KiB map and maps the file
    // again at twice the size each time it fills, keeping every earlier map: the pages read through each map
    // stay in the process's RSS, so a growing store counted its pages several times over (the soak saw 300 MiB
    // of maps for a 120 MiB file). The map is address space only: the file grows with the data, not to this.
    ...(MAP_SIZE === undefined ? {} : { mapSize: MAP_SIZE }),
  });
  const maxKeySize = (db as unknown as { maxKeySize: number }).maxKeySize;
  if (maxKeySize < MAX_KEY_LENGTH + 1) {
    void db.close();
    throw new StoreError(
      `LMDB store at ${path} accepts keys of at most ${maxKeySize} bytes; it needs ${MAX_KEY_LENGTH + 1}` +
        ` (stores are created with ${PAGE_SIZE}-byte pages)`,
    );
  }
  return db;
}

class LmdbStoreImpl implements LmdbStore {
  readonly kind = 'lmdb' as const;
  readonly #path: string;
  #db: RootDatabase<Uint8Array, Uint8Array>;
  readonly #readOnly: boolean;
  #closed = false;
  /** Range scans started and not yet finished or closed: their cursors live in the current environment. */
  #openScans = 0;
  #remapCount = 0;
  #mapTimer: NodeJS.Timeout | undefined;
  /** The data file as the kernel names it in /proc/self/smaps (symlinks resolved). */
  #dataFile: string | undefined;

  constructor(path: string, db: RootDatabase<Uint8Array, Uint8Array>, readOnly: boolean) {
    this.#path = path;
    this.#db = db;
    this.#readOnly = readOnly;
  }

  get remapCount(): number {
    return this.#remapCount;
  }

  residentMapBytes(): number | undefined {
    this.#dataFile ??= realpathSync(join(this.#path, 'data.mdb'));
    return residentFileBytes(this.#dataFile);
  }

  remap(): boolean {
    if (this.#closed || this.#openScans > 0) return false;
    // lmdb-js shares one environment per file within a process, so the old one must be closed before the new
    // one opens, or the new one would be the old one. With no async reads or writes ever issued, the close
    // is synchronous (the read transaction is aborted, the map unmapped); its promise only reports it.
    // lmdb-js's LMDB keeps the free-page list of the last write transaction in memory for the next one and
    // does not free it when the environment closes: a remap leaked it (about 2 KiB of the malloc heap each,
    // more as the store's free pages grow). An aborted write transaction frees it.
    if (!this.#readOnly) this.#db.transactionSync(() => ABORT);
    void this.#db.close();
    this.#db = openEnvironment(this.#path, this.#readOnly);
    this.#remapCount++;
    return true;
  }

  /**
   * Remaps once the process's file-backed RSS has grown by more than `budget` since the last remap, checked
   * at the pace `MapBudgetWatch` sets (at most `maxIntervalMs` apart). That counter (/proc/self/status) costs
   * a fraction of a millisecond to read, where this store's own figure (`residentMapBytes`, from smaps) costs
   * tens of milliseconds in a node with many maps; the rest of the file-backed RSS (the node binary,
   * libraries) hardly moves. A timer callback is a quiet point: no read or commit is running, only a scan
   * left open across an `await` can be.
   */
  watchMap(budget: number, maxIntervalMs: number, onRemap?: () => void): void {
    const start = fileBackedRss();
    if (start === undefined) return;
    const watch = new MapBudgetWatch(budget, start, {
      maxIntervalMs,
      minIntervalMs: Math.min(maxIntervalMs, Math.max(20, Math.round(maxIntervalMs / 10))),
      minRemapGapMs: Math.min(maxIntervalMs, 250),
    });
    const check = () => {
      if (this.#closed) return;
      const fileBytes = statSync(join(this.#path, 'data.mdb'), { throwIfNoEntry: false })?.size ?? 0;
      const { remap, nextCheckMs } = watch.check(fileBackedRss() ?? start, fileBytes);
      if (remap && this.remap()) {
        watch.remapped(fileBackedRss() ?? start);
        onRemap?.();
      }
      this.#mapTimer = setTimeout(check, nextCheckMs);
      this.#mapTimer.unref();
    };
    this.#mapTimer = setTimeout(check, watch.intervalMs);
    this.#mapTimer.unref();
  }

  get(column: Column, key: Uint8Array): Uint8Array | undefined {
    if (this.#closed) throw new StoreClosedError();
    // `getBinary` copies the value out of lmdb-js's shared read buffer (which `getBinaryFast` returns and the
    // next read overwrites). Re-wrap the Buffer as a plain Uint8Array so both stores return the same type.
    const value = this.#db.getBinary(withColumn(column, key));
    return value === undefined ? undefined : plain(value, 0);
  }

  has(column: Column, key: Uint8Array): boolean {
    if (this.#closed) throw new StoreClosedError();
    // The shared buffer is fine here: only its presence is looked at.
    return this.#db.getBinaryFast(withColumn(column, key)) !== undefined;
  }

  range(column: Column, options: RangeOptions = {}): Iterable<KeyValue> {
    if (this.#closed) throw new StoreClosedError();
    checkColumn(column);
    checkLimit(options.limit);
    if (options.start !== undefined) checkKey(options.start);
    if (options.end !== undefined) checkKey(options.end);
    if (options.limit === 0) return [];
    const low = withColumn(column, options.start ?? EMPTY);
    // Past the column: the next column's empty key, or no bound at all for column 255.
    const high =
      options.end !== undefined
        ? withColumn(column, options.end)
        : column < 255
          ? Uint8Array.of(column + 1)
          : undefined;
    // lmdb-js iterates from `start` towards `end`: in reverse, `start` is the high bound. Our interval is
    // always [low, high), so in reverse the high bound is exclusive and the low bound inclusive.
    const lmdbOptions = options.reverse
      ? {
          start: high,
          end: low,
          reverse: true,
          exclusiveStart: true,
          inclusiveEnd: true,
          limit: options.limit,
        }
      : { start: low, end: high, limit: options.limit };
    return this.#scan(lmdbOptions);
  }

  /** Strips the column byte from keys and turns lmdb-js's Buffers (fresh copies) into plain Uint8Arrays;
   * counts the scan as open from its first step to its end or `return`, so that no remap closes its cursor. */
  *#scan(lmdbOptions: Parameters<RootDatabase<Uint8Array, Uint8Array>['getRange']>[0]): Generator<KeyValue> {
    if (this.#closed) throw new StoreClosedError();
    this.#openScans++;
    try {
      for (const { key, value } of this.#db.getRange(lmdbOptions)) {
        yield { key: plain(key, 1), value: plain(value, 0) };
      }
    } finally {
      this.#openScans--;
    }
  }

  commit(batch: WriteBatch): void {
    if (this.#closed) throw new StoreClosedError();
    if (this.#readOnly) throw new ReadOnlyStoreError();
    const db = this.#db;
    // One synchronous write transaction; a throw anywhere inside aborts it, so nothing is applied.
    db.transactionSync(() => {
      for (const op of batch) {
        checkColumn(op.column);
        checkKey(op.key);
        const key = withColumn(op.column, op.key);
        if (op.kind === 'put') {
          checkValue(op.value);
          db.put(key, op.value);
        } else {
          db.remove(key);
        }
      }
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#mapTimer);
    await this.#db.close();
  }
}

const EMPTY = new Uint8Array(0);

/** The process's file-backed resident bytes (RssFile in /proc/self/status, Linux), or undefined. */
function fileBackedRss(): number | undefined {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'latin1');
  } catch {
    return undefined;
  }
  const match = /^RssFile:\s+(\d+) kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}

/** `column ‖ key` as a new array (internal: lmdb-js copies it into its own buffers). */
function withColumn(column: Column, key: Uint8Array): Uint8Array {
  if (!(column >= 0 && column <= 255 && (column | 0) === column)) checkColumn(column);
  if (!(key instanceof Uint8Array) || key.length > MAX_KEY_LENGTH) checkKey(key);
  const out = scratchBytes(key.length + 1);
  out[0] = column;
  out.set(key, 1);
  return out;
}

/**
 * `bytes[from..]` of a Buffer that lmdb-js freshly copied, as a plain Uint8Array. Up to 64 bytes V8 keeps a
 * typed array on the JS heap and reading `.buffer` would move it off-heap, so small ones are copied; larger
 * ones are wrapped without copying.
 */
function plain(bytes: Uint8Array, from: number): Uint8Array {
  const n = bytes.length - from;
  if (n > 64) return new Uint8Array(bytes.buffer, bytes.byteOffset + from, n);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = bytes[from + i];
  return out;
}
