/**
 * Where trie nodes and values live: one key space by hash (nearcore's `DBCol::State` holds both, each with a
 * reference count, since identical subtrees and identical values share a hash). The trie reads through
 * `TrieStorage`; an update returns `TrieChanges` (nodes and values that gained or lost references) and the
 * owner of the storage applies them: insertions when the block is written, deletions when the old state
 * leaves the history it must prove (GC).
 */
import { base58Encode } from '@shadebox/primitives';
import { CryptoHashMap } from './hash-map.js';
import { decodeRawNode, type RawTrieNode } from './raw-node.js';
import { MissingTrieNodeError } from './trie-errors.js';

/** `Trie::EMPTY_ROOT` = `CryptoHash::default()`: 32 zero bytes, the root of the trie without keys. */
export const EMPTY_ROOT: Uint8Array = new Uint8Array(32);

export function isEmptyRoot(root: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (root[i] !== 0) return false;
  return true;
}

/** Read access to nodes and values by hash. */
export interface TrieStorage {
  /** The encoded node or the value stored under `hash`, or undefined when there is none. */
  get(hash: Uint8Array): Uint8Array | undefined;
  /** The node under `hash` decoded, from a storage that keeps decoded nodes (node-cache.ts); throws
   * `MissingTrieNodeError` when there is none. */
  node?(hash: Uint8Array): DecodedTrieNode;
  /** Offers a node an update just made to a storage that keeps decoded nodes. */
  remember?(hash: Uint8Array, node: DecodedTrieNode): void;
}

/** A node with its encoding and the subtree's memory usage (part of the encoding). */
export interface DecodedTrieNode {
  bytes: Uint8Array;
  node: RawTrieNode;
  memoryUsage: number;
}

export interface TrieRefcountAddition {
  hash: Uint8Array;
  /** The encoded node or the value. */
  bytes: Uint8Array;
  /** References gained (> 0). */
  rc: number;
}

export interface TrieRefcountSubtraction {
  hash: Uint8Array;
  /** References lost (> 0). */
  rc: number;
}

/** The result of applying a batch of changes to a root (nearcore's `TrieChanges`, without memtrie parts). */
export interface TrieChanges {
  oldRoot: Uint8Array;
  newRoot: Uint8Array;
  /** Nodes and values of the new trie that the old one did not reference as many times. */
  insertions: TrieRefcountAddition[];
  /** Nodes and values of the old trie that the new one no longer references (as many times). */
  deletions: TrieRefcountSubtraction[];
}

/** `get`, throwing `MissingTrieNodeError` when the storage has nothing under `hash`. */
export function getOrThrow(storage: TrieStorage, hash: Uint8Array): Uint8Array {
  const bytes = storage.get(hash);
  if (bytes === undefined) throw new MissingTrieNodeError(base58Encode(hash));
  return bytes;
}

/** The node under `hash`, decoded (kept decoded by a caching storage). */
export function retrieveNode(storage: TrieStorage, hash: Uint8Array): DecodedTrieNode {
  if (storage.node !== undefined) return storage.node(hash);
  const bytes = getOrThrow(storage, hash);
  const { node, memoryUsage } = decodeRawNode(bytes);
  return { bytes, node, memoryUsage };
}

/** Nodes and values in memory, reference counted (for tests, benches and proof verification). */
export class MemoryTrieStorage implements TrieStorage {
  readonly #entries = new CryptoHashMap<{ bytes: Uint8Array; rc: number }>();

  get(hash: Uint8Array): Uint8Array | undefined {
    return this.#entries.get(hash)?.bytes;
  }

  /** How many distinct nodes and values are stored. */
  get size(): number {
    return this.#entries.size;
  }

  /** Adds the references a change created (do this when its block is written). */
  applyInsertions(changes: TrieChanges): void {
    for (const { hash, bytes, rc } of changes.insertions) {
      const entry = this.#entries.get(hash);
      if (entry === undefined) this.#entries.set(hash, { bytes, rc });
      else entry.rc += rc;
    }
  }

  /** Drops the references a change removed (do this when the old state may be forgotten). */
  applyDeletions(changes: TrieChanges): void {
    for (const { hash, rc } of changes.deletions) {
      const entry = this.#entries.get(hash);
      if (entry === undefined) continue;
      entry.rc -= rc;
      if (entry.rc <= 0) this.#entries.delete(hash);
    }
  }

  /** Inserts then deletes: the store then holds exactly the new trie (when it held exactly the old one). */
  apply(changes: TrieChanges): void {
    this.applyInsertions(changes);
    this.applyDeletions(changes);
  }

  /** Stores raw node or value bytes by their hash with one reference (proof verification). */
  putRaw(hash: Uint8Array, bytes: Uint8Array): void {
    const entry = this.#entries.get(hash);
    if (entry === undefined) this.#entries.set(hash, { bytes, rc: 1 });
    else entry.rc += 1;
  }
}
