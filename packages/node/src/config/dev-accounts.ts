/**
 * Dev accounts: funded accounts a new chain starts with, so a developer has accounts and keys to use at once
 * (as anvil's ten accounts from its mnemonic). Account i is `dev-<i>.test.near` (a sub-account of the genesis
 * account, a plain named account that near-api-js and near-kit use as is) holding 10 000 NEAR, with one
 * full-access ed25519 key whose 32-byte seed is
 *
 *     sha256("shadebox dev account:" + seed + ":" + i)      (UTF-8)
 *
 * so the same `seed` always gives the same keys (default seed `shadebox`). They are written into genesis, and
 * their keys into the home's dev_accounts.json: a home keeps its accounts whatever a later run asks.
 */
import { createHash } from 'node:crypto';
import { KEY_TYPE_ED25519, KeyPair, ONE_NEAR, publicKeyToString } from '@shadebox/primitives';
import { DEFAULT_SEED_DEV_ACCOUNTS } from './default-dev-accounts.js';
import type { KeyFile } from './node-config.js';

export const DEV_ACCOUNTS_FILE = 'dev_accounts.json';
export const DEFAULT_DEV_ACCOUNT_SEED = 'shadebox';
export const DEFAULT_DEV_ACCOUNT_COUNT = 10;
export const DEV_ACCOUNT_BALANCE = 10_000n * ONE_NEAR;

/** The `count` dev accounts of `seed`, as sub-accounts of `parent` (the genesis account). */
export function deriveDevAccounts(seed: string, count: number, parent = 'test.near'): KeyFile[] {
  // The default accounts are written out (default-dev-accounts.ts): a start derives none of them.
  if (
    seed === DEFAULT_DEV_ACCOUNT_SEED &&
    parent === 'test.near' &&
    count <= DEFAULT_SEED_DEV_ACCOUNTS.length
  ) {
    return DEFAULT_SEED_DEV_ACCOUNTS.slice(0, count).map((account) => ({ ...account }));
  }
  return computeDevAccounts(seed, count, parent);
}

/** deriveDevAccounts without the written-out default accounts: every key derived. */
export function computeDevAccounts(seed: string, count: number, parent = 'test.near'): KeyFile[] {
  const accounts: KeyFile[] = [];
  for (let i = 0; i < count; i++) {
    const secret = createHash('sha256').update(`shadebox dev account:${seed}:${i}`, 'utf8').digest();
    const keyPair = KeyPair.fromSecretBytes(KEY_TYPE_ED25519, new Uint8Array(secret));
    accounts.push({
      account_id: `dev-${i}.${parent}`,
      public_key: publicKeyToString(keyPair.publicKey),
      secret_key: keyPair.toString(),
    });
  }
  return accounts;
}

/** dev_accounts.json: the key files, as a JSON array. */
export function serializeDevAccounts(accounts: readonly KeyFile[]): string {
  return `${JSON.stringify(accounts, null, 2)}\n`;
}
