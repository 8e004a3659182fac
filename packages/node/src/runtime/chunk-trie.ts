/**
 * The trie of the chunk being applied as contract storage sees it (nearcore's `TrieUpdate::trie` with the
 * chunk's `AccountingState`): the shard's trie at the chunk's `prev_state_root`, never updated while the chunk
 * runs, with the chunk's accounting cache (trie-node gas) and recorder (the storage proof and its limits).
 */
import type { StorageGetMode } from '../config/runtime-config.js';
import type { Trie } from '../trie/trie.js';

export interface ChunkTrie {
  /** Needs an accounting cache; a recorder when the proof sizes are limited. */
  readonly trie: Trie;
  /** `storage_get_mode`: `FlatStorage` (every protocol 83-87) reads without charging trie nodes. */
  readonly storageGetMode: StorageGetMode;
  /** The recorder's upper bound when the current receipt started (`EnforcePerReceiptStorageProofLimit`, 86):
   * set by the receipt loop, absent before 86. */
  sizeBeforeReceipt?: number;
}

/** The recorded storage proof's upper bound so far (0 without a recorder). */
export function recordedProofSize(chunkTrie: ChunkTrie | undefined): number {
  return chunkTrie?.trie.recorder?.upperBound ?? 0;
}
