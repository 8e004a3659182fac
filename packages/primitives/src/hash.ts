/**
 * Hashes of the protocol: sha256 (nearcore's `CryptoHash::hash_bytes`), keccak256 (ETH-implicit accounts) and
 * `combine_hash`. A `CryptoHash` on the wire is the base58 text of 32 bytes.
 */
import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58Decode, base58Encode } from './encoding.js';
import { EncodingError } from './errors.js';

/** A 32-byte hash as base58 text, the form of every hash in the RPC. */
export type CryptoHash = string;

export const CRYPTO_HASH_LENGTH = 32;

/** `CryptoHash::default()`: 32 zero bytes. */
export const ZERO_HASH: Uint8Array = new Uint8Array(32);

export function sha256(data: Uint8Array): Uint8Array {
  const digest = createHash('sha256').update(data).digest();
  return new Uint8Array(digest);
}

export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}

/** `combine_hash(a, b) = sha256(a ‖ b)` (core/primitives/src/merkle.rs: hash of the borsh pair). */
export function combineHash(a: Uint8Array, b: Uint8Array): Uint8Array {
  const digest = createHash('sha256').update(a).update(b).digest();
  return new Uint8Array(digest);
}

export function cryptoHashToString(hash: Uint8Array): CryptoHash {
  if (hash.length !== CRYPTO_HASH_LENGTH) {
    throw new EncodingError('crypto hash', `expected ${CRYPTO_HASH_LENGTH} bytes, got ${hash.length}`);
  }
  return base58Encode(hash);
}

/** Parses base58 text of exactly 32 bytes. */
export function parseCryptoHash(text: string): Uint8Array {
  const bytes = base58Decode(text);
  if (bytes.length !== CRYPTO_HASH_LENGTH) {
    throw new EncodingError('crypto hash', `expected ${CRYPTO_HASH_LENGTH} bytes, got ${bytes.length}`);
  }
  return bytes;
}

export function isCryptoHash(text: unknown): text is CryptoHash {
  if (typeof text !== 'string') return false;
  try {
    parseCryptoHash(text);
    return true;
  } catch {
    return false;
  }
}
