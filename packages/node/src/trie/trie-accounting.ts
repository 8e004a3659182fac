/**
 * The chunk's trie accounting cache (nearcore's `AccountingState` with `AccountingAccessTracker`,
 * runtime/runtime/src/ext.rs): one per chunk application, shared by all its receipts and never rolled back.
 * A node or value hash seen for the first time in the chunk is a db read (charged as `TOUCHING_TRIE_NODE`),
 * one seen before a mem read (`READ_CACHED_TRIE_NODE`). Only contract storage operations track through it.
 */
import { CryptoHashMap } from './hash-map.js';

/** nearcore's `TrieNodesCount`. */
export interface TrieNodesCount {
  dbReads: number;
  memReads: number;
}

export class TrieAccountingCache {
  readonly #seen = new CryptoHashMap<true>();
  #dbReads = 0;
  #memReads = 0;

  /** Counts one retrieval of the node or value `hash`. */
  track(hash: Uint8Array): void {
    if (this.#seen.has(hash)) this.#memReads++;
    else {
      this.#seen.set(hash, true);
      this.#dbReads++;
    }
  }

  /** The counts so far (take them before an operation, then `countsSince` after it). */
  getCounts(): TrieNodesCount {
    return { dbReads: this.#dbReads, memReads: this.#memReads };
  }

  /** What was counted since `start` (nearcore's `commit_counts_since`: db reads are charged first). */
  countsSince(start: TrieNodesCount): TrieNodesCount {
    return { dbReads: this.#dbReads - start.dbReads, memReads: this.#memReads - start.memReads };
  }
}
