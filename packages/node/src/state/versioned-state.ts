import {
  type Column,
  checkColumn,
  checkLimit,
  type KeyValueStore,
  type WriteBatch,
} from '../store/key-value-store.js';
import { InvalidBytesError, KeyTooLongError } from '../store/store-errors.js';
import { PruningJournal } from './pruning-journal.js';
import {
  compareBytes,
  decodeVersionValue,
  equalPrefix,
  groupedLength,
  HEIGHT_BYTES,
  MAX_HEIGHT,
  MAX_STATE_KEY_LENGTH,
  pastVersionsKey,
  prefixLowerBound,
  prefixSuccessor,
  readGrouped,
  readInvertedHeight,
  TAG_DELETED,
  TAG_VALUE,
  versionKey,
  writeGrouped,
  writeInvertedHeight,
} from './versioned-state-encoding.js';

/** Options of `VersionedState.scan`. */
export interface ScanOptions {
  /** Only keys greater than this one (exclusive), for pagination: pass the last key of the previous page. */
  after?: Uint8Array;
  /** Stop after this many keys. */
  limit?: number;
}

/** One key of a scan with its value as of the scanned height. */
export interface StateEntry {
  key: Uint8Array;
  value: Uint8Array;
}

/**
 * While scanning, this many consecutive entries that cannot be returned (older versions of a key already
 * answered, or versions newer than the scanned height) make the scan seek instead of stepping.
 */
const SKIP_BEFORE_SEEK = 8;

/** Largest scratch buffer `write` keeps for encoding versions. */
const MAX_SCRATCH = 64 * 1024;

/**
 * Writes the pruning journal holds at most. Past this many between two passes (a node that writes but does
 * not collect, or one block that rewrote a huge state) it is dropped, and passes scan the column again until
 * one has covered every height it lost.
 */
export const MAX_PRUNING_JOURNAL = 65_536;

/**
 * Every version of every state key, each with the block height that wrote it, in one column of a
 * `KeyValueStore`, so the state can be read as of any block height. See `versioned-state-encoding.ts` for the
 * byte layout. Reads see what has been committed to the store; `write` and `prune` only add to a batch.
 * State keys are arbitrary bytes of at most `MAX_STATE_KEY_LENGTH` (3,543) bytes; heights are integers in
 * 0..2^53-1. Returned keys and values are fresh arrays owned by the caller.
 */
export class VersionedState {
  readonly #store: KeyValueStore;
  readonly #column: Column;
  #scratch = new Uint8Array(1024);
  #tracking = false;
  /** The writes since `trackWritesForPruning` that no complete pass has covered yet (see `prune`). */
  readonly #journal = new PruningJournal();
  /** Writes at heights up to this one may be missing from the journal (-1: none); until a complete scan at
   * or above it, every pass scans the column. */
  #unjournaledUpTo = -1;

  readonly #journalLimit: number;

  /** @param options.pruningJournalLimit writes the pruning journal holds (`MAX_PRUNING_JOURNAL`; tests lower it) */
  constructor(store: KeyValueStore, column: Column, options: { pruningJournalLimit?: number } = {}) {
    checkColumn(column);
    this.#store = store;
    this.#column = column;
    this.#journalLimit = options.pruningJournalLimit ?? MAX_PRUNING_JOURNAL;
  }

  /** Value of `key` as of `height` (the newest version written at a height <= `height`), undefined if absent or deleted by then. */
  get(key: Uint8Array, height: number): Uint8Array | undefined {
    checkStateKey(key);
    checkHeight(height);
    if (key.length > MAX_STATE_KEY_LENGTH) return undefined; // could not have been written
    // One seek: the first entry at or after `group(key) ‖ inverted(height)` is the newest version <= height,
    // if it is still before `group(key) ‖ inverted(-1)` (past the key's oldest possible version).
    for (const entry of this.#store.range(this.#column, {
      start: versionKey(key, height),
      end: pastVersionsKey(key),
      limit: 1,
    })) {
      return decodeVersionValue(entry.value) ?? undefined;
    }
    return undefined;
  }

  /** Keys starting with `prefix`, ascending, as of `height`, skipping deleted ones; `after` (exclusive) and `limit` for pagination. */
  scan(prefix: Uint8Array, height: number, options: ScanOptions = {}): Iterable<StateEntry> {
    checkStateKey(prefix);
    checkHeight(height);
    if (options.after !== undefined) checkStateKey(options.after);
    checkLimit(options.limit);
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (prefix.length > MAX_STATE_KEY_LENGTH) return []; // no stored key is that long
    const prefixStart = prefixLowerBound(prefix);
    let start = prefixStart;
    if (options.after !== undefined) {
      // Keys are at most MAX_STATE_KEY_LENGTH bytes: those after a longer `after` are those after its start.
      const after =
        options.after.length > MAX_STATE_KEY_LENGTH
          ? options.after.subarray(0, MAX_STATE_KEY_LENGTH)
          : options.after;
      const afterBound = pastVersionsKey(after);
      if (compareBytes(afterBound, start) > 0) start = afterBound;
    }
    return this.#scan(prefix, height, start, prefixSuccessor(prefixStart), limit);
  }

  /** Adds to `batch` the versions written by block `height`: value or null (= deleted). */
  write(batch: WriteBatch, height: number, changes: Iterable<[Uint8Array, Uint8Array | null]>): void {
    checkHeight(height);
    for (const [key, value] of changes) {
      checkStateKey(key);
      if (key.length > MAX_STATE_KEY_LENGTH) throw new KeyTooLongError(key.length, MAX_STATE_KEY_LENGTH);
      if (value !== null && !(value instanceof Uint8Array)) throw new InvalidBytesError('value');
      // Encoded into reused scratch space: `batch.put` copies both right away.
      const keyLength = groupedLength(key.length) + HEIGHT_BYTES;
      const valueLength = value === null ? 1 : value.length + 1;
      const needed = keyLength + valueLength;
      if (this.#scratch.length < needed && needed <= MAX_SCRATCH) {
        this.#scratch = new Uint8Array(Math.min(2 * needed, MAX_SCRATCH));
      }
      // A large value (contract code) gets a one-off buffer rather than a scratch kept for ever.
      const scratch = needed <= this.#scratch.length ? this.#scratch : new Uint8Array(needed);
      writeInvertedHeight(height, scratch, writeGrouped(key, scratch, 0));
      if (value === null) {
        scratch[keyLength] = TAG_DELETED;
      } else {
        scratch[keyLength] = TAG_VALUE;
        scratch.set(value, keyLength + 1);
      }
      batch.put(
        this.#column,
        scratch.subarray(0, keyLength),
        scratch.subarray(keyLength, keyLength + valueLength),
      );
      if (this.#tracking) this.#noteWrite(height, key);
    }
  }

  /**
   * From now on, remembers which keys each height writes, so that a pruning pass visits only the keys written
   * since the last one instead of every version of every key. Writes before this call (up to
   * `writtenUpToHeight`, the head) are unknown: passes keep scanning the column until one has covered them.
   * A noted write whose batch is never committed only makes a pass look at a key with nothing to prune.
   */
  trackWritesForPruning(writtenUpToHeight: number): void {
    checkHeight(writtenUpToHeight);
    this.#tracking = true;
    this.#unjournaledUpTo = Math.max(this.#unjournaledUpTo, writtenUpToHeight);
  }

  #noteWrite(height: number, key: Uint8Array): void {
    if (this.#journal.size >= this.#journalLimit) {
      this.#unjournaledUpTo = Math.max(this.#unjournaledUpTo, height, this.#journal.highestHeight());
      this.#journal.clear();
    }
    this.#journal.add(height, key);
  }

  /**
   * Adds to `batch` deletions of versions that are no longer needed by any height >= `keepFromHeight` (for
   * garbage collection later), returns how many. For each key this keeps every version above
   * `keepFromHeight` and the newest one at or below it (the answer at `keepFromHeight`), unless that one is a
   * deletion: then it goes too, since an absent key reads the same. Reads at heights below `keepFromHeight`
   * are no longer meaningful once the batch is committed. Scans the whole column, or with
   * `trackWritesForPruning` only the versions of the keys written since the last complete pass; `limit` caps
   * the deletions added (call again after committing to continue: a pass is complete when it returns fewer).
   */
  prune(batch: WriteBatch, keepFromHeight: number, options: { limit?: number } = {}): number {
    checkHeight(keepFromHeight);
    checkLimit(options.limit);
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (this.#tracking && this.#unjournaledUpTo < 0)
      return this.#pruneJournaled(batch, keepFromHeight, limit);
    const added = this.#pruneAll(batch, keepFromHeight, limit);
    if (this.#tracking && added < limit) {
      // Every version at or below the horizon was visited: the journal's older writes are covered.
      this.#journal.dropUpTo(keepFromHeight);
      if (this.#unjournaledUpTo <= keepFromHeight) this.#unjournaledUpTo = -1;
    }
    return added;
  }

  /** The pass over the keys of the journal's writes at or below the horizon; the others wait. */
  #pruneJournaled(batch: WriteBatch, keepFromHeight: number, limit: number): number {
    let added = 0;
    for (const key of this.#journal.takeUpTo(keepFromHeight)) {
      // Past the limit (or at it, where the key may have more), the key waits for the next call.
      if (added < limit) added += this.#pruneKey(batch, key, keepFromHeight, limit - added);
      if (added >= limit) this.#journal.add(keepFromHeight, key);
    }
    return added;
  }

  /** Deletions for one key's versions (newest first), at most `limit`; the same rule as the full scan. */
  #pruneKey(batch: WriteBatch, key: Uint8Array, keepFromHeight: number, limit: number): number {
    if (key.length > MAX_STATE_KEY_LENGTH) return 0;
    const start = versionKey(key, keepFromHeight);
    let added = 0;
    let answered = false;
    let tombstone: Uint8Array | undefined;
    for (const { key: stored, value } of this.#store.range(this.#column, {
      start,
      end: pastVersionsKey(key),
    })) {
      if (!answered) {
        // The first version at or below the horizon answers for it; only a deletion can go, after the rest.
        answered = true;
        if (value.length === 1 && value[0] === TAG_DELETED) tombstone = stored;
        continue;
      }
      if (added >= limit) return added;
      batch.delete(this.#column, stored);
      added++;
    }
    if (tombstone !== undefined && added < limit) {
      batch.delete(this.#column, tombstone);
      added++;
    }
    return added;
  }

  /** The pass over every version of every key. */
  #pruneAll(batch: WriteBatch, keepFromHeight: number, limit: number): number {
    let added = 0;
    let current: Uint8Array | undefined; // version key of the first entry of the current key
    let currentLength = 0; // length of group(key) of the current key
    let answered = false; // whether the current key's newest version <= keepFromHeight was seen
    // A deletion that answers for keepFromHeight goes only after every older version of its key: if `limit`
    // stops this pass in between, the older versions left behind stay hidden behind it.
    let tombstone: Uint8Array | undefined;
    for (const { key: stored, value } of this.#store.range(this.#column)) {
      const groupedLength = stored.length - HEIGHT_BYTES;
      if (
        current === undefined ||
        groupedLength !== currentLength ||
        !equalPrefix(stored, current, groupedLength)
      ) {
        if (tombstone !== undefined) {
          if (added >= limit) return added;
          batch.delete(this.#column, tombstone);
          added++;
          tombstone = undefined;
        }
        current = stored;
        currentLength = groupedLength;
        answered = false;
      }
      if (answered) {
        if (added >= limit) return added;
        batch.delete(this.#column, stored);
        added++;
      } else if (readInvertedHeight(stored, groupedLength) <= keepFromHeight) {
        answered = true;
        if (value.length === 1 && value[0] === TAG_DELETED) tombstone = stored;
      }
    }
    if (tombstone !== undefined && added < limit) {
      batch.delete(this.#column, tombstone);
      added++;
    }
    return added;
  }

  *#scan(
    prefix: Uint8Array,
    height: number,
    from: Uint8Array,
    end: Uint8Array | undefined,
    limit: number,
  ): Generator<StateEntry> {
    if (limit === 0) return;
    let left = limit;
    let start = from;
    let current: Uint8Array | undefined; // version key of the first seen entry of the current key
    let currentLength = 0; // length of group(key) of the current key
    let answered = false; // whether the current key's version as of `height` was handled
    for (;;) {
      let seekTo: Uint8Array | undefined;
      let skipped = 0;
      for (const { key: stored, value } of this.#store.range(this.#column, { start, end })) {
        const groupedLength = stored.length - HEIGHT_BYTES;
        if (
          current === undefined ||
          groupedLength !== currentLength ||
          !equalPrefix(stored, current, groupedLength)
        ) {
          current = stored;
          currentLength = groupedLength;
          answered = false;
          skipped = 0;
        }
        if (answered || readInvertedHeight(stored, groupedLength) > height) {
          if (++skipped < SKIP_BEFORE_SEEK) continue;
          // Many versions to step over: seek past the key, or to its newest version <= height.
          const key = readGrouped(stored, groupedLength);
          seekTo = answered ? pastVersionsKey(key) : versionKey(key, height);
          break;
        }
        answered = true;
        const found = decodeVersionValue(value);
        if (found === null) continue;
        const key = readGrouped(stored, groupedLength);
        if (!startsWith(key, prefix)) continue;
        yield { key, value: found };
        if (--left <= 0) return;
      }
      if (seekTo === undefined) return;
      start = seekTo;
    }
  }
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return bytes.length >= prefix.length && equalPrefix(bytes, prefix, prefix.length);
}

function checkStateKey(key: Uint8Array): void {
  if (!(key instanceof Uint8Array)) throw new InvalidBytesError('key');
}

function checkHeight(height: number): void {
  if (!Number.isInteger(height) || height < 0 || height > MAX_HEIGHT) {
    throw new RangeError(`height must be an integer in 0..${MAX_HEIGHT}, got ${String(height)}`);
  }
}
