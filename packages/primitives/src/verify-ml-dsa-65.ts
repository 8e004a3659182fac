/**
 * ML-DSA-65 (FIPS 204) signatures as nearcore makes and checks them (core/crypto/src/signature.rs, through
 * aws-lc's `ML_DSA_65`): pure ML-DSA (no pre-hash) with the empty context string over the message itself —
 * for a transaction, its 32-byte hash. nearcore signs hedged (fresh randomness per signature), so two
 * signatures of one message differ; verification accepts hedged and deterministic signatures alike.
 * Done with @noble/post-quantum (pure JS, the final FIPS 204; checked against its ACVP vectors upstream).
 */
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';

export const ML_DSA_65_SECRET_KEY_LENGTH = 4032;
export const ML_DSA_65_SEED_LENGTH = 32;

export function verifyMlDsa65(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 3309 || publicKey.length !== 1952) return false;
  try {
    return ml_dsa65.verify(signature, message, publicKey);
  } catch {
    return false;
  }
}

/** A key pair from a 32-byte seed (FIPS 204 `ML-DSA.KeyGen_internal(ξ)`, aws-lc's `PqdsaKeyPair::from_seed`). */
export function mlDsa65KeysFromSeed(seed: Uint8Array): { secretKey: Uint8Array; publicKey: Uint8Array } {
  const { secretKey, publicKey } = ml_dsa65.keygen(seed);
  return { secretKey, publicKey };
}

/** The public key of a 4032-byte expanded secret key (nearcore's secret-key string form). */
export function mlDsa65PublicKeyOf(secretKey: Uint8Array): Uint8Array {
  return ml_dsa65.getPublicKey(secretKey);
}

/** A hedged signature (fresh 32 random bytes mixed in), as aws-lc's `PqdsaKeyPair::sign`. */
export function signMlDsa65(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return ml_dsa65.sign(message, secretKey);
}
