/**
 * Decoded trie nodes kept across chunks (what nearcore's shard cache and memtries give its chunk producers):
 * the nodes near a root are read by every chunk that touches the shard (each lookup, each update walks from
 * the root), and every chunk's new nodes are the next chunk's top. A node is content-addressed by its hash,
 * so an entry is never stale: it is the decoding of those bytes whether or not the state that made it was
 * committed, reverted or collected since.
 *
 * Only the chunk path reads through the cache. Views and proofs read the stored nodes alone, so a proof of a
 * collected state still fails with `MissingTrieNodeError` as nearcore's does.
 *
 * Bounded by count in two generations: new entries go to the young one; when it holds half the capacity it
 * becomes the old one and the previous old one is dropped whole (no per-entry eviction). The hot nodes are the
 * recent ones (a chunk's new path is the next chunk's top), and one read from the old generation moves back
 * to the young one, so the nodes every chunk walks stay.
 */
import { CryptoHashMap } from './hash-map.js';
import { decodeRawNode } from './raw-node.js';
import { type DecodedTrieNode, getOrThrow, type TrieStorage } from './trie-storage.js';

/** Nodes kept by default: a chunk touches tens; 2,048 hold the tops of the recent roots with room to spare (about
 * 1.5 MiB of heap with their decodings; 8,192 measured no faster and held 6 MiB more). */
export const DEFAULT_NODE_CACHE_CAPACITY = 256;

export class TrieNodeCache {
  #young = new CryptoHashMap<DecodedTrieNode>();
  #old = new CryptoHashMap<DecodedTrieNode>();
  readonly #generation: number;

  constructor(readonly capacity: number = DEFAULT_NODE_CACHE_CAPACITY) {
    if (!(Number.isInteger(capacity) && capacity >= 2))
      throw new RangeError('capacity must be an integer of at least 2');
    this.#generation = capacity >>> 1;
  }

  /** Entries held (at most `capacity`). */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  get(hash: Uint8Array): DecodedTrieNode | undefined {
    const young = this.#young.get(hash);
    if (young !== undefined) return young;
    const old = this.#old.get(hash);
    if (old !== undefined) this.set(hash, old);
    return old;
  }

  /** Keeps `node` under `hash`, dropping the old generation when the young one is full. */
  set(hash: Uint8Array, node: DecodedTrieNode): void {
    if (this.#young.size >= this.#generation) {
      this.#old = this.#young;
      this.#young = new CryptoHashMap<DecodedTrieNode>();
    }
    this.#young.set(hash, node);
  }
}

/** A storage whose nodes are decoded once and kept in `cache` (values pass through uncached). */
export class CachedTrieStorage implements TrieStorage {
  constructor(
    readonly inner: TrieStorage,
    readonly cache: TrieNodeCache,
  ) {}

  get(hash: Uint8Array): Uint8Array | undefined {
    return this.cache.get(hash)?.bytes ?? this.inner.get(hash);
  }

  node(hash: Uint8Array): DecodedTrieNode {
    let decoded = this.cache.get(hash);
    if (decoded === undefined) {
      const bytes = getOrThrow(this.inner, hash);
      const { node, memoryUsage } = decodeRawNode(bytes);
      decoded = { bytes, node, memoryUsage };
      this.cache.set(hash, decoded);
    }
    return decoded;
  }

  remember(hash: Uint8Array, node: DecodedTrieNode): void {
    this.cache.set(hash, node);
  }
}
