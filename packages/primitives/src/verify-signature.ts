/**
 * Signature verification exactly as nearcore's `Signature::verify` (core/crypto/src/signature.rs).
 *
 * - ed25519: plain RFC 8032 verification of the message (for transactions, the 32-byte hash). Done with
 *   node:crypto (OpenSSL, cofactorless like ed25519-dalek's `verify`), ~15x faster here than @noble/curves.
 * - secp256k1: the message must be exactly 32 bytes and is used as is (no hashing: nearcore signs the
 *   transaction hash). The 65-byte signature is r ‖ s ‖ v; v must be 0..=3 but is otherwise unused; r and s
 *   must be below the curve order and s must be low (libsecp256k1 `ecdsa_verify` rejects high-S); the key is
 *   the 64-byte uncompressed point without its 0x04 prefix and must be on the curve.
 * - ML-DSA-65: FIPS 204 pure ML-DSA verification with the empty context string, over the message as given
 *   (nearcore verifies with aws-lc's `ML_DSA_65`); see verify-ml-dsa-65.ts.
 */
import { createPublicKey, type KeyObject, verify as nodeVerify } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  KEY_TYPE_ED25519,
  KEY_TYPE_ML_DSA_65,
  KEY_TYPE_SECP256K1,
  type PublicKey,
  type Signature,
} from './types.js';
import { verifyMlDsa65 } from './verify-ml-dsa-65.js';

export function verifySignature(message: Uint8Array, signature: Signature, publicKey: PublicKey): boolean {
  if (signature.keyType !== publicKey.keyType) return false;
  if (publicKey.keyType === KEY_TYPE_ED25519) return verifyEd25519(message, signature.data, publicKey.data);
  if (publicKey.keyType === KEY_TYPE_SECP256K1)
    return verifySecp256k1(message, signature.data, publicKey.data);
  if (publicKey.keyType === KEY_TYPE_ML_DSA_65) return verifyMlDsa65(message, signature.data, publicKey.data);
  return false;
}

/** Recently used ed25519 keys as OpenSSL key objects: building one from its JWK costs about as much as a
 * verification. Only keys that imported cleanly are kept; the oldest goes when the map is full. */
const ED25519_KEYS = new Map<string, KeyObject>();
const ED25519_KEYS_MAX = 4096;

function ed25519Key(publicKey: Uint8Array): KeyObject {
  const x = Buffer.from(publicKey).toString('base64url');
  let key = ED25519_KEYS.get(x);
  if (!key) {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
    if (ED25519_KEYS.size >= ED25519_KEYS_MAX)
      ED25519_KEYS.delete(ED25519_KEYS.keys().next().value as string);
    ED25519_KEYS.set(x, key);
  }
  return key;
}

function verifyEd25519(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    return nodeVerify(null, message, ed25519Key(publicKey), signature);
  } catch {
    return false;
  }
}

function verifySecp256k1(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (message.length !== 32 || signature.length !== 65 || publicKey.length !== 64) return false;
  if (signature[64] > 3) return false;
  const uncompressed = new Uint8Array(65);
  uncompressed[0] = 4;
  uncompressed.set(publicKey, 1);
  try {
    return secp256k1.verify(signature.subarray(0, 64), message, uncompressed, { prehash: false, lowS: true });
  } catch {
    return false;
  }
}
