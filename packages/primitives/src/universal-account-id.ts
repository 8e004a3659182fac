/**
 * Universal account ids (NEP-655, protocol 87): `0u` + 52 lowercase Crockford-base32 symbols of a 32-byte
 * hash, 54 characters in all (nearcore core/primitives-core/src/universal_account_id.rs). The hash is SHA3-256
 * over the exact bytes of a borsh `UniversalStateInit` as the sender serialized them (`RawStateInit`), never
 * over a re-encoding of what they decode to (core/primitives/src/utils.rs `derive_universal_account_id`).
 *
 * The 256 bits leave one bit in the last symbol, padded with four zero bits on the right, so the last symbol
 * is `0` or `g`; an id with any padding bit set is a named account (near-account-id 3.0 `is_universal`).
 */
import { sha3_256 } from '@noble/hashes/sha3.js';

export const UNIVERSAL_ACCOUNT_ID_PREFIX = '0u';
/** Symbols of the 256-bit hash: ceil(256 / 5). */
export const UNIVERSAL_ACCOUNT_ID_SYMBOLS = 52;
export const UNIVERSAL_ACCOUNT_ID_LENGTH = 54;

/** Crockford base32, lowercase, without `i l o u`. */
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** `0u` + the Crockford base32 of a 32-byte hash, most significant bit first. */
export function encodeUniversalAccountId(hash: Uint8Array): string {
  if (hash.length !== 32) throw new RangeError(`a universal account id encodes 32 bytes, got ${hash.length}`);
  let out = UNIVERSAL_ACCOUNT_ID_PREFIX;
  let acc = 0;
  let bits = 0;
  for (const byte of hash) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += CROCKFORD[(acc >> bits) & 0x1f];
    }
    acc &= (1 << bits) - 1;
  }
  // One bit left, padded with four zero bits.
  out += CROCKFORD[(acc << (5 - bits)) & 0x1f];
  return out;
}

/** near-account-id's `AccountType::UniversalAccount`: length 54, `0u`, Crockford symbols, clear padding. */
export function isUniversalAccount(accountId: string): boolean {
  if (accountId.length !== UNIVERSAL_ACCOUNT_ID_LENGTH || !accountId.startsWith(UNIVERSAL_ACCOUNT_ID_PREFIX))
    return false;
  for (let i = 2; i < accountId.length; i++) if (!CROCKFORD.includes(accountId[i])) return false;
  const last = accountId[accountId.length - 1];
  return last === '0' || last === 'g';
}

/** The `0u…` id of a state init, from the bytes exactly as they travel (`derive_universal_account_id`). */
export function universalAccountIdOfRaw(rawStateInit: Uint8Array): string {
  return encodeUniversalAccountId(sha3_256(rawStateInit));
}
