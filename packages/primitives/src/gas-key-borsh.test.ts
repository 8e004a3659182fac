import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeAccessKey,
  encodeAccessKey,
  functionCallPermissionOf,
  gasKeyFullAccessKey,
  gasKeyFunctionCallAccessKey,
  gasKeyInfoOf,
} from './access-key.js';
import { decodeAction, encodeAction } from './action.js';
import { decodeBorsh, encodeBorsh } from './borsh.js';
import { hexDecode, hexEncode } from './encoding.js';
import { BorshError, InvalidViewError } from './errors.js';
import { parsePublicKey } from './keys.js';
import {
  nonceModeFromJson,
  nonceModeToJson,
  readTransactionNonce,
  transactionNonceFromJson,
  transactionNonceToJson,
  writeTransactionNonce,
} from './transaction-nonce.js';
import type { AccessKey, Action } from './types.js';
import {
  accessKeyFromView,
  accessKeyToView,
  actionFromJson,
  actionFromView,
  actionToJson,
  actionToView,
} from './views.js';

// Vectors hand-assembled from nearcore's definitions (core/primitives-core/src/account.rs,
// core/primitives/src/action/mod.rs, core/primitives/src/transaction.rs).
const PK = parsePublicKey('ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp');
const PK_HEX = `00${hexEncode(PK.data)}`;
const u128 = (n: bigint) => {
  let hex = '';
  for (let i = 0n; i < 16n; i++)
    hex += Number((n >> (8n * i)) & 0xffn)
      .toString(16)
      .padStart(2, '0');
  return hex;
};

describe('gas-key access key permissions', () => {
  it('GasKeyFullAccess is variant 3: GasKeyInfo { balance u128, num_nonces u16 }', () => {
    const key: AccessKey = {
      nonce: 0n,
      permission: { kind: 'GasKeyFullAccess', gasKeyInfo: { balance: 5n, numNonces: 0x0102 } },
    };
    const hex = `${'00'.repeat(8)}03${u128(5n)}0201`;
    assert.equal(hexEncode(encodeAccessKey(key)), hex);
    assert.deepEqual(decodeAccessKey(hexDecode(hex)), key);
    // nearcore's AccessKey::min_gas_key_borsh_len(): the smallest gas key is 27 bytes.
    assert.equal(encodeAccessKey(gasKeyFullAccessKey(0)).length, 27);
  });

  it('GasKeyFunctionCall is variant 2: GasKeyInfo, then the FunctionCallPermission', () => {
    const key = gasKeyFunctionCallAccessKey(4, 'c.near', ['m'], 7n);
    const hex = [
      '00'.repeat(8),
      '02',
      u128(0n),
      '0400',
      `01${u128(7n)}`,
      '06000000',
      hexEncode(new TextEncoder().encode('c.near')),
      '01000000',
      '01000000',
      '6d',
    ].join('');
    assert.equal(hexEncode(encodeAccessKey(key)), hex);
    assert.deepEqual(decodeAccessKey(hexDecode(hex)), key);
    assert.deepEqual(gasKeyInfoOf(key.permission), { balance: 0n, numNonces: 4 });
    assert.equal(functionCallPermissionOf(key.permission)?.receiverId, 'c.near');
    assert.equal(gasKeyInfoOf({ kind: 'FullAccess' }), null);
    assert.equal(functionCallPermissionOf(gasKeyFullAccessKey(1).permission), null);
  });

  it('rejects permission variant 4', () => {
    assert.throws(
      () => decodeAccessKey(hexDecode(`${'00'.repeat(8)}04`)),
      (e: unknown) => e instanceof BorshError && /AccessKeyPermission variant 4/.test(e.message),
    );
  });

  it('views: flattened in AccessKeyPermissionView, a tuple in the serde form of the permission', () => {
    const key = gasKeyFunctionCallAccessKey(4, 'c.near', ['m']);
    key.permission = { ...key.permission, gasKeyInfo: { balance: 10n ** 24n, numNonces: 4 } } as never;
    const view = accessKeyToView(key);
    assert.deepEqual(view, {
      nonce: 0,
      permission: {
        GasKeyFunctionCall: {
          balance: '1000000000000000000000000',
          num_nonces: 4,
          allowance: null,
          receiver_id: 'c.near',
          method_names: ['m'],
        },
      },
    });
    assert.deepEqual(Object.keys((view.permission as { GasKeyFunctionCall: object }).GasKeyFunctionCall), [
      'balance',
      'num_nonces',
      'allowance',
      'receiver_id',
      'method_names',
    ]);
    assert.deepEqual(accessKeyFromView(view), key);
    const addKey: Action = { type: 'AddKey', publicKey: PK, accessKey: key };
    const json = actionToJson(addKey) as { AddKey: { access_key: { permission: unknown } } };
    assert.deepEqual(json.AddKey.access_key.permission, {
      GasKeyFunctionCall: [
        { balance: '1000000000000000000000000', num_nonces: 4 },
        { allowance: null, receiver_id: 'c.near', method_names: ['m'] },
      ],
    });
    assert.deepEqual(actionFromJson(json), addKey);
    const full = gasKeyFullAccessKey(2);
    assert.deepEqual(accessKeyToView(full).permission, { GasKeyFullAccess: { balance: '0', num_nonces: 2 } });
    assert.deepEqual(accessKeyFromView(accessKeyToView(full)), full);
    assert.throws(
      () =>
        accessKeyFromView({
          nonce: 0,
          permission: { GasKeyFullAccess: { balance: '0', num_nonces: 70000 } },
        }),
      InvalidViewError,
    );
  });
});

describe('gas-key actions', () => {
  it('TransferToGasKey is action 12 { public_key, deposit u128 }', () => {
    const action: Action = { type: 'TransferToGasKey', publicKey: PK, deposit: 10n ** 24n };
    const hex = `0c${PK_HEX}${u128(10n ** 24n)}`;
    assert.equal(hexEncode(encodeAction(action)), hex);
    assert.deepEqual(decodeAction(hexDecode(hex)), action);
    const view = actionToView(action);
    assert.deepEqual(view, {
      TransferToGasKey: {
        public_key: 'ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp',
        deposit: '1000000000000000000000000',
      },
    });
    assert.deepEqual(actionFromView(view), action);
    assert.deepEqual(actionToJson(action), view);
  });

  it('WithdrawFromGasKey is action 13 { public_key, amount u128 }', () => {
    const action: Action = { type: 'WithdrawFromGasKey', publicKey: PK, amount: 5n * 10n ** 23n };
    const hex = `0d${PK_HEX}${u128(5n * 10n ** 23n)}`;
    assert.equal(hexEncode(encodeAction(action)), hex);
    assert.deepEqual(decodeAction(hexDecode(hex)), action);
    const view = actionToView(action);
    assert.deepEqual(view, {
      WithdrawFromGasKey: {
        public_key: 'ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp',
        amount: '500000000000000000000000',
      },
    });
    assert.deepEqual(actionFromView(view), action);
  });

  it('still refuses the variants not represented here', () => {
    // 14 is DelegateV2 (delegate-action-v2.ts), 15 UniversalStateInit; 16 is past the last variant.
    assert.throws(() => decodeAction(Uint8Array.of(16)), /invalid Action variant 16/);
  });
});

describe('TransactionNonce and NonceMode', () => {
  it('borsh: Nonce = 0 { u64 }, GasKeyNonce = 1 { u64, u16 }', () => {
    const plain = encodeBorsh((w) => writeTransactionNonce(w, { kind: 'Nonce', nonce: 9n }));
    assert.equal(hexEncode(plain), '000900000000000000');
    const gk = encodeBorsh((w) =>
      writeTransactionNonce(w, { kind: 'GasKeyNonce', nonce: 9n, nonceIndex: 513 }),
    );
    assert.equal(hexEncode(gk), '0109000000000000000102');
    assert.deepEqual(decodeBorsh(gk, readTransactionNonce), {
      kind: 'GasKeyNonce',
      nonce: 9n,
      nonceIndex: 513,
    });
  });

  it('JSON as serde writes them', () => {
    assert.deepEqual(transactionNonceToJson({ kind: 'Nonce', nonce: 3n }), { Nonce: { nonce: 3 } });
    const gk = { kind: 'GasKeyNonce' as const, nonce: 3n, nonceIndex: 1 };
    assert.deepEqual(transactionNonceToJson(gk), { GasKeyNonce: { nonce: 3, nonce_index: 1 } });
    assert.deepEqual(transactionNonceFromJson({ GasKeyNonce: { nonce: 3, nonce_index: 1 } }), gk);
    assert.throws(
      () => transactionNonceFromJson({ GasKeyNonce: { nonce: 3, nonce_index: 65536 } }),
      InvalidViewError,
    );
    assert.throws(() => transactionNonceFromJson({ Other: { nonce: 3 } }), InvalidViewError);
    assert.equal(nonceModeToJson('Strict'), 'strict');
    assert.equal(nonceModeFromJson('monotonic'), 'Monotonic');
    assert.throws(() => nonceModeFromJson('Strict'), InvalidViewError);
  });
});
