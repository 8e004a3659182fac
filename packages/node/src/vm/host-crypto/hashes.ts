/**
 * The hashing host functions (`sha256`, `keccak256`, `keccak512`, `ripemd160`, and from protocol 87 `sha3_256`,
 * `sha3_384`, `sha3_512`). Pure digests: the caller charges `*_base` plus `*_byte × len` (or
 * `ripemd160_block × ripemd160Blocks(len)`) and writes the register.
 */
import { ripemd160 as nobleRipemd160 } from '@noble/hashes/legacy.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import {
  keccak_256,
  keccak_512,
  sha3_256 as nobleSha3_256,
  sha3_384 as nobleSha3_384,
  sha3_512 as nobleSha3_512,
} from '@noble/hashes/sha3.js';

export function sha256(data: Uint8Array): Uint8Array {
  return nobleSha256(data);
}

/** Original Keccak (Ethereum's), not FIPS-202 SHA3: the padding byte differs. */
export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}

export function keccak512(data: Uint8Array): Uint8Array {
  return keccak_512(data);
}

/** FIPS 202 SHA3-256 (the 0x06 domain padding, unlike `keccak256`). */
export function sha3_256(data: Uint8Array): Uint8Array {
  return nobleSha3_256(data);
}

/** FIPS 202 SHA3-384. */
export function sha3_384(data: Uint8Array): Uint8Array {
  return nobleSha3_384(data);
}

/** FIPS 202 SHA3-512. */
export function sha3_512(data: Uint8Array): Uint8Array {
  return nobleSha3_512(data);
}

export function ripemd160(data: Uint8Array): Uint8Array {
  return nobleRipemd160(data);
}

/**
 * How many 64-byte compression blocks nearcore bills `ripemd160` for: `(len + 8) / 64 + 1`, i.e. the
 * message plus the 0x80 pad byte and the 8-byte length, rounded up to whole blocks.
 */
export function ripemd160Blocks(len: bigint | number): bigint {
  return (BigInt(len) + 8n) / 64n + 1n;
}
