/**
 * A contract's data at one version, as a view worker holds it (rpc/view-worker-pool.ts ships it once, then
 * every job of that contract names it by version instead of carrying the data): the entries packed in one
 * buffer — for each, the full state key's length (u32 LE), the key, the value's length (u32 LE), the value —
 * and, once unpacked in the worker, an index from key to value offset, so an entry costs a slot of a table and
 * not an object of its own. The index leaves out the keys' common prefix (the account's contract-data prefix),
 * so a read looks up the key as the contract names it, without building the state key.
 */

/**
 * Packs entries (full state keys and values) one at a time into a buffer that grows by doubling, so a contract's data is packed as it is read:
 * no array of all its entries is held meanwhile (for 32,768 entries those objects lived long enough to be promoted
 * to V8's old generation, about 15 MiB of garbage for a full collection to find while views ran).
 */
export class EntryPacker {
  private packed = new Uint8Array(4096);
  private view = new DataView(this.packed.buffer);
  /** Bytes packed so far. */
  size = 0;
  /** Entries packed so far. */
  count = 0;

  add(key: Uint8Array, value: Uint8Array): void {
    const needed = this.size + 8 + key.length + value.length;
    if (needed > this.packed.length) {
      const grown = new Uint8Array(Math.max(needed, 2 * this.packed.length));
      grown.set(this.packed.subarray(0, this.size));
      this.packed = grown;
      this.view = new DataView(grown.buffer);
    }
    let at = this.size;
    this.view.setUint32(at, key.length, true);
    this.packed.set(key, at + 4);
    at += 4 + key.length;
    this.view.setUint32(at, value.length, true);
    this.packed.set(value, at + 4);
    this.size = at + 4 + value.length;
    this.count++;
  }

  /** The packed entries, in a buffer of their own size. */
  finish(): Uint8Array {
    return this.packed.slice(0, this.size);
  }
}

/** The worker's copy of one contract's data at `version`. */
export class ContractDataReplica {
  /**
   * The index: an open-addressing table of the entries by the hash of their key after the prefix, each slot the
   * entry's offset in `packed` plus one (0: empty), at most half full. A read hashes the key's bytes and compares
   * them in place: no string per key, here or per read (for 32,768 entries, 256 KiB where a Map of latin1 keys
   * took 1.9 MiB).
   */
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly view: DataView;
  readonly size: number;

  constructor(
    readonly version: number,
    private readonly packed: Uint8Array,
    /** The length of the prefix every packed key starts with, left out of the index. */
    private readonly prefixLength = 0,
  ) {
    this.view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
    let count = 0;
    for (let at = 0; at < packed.length; count++) at = this.valueEnd(at);
    this.size = count;
    let capacity = 8;
    while (capacity < 2 * count) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let at = 0; at < packed.length; at = this.valueEnd(at)) {
      const keyEnd = at + 4 + this.view.getUint32(at, true);
      let slot = hashOf(packed, at + 4 + prefixLength, keyEnd) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = at + 1;
    }
  }

  /** The value stored under `key` (its key after the prefix), a fresh copy; undefined when absent. */
  get(key: Uint8Array): Uint8Array | undefined {
    const { packed, view, slots, mask } = this;
    for (let slot = hashOf(key, 0, key.length) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
      const at = slots[slot] - 1;
      const keyStart = at + 4 + this.prefixLength;
      const keyEnd = at + 4 + view.getUint32(at, true);
      if (keyEnd - keyStart !== key.length) continue;
      let same = true;
      for (let i = 0; i < key.length && same; i++) same = packed[keyStart + i] === key[i];
      if (same) return packed.slice(keyEnd + 4, keyEnd + 4 + view.getUint32(keyEnd, true));
    }
    return undefined;
  }

  /** The offset after the entry at `at`. */
  private valueEnd(at: number): number {
    const keyEnd = at + 4 + this.view.getUint32(at, true);
    return keyEnd + 4 + this.view.getUint32(keyEnd, true);
  }
}

/** FNV-1a over `bytes[start..end)`. */
function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash >>> 0;
}
