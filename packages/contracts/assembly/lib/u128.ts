// A small unsigned 128-bit integer (yoctoNEAR amounts): two u64 halves, stored little-endian as the host
// functions expect (16 bytes), with comparison, subtraction and decimal conversion.

export class U128 {
  constructor(public lo: u64 = 0, public hi: u64 = 0) {}

  static fromU64(v: u64): U128 {
    return new U128(v, 0);
  }

  /** From 16 little-endian bytes. */
  static fromLE(b: Uint8Array): U128 {
    let lo: u64 = 0;
    let hi: u64 = 0;
    for (let i = 7; i >= 0; i--) {
      lo = (lo << 8) | <u64>b[i];
      hi = (hi << 8) | <u64>b[i + 8];
    }
    return new U128(lo, hi);
  }

  toLE(): Uint8Array {
    const out = new Uint8Array(16);
    for (let i = 0; i < 8; i++) {
      out[i] = <u8>(this.lo >>> (<u64>(8 * i)));
      out[i + 8] = <u8>(this.hi >>> (<u64>(8 * i)));
    }
    return out;
  }

  isZero(): bool {
    return this.lo == 0 && this.hi == 0;
  }

  cmp(o: U128): i32 {
    if (this.hi != o.hi) return this.hi < o.hi ? -1 : 1;
    if (this.lo != o.lo) return this.lo < o.lo ? -1 : 1;
    return 0;
  }

  /** this − o; the caller guarantees this ≥ o. */
  sub(o: U128): U128 {
    const lo = this.lo - o.lo;
    const borrow: u64 = this.lo < o.lo ? 1 : 0;
    return new U128(lo, this.hi - o.hi - borrow);
  }

  toString(): string {
    if (this.hi == 0) return this.lo.toString();
    // Long division by 10 over four 32-bit limbs, most significant first.
    const limbs = new StaticArray<u64>(4);
    limbs[0] = this.hi >>> 32;
    limbs[1] = this.hi & 0xffffffff;
    limbs[2] = this.lo >>> 32;
    limbs[3] = this.lo & 0xffffffff;
    let digits = "";
    while (limbs[0] != 0 || limbs[1] != 0 || limbs[2] != 0 || limbs[3] != 0) {
      let rem: u64 = 0;
      for (let i = 0; i < 4; i++) {
        const cur = (rem << 32) | limbs[i];
        limbs[i] = cur / 10;
        rem = cur % 10;
      }
      digits = String.fromCharCode(<i32>(48 + rem)) + digits;
    }
    return digits;
  }
}
