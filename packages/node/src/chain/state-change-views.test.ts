import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64Encode, encodeAccessKey, fullAccessKey } from '@shadebox/primitives';
import { testRandom } from '../../../../test/test-random.js';
import { encodeAccount, newAccount } from '../state/account.js';
import { decodeStateKey } from '../state/decode-state-key.js';
import {
  accessKeyKey,
  accountKey,
  contractCodeKey,
  contractDataKey,
  StateColumn,
} from '../state/state-keys.js';
import type { StateChangeCause } from '../state/state-update.js';
import { BlockStateChanges, type StoredStateChange } from './state-change-views.js';

const rng = testRandom('packages/node/src/chain/state-change-views.test.ts');

const utf8 = (s: string) => new TextEncoder().encode(s);
const b64 = (b: Uint8Array) => base64Encode(b);
const r1: StateChangeCause = { type: 'receipt_processing', receipt_hash: 'R1' };
const r2: StateChangeCause = { type: 'receipt_processing', receipt_hash: 'R2' };
const tx: StateChangeCause = { type: 'transaction_processing', tx_hash: 'T' };

function stored(key: Uint8Array, value: Uint8Array | null, cause: StateChangeCause): StoredStateChange {
  return { shard: 0, key: b64(key), value: value && b64(value), cause };
}

describe('decodeStateKey', () => {
  it('reads back every per-account column, and nothing else', () => {
    const pk = rng.keyPair().publicKey;
    assert.deepEqual(decodeStateKey(accountKey('a.near')), { column: 'account', accountId: 'a.near' });
    assert.deepEqual(decodeStateKey(contractCodeKey('a.near')), {
      column: 'contract_code',
      accountId: 'a.near',
    });
    assert.deepEqual(decodeStateKey(accessKeyKey('a.near', pk)), {
      column: 'access_key',
      accountId: 'a.near',
      publicKey: pk,
    });
    // The data key may contain the separator itself: only the first ',' ends the account id.
    assert.deepEqual(decodeStateKey(contractDataKey('a.near', utf8('k,1'))), {
      column: 'contract_data',
      accountId: 'a.near',
      dataKey: utf8('k,1'),
    });
    assert.equal(decodeStateKey(new Uint8Array([StateColumn.DelayedReceiptOrIndices, 0])), undefined);
  });
});

describe('BlockStateChanges', () => {
  const data = (account: string, key: string) => contractDataKey(account, utf8(key));
  const changes = new BlockStateChanges([
    stored(data('b.near', 'state'), utf8('v1'), r1),
    stored(data('a.near', 'zz'), utf8('x'), r1),
    stored(data('a.near', 'state'), utf8('v0'), r1),
    stored(data('b.near', 'state'), utf8('v2'), r2),
    stored(data('b.near', 'other'), null, r2),
    stored(contractCodeKey('b.near'), null, r2),
    stored(accountKey('b.near'), encodeAccount(newAccount(5n)), tx),
    stored(accountKey('b.near'), null, r2),
    stored(new Uint8Array([StateColumn.PostponedReceipt, 1, 2]), utf8('receipt'), r1),
  ]);

  it('data_changes: per account in request order, keys in byte order, every change of a key in order', () => {
    const all = changes.byType({
      changesType: 'data_changes',
      accountIds: ['b.near', 'a.near'],
      keyPrefix: utf8(''),
    });
    assert.deepEqual(all, [
      { cause: r2, type: 'data_deletion', change: { account_id: 'b.near', key_base64: b64(utf8('other')) } },
      {
        cause: r1,
        type: 'data_update',
        change: { account_id: 'b.near', key_base64: b64(utf8('state')), value_base64: b64(utf8('v1')) },
      },
      {
        cause: r2,
        type: 'data_update',
        change: { account_id: 'b.near', key_base64: b64(utf8('state')), value_base64: b64(utf8('v2')) },
      },
      {
        cause: r1,
        type: 'data_update',
        change: { account_id: 'a.near', key_base64: b64(utf8('state')), value_base64: b64(utf8('v0')) },
      },
      {
        cause: r1,
        type: 'data_update',
        change: { account_id: 'a.near', key_base64: b64(utf8('zz')), value_base64: b64(utf8('x')) },
      },
    ]);
    const prefixed = changes.byType({
      changesType: 'data_changes',
      accountIds: ['a.near'],
      keyPrefix: utf8('st'),
    });
    assert.deepEqual(
      prefixed.map((c) => c.change.key_base64),
      [b64(utf8('state'))],
    );
  });

  it('deletions of code and account, updates with the AccountView fields', () => {
    assert.deepEqual(changes.byType({ changesType: 'contract_code_changes', accountIds: ['b.near'] }), [
      { cause: r2, type: 'contract_code_deletion', change: { account_id: 'b.near' } },
    ]);
    assert.deepEqual(changes.byType({ changesType: 'account_changes', accountIds: ['b.near', 'c.near'] }), [
      {
        cause: tx,
        type: 'account_update',
        change: {
          account_id: 'b.near',
          amount: '5',
          locked: '0',
          code_hash: '11111111111111111111111111111111',
          storage_usage: 0,
          storage_paid_at: 0,
        },
      },
      { cause: r2, type: 'account_deletion', change: { account_id: 'b.near' } },
    ]);
  });

  it('an account id that prefixes another does not match its keys', () => {
    const pk = rng.keyPair().publicKey;
    const c = new BlockStateChanges([
      stored(accessKeyKey('ab.near', pk), encodeAccessKey(fullAccessKey(3n)), r1),
      stored(contractDataKey('ab.near', utf8('k')), utf8('v'), r1),
    ]);
    assert.deepEqual(c.byType({ changesType: 'all_access_key_changes', accountIds: ['a'] }), []);
    assert.deepEqual(c.byType({ changesType: 'data_changes', accountIds: ['ab'], keyPrefix: utf8('') }), []);
    assert.equal(c.byType({ changesType: 'all_access_key_changes', accountIds: ['ab.near'] }).length, 1);
  });

  it('kinds: one entry per changed key, in key order; other columns left out', () => {
    assert.deepEqual(changes.kinds(), [
      { type: 'account_touched', account_id: 'b.near' },
      { type: 'contract_code_touched', account_id: 'b.near' },
      { type: 'data_touched', account_id: 'a.near' },
      { type: 'data_touched', account_id: 'a.near' },
      { type: 'data_touched', account_id: 'b.near' },
      { type: 'data_touched', account_id: 'b.near' },
    ]);
  });
});
