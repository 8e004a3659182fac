/**
 * A trie at one root over a storage, with the chunk-scoped trackers nearcore attaches to it: a recorder (the
 * nodes and values read, for the state witness and its size limits) and an accounting cache (trie-node gas).
 * Every node or value retrieved goes to both; the trie itself never changes (an update returns a new root).
 */
import type { ValueRef } from './raw-node.js';
import type { TrieAccountingCache, TrieNodesCount } from './trie-accounting.js';
import { iteratePrefix, prefixProof, type TrieItem } from './trie-iterator.js';
import { lookupValueRef, type TrieVisitor } from './trie-lookup.js';
import type { TrieRecorder } from './trie-recorder.js';
import { getOrThrow, type TrieChanges, type TrieStorage } from './trie-storage.js';
import { applyTrieChanges, type TrieChange } from './trie-update.js';

export interface TrieOptions {
  recorder?: TrieRecorder;
  accounting?: TrieAccountingCache;
}

export class Trie {
  readonly recorder: TrieRecorder | undefined;
  readonly accounting: TrieAccountingCache | undefined;
  readonly #visit: TrieVisitor | undefined;

  constructor(
    readonly storage: TrieStorage,
    readonly root: Uint8Array,
    options: TrieOptions = {},
  ) {
    this.recorder = options.recorder;
    this.accounting = options.accounting;
    const { recorder, accounting } = this;
    if (recorder !== undefined || accounting !== undefined) {
      this.#visit = (hash, bytes) => {
        recorder?.record(hash, bytes);
        accounting?.track(hash);
      };
    }
  }

  /** The value reference under `key`, or null; the nodes on the path are tracked. */
  getRef(key: Uint8Array): ValueRef | null {
    return lookupValueRef(this.storage, this.root, key, this.#visit);
  }

  /**
   * The value's bytes (tracked as one more retrieval, keyed by the value's hash): `known` when the caller has
   * them from elsewhere (the node's flat state, where the chain's tries keep their values), else read from the
   * storage by hash.
   */
  derefValue(ref: ValueRef, known?: Uint8Array): Uint8Array {
    const bytes = known ?? getOrThrow(this.storage, ref.hash);
    this.#visit?.(ref.hash, bytes);
    return bytes;
  }

  /** The value under `key`, or null: the path, then the value. */
  get(key: Uint8Array): Uint8Array | null {
    const ref = this.getRef(key);
    return ref === null ? null : this.derefValue(ref);
  }

  /**
   * The trie nodes a `storage_write` or `storage_remove` of `key` counts at protocol 85 and later (nearcore's
   * ext.rs): the nodes on the key's path, then its old value if there is one. Needs the accounting cache;
   * returns the counts the operation added and the old value reference.
   */
  countWrite(key: Uint8Array): { counts: TrieNodesCount; oldValue: ValueRef | null } {
    const accounting = this.accounting;
    if (accounting === undefined) throw new TypeError('countWrite needs a trie with an accounting cache');
    const start = accounting.getCounts();
    const oldValue = this.getRef(key);
    if (oldValue !== null) this.derefValue(oldValue);
    return { counts: accounting.countsSince(start), oldValue };
  }

  /** The items under `prefix`, in key order (nodes tracked). */
  iteratePrefix(prefix: Uint8Array): TrieItem[] {
    return iteratePrefix(this.storage, this.root, prefix, this.#visit);
  }

  /** `view_state`'s proof of `prefix` (untracked: views use no chunk trackers). */
  prefixProof(prefix: Uint8Array): { items: TrieItem[]; proof: Uint8Array[] } {
    return prefixProof(this.storage, this.root, prefix);
  }

  /** Applies a batch of changes; the nodes read are recorded. */
  update(changes: Iterable<TrieChange>): TrieChanges {
    return applyTrieChanges(this.storage, this.root, changes, { recorder: this.recorder });
  }
}
