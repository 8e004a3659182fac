/**
 * Trie nodes and values in the node's key-value store (nearcore's `DBCol::State` with its reference counts):
 * one column keyed by the 32-byte hash, each entry `rc (u32 LE) ‖ bytes`. Identical subtrees and values share
 * a hash, so an entry lives while any kept state references it: insertions are written with the block that
 * creates them (same batch, so a crash never leaves a root without its nodes), deletions when the state that
 * referenced them leaves the history (GC) or its block is reverted.
 *
 * `TrieStoreUpdate` stages reference-count changes for one batch: several changes to one hash in the same
 * batch (two shards, several collected heights) add up before anything is written.
 */
import { type Column, checkColumn, type KeyValueStore, type WriteBatch } from '../store/key-value-store.js';
import { CryptoHashMap } from './hash-map.js';
import type { TrieChanges, TrieStorage } from './trie-storage.js';

const RC_BYTES = 4;

function decodeEntry(raw: Uint8Array): { rc: number; bytes: Uint8Array } {
  const rc = raw[0] | (raw[1] << 8) | (raw[2] << 16) | (raw[3] << 24);
  return { rc: rc >>> 0, bytes: raw.subarray(RC_BYTES) };
}

let entryScratch = new Uint8Array(1024);

/** The stored entry, in a buffer reused by the next call: for `WriteBatch.put`, which copies it. */
function encodeEntry(rc: number, bytes: Uint8Array): Uint8Array {
  if (entryScratch.length < RC_BYTES + bytes.length)
    entryScratch = new Uint8Array(2 * (RC_BYTES + bytes.length));
  const out = entryScratch.subarray(0, RC_BYTES + bytes.length);
  out[0] = rc & 0xff;
  out[1] = (rc >>> 8) & 0xff;
  out[2] = (rc >>> 16) & 0xff;
  out[3] = (rc >>> 24) & 0xff;
  out.set(bytes, RC_BYTES);
  return out;
}

/** Reads trie nodes and values committed to `column` of `store`. */
export class StoreTrieStorage implements TrieStorage {
  constructor(
    readonly store: KeyValueStore,
    readonly column: Column,
  ) {
    checkColumn(column);
  }

  get(hash: Uint8Array): Uint8Array | undefined {
    const raw = this.store.get(this.column, hash);
    return raw === undefined ? undefined : raw.subarray(RC_BYTES);
  }

  /** The reference count stored for `hash` (0 when absent). */
  refcount(hash: Uint8Array): number {
    const raw = this.store.get(this.column, hash);
    return raw === undefined ? 0 : decodeEntry(raw).rc;
  }

  /** A staging area for the reference-count changes of one batch. */
  update(): TrieStoreUpdate {
    return new TrieStoreUpdate(this);
  }
}

interface Staged {
  rc: number;
  bytes: Uint8Array | undefined;
}

export class TrieStoreUpdate {
  readonly #staged = new CryptoHashMap<Staged>();

  constructor(readonly storage: StoreTrieStorage) {}

  #entry(hash: Uint8Array): Staged {
    let entry = this.#staged.get(hash);
    if (entry === undefined) {
      const raw = this.storage.store.get(this.storage.column, hash);
      entry = raw === undefined ? { rc: 0, bytes: undefined } : decodeEntry(raw);
      this.#staged.set(hash, entry);
    }
    return entry;
  }

  /** Adds `rc` references to `hash`, storing `bytes` if it was absent. */
  increment(hash: Uint8Array, bytes: Uint8Array, rc: number): void {
    const entry = this.#entry(hash);
    entry.rc += rc;
    entry.bytes ??= bytes;
  }

  /** Drops `rc` references to `hash`; at zero the entry goes. */
  decrement(hash: Uint8Array, rc: number): void {
    const entry = this.#entry(hash);
    entry.rc = Math.max(0, entry.rc - rc);
  }

  /** The insertions of a change: its new nodes and values gain their references (when its block is written). */
  applyInsertions(changes: Pick<TrieChanges, 'insertions'>): void {
    for (const { hash, bytes, rc } of changes.insertions) this.increment(hash, bytes, rc);
  }

  /** The deletions of a change: the old state's nodes it no longer references (when that state is collected). */
  applyDeletions(changes: Pick<TrieChanges, 'deletions'>): void {
    for (const { hash, rc } of changes.deletions) this.decrement(hash, rc);
  }

  /** Undoes the insertions of a change (its block is reverted). */
  revertInsertions(changes: { insertions: ReadonlyArray<{ hash: Uint8Array; rc: number }> }): void {
    for (const { hash, rc } of changes.insertions) this.decrement(hash, rc);
  }

  /** How many hashes are staged. */
  get size(): number {
    return this.#staged.size;
  }

  /** Writes the staged counts into `batch`: a put per entry still referenced, a delete per entry at zero. */
  writeTo(batch: WriteBatch): void {
    const column = this.storage.column;
    for (const [hash, { rc, bytes }] of this.#staged.entries()) {
      if (rc > 0 && bytes !== undefined) batch.put(column, hash, encodeEntry(rc, bytes));
      else batch.delete(column, hash);
    }
  }
}
