/**
 * How an access key is named in the state (nearcore's `PublicKeyHandle`, core/crypto/src/signature.rs).
 *
 * ed25519 and secp256k1 keys are stored as themselves (borsh tags 0 and 1, byte-identical to `PublicKey`). An
 * ML-DSA-65 key (1952 bytes) is stored as its 32-byte digest, SHA3-256 of the domain tag
 * `near:ml-dsa-65-pubkey-hash:v1` followed by the key, under borsh tag 3; tag 2 (the full key) never appears in
 * a handle. The string form of the digest is `ml-dsa-65-hash:<base58>`, which `view_access_key_list` and the
 * state-change views show. A handle cannot verify a signature: the full key travels in the transaction.
 */
import { sha3_256 } from '@noble/hashes/sha3.js';
import { type BorshReader, type BorshWriter, decodeBorsh, encodeBorsh } from './borsh.js';
import { base58Decode, base58Encode } from './encoding.js';
import { BorshError, InvalidPublicKeyError } from './errors.js';
import { PUBLIC_KEY_LENGTH, parsePublicKey, publicKeyToString } from './keys.js';
import { KEY_TYPE_ML_DSA_65, type PublicKey } from './types.js';

/** Borsh tag of the ML-DSA-65 digest form. */
export const KEY_HANDLE_ML_DSA_65_HASH = 3 as const;
export const ML_DSA_65_HASH_LENGTH = 32;
export const ML_DSA_65_HASH_PREFIX = 'ml-dsa-65-hash:';
/** nearcore's `HashDomainTag::MlDsa65PubkeyHash` (core/crypto/src/hash_domain.rs). */
const ML_DSA_65_PUBKEY_HASH_DOMAIN = new TextEncoder().encode('near:ml-dsa-65-pubkey-hash:v1');

/** The borsh tag and the bytes after it: an ed25519/secp256k1 handle is the `PublicKey` value itself. */
export interface PublicKeyHandle {
  keyType: 0 | 1 | typeof KEY_HANDLE_ML_DSA_65_HASH;
  /** The key (32 or 64 bytes), or the 32-byte digest of an ML-DSA-65 key. */
  data: Uint8Array;
}

/** The SHA3-256 digest naming an ML-DSA-65 key in the state. */
export function mlDsa65PublicKeyHash(keyData: Uint8Array): Uint8Array {
  const h = sha3_256.create();
  h.update(ML_DSA_65_PUBKEY_HASH_DOMAIN);
  h.update(keyData);
  return h.digest();
}

export function publicKeyHandle(publicKey: PublicKey): PublicKeyHandle {
  if (publicKey.keyType === KEY_TYPE_ML_DSA_65)
    return { keyType: KEY_HANDLE_ML_DSA_65_HASH, data: mlDsa65PublicKeyHash(publicKey.data) };
  return publicKey as PublicKeyHandle;
}

function handleDataLength(keyType: PublicKeyHandle['keyType']): number {
  return keyType === KEY_HANDLE_ML_DSA_65_HASH ? ML_DSA_65_HASH_LENGTH : PUBLIC_KEY_LENGTH[keyType];
}

/** Bytes of the handle's borsh form: nearcore's `trie_id_len` (33 / 65 / 33), of a key or of its handle. */
export function publicKeyTrieIdLength(key: PublicKey | PublicKeyHandle): number {
  return key.keyType === KEY_TYPE_ML_DSA_65 ? 1 + ML_DSA_65_HASH_LENGTH : 1 + key.data.length;
}

export function writePublicKeyHandle(w: BorshWriter, handle: PublicKeyHandle): void {
  if ((handle.keyType as number) === KEY_TYPE_ML_DSA_65)
    throw new BorshError('a full ML-DSA-65 key is not a PublicKeyHandle');
  w.u8(handle.keyType);
  w.fixedBytes(handle.data, handleDataLength(handle.keyType));
}

export function readPublicKeyHandle(r: BorshReader): PublicKeyHandle {
  const at = r.offset;
  const tag = r.enumTag('PublicKeyHandle key type', 4);
  if (tag === KEY_TYPE_ML_DSA_65)
    throw new BorshError('borsh tag 2 (a full ML-DSA-65 key) is not a valid PublicKeyHandle', at);
  const keyType = tag as PublicKeyHandle['keyType'];
  return { keyType, data: r.fixedBytes(handleDataLength(keyType)) };
}

export function encodePublicKeyHandle(handle: PublicKeyHandle): Uint8Array {
  return encodeBorsh((w) => writePublicKeyHandle(w, handle));
}

export function decodePublicKeyHandle(bytes: Uint8Array): PublicKeyHandle {
  return decodeBorsh(bytes, readPublicKeyHandle);
}

/** `ed25519:…` / `secp256k1:…` for stored keys, `ml-dsa-65-hash:<base58 digest>` for ML-DSA-65 keys. */
export function publicKeyHandleToString(handle: PublicKeyHandle): string {
  if (handle.keyType === KEY_HANDLE_ML_DSA_65_HASH)
    return `${ML_DSA_65_HASH_PREFIX}${base58Encode(handle.data)}`;
  return publicKeyToString(handle as PublicKey);
}

/** The string form of a handle; a full `ml-dsa-65:` key is refused, as nearcore's `PublicKeyHandle::from_str`. */
export function parsePublicKeyHandle(text: string): PublicKeyHandle {
  if (typeof text === 'string' && text.startsWith(ML_DSA_65_HASH_PREFIX)) {
    let hash: Uint8Array;
    try {
      hash = base58Decode(text.slice(ML_DSA_65_HASH_PREFIX.length));
    } catch {
      throw new InvalidPublicKeyError('key data is not base58');
    }
    if (hash.length !== ML_DSA_65_HASH_LENGTH)
      throw new InvalidPublicKeyError(`ml-dsa-65-hash must be 32 bytes, got ${hash.length}`);
    return { keyType: KEY_HANDLE_ML_DSA_65_HASH, data: hash };
  }
  const publicKey = parsePublicKey(text);
  if (publicKey.keyType === KEY_TYPE_ML_DSA_65) {
    throw new InvalidPublicKeyError(
      'full ML-DSA-65 keys cannot appear in a PublicKeyHandle; use the `ml-dsa-65-hash:` form instead',
    );
  }
  return publicKey as PublicKeyHandle;
}

export function publicKeyHandlesEqual(a: PublicKeyHandle, b: PublicKeyHandle): boolean {
  const x = encodePublicKeyHandle(a);
  const y = encodePublicKeyHandle(b);
  return x.length === y.length && Buffer.compare(x, y) === 0;
}
