/**
 * The alt_bn128 (BN254) host functions with nearcore's byte formats (runtime/near-vm-runner/src/logic/
 * alt_bn128.rs). Everything is little-endian:
 * - Fq / Fr: 32 bytes LE, must be below the modulus ("invalid fq" / "invalid fr");
 * - G1: x ‖ y (64 bytes); (0, 0) is the point at infinity, otherwise it must be on y² = x³ + 3 ("invalid g1");
 * - G2: x ‖ y, each Fq2 as real ‖ imaginary (128 bytes); (0, 0) is infinity, otherwise on the twist and in
 *   the order-r subgroup ("invalid g2");
 * - multiexp items: G1 ‖ Fr (96 bytes); sum items: sign byte (0 = add, 1 = subtract) ‖ G1 (65 bytes);
 *   pairing items: G1 ‖ G2 (192 bytes).
 * Every failure is `AltBn128InvalidInput` with nearcore's message: `"<what>: <bytes as Rust {:X?}>"`.
 * All items are decoded before any arithmetic, so the first bad item (in order) names the error.
 */
import { bn254 } from '@noble/curves/bn254.js';
import { hostError } from '../vm-errors.js';

const G1 = bn254.G1.Point;
const G2 = bn254.G2.Point;
const { Fp, Fp2, Fp12, Fr } = bn254.fields;
type G1Point = InstanceType<typeof G1>;
type G2Point = InstanceType<typeof G2>;

export const ALT_BN128_G1_MULTIEXP_ITEM_SIZE = 96;
export const ALT_BN128_G1_SUM_ITEM_SIZE = 65;
export const ALT_BN128_PAIRING_CHECK_ITEM_SIZE = 192;

/** Rust's `{:X?}` of a byte array: `[0, 1A, FF]`. */
function rustHexDebug(bytes: Uint8Array): string {
  return `[${Array.from(bytes, (b) => b.toString(16).toUpperCase()).join(', ')}]`;
}

function invalid(what: string, raw: Uint8Array): Error {
  return hostError.altBn128InvalidInput(`${what}: ${rustHexDebug(raw)}`);
}

/**
 * The number of items in `data` for gas (`alt_bn128_*_element`), or `AltBn128InvalidInput` when the length
 * is not a multiple of the item size. nearcore splits (and may fail) before charging per element, so the
 * caller calls this first, charges, then runs the operation.
 */
export function altBn128ElementCount(data: Uint8Array, itemSize: number): bigint {
  if (data.length % itemSize !== 0) {
    throw hostError.altBn128InvalidInput(
      `slice of size ${data.length} cannot be precisely split into chunks of size ${itemSize}`,
    );
  }
  return BigInt(data.length / itemSize);
}

export const altBn128G1MultiexpElements = (data: Uint8Array) =>
  altBn128ElementCount(data, ALT_BN128_G1_MULTIEXP_ITEM_SIZE);
export const altBn128G1SumElements = (data: Uint8Array) =>
  altBn128ElementCount(data, ALT_BN128_G1_SUM_ITEM_SIZE);
export const altBn128PairingCheckElements = (data: Uint8Array) =>
  altBn128ElementCount(data, ALT_BN128_PAIRING_CHECK_ITEM_SIZE);

function leToBigint(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

function bigintToLe32(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

function decodeFq(raw: Uint8Array): bigint {
  const v = leToBigint(raw);
  if (v >= Fp.ORDER) throw invalid('invalid fq', raw);
  return v;
}

function decodeFr(raw: Uint8Array): bigint {
  const v = leToBigint(raw);
  if (v >= Fr.ORDER) throw invalid('invalid fr', raw);
  return v;
}

function decodeBool(raw: Uint8Array): boolean {
  if (raw[0] === 0) return false;
  if (raw[0] === 1) return true;
  throw invalid('invalid bool', raw);
}

function decodeG1(raw: Uint8Array): G1Point {
  const x = decodeFq(raw.subarray(0, 32));
  const y = decodeFq(raw.subarray(32, 64));
  if (x === 0n && y === 0n) return G1.ZERO;
  // y² = x³ + 3; the cofactor is 1, so being on the curve is enough.
  if (Fp.sqr(y) !== Fp.add(Fp.mul(Fp.sqr(x), x), 3n)) throw invalid('invalid g1', raw);
  return new G1(x, y, Fp.ONE);
}

function decodeFq2(raw: Uint8Array) {
  const re = decodeFq(raw.subarray(0, 32));
  const im = decodeFq(raw.subarray(32, 64));
  return Fp2.create({ c0: re, c1: im });
}

function decodeG2(raw: Uint8Array): G2Point {
  const x = decodeFq2(raw.subarray(0, 64));
  const y = decodeFq2(raw.subarray(64, 128));
  if (Fp2.is0(x) && Fp2.is0(y)) return G2.ZERO;
  const p = new G2(x, y, Fp2.ONE);
  try {
    p.assertValidity(); // on the twist
  } catch {
    throw invalid('invalid g2', raw);
  }
  // The twist has a large cofactor: points outside the order-r subgroup are rejected too.
  if (!p.isTorsionFree()) throw invalid('invalid g2', raw);
  return p;
}

function encodeG1(p: G1Point): Uint8Array {
  const out = new Uint8Array(64);
  if (p.is0()) return out;
  const { x, y } = p.toAffine();
  out.set(bigintToLe32(x), 0);
  out.set(bigintToLe32(y), 32);
  return out;
}

function chunks(data: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let off = 0; off < data.length; off += size) out.push(data.subarray(off, off + size));
  return out;
}

/** Σ fr_i · g1_i over (G1 ‖ Fr) items; returns the 64-byte G1 encoding. */
export function altBn128G1Multiexp(input: Uint8Array): Uint8Array {
  altBn128G1MultiexpElements(input);
  const items = chunks(input, ALT_BN128_G1_MULTIEXP_ITEM_SIZE).map(
    (c) => [decodeG1(c.subarray(0, 64)), decodeFr(c.subarray(64, 96))] as const,
  );
  let acc = G1.ZERO;
  for (const [p, k] of items) acc = acc.add(p.multiplyUnsafe(k));
  return encodeG1(acc);
}

/** Σ (−1)^sign_i · g1_i over (sign ‖ G1) items; returns the 64-byte G1 encoding. */
export function altBn128G1Sum(input: Uint8Array): Uint8Array {
  altBn128G1SumElements(input);
  const items = chunks(input, ALT_BN128_G1_SUM_ITEM_SIZE).map(
    (c) => [decodeBool(c.subarray(0, 1)), decodeG1(c.subarray(1, 65))] as const,
  );
  let acc = G1.ZERO;
  for (const [negative, p] of items) acc = negative ? acc.subtract(p) : acc.add(p);
  return encodeG1(acc);
}

/** Whether Π e(g1_i, g2_i) = 1 over (G1 ‖ G2) items. Pairs with an infinity point contribute 1. */
export function altBn128PairingCheck(input: Uint8Array): boolean {
  altBn128PairingCheckElements(input);
  const items = chunks(input, ALT_BN128_PAIRING_CHECK_ITEM_SIZE).map((c) => ({
    g1: decodeG1(c.subarray(0, 64)),
    g2: decodeG2(c.subarray(64, 192)),
  }));
  const pairs = items.filter(({ g1, g2 }) => !g1.is0() && !g2.is0());
  return Fp12.eql(bn254.pairingBatch(pairs), Fp12.ONE);
}
