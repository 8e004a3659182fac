/**
 * Applying a batch of changes to a trie: the new root, the new nodes and values, and the old ones that lost a
 * reference. The rules are nearcore's (core/store/src/trie/ops/insert_delete.rs and squash.rs): the changes
 * are applied one key at a time in key order on a mutable copy of the nodes on their paths; a delete squashes
 * the nodes on its path back to the canonical shape at once (a branch left with one child and no value is
 * merged into an extension or leaf, reading that child if it was not loaded yet), so the trie is a function of
 * its key set and the nodes read (what a recorder sees) are the ones nearcore reads. Memory usage is kept per
 * node along the way as nearcore keeps it. Hashing happens once at the end, for the changed nodes only:
 * untouched subtrees keep their hashes and are never loaded.
 */
import { sha256 } from '@shadebox/primitives';
import { CryptoHashMap } from './hash-map.js';
import { branchMemoryUsageDirect, extensionMemoryUsageDirect, leafMemoryUsage } from './memory-usage.js';
import { decodeNibbles, encodedLength, encodeNibbles, nibbleAt } from './nibbles.js';
import { encodeRawNode, type RawTrieNode, type ValueRef } from './raw-node.js';
import { TrieError } from './trie-errors.js';
import type { TrieRecorder } from './trie-recorder.js';
import {
  EMPTY_ROOT,
  isEmptyRoot,
  retrieveNode,
  type TrieChanges,
  type TrieRefcountAddition,
  type TrieRefcountSubtraction,
  type TrieStorage,
} from './trie-storage.js';

/** A change to one key: a new value, or `null` to delete it. */
export interface TrieChange {
  key: Uint8Array;
  value: Uint8Array | null;
}

export interface TrieUpdateOptions {
  /** Records every node read from the storage (nearcore records them for the state witness). */
  recorder?: TrieRecorder;
  /**
   * Whether values are kept by hash beside the nodes, reference counted (default true, as nearcore's `State`
   * column keeps both). False where another store holds every value already: the node's flat state
   * (chain/shard-tries.ts); the nodes still reference each value by length and hash.
   */
  storeValues?: boolean;
}

/** A child: the hash of a stored node not loaded, or the index of a node in the update's arena. */
type Ref = Uint8Array | number;

const EMPTY = 0;
const LEAF = 1;
const BRANCH = 2;
const EXTENSION = 3;

/** A node being updated. `key` is the nibble path of leaves and extensions (one nibble per byte). */
interface UpdatedNode {
  kind: typeof EMPTY | typeof LEAF | typeof BRANCH | typeof EXTENSION;
  key: Uint8Array;
  value: ValueRef | null;
  children: (Ref | null)[] | null;
  child: Ref | null;
  /** Memory usage of the subtree (during an insert or delete, without the path's next node). */
  mem: number;
}

const NO_KEY = new Uint8Array(0);

/**
 * Applies `changes` (any order; for a key changed twice the last change wins) to the trie at `root` and
 * returns the new root with the reference-count changes. Reads nodes from `storage`, never writes to it.
 */
export function applyTrieChanges(
  storage: TrieStorage,
  root: Uint8Array,
  changes: Iterable<TrieChange>,
  options: TrieUpdateOptions = {},
): TrieChanges {
  const sorted = sortChanges(changes);
  const update = new TrieUpdateArena(storage, options.recorder, options.storeValues ?? true);
  if (sorted.length === 0) return { oldRoot: root, newRoot: root, insertions: [], deletions: [] };
  const rootId = isEmptyRoot(root) ? update.place(emptyNode()) : update.ensureUpdated(root);
  for (const change of sorted) {
    if (change.value === null) update.delete(rootId, change.key);
    else update.insert(rootId, change.key, change.value);
  }
  const newRoot = update.hashNode(rootId) ?? EMPTY_ROOT;
  return { oldRoot: root, newRoot, ...update.refcountChanges() };
}

/** Sorts by key (bytewise) and keeps the last change of each key. */
function sortChanges(changes: Iterable<TrieChange>): TrieChange[] {
  const all = [...changes];
  // Array.prototype.sort is stable: equal keys keep their order, so the last one of a run is the latest.
  all.sort((a, b) => compareBytes(a.key, b.key));
  const out: TrieChange[] = [];
  for (let i = 0; i < all.length; i++) {
    if (i + 1 < all.length && compareBytes(all[i].key, all[i + 1].key) === 0) continue;
    out.push(all[i]);
  }
  return out;
}

/** Bytewise order; a JS loop beats a native call per comparison for keys this short. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function emptyNode(): UpdatedNode {
  return { kind: EMPTY, key: NO_KEY, value: null, children: null, child: null, mem: 0 };
}

function memoryUsageDirect(node: UpdatedNode): number {
  switch (node.kind) {
    case EMPTY:
      return 0;
    case LEAF:
      return leafMemoryUsage(encodedLength(node.key.length), node.value!.length);
    case EXTENSION:
      return extensionMemoryUsageDirect(encodedLength(node.key.length));
    default:
      return branchMemoryUsageDirect(node.value === null ? null : node.value.length);
  }
}

function concatNibbles(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The nibbles of `key` from nibble `from` on. */
function keyNibbles(key: Uint8Array, from: number): Uint8Array {
  const out = new Uint8Array(key.length * 2 - from);
  for (let i = 0; i < out.length; i++) out[i] = nibbleAt(key, from + i);
  return out;
}

/** How many nibbles `key` from nibble `from` on shares with the start of `nibbles`. */
function commonPrefix(key: Uint8Array, from: number, nibbles: Uint8Array): number {
  const n = Math.min(key.length * 2 - from, nibbles.length);
  for (let i = 0; i < n; i++) if (nibbleAt(key, from + i) !== nibbles[i]) return i;
  return n;
}

class TrieUpdateArena {
  readonly nodes: UpdatedNode[] = [];
  /** Reference-count deltas by hash key; `bytes` is kept for what may be inserted. */
  readonly #deltas = new CryptoHashMap<{ hash: Uint8Array; bytes: Uint8Array | undefined; rc: number }>();

  constructor(
    readonly storage: TrieStorage,
    readonly recorder: TrieRecorder | undefined,
    readonly storeValues: boolean,
  ) {}

  place(node: UpdatedNode): number {
    this.nodes.push(node);
    return this.nodes.length - 1;
  }

  #delta(hash: Uint8Array, bytes: Uint8Array | undefined, rc: number): void {
    const entry = this.#deltas.get(hash);
    if (entry === undefined) this.#deltas.set(hash, { hash, bytes, rc });
    else {
      entry.rc += rc;
      if (entry.bytes === undefined) entry.bytes = bytes;
    }
  }

  /** Loads a stored node into the arena (it loses the reference the old trie held). */
  ensureUpdated(ref: Ref): number {
    if (typeof ref === 'number') return ref;
    const { bytes, node, memoryUsage } = retrieveNode(this.storage, ref);
    this.recorder?.record(ref, bytes);
    this.#delta(ref, undefined, -1);
    switch (node.kind) {
      case 'leaf':
        return this.place({
          kind: LEAF,
          key: decodeNibbles(node.key),
          value: node.value,
          children: null,
          child: null,
          mem: memoryUsage,
        });
      case 'extension':
        return this.place({
          kind: EXTENSION,
          key: decodeNibbles(node.key),
          value: null,
          children: null,
          child: node.child,
          mem: memoryUsage,
        });
      case 'branch':
        return this.place({
          kind: BRANCH,
          key: NO_KEY,
          value: node.value,
          children: node.children.slice(),
          child: null,
          mem: memoryUsage,
        });
    }
  }

  #storeValue(value: Uint8Array): ValueRef {
    const hash = sha256(value);
    if (this.storeValues) this.#delta(hash, value, 1);
    return { length: value.length, hash };
  }

  #deleteValue(value: ValueRef): void {
    if (this.storeValues) this.#delta(value.hash, undefined, -1);
  }

  insert(rootId: number, key: Uint8Array, value: Uint8Array): void {
    const nodes = this.nodes;
    const keyLength = key.length * 2;
    let id = rootId;
    let pos = 0;
    const path: number[] = [];
    for (;;) {
      path.push(id);
      const node = nodes[id];
      const childrenMem = node.mem - memoryUsageDirect(node);
      if (node.kind === EMPTY) {
        node.kind = LEAF;
        node.key = keyNibbles(key, pos);
        node.value = this.#storeValue(value);
        node.mem = memoryUsageDirect(node);
        break;
      }
      if (node.kind === BRANCH) {
        if (pos === keyLength) {
          if (node.value !== null) this.#deleteValue(node.value);
          node.value = this.#storeValue(value);
          node.mem = childrenMem + memoryUsageDirect(node);
          break;
        }
        const children = node.children!;
        const index = nibbleAt(key, pos);
        const old = children[index];
        const childId = old === null ? this.place(emptyNode()) : this.ensureUpdated(old);
        children[index] = childId;
        node.mem = childrenMem + memoryUsageDirect(node) - nodes[childId].mem;
        id = childId;
        pos += 1;
        continue;
      }
      if (node.kind === LEAF) {
        const existing = node.key;
        const common = commonPrefix(key, pos, existing);
        if (common === existing.length && common === keyLength - pos) {
          this.#deleteValue(node.value!);
          node.value = this.#storeValue(value);
          node.mem = memoryUsageDirect(node);
          break;
        }
        if (common === 0) {
          // The leaf becomes the equivalent branch; the next round adds the new key to it.
          const oldValue = node.value!;
          const children: (Ref | null)[] = new Array(16).fill(null);
          let childMem = 0;
          node.kind = BRANCH;
          node.key = NO_KEY;
          node.children = children;
          if (existing.length === 0) node.value = oldValue;
          else {
            const leaf: UpdatedNode = {
              kind: LEAF,
              key: existing.subarray(1),
              value: oldValue,
              children: null,
              child: null,
              mem: 0,
            };
            leaf.mem = memoryUsageDirect(leaf);
            childMem = leaf.mem;
            children[existing[0]] = this.place(leaf);
            node.value = null;
          }
          node.mem = memoryUsageDirect(node) + childMem;
          path.pop();
          continue;
        }
        // Split into an extension over the shared part and a leaf with the rest; descend into the leaf.
        const leaf: UpdatedNode = {
          kind: LEAF,
          key: existing.subarray(common),
          value: node.value,
          children: null,
          child: null,
          mem: 0,
        };
        leaf.mem = memoryUsageDirect(leaf);
        const leafId = this.place(leaf);
        node.kind = EXTENSION;
        node.key = existing.subarray(0, common);
        node.value = null;
        node.child = leafId;
        node.mem = memoryUsageDirect(node);
        id = leafId;
        pos += common;
        continue;
      }
      // Extension.
      const existing = node.key;
      const common = commonPrefix(key, pos, existing);
      if (common === 0) {
        // The extension becomes a branch over its first nibble; the next round adds the new key to it.
        let child: Ref;
        let childMem: number;
        if (existing.length === 1) {
          child = node.child!;
          childMem = childrenMem;
        } else {
          const inner: UpdatedNode = {
            kind: EXTENSION,
            key: existing.subarray(1),
            value: null,
            children: null,
            child: node.child,
            mem: 0,
          };
          inner.mem = childrenMem + memoryUsageDirect(inner);
          childMem = inner.mem;
          child = this.place(inner);
        }
        const children: (Ref | null)[] = new Array(16).fill(null);
        children[existing[0]] = child;
        node.kind = BRANCH;
        node.key = NO_KEY;
        node.children = children;
        node.child = null;
        node.value = null;
        node.mem = memoryUsageDirect(node) + childMem;
        path.pop();
        continue;
      }
      if (common === existing.length) {
        const childId = this.ensureUpdated(node.child!);
        node.child = childId;
        node.mem = memoryUsageDirect(node);
        id = childId;
        pos += common;
        continue;
      }
      // The key leaves the extension part way: a shorter extension over an inner one, which the next round splits.
      const inner: UpdatedNode = {
        kind: EXTENSION,
        key: existing.subarray(common),
        value: null,
        children: null,
        child: node.child,
        mem: 0,
      };
      inner.mem = childrenMem + memoryUsageDirect(inner);
      const innerId = this.place(inner);
      node.key = existing.subarray(0, common);
      node.child = innerId;
      node.mem = memoryUsageDirect(node);
      id = innerId;
      pos += common;
    }
    for (let i = path.length - 2; i >= 0; i--) nodes[path[i]].mem += nodes[path[i + 1]].mem;
  }

  delete(rootId: number, key: Uint8Array): void {
    const nodes = this.nodes;
    const keyLength = key.length * 2;
    let id = rootId;
    let pos = 0;
    let deleted = true;
    const path: number[] = [];
    for (;;) {
      path.push(id);
      const node = nodes[id];
      const childrenMem = node.mem - memoryUsageDirect(node);
      if (node.kind === EMPTY) {
        deleted = false;
        break;
      }
      if (node.kind === LEAF) {
        if (node.key.length === keyLength - pos && commonPrefix(key, pos, node.key) === node.key.length) {
          this.#deleteValue(node.value!);
          node.kind = EMPTY;
          node.key = NO_KEY;
          node.value = null;
          node.mem = 0;
        } else deleted = false;
        break;
      }
      if (node.kind === BRANCH) {
        if (pos === keyLength) {
          if (node.value === null) {
            deleted = false;
            break;
          }
          this.#deleteValue(node.value);
          node.value = null;
          node.mem = childrenMem + memoryUsageDirect(node);
          break;
        }
        const children = node.children!;
        const index = nibbleAt(key, pos);
        const old = children[index];
        if (old === null) {
          deleted = false;
          break;
        }
        const childId = this.ensureUpdated(old);
        children[index] = childId;
        node.mem = childrenMem + memoryUsageDirect(node) - nodes[childId].mem;
        id = childId;
        pos += 1;
        continue;
      }
      // Extension.
      if (commonPrefix(key, pos, node.key) !== node.key.length) {
        deleted = false;
        break;
      }
      const childId = this.ensureUpdated(node.child!);
      node.child = childId;
      node.mem = childrenMem + memoryUsageDirect(node) - nodes[childId].mem;
      id = childId;
      pos += node.key.length;
    }
    let childMem = 0;
    for (let i = path.length - 1; i >= 0; i--) {
      const nodeId = path[i];
      nodes[nodeId].mem += childMem;
      if (deleted) this.#squash(nodeId);
      childMem = nodes[nodeId].mem;
    }
  }

  /** Brings a node on a delete's path back to the canonical shape (nearcore's `squash_node`). */
  #squash(id: number): void {
    const node = this.nodes[id];
    if (node.kind === EMPTY) return;
    if (node.kind === LEAF) throw new TrieError('internal: a leaf on a delete path survived the delete');
    if (node.kind === EXTENSION) {
      this.#extendChild(id, node.key, node.child!);
      return;
    }
    const children = node.children!;
    let count = 0;
    let only = -1;
    for (let i = 0; i < 16; i++) {
      const child = children[i];
      if (typeof child === 'number' && this.nodes[child].kind === EMPTY) children[i] = null;
      if (children[i] !== null) {
        count++;
        only = i;
      }
    }
    if (count === 0) {
      if (node.value === null) Object.assign(node, emptyNode());
      else {
        node.kind = LEAF;
        node.key = NO_KEY;
        node.children = null;
        node.mem = memoryUsageDirect(node);
      }
    } else if (count === 1 && node.value === null) {
      this.#extendChild(id, Uint8Array.of(only), children[only]!);
    }
  }

  /** Makes `id` an extension of `key` over `child`, merged with the child when it is a leaf or an extension. */
  #extendChild(id: number, key: Uint8Array, childRef: Ref): void {
    const node = this.nodes[id];
    const childId = this.ensureUpdated(childRef);
    const child = this.nodes[childId];
    const childChildrenMem = child.mem - memoryUsageDirect(child);
    node.children = null;
    node.value = null;
    node.child = null;
    switch (child.kind) {
      case EMPTY:
        Object.assign(node, emptyNode());
        return;
      case LEAF:
        node.kind = LEAF;
        node.key = concatNibbles(key, child.key);
        node.value = child.value;
        node.mem = memoryUsageDirect(node);
        return;
      case BRANCH:
        node.kind = EXTENSION;
        node.key = key;
        node.child = childId;
        node.mem = memoryUsageDirect(node) + child.mem;
        return;
      case EXTENSION:
        node.kind = EXTENSION;
        node.key = concatNibbles(key, child.key);
        node.child = child.child;
        node.mem = memoryUsageDirect(node) + childChildrenMem;
        return;
    }
  }

  /** Hashes the changed nodes under `id` (post-order), records them as insertions; null for an empty trie. */
  hashNode(id: number): Uint8Array | null {
    const node = this.nodes[id];
    let raw: RawTrieNode;
    switch (node.kind) {
      case EMPTY:
        return null;
      case LEAF:
        raw = { kind: 'leaf', key: encodeNibbles(node.key, true), value: node.value! };
        break;
      case EXTENSION:
        raw = { kind: 'extension', key: encodeNibbles(node.key, false), child: this.#hashChild(node.child!) };
        break;
      default: {
        const children = node.children!;
        const hashes: (Uint8Array | null)[] = new Array(16);
        for (let i = 0; i < 16; i++) {
          const child = children[i];
          hashes[i] = child === null ? null : this.#hashChild(child);
        }
        raw = { kind: 'branch', children: hashes, value: node.value };
      }
    }
    const bytes = encodeRawNode(raw, node.mem);
    const hash = sha256(bytes);
    this.#delta(hash, bytes, 1);
    this.storage.remember?.(hash, { bytes, node: raw, memoryUsage: node.mem });
    return hash;
  }

  #hashChild(ref: Ref): Uint8Array {
    if (typeof ref !== 'number') return ref;
    const hash = this.hashNode(ref);
    if (hash === null) throw new TrieError('internal: an empty node was left as a child');
    return hash;
  }

  refcountChanges(): { insertions: TrieRefcountAddition[]; deletions: TrieRefcountSubtraction[] } {
    const insertions: TrieRefcountAddition[] = [];
    const deletions: TrieRefcountSubtraction[] = [];
    for (const { hash, bytes, rc } of this.#deltas.values()) {
      if (rc > 0) insertions.push({ hash, bytes: bytes!, rc });
      else if (rc < 0) deletions.push({ hash, rc: -rc });
    }
    return { insertions, deletions };
  }
}
