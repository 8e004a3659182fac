/**
 * A small borsh writer and reader (https://borsh.io, as the `borsh` crate encodes): little-endian integers,
 * u32-length-prefixed `Vec<u8>`, strings and vectors, one-byte option and enum tags. The reader never
 * throws anything but `BorshError`.
 */
import { BorshError } from './errors.js';

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const U128_MAX = (1n << 128n) - 1n;

const textEncoder = new TextEncoder();
// Keeps a leading U+FEFF, as Rust's `String::from_utf8` does.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class BorshWriter {
  private buf: Uint8Array;
  private view: DataView;
  private length = 0;

  constructor(initialCapacity = 256) {
    this.buf = new Uint8Array(initialCapacity);
    this.view = new DataView(this.buf.buffer);
  }

  private reserve(n: number): void {
    const needed = this.length + n;
    if (needed <= this.buf.length) return;
    let capacity = this.buf.length * 2;
    while (capacity < needed) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(value: number): this {
    checkInt(value, 0xff, 'u8');
    this.reserve(1);
    this.buf[this.length++] = value;
    return this;
  }

  u16(value: number): this {
    checkInt(value, 0xffff, 'u16');
    this.reserve(2);
    this.view.setUint16(this.length, value, true);
    this.length += 2;
    return this;
  }

  u32(value: number): this {
    checkInt(value, 0xffff_ffff, 'u32');
    this.reserve(4);
    this.view.setUint32(this.length, value, true);
    this.length += 4;
    return this;
  }

  u64(value: bigint): this {
    if (typeof value !== 'bigint' || value < 0n || value > U64_MAX) {
      throw new BorshError(`value ${String(value)} is not a u64 (bigint in 0..2^64-1)`);
    }
    this.reserve(8);
    this.view.setBigUint64(this.length, value, true);
    this.length += 8;
    return this;
  }

  u128(value: bigint): this {
    if (typeof value !== 'bigint' || value < 0n || value > U128_MAX) {
      throw new BorshError(`value ${String(value)} is not a u128 (bigint in 0..2^128-1)`);
    }
    this.reserve(16);
    this.view.setBigUint64(this.length, value & U64_MAX, true);
    this.view.setBigUint64(this.length + 8, value >> 64n, true);
    this.length += 16;
    return this;
  }

  bool(value: boolean): this {
    return this.u8(value ? 1 : 0);
  }

  /** Raw bytes with no length prefix (`[u8; N]`); `length`, when given, is checked. */
  fixedBytes(bytes: Uint8Array, length?: number): this {
    if (!(bytes instanceof Uint8Array)) throw new BorshError('expected a Uint8Array');
    if (length !== undefined && bytes.length !== length) {
      throw new BorshError(`expected ${length} bytes, got ${bytes.length}`);
    }
    this.reserve(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
    return this;
  }

  /** `Vec<u8>`: u32 length, then the bytes. */
  bytes(bytes: Uint8Array): this {
    if (!(bytes instanceof Uint8Array)) throw new BorshError('expected a Uint8Array');
    this.u32(bytes.length);
    return this.fixedBytes(bytes);
  }

  /** `String`: u32 byte length, then UTF-8. */
  string(value: string): this {
    if (typeof value !== 'string') throw new BorshError('expected a string');
    return this.bytes(textEncoder.encode(value));
  }

  option<T>(value: T | null | undefined, write: (w: this, value: T) => void): this {
    if (value === null || value === undefined) return this.u8(0);
    this.u8(1);
    write(this, value);
    return this;
  }

  vec<T>(items: readonly T[], write: (w: this, item: T) => void): this {
    if (!Array.isArray(items)) throw new BorshError('expected an array');
    this.u32(items.length);
    for (const item of items) write(this, item);
    return this;
  }

  /** A copy of the bytes written so far. */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  get size(): number {
    return this.length;
  }
}

function checkInt(value: number, max: number, type: string): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new BorshError(`value ${String(value)} is not a ${type}`);
  }
}

export class BorshReader {
  private readonly buf: Uint8Array;
  private readonly view: DataView;
  private pos = 0;

  constructor(bytes: Uint8Array) {
    if (!(bytes instanceof Uint8Array)) throw new BorshError('input is not a Uint8Array');
    // A plain Uint8Array view, so that copies made with `slice` are plain Uint8Arrays even for a Buffer input.
    this.buf = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number): void {
    if (this.buf.length - this.pos < n) {
      throw new BorshError(
        `unexpected end of input: need ${n} bytes, ${this.buf.length - this.pos} left`,
        this.pos,
      );
    }
  }

  /** The byte `ahead` bytes past the current position, without consuming anything. */
  peekByte(ahead = 0): number {
    this.need(ahead + 1);
    return this.buf[this.pos + ahead];
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  u128(): bigint {
    this.need(16);
    const lo = this.view.getBigUint64(this.pos, true);
    const hi = this.view.getBigUint64(this.pos + 8, true);
    this.pos += 16;
    return (hi << 64n) | lo;
  }

  bool(): boolean {
    const at = this.pos;
    const v = this.u8();
    if (v > 1) throw new BorshError(`invalid bool ${v}`, at);
    return v === 1;
  }

  /** `[u8; N]`, copied out of the input. */
  fixedBytes(length: number): Uint8Array {
    this.need(length);
    const out = this.buf.slice(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  /** `Vec<u8>`. */
  bytes(): Uint8Array {
    return this.fixedBytes(this.u32());
  }

  /** `String`: strict UTF-8. */
  string(): string {
    const length = this.u32();
    this.need(length);
    const at = this.pos;
    let s: string;
    try {
      s = utf8Decoder.decode(this.buf.subarray(at, at + length));
    } catch {
      throw new BorshError('invalid UTF-8 in string', at);
    }
    this.pos += length;
    return s;
  }

  option<T>(read: (r: this) => T): T | null {
    const at = this.pos;
    const tag = this.u8();
    if (tag === 0) return null;
    if (tag === 1) return read(this);
    throw new BorshError(`invalid option tag ${tag}`, at);
  }

  /**
   * `Vec<T>`. A count larger than the bytes left (each element takes at least `minItemSize` bytes) is
   * rejected before anything is allocated.
   */
  vec<T>(read: (r: this) => T, minItemSize = 1): T[] {
    const at = this.pos;
    const count = this.u32();
    if (minItemSize > 0 && count > this.remaining / minItemSize) {
      throw new BorshError(`vector of ${count} items does not fit in the ${this.remaining} bytes left`, at);
    }
    const out: T[] = new Array(count);
    for (let i = 0; i < count; i++) out[i] = read(this);
    return out;
  }

  /** An enum tag that must be below `variants`. */
  enumTag(typeName: string, variants: number): number {
    const at = this.pos;
    const tag = this.u8();
    if (tag >= variants) throw new BorshError(`invalid ${typeName} variant ${tag}`, at);
    return tag;
  }

  /** Throws unless every byte was consumed. */
  finish(): void {
    if (this.pos !== this.buf.length) {
      throw new BorshError(`${this.buf.length - this.pos} trailing bytes`, this.pos);
    }
  }
}

/**
 * Runs `read` over the whole input and rejects trailing bytes. Anything `read` throws that is not already a
 * `BorshError` (a validation error of a field, say) is wrapped into one.
 */
export function decodeBorsh<T>(bytes: Uint8Array, read: (r: BorshReader) => T): T {
  const reader = new BorshReader(bytes);
  let value: T;
  try {
    value = read(reader);
  } catch (err) {
    if (err instanceof BorshError) throw err;
    throw new BorshError(err instanceof Error ? err.message : String(err), reader.offset);
  }
  reader.finish();
  return value;
}

/** Runs `write` on a fresh writer and returns the bytes. */
export function encodeBorsh(write: (w: BorshWriter) => void): Uint8Array {
  const writer = new BorshWriter();
  write(writer);
  return writer.toBytes();
}
