/**
 * Borsh of `PublicKey` (u8 key type, then 32, 64 or 1952 bytes) and `Signature` (u8 key type, then 64, 65 or
 * 3309 bytes), core/crypto/src/signature.rs. Tag 3 is nearcore's `PublicKeyHandle` (public-key-handle.ts), never
 * a `PublicKey`.
 */
import { type BorshReader, type BorshWriter, decodeBorsh, encodeBorsh } from './borsh.js';
import { BorshError } from './errors.js';
import { isKeyType, PUBLIC_KEY_LENGTH, SIGNATURE_LENGTH } from './keys.js';
import { KEY_TYPE_ED25519, type KeyType, type PublicKey, type Signature } from './types.js';

function checkKeyType(keyType: number, what: string): asserts keyType is KeyType {
  if (!isKeyType(keyType)) {
    throw new BorshError(`unknown ${what} key type ${keyType}`);
  }
}

export function writePublicKey(w: BorshWriter, publicKey: PublicKey): void {
  checkKeyType(publicKey.keyType, 'public key');
  w.u8(publicKey.keyType);
  w.fixedBytes(publicKey.data, PUBLIC_KEY_LENGTH[publicKey.keyType]);
}

export function readPublicKey(r: BorshReader): PublicKey {
  const keyType = r.enumTag('PublicKey key type', 3) as KeyType;
  return { keyType, data: r.fixedBytes(PUBLIC_KEY_LENGTH[keyType]) };
}

export function writeSignature(w: BorshWriter, signature: Signature): void {
  checkKeyType(signature.keyType, 'signature');
  w.u8(signature.keyType);
  w.fixedBytes(signature.data, SIGNATURE_LENGTH[signature.keyType]);
}

/**
 * An ed25519 signature whose last byte has any of its top three bits set is rejected while decoding, as
 * nearcore does ("signature error": the sanity check ed25519-dalek 1.x performed in `from_bytes`).
 */
export function readSignature(r: BorshReader): Signature {
  const at = r.offset;
  const keyType = r.enumTag('Signature key type', 3) as KeyType;
  const data = r.fixedBytes(SIGNATURE_LENGTH[keyType]);
  if (keyType === KEY_TYPE_ED25519 && (data[63] & 0xe0) !== 0) {
    throw new BorshError('malformed ed25519 signature (top bits of the last byte set)', at);
  }
  return { keyType, data };
}

export function encodePublicKey(publicKey: PublicKey): Uint8Array {
  return encodeBorsh((w) => writePublicKey(w, publicKey));
}

export function decodePublicKey(bytes: Uint8Array): PublicKey {
  return decodeBorsh(bytes, readPublicKey);
}

export function encodeSignature(signature: Signature): Uint8Array {
  return encodeBorsh((w) => writeSignature(w, signature));
}

export function decodeSignature(bytes: Uint8Array): Signature {
  return decodeBorsh(bytes, readSignature);
}
