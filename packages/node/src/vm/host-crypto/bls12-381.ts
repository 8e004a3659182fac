/**
 * The BLS12-381 host functions with nearcore's formats and outcomes (runtime/near-vm-runner/src/logic/
 * bls12381.rs over blst), at protocol 85 where `bls12381_not_in_group_fix` is still off.
 *
 * Encodings (ZCash style, big-endian): Fp is 48 bytes; Fp2 = c0 + c1·u is c1 ‖ c0; an uncompressed point is
 * x ‖ y with the top bits of the first byte as flags (0x80 compressed, 0x40 infinity, 0x20 y-sign).
 * Infinity is 0x40 followed by zeros; compressed infinity is 0xC0 followed by zeros. Scalars are 32 bytes
 * little-endian. Outputs use the same uncompressed encoding.
 *
 * Outcomes: a length that is not a multiple of the item size throws `BLS12381InvalidInput`; any other bad
 * input gives status 1 (nothing written); success is status 0 with the output. The pairing check returns
 * 0 (product is one), 2 (it is not) or 1 (bad input).
 *
 * Pre-fix quirk kept here: the on-curve points (0, ±2) of G1 (and any x = 0 point of the twist) are
 * rejected by decoding and decompression, because blst reports them "not in group" and nearcore treated that
 * as a failure until the fix.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { hostError } from '../vm-errors.js';

const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const { Fp, Fp2, Fp12, Fr } = bls12_381.fields;
type G1Point = InstanceType<typeof G1>;
type G2Point = InstanceType<typeof G2>;
type Fp2El = ReturnType<typeof Fp2.create>;

const P = Fp.ORDER;
const HALF_P = (P - 1n) / 2n;
const B1 = 4n;
const B2 = Fp2.create({ c0: 4n, c1: 4n }); // 4(1 + u)

export type BlsResult = { status: 0n | 1n | 2n; output?: Uint8Array };
const INVALID: BlsResult = { status: 1n };

export const BLS12381_P1_SUM_ITEM_SIZE = 97;
export const BLS12381_P2_SUM_ITEM_SIZE = 193;
export const BLS12381_G1_MULTIEXP_ITEM_SIZE = 128;
export const BLS12381_G2_MULTIEXP_ITEM_SIZE = 224;
export const BLS12381_MAP_FP_TO_G1_ITEM_SIZE = 48;
export const BLS12381_MAP_FP2_TO_G2_ITEM_SIZE = 96;
export const BLS12381_P1_DECOMPRESS_ITEM_SIZE = 48;
export const BLS12381_P2_DECOMPRESS_ITEM_SIZE = 96;
export const BLS12381_PAIRING_ITEM_SIZE = 288;

/**
 * The element count nearcore charges `bls12381_*_element` for: `len / item_size`, rounded down. Unlike
 * alt_bn128, it is charged *before* the length is validated, so a bad length still pays for the whole items.
 */
export function bls12381ElementCount(len: number | bigint, itemSize: number): bigint {
  return BigInt(len) / BigInt(itemSize);
}

function checkInputSize(data: Uint8Array, itemSize: number, fnName: string): void {
  if (data.length % itemSize !== 0) {
    throw hostError.bls12381InvalidInput(
      `Incorrect input length for ${fnName}: ${data.length} is not divisible by ${itemSize}`,
    );
  }
}

function chunks(data: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let off = 0; off < data.length; off += size) out.push(data.subarray(off, off + size));
  return out;
}

function beToBigint(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

function leToBigint(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

function fpToBe(n: bigint): Uint8Array {
  const out = new Uint8Array(48);
  for (let i = 47; i >= 0; i--) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

function allZero(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0) return false;
  return true;
}

/** The first field element of an encoding, with the three flag bits cleared. */
function maskedFp(bytes: Uint8Array): bigint {
  const copy = bytes.slice(0, 48);
  copy[0]! &= 0x1f;
  return beToBigint(copy);
}

/** blst's infinity test for a flagged encoding: exactly the given flag byte and zeros after it. */
function isInfinityEncoding(bytes: Uint8Array, flags: number): boolean {
  return bytes[0] === flags && allZero(bytes.subarray(1));
}

/** y is "lexicographically largest" (the 0x20 flag): y > (p−1)/2, comparing c1 first for Fp2. */
function fpIsLarge(y: bigint): boolean {
  return y > HALF_P;
}
function fp2IsLarge(y: Fp2El): boolean {
  return y.c1 !== 0n ? fpIsLarge(y.c1) : fpIsLarge(y.c0);
}

// ---------------------------------------------------------------------------------------------------------
// Uncompressed decoding (blst_pX_deserialize + nearcore's rules). null ⇒ status 1.

function decodeG1(b: Uint8Array): G1Point | null {
  const flags = b[0]! & 0xe0;
  if (flags & 0x80) return null; // nearcore refuses compressed input here
  if (flags !== 0) return isInfinityEncoding(b, 0x40) ? G1.ZERO : null;
  const x = beToBigint(b.subarray(0, 48));
  const y = beToBigint(b.subarray(48, 96));
  if (x >= P || y >= P) return null;
  if (Fp.sqr(y) !== Fp.add(Fp.mul(Fp.sqr(x), x), B1)) return null;
  if (x === 0n) return null; // (0, ±2): "not in group" before the fix
  return new G1(x, y, Fp.ONE);
}

function decodeFp2Be(bytes: Uint8Array): Fp2El | null {
  const c1 = beToBigint(bytes.subarray(0, 48));
  const c0 = beToBigint(bytes.subarray(48, 96));
  if (c0 >= P || c1 >= P) return null;
  return Fp2.create({ c0, c1 });
}

function g2OnCurve(x: Fp2El, y: Fp2El): boolean {
  return Fp2.eql(Fp2.sqr(y), Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2));
}

function decodeG2(b: Uint8Array): G2Point | null {
  const flags = b[0]! & 0xe0;
  if (flags & 0x80) return null;
  if (flags !== 0) return isInfinityEncoding(b, 0x40) ? G2.ZERO : null;
  const x = decodeFp2Be(b.subarray(0, 96));
  const y = decodeFp2Be(b.subarray(96, 192));
  if (x === null || y === null) return null;
  if (!g2OnCurve(x, y)) return null;
  if (Fp2.is0(x)) return null; // x = 0: "not in group" before the fix
  return new G2(x, y, Fp2.ONE);
}

function encodeG1(p: G1Point): Uint8Array {
  const out = new Uint8Array(96);
  if (p.is0()) {
    out[0] = 0x40;
    return out;
  }
  const { x, y } = p.toAffine();
  out.set(fpToBe(x), 0);
  out.set(fpToBe(y), 48);
  return out;
}

function encodeG2(p: G2Point): Uint8Array {
  const out = new Uint8Array(192);
  if (p.is0()) {
    out[0] = 0x40;
    return out;
  }
  const { x, y } = p.toAffine();
  out.set(fpToBe(x.c1), 0);
  out.set(fpToBe(x.c0), 48);
  out.set(fpToBe(y.c1), 96);
  out.set(fpToBe(y.c0), 144);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Sums and multiexps. Sums accept any curve point (no subgroup check); multiexps require the subgroup.

/** The group operations the sum/multiexp loops need, shared by G1 and G2 points. */
interface GroupPoint<T> {
  add(other: T): T;
  negate(): T;
  multiplyUnsafe(k: bigint): T;
  isTorsionFree(): boolean;
}

function signedSum<Pt extends GroupPoint<Pt>>(
  data: Uint8Array,
  itemSize: number,
  decode: (b: Uint8Array) => Pt | null,
  zero: Pt,
): Pt | null {
  let acc = zero;
  for (const item of chunks(data, itemSize)) {
    const p = decode(item.subarray(1));
    if (p === null) return null;
    const sign = item[0];
    if (sign !== 0 && sign !== 1) return null;
    // The complete addition formulas are safe off the subgroup: neither curve has points of order 2.
    acc = acc.add(sign === 1 ? p.negate() : p);
  }
  return acc;
}

function multiexp<Pt extends GroupPoint<Pt>>(
  data: Uint8Array,
  itemSize: number,
  decode: (b: Uint8Array) => Pt | null,
  zero: Pt,
): Pt | null {
  const pointSize = itemSize - 32;
  let acc = zero;
  for (const item of chunks(data, itemSize)) {
    const p = decode(item.subarray(0, pointSize));
    if (p === null || !p.isTorsionFree()) return null;
    // The scalar is a full 256-bit little-endian number; on the subgroup only its value mod r matters.
    const k = leToBigint(item.subarray(pointSize)) % Fr.ORDER;
    acc = acc.add(p.multiplyUnsafe(k));
  }
  return acc;
}

export function bls12381P1Sum(data: Uint8Array): BlsResult {
  checkInputSize(data, BLS12381_P1_SUM_ITEM_SIZE, 'bls12381_p1_sum');
  const r = signedSum(data, BLS12381_P1_SUM_ITEM_SIZE, decodeG1, G1.ZERO);
  return r === null ? INVALID : { status: 0n, output: encodeG1(r) };
}

export function bls12381P2Sum(data: Uint8Array): BlsResult {
  checkInputSize(data, BLS12381_P2_SUM_ITEM_SIZE, 'bls12381_p2_sum');
  const r = signedSum(data, BLS12381_P2_SUM_ITEM_SIZE, decodeG2, G2.ZERO);
  return r === null ? INVALID : { status: 0n, output: encodeG2(r) };
}

export function bls12381G1Multiexp(data: Uint8Array): BlsResult {
  checkInputSize(data, BLS12381_G1_MULTIEXP_ITEM_SIZE, 'bls12381_p1_multiexp');
  const r = multiexp(data, BLS12381_G1_MULTIEXP_ITEM_SIZE, decodeG1, G1.ZERO);
  return r === null ? INVALID : { status: 0n, output: encodeG1(r) };
}

export function bls12381G2Multiexp(data: Uint8Array): BlsResult {
  checkInputSize(data, BLS12381_G2_MULTIEXP_ITEM_SIZE, 'bls12381_p2_multiexp');
  const r = multiexp(data, BLS12381_G2_MULTIEXP_ITEM_SIZE, decodeG2, G2.ZERO);
  return r === null ? INVALID : { status: 0n, output: encodeG2(r) };
}

// ---------------------------------------------------------------------------------------------------------
// Map to curve (RFC 9380 map_to_curve + clear_cofactor, i.e. EIP-2537's MAP_FP_TO_G1 / MAP_FP2_TO_G2).

type MapFn = (scalars: unknown) => unknown;
const mapToG1 = bls12_381.G1.mapToCurve as unknown as MapFn;
const mapToG2 = bls12_381.G2.mapToCurve as unknown as MapFn;

export function bls12381MapFpToG1(data: Uint8Array): BlsResult {
  checkInputSize(data, BLS12381_MAP_FP_TO_G1_ITEM_SIZE, 'bls12381_map_fp_to_g1');
  const out = new Uint8Array((data.length / 48) * 96);
  let off = 0;
  for (const item of chunks(data, 48)) {
    const u = beToBigint(item);
    if (u >= P) return INVALID; // must be the canonical encoding
    out.set(encodeG1(mapToG1(u) as G1Point), off);
    off += 96;
  }
  return { status: 0n, output: out };
}

export function bls12381MapFp2ToG2(data: Uint8Array): BlsResult {
  checkInputSize(data, BLS12381_MAP_FP2_TO_G2_ITEM_SIZE, 'bls12381_map_fp2_to_g2');
  const out = new Uint8Array((data.length / 96) * 192);
  let off = 0;
  for (const item of chunks(data, 96)) {
    const u = decodeFp2Be(item);
    if (u === null) return INVALID;
    out.set(encodeG2(mapToG2([u.c0, u.c1]) as G2Point), off);
    off += 192;
  }
  return { status: 0n, output: out };
}

// ---------------------------------------------------------------------------------------------------------
// Decompression (blst uncompress: on-curve only, no subgroup check).

function decompressG1(b: Uint8Array): G1Point | null {
  if ((b[0]! & 0x80) === 0) return null;
  if (b[0]! & 0x40) return isInfinityEncoding(b, 0xc0) ? G1.ZERO : null;
  const x = maskedFp(b);
  if (x >= P) return null;
  let y: bigint;
  try {
    y = Fp.sqrt(Fp.add(Fp.mul(Fp.sqr(x), x), B1));
  } catch {
    return null;
  }
  if (fpIsLarge(y) !== ((b[0]! & 0x20) !== 0)) y = Fp.neg(y);
  if (x === 0n) return null; // (0, ±2): "not in group" before the fix
  return new G1(x, y, Fp.ONE);
}

function decompressG2(b: Uint8Array): G2Point | null {
  if ((b[0]! & 0x80) === 0) return null;
  if (b[0]! & 0x40) return isInfinityEncoding(b, 0xc0) ? G2.ZERO : null;
  const c1 = maskedFp(b.subarray(0, 48));
  const c0 = beToBigint(b.subarray(48, 96));
  if (c0 >= P || c1 >= P) return null;
  const x = Fp2.create({ c0, c1 });
  const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2);
  let y: Fp2El;
  try {
    y = Fp2.sqrt(rhs);
  } catch {
    return null;
  }
  if (!Fp2.eql(Fp2.sqr(y), rhs)) return null;
  if (fp2IsLarge(y) !== ((b[0]! & 0x20) !== 0)) y = Fp2.neg(y);
  if (Fp2.is0(x)) return null;
  return new G2(x, y, Fp2.ONE);
}

export function bls12381P1Decompress(data: Uint8Array): BlsResult {
  checkInputSize(data, BLS12381_P1_DECOMPRESS_ITEM_SIZE, 'bls12381_p1_decompress');
  const out = new Uint8Array((data.length / 48) * 96);
  let off = 0;
  for (const item of chunks(data, 48)) {
    const p = decompressG1(item);
    if (p === null) return INVALID;
    out.set(encodeG1(p), off);
    off += 96;
  }
  return { status: 0n, output: out };
}

export function bls12381P2Decompress(data: Uint8Array): BlsResult {
  checkInputSize(data, BLS12381_P2_DECOMPRESS_ITEM_SIZE, 'bls12381_p2_decompress');
  const out = new Uint8Array((data.length / 96) * 192);
  let off = 0;
  for (const item of chunks(data, 96)) {
    const p = decompressG2(item);
    if (p === null) return INVALID;
    out.set(encodeG2(p), off);
    off += 192;
  }
  return { status: 0n, output: out };
}

// ---------------------------------------------------------------------------------------------------------
// Pairing check.

/** 0n when Π e(g1_i, g2_i) = 1, 2n when not, 1n on bad input. Pairs with an infinity point contribute 1. */
export function bls12381PairingCheck(data: Uint8Array): BlsResult {
  checkInputSize(data, BLS12381_PAIRING_ITEM_SIZE, 'bls12381_pairing_check');
  const pairs: { g1: G1Point; g2: G2Point }[] = [];
  for (const item of chunks(data, BLS12381_PAIRING_ITEM_SIZE)) {
    const g1 = decodeG1(item.subarray(0, 96));
    if (g1 === null || !g1.isTorsionFree()) return INVALID;
    const g2 = decodeG2(item.subarray(96, 288));
    if (g2 === null || !g2.isTorsionFree()) return INVALID;
    if (!g1.is0() && !g2.is0()) pairs.push({ g1, g2 });
  }
  const one = Fp12.eql(bls12_381.pairingBatch(pairs), Fp12.ONE);
  return { status: one ? 0n : 2n };
}
