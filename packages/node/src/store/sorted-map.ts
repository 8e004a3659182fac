/**
 * An ordered map from strings to values with cheap snapshots, used by the memory store (keys are byte strings
 * encoded one char per byte, so JavaScript's string order is byte order).
 *
 * Layout: a sorted array of leaves, each a sorted run of at most `LEAF_MAX` keys with their values (a
 * two-level B+-tree, "sorted chunks"). Lookup is two binary searches, insert/delete a binary search plus a
 * splice of one leaf; with 1M keys that is ~4k leaves of ≤ 512 keys.
 *
 * Snapshots are copy-on-write: `snapshot()` freezes the current leaves; a later write copies a frozen leaf
 * (and the leaf array) before changing it, so a snapshot never sees later writes. Once every snapshot is
 * released (`release()`, called when an iteration ends), writes are in place again.
 */

const LEAF_MAX = 512;

interface Leaf<V> {
  keys: string[];
  values: V[];
  /** Epoch in which this leaf was created; leaves of epochs below `#frozenBelow` may be in a snapshot. */
  epoch: number;
}

/** A frozen, immutable view of a `SortedMap`. */
export type SortedSnapshot<V> = readonly Leaf<V>[];

/** Bounds of an iteration: keys in `[start, end)`, ascending or descending. */
export interface SortedRange {
  start?: string;
  end?: string;
  reverse?: boolean;
}

export class SortedMap<V> {
  #leaves: Leaf<V>[] = [];
  /** Whether `#leaves` itself is referenced by a snapshot. */
  #leavesShared = false;
  #epoch = 0;
  /** Leaves with an epoch below this one are frozen (0: none is). */
  #frozenBelow = 0;
  /** Snapshots taken and not released yet. */
  #openSnapshots = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(key: string): V | undefined {
    const leaves = this.#leaves;
    if (leaves.length === 0) return undefined;
    const leaf = leaves[leafIndex(leaves, key)];
    const i = lowerBound(leaf.keys, key);
    return i < leaf.keys.length && leaf.keys[i] === key ? leaf.values[i] : undefined;
  }

  /** Sets `key` to `value`; returns true if the key is new. */
  set(key: string, value: V): boolean {
    if (this.#leaves.length === 0) {
      this.#ownLeaves().push({ keys: [key], values: [value], epoch: this.#epoch });
      this.#size = 1;
      return true;
    }
    const li = leafIndex(this.#leaves, key);
    let leaf = this.#leaves[li];
    const i = lowerBound(leaf.keys, key);
    if (i < leaf.keys.length && leaf.keys[i] === key) {
      this.#ownLeaf(li).values[i] = value;
      return false;
    }
    leaf = this.#ownLeaf(li);
    leaf.keys.splice(i, 0, key);
    leaf.values.splice(i, 0, value);
    this.#size++;
    if (leaf.keys.length > LEAF_MAX) {
      const half = leaf.keys.length >>> 1;
      const right: Leaf<V> = {
        keys: leaf.keys.slice(half),
        values: leaf.values.slice(half),
        epoch: this.#epoch,
      };
      leaf.keys.length = half;
      leaf.values.length = half;
      this.#ownLeaves().splice(li + 1, 0, right);
    }
    return true;
  }

  /** Removes `key`; returns true if it was present. */
  delete(key: string): boolean {
    if (this.#leaves.length === 0) return false;
    const li = leafIndex(this.#leaves, key);
    const found = this.#leaves[li];
    const i = lowerBound(found.keys, key);
    if (i >= found.keys.length || found.keys[i] !== key) return false;
    this.#size--;
    if (found.keys.length === 1) {
      this.#ownLeaves().splice(li, 1);
      return true;
    }
    const leaf = this.#ownLeaf(li);
    leaf.keys.splice(i, 1);
    leaf.values.splice(i, 1);
    return true;
  }

  /**
   * Freezes the current content: the returned snapshot is never changed by later writes. Call `release()`
   * once it is no longer used; until every snapshot is released, writes copy the leaves they change.
   */
  snapshot(): SortedSnapshot<V> {
    this.#openSnapshots++;
    this.#leavesShared = true;
    this.#frozenBelow = ++this.#epoch;
    return this.#leaves;
  }

  /** Releases a snapshot taken by `snapshot()`. */
  release(): void {
    if (this.#openSnapshots > 0 && --this.#openSnapshots === 0) {
      this.#leavesShared = false;
      this.#frozenBelow = 0;
    }
  }

  /** Entries in `range`, from a snapshot taken when the iteration starts and released when it ends. */
  *entries(range: SortedRange = {}): Generator<[string, V]> {
    const snapshot = this.snapshot();
    try {
      yield* iterateSnapshot(snapshot, range);
    } finally {
      this.release();
    }
  }

  #ownLeaves(): Leaf<V>[] {
    if (this.#leavesShared) {
      this.#leaves = this.#leaves.slice();
      this.#leavesShared = false;
    }
    return this.#leaves;
  }

  #ownLeaf(li: number): Leaf<V> {
    const leaf = this.#leaves[li];
    if (leaf.epoch >= this.#frozenBelow) return leaf;
    const copy: Leaf<V> = { keys: leaf.keys.slice(), values: leaf.values.slice(), epoch: this.#epoch };
    this.#ownLeaves()[li] = copy;
    return copy;
  }
}

/** Iterates the entries of `snapshot` with keys in `[start, end)`. */
export function* iterateSnapshot<V>(snapshot: SortedSnapshot<V>, range: SortedRange): Generator<[string, V]> {
  if (snapshot.length === 0) return;
  const { start, end } = range;
  if (start !== undefined && end !== undefined && !(start < end)) return;
  if (!range.reverse) {
    let li = 0;
    let i = 0;
    if (start !== undefined) {
      li = leafIndex(snapshot, start);
      i = lowerBound(snapshot[li].keys, start);
    }
    for (; li < snapshot.length; li++, i = 0) {
      const { keys, values } = snapshot[li];
      for (; i < keys.length; i++) {
        if (end !== undefined && keys[i] >= end) return;
        yield [keys[i], values[i]];
      }
    }
  } else {
    let li = snapshot.length - 1;
    let i = snapshot[li].keys.length - 1;
    if (end !== undefined) {
      // The last key < end: just before the first key >= end.
      li = leafIndex(snapshot, end);
      i = lowerBound(snapshot[li].keys, end) - 1;
    }
    for (; li >= 0; li--, i = li >= 0 ? snapshot[li].keys.length - 1 : -1) {
      const { keys, values } = snapshot[li];
      for (; i >= 0; i--) {
        if (start !== undefined && keys[i] < start) return;
        yield [keys[i], values[i]];
      }
    }
  }
}

/** Index of the leaf that holds (or would hold) `key`: the last leaf whose first key is <= key, else 0. */
function leafIndex<V>(leaves: SortedSnapshot<V>, key: string): number {
  let lo = 1;
  let hi = leaves.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (leaves[mid].keys[0] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** First index whose key is >= `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
