/**
 * Nibbles (half bytes, high half first) and the hex-prefix (HP) encoding of nibble paths that leaf and
 * extension nodes store, as nearcore's `core/store/src/trie/nibble_slice.rs`:
 *   first byte = (odd length ? 0x10 + first nibble : 0x00) + (leaf ? 0x20 : 0), then two nibbles per byte.
 */
import { TrieNodeDecodeError } from './trie-errors.js';

/** The nibble at position `i` of `bytes` (nibble 0 is the high half of byte 0). */
export function nibbleAt(bytes: Uint8Array, i: number): number {
  const byte = bytes[i >> 1];
  return (i & 1) === 0 ? byte >> 4 : byte & 15;
}

/** Where an HP-encoded path's nibbles start in `encoded` (in nibbles): after the flag nibble, and after the
 * padding nibble of an even-length path. */
export function hexPrefixOffset(encoded: Uint8Array): number {
  if (encoded.length === 0) throw new TrieNodeDecodeError('hex-prefix path is empty');
  return (encoded[0] & 0x10) === 0x10 ? 1 : 2;
}

/** An immutable view of the nibbles of a byte string from a nibble offset to its end. */
export class NibbleSlice {
  constructor(
    readonly data: Uint8Array,
    readonly offset = 0,
  ) {}

  /** The slice of an HP-encoded path and whether it was encoded as a leaf's. */
  static fromEncoded(encoded: Uint8Array): [NibbleSlice, boolean] {
    return [new NibbleSlice(encoded, hexPrefixOffset(encoded)), (encoded[0] & 0x20) === 0x20];
  }

  get length(): number {
    return this.data.length * 2 - this.offset;
  }

  isEmpty(): boolean {
    return this.length === 0;
  }

  at(i: number): number {
    return nibbleAt(this.data, this.offset + i);
  }

  /** The slice without its first `i` nibbles. */
  mid(i: number): NibbleSlice {
    return new NibbleSlice(this.data, this.offset + i);
  }

  /** How many nibbles at the start this slice and `other` share. */
  commonPrefix(other: NibbleSlice): number {
    const n = Math.min(this.length, other.length);
    for (let i = 0; i < n; i++) if (this.at(i) !== other.at(i)) return i;
    return n;
  }

  startsWith(other: NibbleSlice): boolean {
    return this.commonPrefix(other) === other.length;
  }

  equals(other: NibbleSlice): boolean {
    return this.length === other.length && this.startsWith(other);
  }

  /** Lexicographic order of the nibbles (a proper prefix sorts first): -1, 0 or 1. */
  compare(other: NibbleSlice): number {
    const n = Math.min(this.length, other.length);
    for (let i = 0; i < n; i++) {
      const a = this.at(i);
      const b = other.at(i);
      if (a !== b) return a < b ? -1 : 1;
    }
    return this.length === other.length ? 0 : this.length < other.length ? -1 : 1;
  }

  /** The nibbles, one per byte. */
  toNibbles(): Uint8Array {
    const out = new Uint8Array(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.at(i);
    return out;
  }

  /** The HP encoding of this slice. */
  encoded(isLeaf: boolean): Uint8Array {
    return encodeNibbles(this.toNibbles(), isLeaf);
  }
}

/** HP-encodes a nibble path (one nibble per entry). */
export function encodeNibbles(nibbles: ArrayLike<number>, isLeaf: boolean): Uint8Array {
  const length = nibbles.length;
  const odd = length & 1;
  const out = new Uint8Array(1 + (length >> 1));
  out[0] = (odd === 1 ? 0x10 + nibbles[0] : 0) + (isLeaf ? 0x20 : 0);
  let o = 1;
  for (let i = odd; i < length; i += 2) out[o++] = (nibbles[i] << 4) | nibbles[i + 1];
  return out;
}

/** The length in bytes of the HP encoding of a path of `nibbleCount` nibbles. */
export function encodedLength(nibbleCount: number): number {
  return 1 + (nibbleCount >> 1);
}

/** The nibbles (one per entry) of an HP-encoded path. */
export function decodeNibbles(encoded: Uint8Array): Uint8Array {
  return NibbleSlice.fromEncoded(encoded)[0].toNibbles();
}

/** Packs an even number of nibbles into bytes. */
export function nibblesToBytes(nibbles: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(nibbles.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i] << 4) | nibbles[2 * i + 1];
  return out;
}
