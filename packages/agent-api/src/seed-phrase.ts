/**
 * NEAR seed phrases as near-seed-phrase reads them: BIP39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt
 * "mnemonic") of the normalised phrase, then SLIP-10 ed25519 derivation along m/44'/397'/0'. Built on
 * node:crypto only. The phrase's BIP39 checksum is not checked (no word list ships offline).
 */
import { createHmac, pbkdf2Sync } from 'node:crypto';
import { KEY_TYPE_ED25519, KeyPair } from '@shadebox/primitives';

export const NEAR_DERIVATION_PATH = [44, 397, 0];

export function normalizeSeedPhrase(phrase: string): string {
  return phrase.trim().split(/\s+/).join(' ').toLowerCase();
}

export function keyPairFromSeedPhrase(phrase: string, path = NEAR_DERIVATION_PATH): KeyPair {
  const mnemonic = Buffer.from(normalizeSeedPhrase(phrase).normalize('NFKD'), 'utf8');
  const seed = pbkdf2Sync(mnemonic, Buffer.from('mnemonic', 'utf8'), 2048, 64, 'sha512');
  let i = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  for (const index of path) {
    const data = Buffer.alloc(37);
    i.copy(data, 1, 0, 32);
    data.writeUInt32BE((index | 0x80000000) >>> 0, 33);
    i = createHmac('sha512', i.subarray(32)).update(data).digest();
  }
  return KeyPair.fromSecretBytes(KEY_TYPE_ED25519, i.subarray(0, 32));
}
