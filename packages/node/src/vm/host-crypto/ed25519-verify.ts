/**
 * `ed25519_verify` with the semantics of nearcore's ed25519-dalek 2 call: `VerifyingKey::from_bytes` then the
 * non-strict `verify`. That means:
 * - the key is decompressed like curve25519-dalek 4 does it: y is taken modulo p (non-canonical encodings
 *   pass), a "negative zero" x is accepted, small-order and mixed-order keys are accepted;
 * - S must be canonical (< ℓ);
 * - the equation is cofactorless: compress(S·B − k·A) must equal the signature's R bytes exactly, where
 *   k = SHA-512(R ‖ key bytes as given ‖ message) mod ℓ.
 * noble's own `verify` is cofactored (ZIP-215) or strict, so neither matches; the check is spelled out here.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { hostError } from '../vm-errors.js';

const Point = ed25519.Point;
const Fp = Point.Fp;
const { p: P, n: L, d: D } = Point.CURVE();

function leToBigint(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** curve25519-dalek 4's `CompressedEdwardsY::decompress`, or null where it returns `None`. */
function decompressDalek(bytes: Uint8Array): InstanceType<typeof Point> | null {
  const yRaw = leToBigint(bytes) & ((1n << 255n) - 1n);
  const y = Fp.create(yRaw % P);
  const yy = Fp.sqr(y);
  const u = Fp.sub(yy, Fp.ONE); // y² − 1
  const v = Fp.add(Fp.mul(yy, D), Fp.ONE); // d·y² + 1, never zero on this curve
  const xx = Fp.div(u, v);
  let x: bigint;
  try {
    x = Fp.sqrt(xx);
  } catch {
    return null;
  }
  if (Fp.sqr(x) !== xx) return null;
  // dalek takes the non-negative (even) root, then negates it when the sign bit is set (0 stays 0).
  if ((x & 1n) === 1n) x = Fp.neg(x);
  if ((bytes[31]! & 0x80) !== 0) x = Fp.neg(x);
  return new Point(x, y, Fp.ONE, Fp.mul(x, y));
}

/**
 * Whether `sig` is a valid signature of `msg` under `pubKey`. Wrong lengths throw
 * `Ed25519VerifyInvalidInput` ("invalid signature length" / "invalid public key length"); nearcore checks
 * the signature length before the key length.
 */
export function ed25519Verify(sig: Uint8Array, msg: Uint8Array, pubKey: Uint8Array): boolean {
  if (sig.length !== 64) throw hostError.ed25519VerifyInvalidInput('invalid signature length');
  // Kept by nearcore from ed25519-dalek 1's parser so costs stay the same: any of the top 3 bits → false.
  if ((sig[63]! & 0b1110_0000) !== 0) return false;
  if (pubKey.length !== 32) throw hostError.ed25519VerifyInvalidInput('invalid public key length');
  const A = decompressDalek(pubKey);
  if (A === null) return false;
  const s = leToBigint(sig.subarray(32, 64));
  if (s >= L) return false;
  const R = sig.subarray(0, 32);
  const k = leToBigint(sha512(new Uint8Array([...R, ...pubKey, ...msg]))) % L;
  const expected = Point.BASE.multiplyUnsafe(s).add(A.negate().multiplyUnsafe(k));
  return bytesEqual(expected.toBytes(), R);
}
