import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base58Encode, hexEncode, sha256 } from '@shadebox/primitives';
import { type Account, accountToView, decodeAccount, encodeAccount } from './account.js';

const hash = sha256(new Uint8Array([1, 2, 3]));

describe('accounts that use a global contract (AccountV2)', () => {
  it('are u128::MAX, tag 0, amount, locked, storage_usage, then the AccountContract', () => {
    const account: Account = {
      amount: 5n,
      locked: 6n,
      codeHash: new Uint8Array(32),
      storageUsage: 7n,
      globalContract: { kind: 'AccountId', accountId: 'ab' },
    };
    const bytes = encodeAccount(account);
    const u128 = (n: number) => hexEncode(Uint8Array.from([n, ...new Uint8Array(15)]));
    assert.equal(
      hexEncode(bytes),
      `${'ff'.repeat(16)}00${u128(5)}${u128(6)}0700000000000000` + `03020000006162`,
    );
    assert.deepEqual(decodeAccount(bytes), account);
    const byHash: Account = { ...account, globalContract: { kind: 'CodeHash', codeHash: hash } };
    const hashBytes = encodeAccount(byHash);
    assert.equal(hashBytes[16 + 1 + 16 + 16 + 8], 2, 'AccountContract::Global');
    assert.deepEqual(decodeAccount(hashBytes), byHash);
  });

  it('accounts without one stay AccountV1 (80 bytes, no sentinel)', () => {
    const v1: Account = { amount: 1n, locked: 0n, codeHash: hash, storageUsage: 100n };
    const bytes = encodeAccount(v1);
    assert.equal(bytes.length, 16 + 16 + 32 + 8);
    assert.deepEqual(decodeAccount(bytes), v1);
  });

  it('view_account adds global_contract_hash or global_contract_account_id, only when set', () => {
    const base = { amount: 1n, locked: 0n, codeHash: new Uint8Array(32), storageUsage: 200n };
    assert.deepEqual(Object.keys(accountToView(base)), [
      'amount',
      'locked',
      'code_hash',
      'storage_usage',
      'storage_paid_at',
    ]);
    const byHash = accountToView({ ...base, globalContract: { kind: 'CodeHash', codeHash: hash } });
    assert.equal(byHash.global_contract_hash, base58Encode(hash));
    assert.equal(byHash.code_hash, '11111111111111111111111111111111');
    assert.equal('global_contract_account_id' in byHash, false);
    const byId = accountToView({ ...base, globalContract: { kind: 'AccountId', accountId: 'g.near' } });
    assert.equal(byId.global_contract_account_id, 'g.near');
    assert.equal('global_contract_hash' in byId, false);
  });
});
