/**
 * Signatures in the shape NEAR's signer returns them (near/mpc `crates/near-mpc-crypto-types`):
 *
 * - ECDSA: `{scheme:"Secp256k1", big_r:{affine_point}, s:{scalar}, recovery_id}`. As the real MPC does,
 *   `affine_point` is the nonce point R compressed (02/03 by R's own y parity), s is normalised to low-S
 *   without negating R, and `recovery_id` is the one that recovers the key from the low-S signature (what the
 *   node's brute force finds). So the prefix and `recovery_id & 1` differ whenever s was flipped; readers
 *   must use `recovery_id`. Hex is lowercase (contract ≥ 3.6.0).
 * - EdDSA: `{scheme:"Ed25519", signature:[64 numbers R‖S]}`, made from a scalar (not a seed) by "expanded
 *   key" signing: r = H(prefix‖M) mod ℓ, R = rB, k = H(R‖A‖M) mod ℓ, S = r + k·a, with H = SHA-512 and a
 *   nonce prefix derived deterministically from the scalar. It verifies as plain Ed25519.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha512 } from '@noble/hashes/sha2.js';
import {
  bigIntToBytesBE,
  bigIntToBytesLE,
  bytesToBigIntBE,
  bytesToBigIntLE,
  bytesToHex,
  DerivationError,
  ED25519_ORDER,
  ed25519ScalarValue,
  hexToBytes,
  SECP256K1_ORDER,
} from './derivation.js';

export interface EcdsaSignatureResponse {
  scheme: 'Secp256k1';
  big_r: { affine_point: string };
  s: { scalar: string };
  recovery_id: number;
}

export interface EddsaSignatureResponse {
  scheme: 'Ed25519';
  signature: number[];
}

export type SignatureResponse = EcdsaSignatureResponse | EddsaSignatureResponse;

const HALF_ORDER = SECP256K1_ORDER >> 1n;

/**
 * Signs a 32-byte payload (a prehash, used as is) with a 32-byte secp256k1 secret (RFC 6979 nonce).
 */
export function signEcdsa(childSecret: Uint8Array, payload32: Uint8Array): EcdsaSignatureResponse {
  if (!(payload32 instanceof Uint8Array) || payload32.length !== 32) {
    throw new DerivationError('an ECDSA payload is 32 bytes');
  }
  if (!(childSecret instanceof Uint8Array) || childSecret.length !== 32) {
    throw new DerivationError('a secp256k1 secret key is 32 bytes');
  }
  // The raw signature: s as computed, the recovery byte describing R = kG itself (bit 0: y odd,
  // bit 1: R.x ≥ n).
  const raw = secp256k1.Signature.fromBytes(
    secp256k1.sign(payload32, childSecret, { prehash: false, lowS: false, format: 'recovered' }),
    'recovered',
  );
  const rawRecovery = raw.recovery ?? 0;
  if (rawRecovery & 2) {
    // R.x ≥ n (probability ~2⁻¹²⁸): affine_point would not carry r. Refuse rather than answer wrongly.
    throw new DerivationError('ECDSA nonce point with x ≥ n');
  }
  const rIsOdd = (rawRecovery & 1) === 1;
  let s = raw.s;
  let recoveryId = rawRecovery;
  if (s > HALF_ORDER) {
    // (r, n − s) is the signature of nonce −k, whose point −R has the other y parity.
    s = SECP256K1_ORDER - s;
    recoveryId ^= 1;
  }
  return {
    scheme: 'Secp256k1',
    big_r: { affine_point: (rIsOdd ? '03' : '02') + bytesToHex(bigIntToBytesBE(raw.r)) },
    s: { scalar: bytesToHex(bigIntToBytesBE(s)) },
    recovery_id: recoveryId,
  };
}

/** r‖s (64 bytes) and the recovery id of an ECDSA response (hex of either case). */
export function ecdsaResponseParts(response: EcdsaSignatureResponse): {
  r: Uint8Array;
  s: Uint8Array;
  recoveryId: number;
} {
  const point = hexToBytes(response.big_r.affine_point, 33);
  return { r: point.subarray(1), s: hexToBytes(response.s.scalar, 32), recoveryId: response.recovery_id };
}

/**
 * The 64-byte x‖y key an ECDSA response recovers to for `payload32` (as `ecrecover` with the recovery id),
 * or null. With `requireLowS` (the default, as the contract's malleability flag) a high s is refused.
 */
export function recoverEcdsaPublicKey(
  response: EcdsaSignatureResponse,
  payload32: Uint8Array,
  requireLowS = true,
): Uint8Array | null {
  try {
    const { r, s, recoveryId } = ecdsaResponseParts(response);
    const sig = new secp256k1.Signature(bytesToBigIntBE(r), bytesToBigIntBE(s), recoveryId);
    if (requireLowS && sig.hasHighS()) return null;
    return sig.recoverPublicKey(payload32).toBytes(false).subarray(1);
  } catch {
    return null;
  }
}

const NONCE_PREFIX_DOMAIN = new TextEncoder().encode('shadebox mpc ed25519 nonce prefix');

/**
 * Signs `message` (any length) with an ed25519 scalar `a` (32 bytes little-endian, or a bigint < ℓ). The
 * nonce prefix is SHA-512(domain ‖ a)[32..64], so signatures are deterministic.
 */
export function signEddsa(childScalar: Uint8Array | bigint, message: Uint8Array): EddsaSignatureResponse {
  if (!(message instanceof Uint8Array)) throw new DerivationError('an EdDSA message is bytes');
  const a = ed25519ScalarValue(childScalar);
  if (a === 0n) throw new DerivationError('ed25519 scalar is zero');
  const aBytes = bigIntToBytesLE(a);
  const A = ed25519.Point.BASE.multiply(a).toBytes();
  const prefix = sha512(concat(NONCE_PREFIX_DOMAIN, aBytes)).subarray(32);
  let r = bytesToBigIntLE(sha512(concat(prefix, message))) % ED25519_ORDER;
  if (r === 0n) r = 1n; // unreachable in practice; keeps R a valid non-identity multiple
  const R = ed25519.Point.BASE.multiply(r).toBytes();
  const k = bytesToBigIntLE(sha512(concat(R, A, message))) % ED25519_ORDER;
  const S = (r + k * a) % ED25519_ORDER;
  return { scheme: 'Ed25519', signature: Array.from(concat(R, bigIntToBytesLE(S))) };
}

/** Whether an Ed25519 response verifies for `message` under the 32-byte public key (RFC 8032, as nearcore). */
export function verifyEddsaResponse(
  response: EddsaSignatureResponse,
  message: Uint8Array,
  publicKey32: Uint8Array,
): boolean {
  try {
    if (!Array.isArray(response.signature) || response.signature.length !== 64) return false;
    return ed25519.verify(Uint8Array.from(response.signature), message, publicKey32);
  } catch {
    return false;
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
