/**
 * Implicit account ids of keys (core/primitives/src/utils.rs `derive_near_implicit_account_id`,
 * `derive_eth_implicit_account_id`).
 */
import { hexEncode } from './encoding.js';
import { InvalidPublicKeyError } from './errors.js';
import { keccak256 } from './hash.js';
import { parsePublicKey } from './keys.js';
import { KEY_TYPE_ED25519, KEY_TYPE_SECP256K1, type PublicKey } from './types.js';

function asPublicKey(publicKey: PublicKey | string): PublicKey {
  return typeof publicKey === 'string' ? parsePublicKey(publicKey) : publicKey;
}

/** Hex of the 32 bytes of an ed25519 key. */
export function nearImplicitAccountId(publicKey: PublicKey | string): string {
  const pk = asPublicKey(publicKey);
  if (pk.keyType !== KEY_TYPE_ED25519)
    throw new InvalidPublicKeyError('NEAR-implicit accounts need an ed25519 key');
  return hexEncode(pk.data);
}

/** `0x` + hex of the last 20 bytes of keccak256 of the 64-byte secp256k1 key. */
export function ethImplicitAccountId(publicKey: PublicKey | string): string {
  const pk = asPublicKey(publicKey);
  if (pk.keyType !== KEY_TYPE_SECP256K1)
    throw new InvalidPublicKeyError('ETH-implicit accounts need a secp256k1 key');
  return `0x${hexEncode(keccak256(pk.data).subarray(12))}`;
}
