/**
 * LEB128 reading and writing for the Wasm binary format. Every malformed read throws
 * `PrepareError('Deserialization')`, which is what nearcore reports for anything wasmparser cannot decode.
 */
import { PrepareError } from '../vm-errors.js';

export function malformed(detail: string): never {
  throw new PrepareError('Deserialization', detail);
}

export class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public pos = 0,
    readonly end = bytes.length,
  ) {}

  get eof(): boolean {
    return this.pos >= this.end;
  }

  byte(): number {
    if (this.pos >= this.end) malformed(`unexpected end at ${this.pos}`);
    return this.bytes[this.pos++];
  }

  /** Unsigned LEB128 of at most 32 bits (at most 5 bytes, unused high bits zero). */
  u32(): number {
    let result = 0;
    let shift = 0;
    for (let i = 0; ; i++) {
      const b = this.byte();
      if (i === 4 && b & 0x70) malformed('u32 out of range');
      result += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return result;
      shift += 7;
      if (i === 4) malformed('u32 too long');
    }
  }

  /** Signed LEB128 of `bits` (32, 33 or 64), returned as a bigint; checks length and sign-extension bits. */
  signed(bits: number): bigint {
    let result = 0n;
    let shift = 0n;
    const maxBytes = Math.ceil(bits / 7);
    for (let i = 0; i < maxBytes; i++) {
      const b = this.byte();
      result |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if (!(b & 0x80)) {
        if (i === maxBytes - 1) {
          // The unused bits of the last byte must all equal the sign bit.
          const used = bits - 7 * i;
          const rest = b >> (used - 1);
          if (rest !== 0 && rest !== 0x7f >> (used - 1)) malformed('signed LEB out of range');
        }
        return b & 0x40 ? result - (1n << shift) : result;
      }
    }
    return malformed('signed LEB too long');
  }

  bytesView(n: number): Uint8Array {
    if (n > this.end - this.pos) malformed('length out of bounds');
    const view = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return view;
  }

  name(): string {
    const raw = this.bytesView(this.u32());
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      return malformed('invalid UTF-8 name');
    }
  }
}

/** A growable byte buffer with the encoders the emitter needs. */
export class Writer {
  private buf = new Uint8Array(1024);
  length = 0;

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): this {
    this.ensure(1);
    this.buf[this.length++] = b;
    return this;
  }

  bytes(data: Uint8Array | readonly number[]): this {
    this.ensure(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
    return this;
  }

  u32(value: number): this {
    let v = value >>> 0;
    do {
      let b = v & 0x7f;
      v >>>= 7;
      if (v !== 0) b |= 0x80;
      this.byte(b);
    } while (v !== 0);
    return this;
  }

  /** Signed LEB128 of any bigint (used for i32.const / i64.const immediates). */
  sleb(value: bigint): this {
    let v = value;
    for (;;) {
      const b = Number(v & 0x7fn);
      v >>= 7n;
      const done = (v === 0n && !(b & 0x40)) || (v === -1n && b & 0x40);
      this.byte(done ? b : b | 0x80);
      if (done) return this;
    }
  }

  name(s: string): this {
    const raw = new TextEncoder().encode(s);
    return this.u32(raw.length).bytes(raw);
  }

  /** A section: id, byte length, contents. */
  section(id: number, body: Writer): this {
    return this.byte(id).u32(body.length).bytes(body.finish());
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}
