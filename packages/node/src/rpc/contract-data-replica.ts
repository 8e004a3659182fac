/**
 * A contract's data at one version, as a view worker holds it (rpc/view-worker-pool.ts ships it once, then
 * every job of that contract names it by version instead of carrying the data): the entries packed in one
 * buffer — for each, the full state key's length (u32 LE), the key, the value's length (u32 LE), the value —
 * and, once unpacked in the worker, an index from key to value offset, so an entry costs a map slot and not
 * an object of its own. The index leaves out the keys' common prefix (the account's contract-data prefix), so
 * a read looks up the key as the contract names it, without building the state key.
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
  /** Key after the prefix (latin1) → offset of the value's length in `packed`. */
  private readonly index = new Map<string, number>();
  private readonly view: DataView;

  constructor(
    readonly version: number,
    private readonly packed: Uint8Array,
    /** The length of the prefix every packed key starts with, left out of the index. */
    prefixLength = 0,
  ) {
    this.view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
    const text = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
    for (let at = 0; at < packed.length; ) {
      const keyLength = this.view.getUint32(at, true);
      const key = text.toString('latin1', at + 4 + prefixLength, at + 4 + keyLength);
      at += 4 + keyLength;
      this.index.set(key, at);
      at += 4 + this.view.getUint32(at, true);
    }
  }

  get size(): number {
    return this.index.size;
  }

  /** The value stored under `key` (its key after the prefix, as latin1 text), a fresh copy; undefined when absent. */
  get(key: string): Uint8Array | undefined {
    const at = this.index.get(key);
    if (at === undefined) return undefined;
    return this.packed.slice(at + 4, at + 4 + this.view.getUint32(at, true));
  }
}
