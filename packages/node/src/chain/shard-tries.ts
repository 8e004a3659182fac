/**
 * The shards' tries in the node's store (nearcore's `ShardTries`): one trie per shard, its nodes in the
 * `TrieNodes` column with reference counts, each block's `TrieChanges` per shard in `TrieChanges`. The values
 * are not kept a second time: the flat state (state/versioned-state.ts) holds every value of every kept height,
 * and the nodes reference them by length and hash, so a value the trie is asked for comes from there.
 *
 * - A block: each chunk's net state changes go through `applyTrieChanges` on the shard's previous root (the
 *   previous block's chunk extra); the new nodes are staged into the block's batch (`stageBlock`), so the block
 *   and its trie are one store transaction; the changes are kept by (height, shard).
 * - GC of a height applies that block's deletions (the old state's nodes its changes made unreachable) and
 *   drops its changes; an archival node never collects, so it keeps every root.
 * - A revert takes the reverted blocks' insertions back.
 * - Reads: `trieAt(root)` is a `Trie` over the committed nodes (proofs); `chunkTrie(root)` the same with the
 *   chunk's accounting cache and recorder (trie-node gas, storage proof sizes).
 */
import { stateKeyShard, trieKeyOf } from '../state/trie-keys.js';
import type { VersionedState } from '../state/versioned-state.js';
import { type KeyValueStore, WriteBatch } from '../store/key-value-store.js';
import {
  applyTrieChanges,
  CachedTrieStorage,
  decodeTrieChanges,
  EMPTY_ROOT,
  encodeTrieChanges,
  StoreTrieStorage,
  Trie,
  TrieAccountingCache,
  type TrieChange,
  TrieNodeCache,
  TrieRecorder,
  type TrieStoreUpdate,
} from '../trie/index.js';
import { Col, heightKey, metaKey } from './columns.js';

/** Meta key present once the store holds the tries (homes made before the trie lack it). */
export const TRIE_META_KEY = metaKey('trie');
/**
 * The layout of the node column the marker names: 2 = nodes only (the values are the flat state's). A store
 * marked 1 kept values beside its nodes: its tries are dropped and rebuilt at the head like an older home's.
 */
const TRIE_LAYOUT = 2;

function changesKey(height: number, shard: number): Uint8Array {
  const key = new Uint8Array(10);
  key.set(heightKey(height));
  key[8] = shard >>> 8;
  key[9] = shard & 0xff;
  return key;
}

/** A shard's net writes as trie changes (flat keys mapped to the shard's trie keys). */
export function trieChangesOf(writes: Iterable<[Uint8Array, Uint8Array | null]>): TrieChange[] {
  const out: TrieChange[] = [];
  for (const [key, value] of writes) out.push({ key: trieKeyOf(key), value });
  return out;
}

export class ShardTries {
  /** The committed nodes alone (views and proofs). */
  readonly storage: StoreTrieStorage;
  /** The same nodes with recent ones kept decoded (the chunk path: updates, trie-node gas, recording). */
  readonly #chunkStorage: CachedTrieStorage;

  constructor(readonly store: KeyValueStore) {
    this.storage = new StoreTrieStorage(store, Col.TrieNodes);
    this.#chunkStorage = new CachedTrieStorage(this.storage, new TrieNodeCache());
  }

  /** Whether the store holds the tries (false for a home made before they were kept). */
  hasTries(): boolean {
    return this.store.get(Col.Meta, TRIE_META_KEY)?.[0] === TRIE_LAYOUT;
  }

  /** The trie at `root` over the committed nodes, without trackers (views and proofs). */
  trieAt(root: Uint8Array): Trie {
    return new Trie(this.storage, root);
  }

  /** The trie a chunk is applied on: its previous root, with the chunk's accounting cache and recorder. */
  chunkTrie(root: Uint8Array): Trie {
    return new Trie(this.#chunkStorage, root, {
      accounting: new TrieAccountingCache(),
      recorder: new TrieRecorder(),
    });
  }

  /** A staging area for the reference counts of one batch. */
  update(): TrieStoreUpdate {
    return this.storage.update();
  }

  /**
   * Applies shard `shard`'s net writes of block `height` on `oldRoot`, stages the new nodes into `update` and
   * the block's changes into `batch`; returns the new root.
   */
  applyChunk(
    batch: WriteBatch,
    update: TrieStoreUpdate,
    height: number,
    shard: number,
    oldRoot: Uint8Array,
    writes: Iterable<[Uint8Array, Uint8Array | null]>,
  ): Uint8Array {
    const changes = applyTrieChanges(this.#chunkStorage, oldRoot, trieChangesOf(writes), {
      storeValues: false,
    });
    update.applyInsertions(changes);
    batch.put(Col.TrieChanges, changesKey(height, shard), encodeTrieChanges(changes));
    return changes.newRoot;
  }

  /** GC of block `height`: its deletions applied, its changes dropped. */
  collect(batch: WriteBatch, update: TrieStoreUpdate, height: number, numShards: number): void {
    for (let shard = 0; shard < numShards; shard++) {
      const key = changesKey(height, shard);
      const raw = this.store.get(Col.TrieChanges, key);
      if (raw === undefined) continue;
      update.applyDeletions(decodeTrieChanges(raw));
      batch.delete(Col.TrieChanges, key);
    }
  }

  /** Revert of block `height`: its insertions taken back, its changes dropped. */
  revert(batch: WriteBatch, update: TrieStoreUpdate, height: number, numShards: number): void {
    for (let shard = 0; shard < numShards; shard++) {
      const key = changesKey(height, shard);
      const raw = this.store.get(Col.TrieChanges, key);
      if (raw === undefined) continue;
      update.revertInsertions(decodeTrieChanges(raw));
      batch.delete(Col.TrieChanges, key);
    }
  }

  /**
   * Builds every shard's trie from the flat state as of `height` (a home made before the tries were kept):
   * the nodes go into `batch` with the marker; returns each shard's root. No block changes are kept for it:
   * these nodes stay until the state is rebuilt again (GC never reaches below the first kept block's changes).
   */
  rebuild(
    batch: WriteBatch,
    state: VersionedState,
    height: number,
    numShards: number,
    shardOf: (accountId: string) => number,
  ): Uint8Array[] {
    this.#dropEarlierLayout();
    const perShard: TrieChange[][] = Array.from({ length: numShards }, () => []);
    for (const { key, value } of state.scan(new Uint8Array(0), height)) {
      const shard = stateKeyShard(key, shardOf);
      perShard[Math.min(shard, numShards - 1)].push({ key: trieKeyOf(key), value });
    }
    const update = this.update();
    const roots = perShard.map((changes) => {
      const result = applyTrieChanges(this.storage, EMPTY_ROOT, changes, { storeValues: false });
      update.applyInsertions(result);
      return result.newRoot;
    });
    update.writeTo(batch);
    batch.put(Col.Meta, TRIE_META_KEY, new Uint8Array([TRIE_LAYOUT]));
    return roots;
  }

  /**
   * Deletes what an earlier layout left (its counts would never reach zero under this one), in a commit of its
   * own before the rebuild reads any count; the marker goes with it, so a crash in between rebuilds again.
   */
  #dropEarlierLayout(): void {
    const wipe = new WriteBatch();
    for (const column of [Col.TrieNodes, Col.TrieChanges])
      for (const { key } of this.store.range(column)) wipe.delete(column, key);
    if (wipe.size === 0) return;
    wipe.delete(Col.Meta, TRIE_META_KEY);
    this.store.commit(wipe);
  }

  /** Marks the store as holding the tries (a new home, at genesis). */
  markPresent(batch: WriteBatch): void {
    batch.put(Col.Meta, TRIE_META_KEY, new Uint8Array([TRIE_LAYOUT]));
  }
}
