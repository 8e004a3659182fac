/**
 * The VM's window on the state for one account (nearcore runtime/src/ext.rs `RuntimeExt`): its contract data,
 * the validators' stakes and its waiting yields. Writes go to the receipt's pending state layer, so a failed
 * receipt drops them with everything else.
 *
 * With the chunk's trie (chunk-trie.ts), contract storage counts trie nodes as nearcore's does: a key the chunk
 * already wrote or removed is answered from the overlay and touches nothing; otherwise a write or removal
 * looks the key up in the pre-chunk trie (every node on the path, then the old value, tracked by the chunk's
 * accounting cache and recorder) and charges what it counted; a read or `has_key` in `FlatStorage` mode takes
 * the value from the flat state and counts nothing, and a read's value counts once dereferenced (for free: see
 * storage.ts), by its hash, as nearcore's inlined flat values do. The path of such a read (and its value) goes
 * into the storage proof through the chunk's read recorder (chunk-read-recorder.ts), as every read of the
 * runtime's that the overlay does not answer.
 */

import { sha256 } from '@shadebox/primitives';
import {
  hasPromiseYieldReceipt,
  hasPromiseYieldStatus,
  setPromiseYieldStatus,
} from '../state/receipt-state.js';
import { contractDataKey } from '../state/state-keys.js';
import type { StateUpdate } from '../state/state-update.js';
import {
  getYieldIdDataId,
  removeYieldIdMappingsOfDataId,
  setYieldIdMapping,
} from '../state/yield-id-state.js';
import type { ValueRef } from '../trie/raw-node.js';
import type { External, StorageAccessTracker, StorageValuePtr } from '../vm/vm-context.js';
import { type ChunkTrie, recordedProofSize } from './chunk-trie.js';

export function contractExternal(
  state: StateUpdate,
  accountId: string,
  validatorStakes: ReadonlyMap<string, bigint>,
  options: { readOnly?: boolean; chunkTrie?: ChunkTrie } = {},
): External {
  return new ContractExternal(
    state,
    accountId,
    validatorStakes,
    options.readOnly === true,
    options.chunkTrie,
  );
}

/** A value already in memory (the overlay or the flat state): dereferencing it touches no trie node. */
class MemoryValue implements StorageValuePtr {
  constructor(private readonly value: Uint8Array) {}
  get length(): number {
    return this.value.length;
  }
  deref(): Uint8Array {
    return this.value;
  }
}

/** A value of the flat state (nearcore's `FlatStateValue::Inlined`): dereferencing it counts its hash in the
 * chunk's accounting and records it (`deref_optimized`). */
class FlatValue implements StorageValuePtr {
  constructor(
    private readonly chunkTrie: ChunkTrie,
    private readonly value: Uint8Array,
  ) {}
  get length(): number {
    return this.value.length;
  }
  deref(tracker: StorageAccessTracker): Uint8Array {
    const { trie } = this.chunkTrie;
    const accounting = trie.accounting!;
    const start = accounting.getCounts();
    const hash = sha256(this.value);
    accounting.track(hash);
    trie.recorder?.record(hash, this.value);
    chargeCounts(tracker, accounting.countsSince(start));
    return this.value;
  }
}

/** A value in the trie: dereferencing it counts its hash in the chunk's accounting and records it (its bytes
 * come from the flat state, which holds the values of the chain's tries). */
class TrieValue implements StorageValuePtr {
  constructor(
    private readonly chunkTrie: ChunkTrie,
    private readonly ref: ValueRef,
    private readonly state: StateUpdate,
    private readonly stateKey: Uint8Array,
  ) {}
  get length(): number {
    return this.ref.length;
  }
  deref(tracker: StorageAccessTracker): Uint8Array {
    const { trie } = this.chunkTrie;
    const accounting = trie.accounting!;
    const start = accounting.getCounts();
    const value = trie.derefValue(this.ref, this.state.getUnrecorded(this.stateKey));
    chargeCounts(tracker, accounting.countsSince(start));
    return value;
  }
}

/** nearcore's `commit_counts_since`: first-time nodes, then cached ones. */
function chargeCounts(tracker: StorageAccessTracker, counts: { dbReads: number; memReads: number }): void {
  tracker.trieNodesTouched(counts.dbReads);
  tracker.cachedTrieNodesRead(counts.memReads);
}

/** One object per call, its methods on the prototype: a call makes no closures. */
class ContractExternal implements External {
  constructor(
    private readonly state: StateUpdate,
    private readonly accountId: string,
    private readonly validatorStakes: ReadonlyMap<string, bigint>,
    private readonly readOnly: boolean,
    private readonly chunkTrie: ChunkTrie | undefined,
  ) {}

  private writable(): void {
    if (this.readOnly) throw new Error('contract storage is read-only in view calls');
  }

  storageGet(tracker: StorageAccessTracker, key: Uint8Array): StorageValuePtr | undefined {
    const stateKey = contractDataKey(this.accountId, key);
    const chunkTrie = this.chunkTrie;
    if (chunkTrie === undefined || this.state.inOverlay(stateKey)) {
      const value = this.state.get(stateKey);
      return value === undefined ? undefined : new MemoryValue(value);
    }
    if (chunkTrie.storageGetMode === 'Trie') {
      const ref = this.lookUpInTrie(tracker, chunkTrie, stateKey);
      return ref === null ? undefined : new TrieValue(chunkTrie, ref, this.state, stateKey);
    }
    const value = this.state.get(stateKey);
    return value === undefined ? undefined : new FlatValue(chunkTrie, value);
  }
  storageHas(tracker: StorageAccessTracker, key: Uint8Array): boolean {
    const stateKey = contractDataKey(this.accountId, key);
    const chunkTrie = this.chunkTrie;
    if (chunkTrie === undefined || chunkTrie.storageGetMode !== 'Trie' || this.state.inOverlay(stateKey))
      return this.state.has(stateKey);
    return this.lookUpInTrie(tracker, chunkTrie, stateKey) !== null;
  }
  storageSet(tracker: StorageAccessTracker, key: Uint8Array, value: Uint8Array): Uint8Array | undefined {
    this.writable();
    const stateKey = contractDataKey(this.accountId, key);
    const evicted = this.lookUpForWrite(tracker, stateKey, 'write');
    this.state.set(stateKey, value);
    return evicted;
  }
  storageRemove(tracker: StorageAccessTracker, key: Uint8Array): Uint8Array | undefined {
    this.writable();
    const stateKey = contractDataKey(this.accountId, key);
    const removed = this.lookUpForWrite(tracker, stateKey, 'remove');
    // nearcore adds 2000 bytes to the proof's upper bound for every removal of contract data, found or not.
    this.chunkTrie?.trie.recorder?.recordKeyRemoval();
    this.state.remove(stateKey);
    return removed;
  }
  recordedStorageSize(): number {
    return recordedProofSize(this.chunkTrie);
  }
  storageProofSizeBeforeReceipt(): number {
    return this.chunkTrie?.sizeBeforeReceipt ?? this.recordedStorageSize();
  }

  /**
   * The old value of a write or removal (ext.rs `storage_set` / `storage_remove`): from the overlay when the
   * chunk already has the key, else by a lookup in the trie (`MemOrTrie`: every node counted), the old value's
   * bytes charged, the value dereferenced (counted once more), then the nodes charged.
   */
  private lookUpForWrite(
    tracker: StorageAccessTracker,
    stateKey: Uint8Array,
    op: 'write' | 'remove',
  ): Uint8Array | undefined {
    const chargeBytes = (length: number) =>
      op === 'write' ? tracker.derefWriteEvictedValueBytes(length) : tracker.derefRemovedValueBytes(length);
    const chunkTrie = this.chunkTrie;
    if (chunkTrie === undefined || this.state.inOverlay(stateKey)) {
      const old = this.state.get(stateKey);
      if (old !== undefined) chargeBytes(old.length);
      return old;
    }
    const { trie } = chunkTrie;
    const accounting = trie.accounting!;
    const start = accounting.getCounts();
    const ref = trie.getRef(stateKey);
    let old: Uint8Array | undefined;
    if (ref !== null) {
      chargeBytes(ref.length);
      // The old value's bytes from the flat state (the key is not in the overlay here, so this is the base).
      old = trie.derefValue(ref, this.state.getUnrecorded(stateKey));
    }
    chargeCounts(tracker, accounting.countsSince(start));
    return old;
  }

  /** `storage_get_mode: Trie` (no protocol 83-87): a read's or `has_key`'s lookup counts and pays every node. */
  private lookUpInTrie(
    tracker: StorageAccessTracker,
    chunkTrie: ChunkTrie,
    stateKey: Uint8Array,
  ): ValueRef | null {
    const accounting = chunkTrie.trie.accounting!;
    const start = accounting.getCounts();
    const ref = chunkTrie.trie.getRef(stateKey);
    chargeCounts(tracker, accounting.countsSince(start));
    return ref;
  }

  validatorStake(id: string): bigint | undefined {
    return this.validatorStakes.get(id);
  }
  validatorTotalStake(): bigint {
    let total = 0n;
    for (const stake of this.validatorStakes.values()) total += stake;
    return total;
  }
  yieldIsPending(dataId: Uint8Array): boolean {
    return (
      hasPromiseYieldReceipt(this.state, this.accountId, dataId) ||
      hasPromiseYieldStatus(this.state, this.accountId, dataId)
    );
  }
  yieldCreated(dataId: Uint8Array): void {
    this.writable();
    setPromiseYieldStatus(this.state, this.accountId, dataId, 'Yielded');
  }
  yieldResumed(dataId: Uint8Array): void {
    this.writable();
    setPromiseYieldStatus(this.state, this.accountId, dataId, 'ResumeInitiated');
  }
  yieldIdDataId(yieldId: Uint8Array): Uint8Array | undefined {
    return getYieldIdDataId(this.state, this.accountId, yieldId);
  }
  setYieldIdMapping(yieldId: Uint8Array, dataId: Uint8Array): void {
    this.writable();
    setYieldIdMapping(this.state, this.accountId, yieldId, dataId);
  }
  removeYieldIdMappings(dataId: Uint8Array): void {
    this.writable();
    removeYieldIdMappingsOfDataId(this.state, this.accountId, dataId);
  }
}
