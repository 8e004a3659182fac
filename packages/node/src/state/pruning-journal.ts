/**
 * The keys a `VersionedState` wrote at each height since its last complete pruning pass, so that a pass visits
 * only those (state/versioned-state.ts `prune`). Kept compactly, as two parallel arrays of heights and keys
 * (each key a one-byte-per-byte string): a block that writes tens of thousands of keys (a contract's storage
 * filled in bulk) holds about 60 bytes an entry here until the horizon passes its height, not a typed array
 * and its buffer each.
 */
import { latin1String } from '@shadebox/primitives';

export class PruningJournal {
  #heights: number[] = [];
  #keys: string[] = [];

  get size(): number {
    return this.#heights.length;
  }

  add(height: number, key: Uint8Array): void {
    this.#heights.push(height);
    this.#keys.push(latin1String(key));
  }

  /** The highest height noted (-1 when empty). */
  highestHeight(): number {
    let highest = -1;
    for (const height of this.#heights) if (height > highest) highest = height;
    return highest;
  }

  clear(): void {
    this.#heights = [];
    this.#keys = [];
  }

  /** Forgets the writes at or below `height` (a complete pass covered them). */
  dropUpTo(height: number): void {
    this.#keep((h) => h > height);
  }

  /** Takes out the writes at or below `height`: their distinct keys, in the order first written. */
  takeUpTo(height: number): Uint8Array[] {
    const due = new Set<string>();
    for (let i = 0; i < this.#heights.length; i++) if (this.#heights[i] <= height) due.add(this.#keys[i]);
    if (due.size === 0) return [];
    this.#keep((h) => h > height);
    return [...due].map((key) => {
      const bytes = Buffer.from(key, 'latin1');
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    });
  }

  #keep(keep: (height: number) => boolean): void {
    const heights: number[] = [];
    const keys: string[] = [];
    for (let i = 0; i < this.#heights.length; i++) {
      if (!keep(this.#heights[i])) continue;
      heights.push(this.#heights[i]);
      keys.push(this.#keys[i]);
    }
    this.#heights = heights;
    this.#keys = keys;
  }
}
