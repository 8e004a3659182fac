/**
 * NEAR chain-signature key derivation (near/mpc `crates/near-mpc-crypto-types/src/kdf.rs` and
 * `crates/contract/src/crypto_shared/kdf.rs`):
 *
 * - tweak = sha3_256("near-mpc-recovery v0.1.0 epsilon derivation:" + predecessor + "," + path)
 * - secp256k1: derived = root + G·t, t = the tweak read big-endian (t ≥ n is an error, as k256's
 *   `Scalar::from_repr`); the secret side is (root_sk + t) mod n.
 * - ed25519: derived = root + B·t, t = the tweak read little-endian and reduced mod ℓ; the secret side is the
 *   scalar (root_scalar + t) mod ℓ (a scalar, not an RFC 8032 seed).
 *
 * Key strings are NEAR's "NAJ" form: `secp256k1:<base58 of 64-byte x‖y>` and `ed25519:<base58 of 32 bytes>`.
 * Secret scalars are 32 bytes: big-endian for secp256k1 (as SEC1), little-endian for ed25519 (as dalek).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { base58 } from '@scure/base';
import { ShadeboxError } from '@shadebox/errors';

export const TWEAK_DERIVATION_PREFIX = 'near-mpc-recovery v0.1.0 epsilon derivation:';

/** Domain ids of NEAR's signer: 0 = Secp256k1 (ECDSA), 1 = Ed25519 (EdDSA). */
export const DOMAIN_SECP256K1 = 0;
export const DOMAIN_ED25519 = 1;

/** The order n of secp256k1's group. */
export const SECP256K1_ORDER: bigint = secp256k1.Point.Fn.ORDER;
/** The order ℓ of ed25519's prime-order subgroup. */
export const ED25519_ORDER: bigint = ed25519.Point.Fn.ORDER;

/** A key, tweak, scalar or encoding that NEAR's derivation does not accept. */
export class DerivationError extends ShadeboxError {}

const encoder = new TextEncoder();

/** sha3_256 of the prefix, the predecessor, "," and the path (an empty path keeps the comma). */
export function deriveTweak(predecessorId: string, path: string): Uint8Array {
  return sha3_256(encoder.encode(`${TWEAK_DERIVATION_PREFIX}${predecessorId},${path}`));
}

// ---------------------------------------------------------------------------------------------------------
// bytes, hex and numbers

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Parses hex (either case, an optional 0x); `length` checks the byte length. */
export function hexToBytes(hex: string, length?: number): Uint8Array {
  if (typeof hex !== 'string') throw new DerivationError('expected a hex string');
  const text = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) throw new DerivationError('invalid hex');
  const bytes = new Uint8Array(Buffer.from(text, 'hex'));
  if (length !== undefined && bytes.length !== length) {
    throw new DerivationError(`expected ${length} bytes of hex, got ${bytes.length}`);
  }
  return bytes;
}

export function bytesToBigIntBE(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytesToHex(bytes)}`);
}

export function bytesToBigIntLE(bytes: Uint8Array): bigint {
  return bytesToBigIntBE(Uint8Array.from(bytes).reverse());
}

export function bigIntToBytesBE(value: bigint, length = 32): Uint8Array {
  if (value < 0n || value >= 1n << BigInt(8 * length)) throw new DerivationError('number out of range');
  return hexToBytes(value.toString(16).padStart(2 * length, '0'));
}

export function bigIntToBytesLE(value: bigint, length = 32): Uint8Array {
  return bigIntToBytesBE(value, length).reverse();
}

function tweakBytes(tweak: Uint8Array | string): Uint8Array {
  const bytes = typeof tweak === 'string' ? hexToBytes(tweak, 32) : tweak;
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw new DerivationError('a tweak is 32 bytes');
  return bytes;
}

/** The secp256k1 tweak scalar: big-endian; ≥ n is refused (k256 `Scalar::from_repr`). */
export function secp256k1TweakScalar(tweak: Uint8Array | string): bigint {
  const t = bytesToBigIntBE(tweakBytes(tweak));
  if (t >= SECP256K1_ORDER) throw new DerivationError('tweak is not a valid secp256k1 scalar (≥ n)');
  return t;
}

/** The ed25519 tweak scalar: little-endian, reduced mod ℓ (dalek `Scalar::from_bytes_mod_order`). */
export function ed25519TweakScalar(tweak: Uint8Array | string): bigint {
  return bytesToBigIntLE(tweakBytes(tweak)) % ED25519_ORDER;
}

// ---------------------------------------------------------------------------------------------------------
// NAJ key strings

/** `secp256k1:<base58 of x‖y>` of a 64-byte x‖y, a 65-byte 0x04 key or a 33-byte compressed key. */
export function secp256k1PublicKeyToNaj(publicKey: Uint8Array): string {
  return `secp256k1:${base58.encode(secp256k1PublicKeyBytes(publicKey))}`;
}

/** `ed25519:<base58 of the 32-byte point>`. */
export function ed25519PublicKeyToNaj(publicKey: Uint8Array): string {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) {
    throw new DerivationError('an ed25519 public key is 32 bytes');
  }
  return `ed25519:${base58.encode(publicKey)}`;
}

/** The 64 bytes x‖y of a `secp256k1:` NAJ string; the point must be on the curve. */
export function najToSecp256k1PublicKey(naj: string): Uint8Array {
  return secp256k1PublicKeyBytes(najData(naj, 'secp256k1', 64));
}

/** The 32 bytes of an `ed25519:` NAJ string; the point must decode. */
export function najToEd25519PublicKey(naj: string): Uint8Array {
  const data = najData(naj, 'ed25519', 32);
  ed25519Point(data);
  return data;
}

/** The curve and raw bytes of a NAJ public key string. */
export function parseNajPublicKey(naj: string): { curve: 'secp256k1' | 'ed25519'; data: Uint8Array } {
  if (typeof naj === 'string' && naj.startsWith('secp256k1:')) {
    return { curve: 'secp256k1', data: najToSecp256k1PublicKey(naj) };
  }
  if (typeof naj === 'string' && naj.startsWith('ed25519:')) {
    return { curve: 'ed25519', data: najToEd25519PublicKey(naj) };
  }
  throw new DerivationError('expected a "secp256k1:" or "ed25519:" public key');
}

function najData(naj: string, prefix: string, length: number): Uint8Array {
  if (typeof naj !== 'string' || !naj.startsWith(`${prefix}:`)) {
    throw new DerivationError(`expected a "${prefix}:" public key`);
  }
  let data: Uint8Array;
  try {
    data = base58.decode(naj.slice(prefix.length + 1));
  } catch {
    throw new DerivationError(`${prefix} public key is not base58`);
  }
  if (data.length !== length) throw new DerivationError(`a ${prefix} public key is ${length} bytes`);
  return data;
}

function secp256k1Point(publicKey: Uint8Array | string) {
  if (typeof publicKey === 'string') return secp256k1Point(najData(publicKey, 'secp256k1', 64));
  if (!(publicKey instanceof Uint8Array)) throw new DerivationError('expected public key bytes');
  const sec1 =
    publicKey.length === 64
      ? Uint8Array.from([4, ...publicKey])
      : publicKey.length === 65 || publicKey.length === 33
        ? publicKey
        : null;
  if (!sec1) throw new DerivationError('a secp256k1 public key is 64 (x‖y), 65 or 33 bytes');
  try {
    return secp256k1.Point.fromBytes(sec1);
  } catch {
    throw new DerivationError('not a secp256k1 point');
  }
}

function ed25519Point(publicKey: Uint8Array | string) {
  const bytes = typeof publicKey === 'string' ? najData(publicKey, 'ed25519', 32) : publicKey;
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) {
    throw new DerivationError('an ed25519 public key is 32 bytes');
  }
  try {
    return ed25519.Point.fromBytes(bytes);
  } catch {
    throw new DerivationError('not an ed25519 point');
  }
}

/** Normalises a secp256k1 public key (NAJ, 64, 65 or 33 bytes) to 64 bytes x‖y. */
export function secp256k1PublicKeyBytes(publicKey: Uint8Array | string): Uint8Array {
  return secp256k1Point(publicKey).toBytes(false).subarray(1);
}

/** The 33-byte SEC1 compressed form of a secp256k1 public key (NAJ, 64, 65 or 33 bytes). */
export function compressSecp256k1PublicKey(publicKey: Uint8Array | string): Uint8Array {
  return secp256k1Point(publicKey).toBytes(true);
}

/** An ed25519 public key given as NAJ or 32 bytes, as 32 bytes (checked to decode). */
export function ed25519PublicKeyBytes(publicKey: Uint8Array | string): Uint8Array {
  return ed25519Point(publicKey).toBytes();
}

// ---------------------------------------------------------------------------------------------------------
// secp256k1

/** derived = root + G·t (64 bytes x‖y). The root is NAJ or 64/65/33 bytes. */
export function deriveSecp256k1PublicKey(
  rootPublic64OrNaj: Uint8Array | string,
  tweak: Uint8Array | string,
): Uint8Array {
  const root = secp256k1Point(rootPublic64OrNaj);
  const t = secp256k1TweakScalar(tweak);
  const derived = t === 0n ? root : root.add(secp256k1.Point.BASE.multiply(t));
  if (derived.is0()) throw new DerivationError('derived secp256k1 key is the point at infinity');
  return derived.toBytes(false).subarray(1);
}

/** (root_sk + t) mod n, 32 bytes big-endian. */
export function deriveSecp256k1SecretKey(rootSecret32: Uint8Array, tweak: Uint8Array | string): Uint8Array {
  if (!(rootSecret32 instanceof Uint8Array) || rootSecret32.length !== 32) {
    throw new DerivationError('a secp256k1 secret key is 32 bytes');
  }
  const root = bytesToBigIntBE(rootSecret32);
  if (root === 0n || root >= SECP256K1_ORDER) throw new DerivationError('secp256k1 secret key out of range');
  const derived = (root + secp256k1TweakScalar(tweak)) % SECP256K1_ORDER;
  if (derived === 0n) throw new DerivationError('derived secp256k1 secret key is zero');
  return bigIntToBytesBE(derived);
}

/** 64 bytes x‖y of a 32-byte secp256k1 secret key. */
export function secp256k1PublicKeyOf(secret32: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(secret32, false).subarray(1);
}

// ---------------------------------------------------------------------------------------------------------
// ed25519

/** A scalar given as a bigint or 32 little-endian bytes, checked to be in [0, ℓ). */
export function ed25519ScalarValue(scalar: Uint8Array | bigint): bigint {
  let value: bigint;
  if (typeof scalar === 'bigint') value = scalar;
  else if (scalar instanceof Uint8Array && scalar.length === 32) value = bytesToBigIntLE(scalar);
  else throw new DerivationError('an ed25519 scalar is 32 little-endian bytes');
  if (value < 0n || value >= ED25519_ORDER) throw new DerivationError('ed25519 scalar out of range (≥ ℓ)');
  return value;
}

/** derived = root + B·t (32 bytes). The root is NAJ or 32 bytes. */
export function deriveEd25519PublicKey(
  rootPublic32: Uint8Array | string,
  tweak: Uint8Array | string,
): Uint8Array {
  const root = ed25519Point(rootPublic32);
  const t = ed25519TweakScalar(tweak);
  const derived = t === 0n ? root : root.add(ed25519.Point.BASE.multiply(t));
  return derived.toBytes();
}

/** (root_scalar + t) mod ℓ, 32 bytes little-endian. */
export function deriveEd25519SecretScalar(
  rootScalar: Uint8Array | bigint,
  tweak: Uint8Array | string,
): Uint8Array {
  const derived = (ed25519ScalarValue(rootScalar) + ed25519TweakScalar(tweak)) % ED25519_ORDER;
  if (derived === 0n) throw new DerivationError('derived ed25519 scalar is zero');
  return bigIntToBytesLE(derived);
}

/** B·a (32 bytes) of an ed25519 scalar. */
export function ed25519PublicKeyOfScalar(scalar: Uint8Array | bigint): Uint8Array {
  const a = ed25519ScalarValue(scalar);
  if (a === 0n) throw new DerivationError('ed25519 scalar is zero');
  return ed25519.Point.BASE.multiply(a).toBytes();
}

// ---------------------------------------------------------------------------------------------------------
// by domain, in NAJ form (what the signer's `derived_public_key` view answers)

/** The derived public key (NAJ) for a domain (0 secp256k1, 1 ed25519) from the root (NAJ) and a tweak. */
export function deriveChildPublicKeyNaj(
  rootPublicKeyNaj: string,
  tweak: Uint8Array | string,
  domainId: number = DOMAIN_SECP256K1,
): string {
  if (domainId === DOMAIN_SECP256K1) {
    return secp256k1PublicKeyToNaj(deriveSecp256k1PublicKey(rootPublicKeyNaj, tweak));
  }
  if (domainId === DOMAIN_ED25519)
    return ed25519PublicKeyToNaj(deriveEd25519PublicKey(rootPublicKeyNaj, tweak));
  throw new DerivationError(`unknown domain id ${domainId}`);
}

/** The derived public key (NAJ) of `(predecessor, path)`, as the signer's `derived_public_key` view. */
export function derivedPublicKey(
  rootPublicKeyNaj: string,
  predecessorId: string,
  path: string,
  domainId: number = DOMAIN_SECP256K1,
): string {
  return deriveChildPublicKeyNaj(rootPublicKeyNaj, deriveTweak(predecessorId, path), domainId);
}
