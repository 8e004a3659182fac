/**
 * A contract's data at one version, as a view worker holds it (rpc/view-worker-pool.ts ships it once, then
 * every job of that contract names it by version instead of carrying the data): the entries packed in one
 * buffer — for each, the full state key's length (u32 LE), the key, the value's length (u32 LE), the value —
 * and, once unpacked in the worker, an index from key to value offset, so an entry costs a map slot and not
 * an object of its own.
 */

/** Packs `entries` (full state keys and values). */
export function packEntries(entries: ReadonlyArray<{ key: Uint8Array; value: Uint8Array }>): Uint8Array {
  let size = 0;
  for (const { key, value } of entries) size += 8 + key.length + value.length;
  const packed = new Uint8Array(size);
  const view = new DataView(packed.buffer);
  let at = 0;
  for (const { key, value } of entries) {
    view.setUint32(at, key.length, true);
    packed.set(key, at + 4);
    at += 4 + key.length;
    view.setUint32(at, value.length, true);
    packed.set(value, at + 4);
    at += 4 + value.length;
  }
  return packed;
}

/** The worker's copy of one contract's data at `version`. */
export class ContractDataReplica {
  /** Key (latin1) → offset of the value's length in `packed`. */
  private readonly index = new Map<string, number>();
  private readonly view: DataView;

  constructor(
    readonly version: number,
    private readonly packed: Uint8Array,
  ) {
    this.view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
    const text = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
    for (let at = 0; at < packed.length; ) {
      const keyLength = this.view.getUint32(at, true);
      const key = text.toString('latin1', at + 4, at + 4 + keyLength);
      at += 4 + keyLength;
      this.index.set(key, at);
      at += 4 + this.view.getUint32(at, true);
    }
  }

  get size(): number {
    return this.index.size;
  }

  /** The value stored under `key` (a full state key as latin1 text), a fresh copy; undefined when absent. */
  get(key: string): Uint8Array | undefined {
    const at = this.index.get(key);
    if (at === undefined) return undefined;
    return this.packed.slice(at + 4, at + 4 + this.view.getUint32(at, true));
  }
}
