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
 * Bounded by count, first in first out: the hot nodes are the recent ones (a chunk's new path is the next
 * chunk's top), so a ring of the last `capacity` hashes is enough to keep them without per-hit bookkeeping.
 */
import { CryptoHashMap } from './hash-map.js';
import { decodeRawNode } from './raw-node.js';
import { type DecodedTrieNode, getOrThrow, type TrieStorage } from './trie-storage.js';

/** Nodes kept by default: a chunk touches tens; 2,048 hold the tops of the recent roots with room to spare (about
 * 1.5 MiB of heap with their decodings; 8,192 measured no faster and held 6 MiB more). */
export const DEFAULT_NODE_CACHE_CAPACITY = 2048;

export class TrieNodeCache {
  readonly #nodes = new CryptoHashMap<DecodedTrieNode>();
  readonly #ring: (Uint8Array | undefined)[];
  #next = 0;

  constructor(readonly capacity: number = DEFAULT_NODE_CACHE_CAPACITY) {
    if (!(Number.isInteger(capacity) && capacity > 0))
      throw new RangeError(`capacity must be a positive integer`);
    this.#ring = new Array(capacity).fill(undefined);
  }

  get size(): number {
    return this.#nodes.size;
  }

  get(hash: Uint8Array): DecodedTrieNode | undefined {
    return this.#nodes.get(hash);
  }

  /** Keeps `node` under `hash`, dropping the oldest entry when full. */
  set(hash: Uint8Array, node: DecodedTrieNode): void {
    if (this.#nodes.has(hash)) return;
    const evicted = this.#ring[this.#next];
    if (evicted !== undefined) this.#nodes.delete(evicted);
    this.#ring[this.#next] = hash;
    this.#next = (this.#next + 1) % this.capacity;
    this.#nodes.set(hash, node);
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
