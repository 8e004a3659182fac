// A storage-backed set of byte ids with a dense index, for paginated listings:
//   <prefix>n           → u32 count (big-endian)
//   <prefix>v<u32 i>    → the id at position i
//   <prefix>p<id>       → u32 position of the id
// Removal swaps the last id into the freed slot.
import { readU32be, u32be } from "./bytes";
import { key, storageRead, storageRemove, storageWrite } from "./storage";

export class IndexedSet {
  constructor(public prefix: string) {}

  get length(): u32 {
    const raw = storageRead(key(this.prefix + "n"));
    return raw === null ? 0 : readU32be(raw, 0);
  }

  private setLength(n: u32): void {
    storageWrite(key(this.prefix + "n"), u32be(n));
  }

  has(id: Uint8Array): bool {
    return storageRead(key(this.prefix + "p", id)) !== null;
  }

  at(i: u32): Uint8Array {
    const raw = storageRead(key(this.prefix + "v", u32be(i)));
    return raw !== null ? raw : new Uint8Array(0);
  }

  /** Adds `id`; false when it was already there. */
  add(id: Uint8Array): bool {
    if (this.has(id)) return false;
    const n = this.length;
    storageWrite(key(this.prefix + "v", u32be(n)), id);
    storageWrite(key(this.prefix + "p", id), u32be(n));
    this.setLength(n + 1);
    return true;
  }

  /** Removes `id`; false when it was not there. */
  remove(id: Uint8Array): bool {
    const raw = storageRead(key(this.prefix + "p", id));
    if (raw === null) return false;
    const pos = readU32be(raw, 0);
    const last = this.length - 1;
    if (pos != last) {
      const moved = this.at(last);
      storageWrite(key(this.prefix + "v", u32be(pos)), moved);
      storageWrite(key(this.prefix + "p", moved), u32be(pos));
    }
    storageRemove(key(this.prefix + "v", u32be(last)));
    storageRemove(key(this.prefix + "p", id));
    this.setLength(last);
    return true;
  }
}
