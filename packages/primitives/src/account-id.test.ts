import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  accountIdError,
  accountIdToShardId,
  isEthImplicitAccount,
  isImplicitAccount,
  isNearImplicitAccount,
  isSubAccountOf,
  isTopLevelAccount,
  isValidAccountId,
  parentAccountId,
  validateAccountId,
} from './account-id.js';
import { InvalidAccountIdError } from './errors.js';

// The OK and BAD tables of near-account-id's own tests (core/account-id/src/lib.rs), plus edge cases.
const VALID = [
  'aa',
  'a-a',
  'a-aa',
  '100',
  '0o',
  'com',
  'near',
  'bowen',
  'b-o_w_e-n',
  'b.owen',
  'bro.wen',
  'a.ha',
  'a.b-a.ra',
  'system',
  'over.9000',
  'google.com',
  'illia.cheapaccounts.near',
  '0o0ooo00oo00o',
  'alex-skidanov',
  '10-4.8-2',
  'no_lols',
  '0123456789012345678901234567890123456789012345678901234567890123', // 64
  'near.a',
  'a'.repeat(64),
  '0x96791e923f8cf697ad9c3290f2c9059f0231b24c',
  'bb4dc639b212e075a751685b26bdcea5920a504181ff2910e8549742127092a0',
];

const INVALID = [
  '',
  'a',
  'A',
  'Abc',
  '-near',
  'near-',
  '-near-',
  'near.',
  '.near',
  'near@',
  '@near',
  'неар',
  '@@@@@',
  '0__0',
  '0_-_0',
  '..',
  'a..near',
  'nEar',
  '_bowen',
  'hello world',
  'abcdefghijklmnopqrstuvwxyz.abcdefghijklmnopqrstuvwxyz.abcdefghijklmnopqrstuvwxyz',
  '01234567890123456789012345678901234567890123456789012345678901234', // 65
  'a'.repeat(65),
  'some-complex-address@gmail.com',
  'sub.buy_d1gitz@atata@b0-rg.c_0_m',
  'not-_alice.near',
  'alice.-near',
  'alice_.near',
  '0X96791E923F8CF697AD9C3290F2C9059F0231B24C',
  'ƒelicia.near',
  'alice\n',
  'ali ce',
];

describe('account ids', () => {
  it('accepts the valid table', () => {
    for (const id of VALID) {
      assert.equal(accountIdError(id), null, id);
      assert.equal(isValidAccountId(id), true, id);
      assert.equal(validateAccountId(id), id);
    }
  });

  it('rejects the invalid table with a reason', () => {
    for (const id of INVALID) {
      assert.equal(isValidAccountId(id), false, id);
      assert.throws(
        () => validateAccountId(id),
        (err: unknown) =>
          err instanceof InvalidAccountIdError &&
          err.details.accountId === id &&
          err.details.reason.length > 0,
        id,
      );
    }
    assert.equal(isValidAccountId(42), false);
    assert.equal(isValidAccountId(null), false);
  });

  it('reports the first violation, as nearcore does', () => {
    assert.match(accountIdError('a') ?? '', /too short/);
    assert.match(accountIdError('a'.repeat(65)) ?? '', /too long/);
    assert.match(accountIdError('A__b') ?? '', /invalid character "A"/);
    assert.match(accountIdError('a__B') ?? '', /redundant separator '_' at 2/);
    assert.match(accountIdError('-a') ?? '', /starts with separator/);
    assert.match(accountIdError('ab.') ?? '', /ends with separator/);
    // Length is counted in bytes: 32 two-byte characters are 64 bytes, 33 are 66.
    assert.match(accountIdError('é'.repeat(33)) ?? '', /too long \(66 bytes/);
  });

  it('recognises implicit account ids', () => {
    const near = 'bb4dc639b212e075a751685b26bdcea5920a504181ff2910e8549742127092a0';
    assert.equal(isNearImplicitAccount(near), true);
    assert.equal(isNearImplicitAccount(near.toUpperCase()), false);
    assert.equal(isNearImplicitAccount(near.slice(1)), false);
    assert.equal(isNearImplicitAccount(`${near.slice(1)}g`), false);
    const eth = '0x96791e923f8cf697ad9c3290f2c9059f0231b24c';
    assert.equal(isEthImplicitAccount(eth), true);
    assert.equal(isEthImplicitAccount(eth.slice(0, -1)), false);
    assert.equal(isEthImplicitAccount(`0X${eth.slice(2)}`), false);
    assert.equal(isEthImplicitAccount(`0x${eth.slice(2).toUpperCase()}`), false);
    assert.equal(isEthImplicitAccount(near), false);
    assert.equal(isImplicitAccount(near), true);
    assert.equal(isImplicitAccount(eth), true);
    assert.equal(isImplicitAccount('alice.near'), false);
  });

  it('knows top-level accounts, parents and direct sub-accounts', () => {
    assert.equal(isTopLevelAccount('near'), true);
    assert.equal(isTopLevelAccount('alice.near'), false);
    assert.equal(isTopLevelAccount('system'), false);
    assert.equal(parentAccountId('app.alice.near'), 'alice.near');
    assert.equal(parentAccountId('near'), null);
    assert.equal(isSubAccountOf('alice.near', 'near'), true);
    assert.equal(isSubAccountOf('app.alice.near', 'alice.near'), true);
    assert.equal(isSubAccountOf('app.alice.near', 'near'), false);
    assert.equal(isSubAccountOf('xalice.near', 'alice.near'), false);
    assert.equal(isSubAccountOf('near', 'near'), false);
    assert.equal(isSubAccountOf('near', 'alice.near'), false);
  });

  it('maps accounts to shards as ShardLayout V0', () => {
    for (const id of ['alice.near', 'bob', 'system', 'a'.repeat(64)]) {
      const digest = createHash('sha256').update(id).digest();
      for (const n of [1, 2, 3, 4, 7, 16]) {
        assert.equal(
          accountIdToShardId(id, n),
          Number(digest.readBigUInt64LE(0) % BigInt(n)),
          `${id} / ${n}`,
        );
      }
    }
    assert.equal(accountIdToShardId('anything', 1), 0);
    assert.throws(() => accountIdToShardId('a', 0), RangeError);
  });
});
