// secp256k1 helpers for the signer contract, without point arithmetic: the child key root + G·t is obtained
// from the `ecrecover` host function. ecrecover(h, (r, s), v) returns Q = r⁻¹·(s·R − h·G), R being the point
// with x = r and y parity v. Taking R = K (the root key), r = s = x(K) and h = −t·r mod n gives
// Q = r⁻¹·(r·K + t·r·G) = K + t·G. Pure AssemblyScript: no host functions.
//
// 256-bit numbers are 8 limbs of 32 bits (held in u64 for the carries), least significant first. The hot
// loops use load/store rather than element accessors, which become calls in size-optimised (-O3z) builds.

type U256 = StaticArray<u64>;

/** The group order n. */
const N: StaticArray<u64> = [
  0xd0364141, 0xbfd25e8c, 0xaf48a03b, 0xbaaedce6, 0xfffffffe, 0xffffffff, 0xffffffff, 0xffffffff,
];
/** floor(n / 2): the largest low-S value. */
const HALF_N: StaticArray<u64> = [
  0x681b20a0, 0xdfe92f46, 0x57a4501d, 0x5d576e73, 0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff,
];
/** The field prime p = 2^256 − 2^32 − 977. */
const P: StaticArray<u64> = [
  0xfffffc2f, 0xfffffffe, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
];

function u256(): U256 {
  return new StaticArray<u64>(8);
}

/** Reads 32 big-endian bytes of `b` from `off`. */
function fromBE(b: Uint8Array, off: i32): U256 {
  const r = u256();
  for (let i = 0; i < 8; i++) {
    const o = off + 28 - 4 * i;
    unchecked(
      (r[i] = ((<u64>b[o]) << 24) | ((<u64>b[o + 1]) << 16) | ((<u64>b[o + 2]) << 8) | <u64>b[o + 3]),
    );
  }
  return r;
}

/** Writes a as 32 big-endian bytes into `out` at `off`. */
function toBE(out: Uint8Array, off: i32, a: U256): void {
  for (let i = 0; i < 8; i++) {
    const o = off + 28 - 4 * i;
    const v = unchecked(a[i]);
    out[o] = <u8>(v >> 24);
    out[o + 1] = <u8>(v >> 16);
    out[o + 2] = <u8>(v >> 8);
    out[o + 3] = <u8>v;
  }
}

/** −1, 0 or 1 as a <, = or > b. */
function cmp(a: U256, b: U256): i32 {
  const ap = changetype<usize>(a);
  const bp = changetype<usize>(b);
  for (let o: isize = 56; o >= 0; o -= 8) {
    const x = load<u64>(ap + <usize>o);
    const y = load<u64>(bp + <usize>o);
    if (x !== y) return x > y ? 1 : -1;
  }
  return 0;
}

function isZero(a: U256): bool {
  let acc: u64 = 0;
  for (let i = 0; i < 8; i++) acc |= unchecked(a[i]);
  return acc === 0;
}

/** r = a − b, assuming a ≥ b (or wrapping mod 2^256). r may alias a or b. */
function subInPlace(r: U256, a: U256, b: U256): void {
  const rp = changetype<usize>(r);
  const ap = changetype<usize>(a);
  const bp = changetype<usize>(b);
  let borrow: u64 = 0;
  for (let o: usize = 0; o < 64; o += 8) {
    const d = load<u64>(ap + o) - load<u64>(bp + o) - borrow;
    borrow = (d >> 63) & 1;
    store<u64>(rp + o, d & 0xffffffff);
  }
}

/** r = (a + b) mod m, for a, b < m. r may alias a or b. */
function addMod(r: U256, a: U256, b: U256, m: U256): void {
  const rp = changetype<usize>(r);
  const ap = changetype<usize>(a);
  const bp = changetype<usize>(b);
  let carry: u64 = 0;
  for (let o: usize = 0; o < 64; o += 8) {
    const s = load<u64>(ap + o) + load<u64>(bp + o) + carry;
    carry = s >> 32;
    store<u64>(rp + o, s & 0xffffffff);
  }
  if (carry !== 0 || cmp(r, m) >= 0) subInPlace(r, r, m);
}

/** (a · b) mod m for a, b < m, by double-and-add over the bits of a. */
function mulMod(a: U256, b: U256, m: U256): U256 {
  const r = u256();
  for (let i = 255; i >= 0; i--) {
    addMod(r, r, r, m);
    if (((unchecked(a[i >> 5]) >> <u64>(i & 31)) & 1) !== 0) addMod(r, r, b, m);
  }
  return r;
}

/** (−a) mod m for a < m. */
function negMod(a: U256, m: U256): U256 {
  const r = u256();
  if (!isZero(a)) subInPlace(r, m, a);
  return r;
}

/** Whether the 32-byte big-endian number is below the curve order n (a valid ECDSA payload or tweak). */
export function lessThanN(x: Uint8Array): bool {
  if (x.length !== 32) return false;
  return cmp(fromBE(x, 0), N) < 0;
}

/** Whether the 32-byte big-endian s is at most n/2 (low-S). */
export function isLowS(s: Uint8Array): bool {
  if (s.length !== 32) return false;
  return cmp(fromBE(s, 0), HALF_N) <= 0;
}

/** Whether 64 bytes x‖y (big-endian) are the affine coordinates of a point: x, y < p and y² = x³ + 7. */
export function secp256k1IsOnCurve(xy: Uint8Array): bool {
  if (xy.length !== 64) return false;
  const x = fromBE(xy, 0);
  const y = fromBE(xy, 32);
  if (cmp(x, P) >= 0 || cmp(y, P) >= 0) return false;
  const rhs = mulMod(mulMod(x, x, P), x, P);
  const seven = u256();
  unchecked((seven[0] = 7));
  addMod(rhs, rhs, seven, P);
  return cmp(mulMod(y, y, P), rhs) === 0;
}

/**
 * The ecrecover input whose result is the child key K + G·t, K being the root key (64 bytes x‖y,
 * big-endian) and t the tweak (32 bytes, big-endian). Returns 97 bytes: hash (32) ‖ r (32) ‖ s (32) ‖ v (1),
 * with r = s = x(K) and v = parity of y(K); pass them to `ecrecover` with malleability_flag = 0 (s may be
 * high). Returns an empty array when an input has the wrong length, x(K) is 0 or ≥ n, or t ≥ n.
 * The caller should have checked once that K is on the curve (`secp256k1IsOnCurve`).
 */
export function secp256k1DeriveRecoverInput(rootXY: Uint8Array, tweak: Uint8Array): Uint8Array {
  if (rootXY.length !== 64 || tweak.length !== 32) return new Uint8Array(0);
  const r = fromBE(rootXY, 0);
  const t = fromBE(tweak, 0);
  if (isZero(r) || cmp(r, N) >= 0 || cmp(t, N) >= 0) return new Uint8Array(0);
  const h = negMod(mulMod(t, r, N), N);
  const out = new Uint8Array(97);
  toBE(out, 0, h);
  toBE(out, 32, r);
  toBE(out, 64, r);
  out[96] = rootXY[63] & 1;
  return out;
}
