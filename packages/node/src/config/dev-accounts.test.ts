import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { KeyPair, publicKeyToString } from '@shadebox/primitives';
import { DEFAULT_SEED_DEV_ACCOUNTS } from './default-dev-accounts.js';
import {
  computeDevAccounts,
  DEFAULT_DEV_ACCOUNT_COUNT,
  DEFAULT_DEV_ACCOUNT_SEED,
  DEV_ACCOUNT_BALANCE,
  DEV_ACCOUNTS_FILE,
  deriveDevAccounts,
} from './dev-accounts.js';
import { createEphemeralHome, initHome, loadHome } from './init-home.js';

describe('dev accounts', () => {
  it('dev-<i>.test.near, keys from sha256("shadebox dev account:" + seed + ":" + i)', () => {
    const accounts = deriveDevAccounts('shadebox', 3);
    assert.deepEqual(
      accounts.map((a) => a.account_id),
      ['dev-0.test.near', 'dev-1.test.near', 'dev-2.test.near'],
    );
    const seed = createHash('sha256').update('shadebox dev account:shadebox:1').digest();
    const key = KeyPair.fromSecretBytes(0, new Uint8Array(seed));
    assert.equal(accounts[1].secret_key, key.toString());
    assert.equal(accounts[1].public_key, publicKeyToString(key.publicKey));
  });

  it("the written-out accounts of the default seed are the derivation's", () => {
    const derived = computeDevAccounts(DEFAULT_DEV_ACCOUNT_SEED, DEFAULT_DEV_ACCOUNT_COUNT);
    assert.deepEqual(DEFAULT_SEED_DEV_ACCOUNTS, derived);
    assert.deepEqual(deriveDevAccounts(DEFAULT_DEV_ACCOUNT_SEED, DEFAULT_DEV_ACCOUNT_COUNT), derived);
    assert.deepEqual(deriveDevAccounts(DEFAULT_DEV_ACCOUNT_SEED, 3), derived.slice(0, 3));
    // More than ten, or another parent, are derived.
    assert.deepEqual(
      deriveDevAccounts(DEFAULT_DEV_ACCOUNT_SEED, 12),
      computeDevAccounts(DEFAULT_DEV_ACCOUNT_SEED, 12),
    );
    assert.equal(deriveDevAccounts(DEFAULT_DEV_ACCOUNT_SEED, 1, 'x.near')[0].account_id, 'dev-0.x.near');
    // Callers get their own copies.
    deriveDevAccounts(DEFAULT_DEV_ACCOUNT_SEED, 1)[0].secret_key = 'changed';
    assert.equal(DEFAULT_SEED_DEV_ACCOUNTS[0].secret_key, derived[0].secret_key);
  });

  it('the same seed gives the same keys, another seed others', () => {
    assert.deepEqual(deriveDevAccounts('abc', 4), deriveDevAccounts('abc', 4));
    assert.deepEqual(deriveDevAccounts('abc', 4).slice(0, 2), deriveDevAccounts('abc', 2));
    const other = deriveDevAccounts('abd', 4);
    for (const [i, a] of deriveDevAccounts('abc', 4).entries())
      assert.notEqual(a.secret_key, other[i].secret_key);
  });

  it('genesis funds them; the home keeps their keys in dev_accounts.json and loads them back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shadebox-dev-accounts-'));
    try {
      const devAccounts = deriveDevAccounts('s', 2);
      const home = await initHome(dir, { devAccounts });
      for (const a of devAccounts) {
        const record = home.genesis.records.find(
          (r) => 'Account' in r && r.Account.account_id === a.account_id,
        ) as { Account: { account: { amount: string } } } | undefined;
        assert.equal(record?.Account.account.amount, DEV_ACCOUNT_BALANCE.toString());
        assert.ok(
          home.genesis.records.some(
            (r) =>
              'AccessKey' in r &&
              r.AccessKey.account_id === a.account_id &&
              r.AccessKey.public_key === a.public_key,
          ),
        );
      }
      assert.deepEqual(JSON.parse(await readFile(join(dir, DEV_ACCOUNTS_FILE), 'utf8')), devAccounts);
      assert.deepEqual((await loadHome(dir)).devAccounts, devAccounts);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a home made without them has none', () => {
    assert.deepEqual(createEphemeralHome().devAccounts, []);
  });
});
