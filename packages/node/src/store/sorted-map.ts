/**
 * An ordered map from strings to values with cheap snapshots, used by the memory store (keys are byte strings
 * encoded one char per byte, so JavaScript's string order is byte order).
 *
 * Layout: a sorted array of leaves, each a sorted run of at most `LEAF_MAX` keys with their values (a
 * two-level B+-tree, "sorted chunks"), plus the array of every leaf's first key, so that finding the leaf
 * does not chase a pointer per step. Lookup is two binary searches, insert/delete a binary search plus a
 * splice of one leaf; with 1M keys that is ~10k leaves of 64..128 keys. Leaves that shrink below
 * `LEAF_MIN` merge with a neighbour.
 *
 * Snapshots are copy-on-write: `snapshot()` freezes the current leaves; a later write copies a frozen leaf
 * (and the leaf array) before changing it, so a snapshot never sees later writes. Once every snapshot is
 * released (`release()`, called when an iteration ends), writes are in place again.
 */

const LEAF_MAX = 128;
const LEAF_MIN = 32;

interface Leaf<V> {
  keys: string[];
  values: V[];
  /** Epoch in which this leaf was created; leaves of epochs below `#frozenBelow` may be in a snapshot. */
  epoch: number;
}

/** A frozen, immutable view of a `SortedMap`. */
export interface SortedSnapshot<V> {
  readonly leaves: readonly Leaf<V>[];
  /** `firsts[i]` is `leaves[i].keys[0]`. */
  readonly firsts: readonly string[];
}

/** Bounds of an iteration: keys in `[start, end)`, ascending or descending. */
export interface SortedRange {
  start?: string;
  end?: string;
  reverse?: boolean;
}

export class SortedMap<V> {
  #leaves: Leaf<V>[] = [];
  #firsts: string[] = [];
  /** Whether `#leaves` and `#firsts` are referenced by a snapshot. */
  #topShared = false;
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
    if (this.#leaves.length === 0) return undefined;
    const leaf = this.#leaves[leafIndex(this.#firsts, key)];
    const i = lowerBound(leaf.keys, key);
    return i < leaf.keys.length && leaf.keys[i] === key ? leaf.values[i] : undefined;
  }

  /** Sets `key` to `value`; returns true if the key is new. */
  set(key: string, value: V): boolean {
    if (this.#leaves.length === 0) {
      this.#ownTop();
      this.#leaves.push({ keys: [key], values: [value], epoch: this.#epoch });
      this.#firsts.push(key);
      this.#size = 1;
      return true;
    }
    const li = leafIndex(this.#firsts, key);
    const found = this.#leaves[li];
    const i = lowerBound(found.keys, key);
    if (i < found.keys.length && found.keys[i] === key) {
      this.#ownLeaf(li).values[i] = value;
      return false;
    }
    const leaf = this.#ownLeaf(li);
    leaf.keys.splice(i, 0, key);
    leaf.values.splice(i, 0, value);
    this.#size++;
    if (i === 0) this.#firsts[li] = key; // the top is owned: #ownLeaf or an earlier write took care of it
    if (leaf.keys.length > LEAF_MAX) {
      const half = leaf.keys.length >>> 1;
      const right: Leaf<V> = {
        keys: leaf.keys.slice(half),
        values: leaf.values.slice(half),
        epoch: this.#epoch,
      };
      leaf.keys.length = half;
      leaf.values.length = half;
      this.#ownTop();
      this.#leaves.splice(li + 1, 0, right);
      this.#firsts.splice(li + 1, 0, right.keys[0]);
    }
    return true;
  }

  /** Removes `key`; returns true if it was present. */
  delete(key: string): boolean {
    if (this.#leaves.length === 0) return false;
    const li = leafIndex(this.#firsts, key);
    const found = this.#leaves[li];
    const i = lowerBound(found.keys, key);
    if (i >= found.keys.length || found.keys[i] !== key) return false;
    this.#size--;
    if (found.keys.length === 1) {
      this.#ownTop();
      this.#leaves.splice(li, 1);
      this.#firsts.splice(li, 1);
      return true;
    }
    const leaf = this.#ownLeaf(li);
    leaf.keys.splice(i, 1);
    leaf.values.splice(i, 1);
    if (i === 0) this.#firsts[li] = leaf.keys[0];
    if (leaf.keys.length < LEAF_MIN) this.#merge(li);
    return true;
  }

  /**
   * Freezes the current content: the returned snapshot is never changed by later writes. Call `release()`
   * once it is no longer used; until every snapshot is released, writes copy the leaves they change.
   */
  snapshot(): SortedSnapshot<V> {
    this.#openSnapshots++;
    this.#topShared = true;
    this.#frozenBelow = ++this.#epoch;
    return { leaves: this.#leaves, firsts: this.#firsts };
  }

  /** Releases a snapshot taken by `snapshot()`. */
  release(): void {
    if (this.#openSnapshots > 0 && --this.#openSnapshots === 0) {
      this.#topShared = false;
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

  /** Merges leaf `li` with its right (or left) neighbour if they fit in one leaf. */
  #merge(li: number): void {
    const left = li + 1 < this.#leaves.length ? li : li - 1;
    if (left < 0 || this.#leaves[left].keys.length + this.#leaves[left + 1].keys.length > LEAF_MAX) return;
    const merged = this.#ownLeaf(left);
    const right = this.#leaves[left + 1];
    for (let i = 0; i < right.keys.length; i++) {
      merged.keys.push(right.keys[i]);
      merged.values.push(right.values[i]);
    }
    this.#ownTop();
    this.#leaves.splice(left + 1, 1);
    this.#firsts.splice(left + 1, 1);
  }

  /** Makes `#leaves` and `#firsts` safe to modify (copies them if a snapshot holds them). */
  #ownTop(): void {
    if (this.#topShared) {
      this.#leaves = this.#leaves.slice();
      this.#firsts = this.#firsts.slice();
      this.#topShared = false;
    }
  }

  /** Leaf `li`, made safe to modify (copied if a snapshot may hold it); the top is then owned too. */
  #ownLeaf(li: number): Leaf<V> {
    this.#ownTop();
    const leaf = this.#leaves[li];
    if (leaf.epoch >= this.#frozenBelow) return leaf;
    const copy: Leaf<V> = { keys: leaf.keys.slice(), values: leaf.values.slice(), epoch: this.#epoch };
    this.#leaves[li] = copy;
    return copy;
  }
}

/** Iterates the entries of `snapshot` with keys in `[start, end)`. */
export function* iterateSnapshot<V>(snapshot: SortedSnapshot<V>, range: SortedRange): Generator<[string, V]> {
  const { leaves, firsts } = snapshot;
  if (leaves.length === 0) return;
  const { start, end } = range;
  if (start !== undefined && end !== undefined && !(start < end)) return;
  if (!range.reverse) {
    let li = 0;
    let i = 0;
    if (start !== undefined) {
      li = leafIndex(firsts, start);
      i = lowerBound(leaves[li].keys, start);
    }
    for (; li < leaves.length; li++, i = 0) {
      const { keys, values } = leaves[li];
      for (; i < keys.length; i++) {
        if (end !== undefined && keys[i] >= end) return;
        yield [keys[i], values[i]];
      }
    }
  } else {
    let li = leaves.length - 1;
    let i = leaves[li].keys.length - 1;
    if (end !== undefined) {
      // The last key < end: just before the first key >= end.
      li = leafIndex(firsts, end);
      i = lowerBound(leaves[li].keys, end) - 1;
    }
    for (; li >= 0; li--, i = li >= 0 ? leaves[li].keys.length - 1 : -1) {
      const { keys, values } = leaves[li];
      for (; i >= 0; i--) {
        if (start !== undefined && keys[i] < start) return;
        yield [keys[i], values[i]];
      }
    }
  }
}

/** Index of the leaf that holds (or would hold) `key`: the last leaf whose first key is <= key, else 0. */
function leafIndex(firsts: readonly string[], key: string): number {
  let lo = 1;
  let hi = firsts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (firsts[mid] <= key) lo = mid + 1;
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
