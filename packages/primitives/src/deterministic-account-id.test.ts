import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isImplicitAccount, isValidAccountId } from './account-id.js';
import { decodeAction, encodeAction } from './action.js';
import { deterministicAccountIdOfBorsh, isNearDeterministicAccount } from './deterministic-account-id.js';
import { BorshError } from './errors.js';
import {
  deterministicAccountId,
  encodeStateInit,
  setStateInitEntry,
  stateInit,
  stateInitDataBytes,
} from './state-init.js';
import type { Action } from './types.js';
import { actionFromJson, actionFromView, actionToJson, actionToView } from './views.js';

const hex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

/**
 * A state init deployed on mainnet (nearcore core/primitives/src/universal_state_init vectors: the near/intents
 * ed25519 wallet, account 0scdb6cfeed476fc878af9d3246768cbe803714c87, its global code by account id and one
 * data entry under the empty key), borsh written out field by field.
 */
const WALLET_GLOBAL_CONTRACT = '0sb0d7ef4f935c6ef78e08ad03569767aaec4223a3';
const WALLET_STATE = hex(
  '01' + // signature_enabled
    '00000000' + // subwallet_id
    '8565df94b8caab08f28cdd2ee014b800915741d4694fa840e50cca02ae5c6466' + // public key
    '100e0000' + // timeout 3600
    '0000000000000000' + // last_cleaned_at
    '00000000' + // nonces.old
    '00000000' + // nonces.current
    '00000000', // extensions
);
const WALLET_STATE_INIT_BORSH = new Uint8Array(
  Buffer.concat([
    hex('00'), // DeterministicAccountStateInit::V1
    hex('01'), // GlobalContractIdentifier::AccountId
    u32(WALLET_GLOBAL_CONTRACT.length),
    Buffer.from(WALLET_GLOBAL_CONTRACT),
    u32(1), // one data entry
    u32(0), // key: empty
    u32(WALLET_STATE.length),
    WALLET_STATE,
  ]),
);
const WALLET_ACCOUNT_ID = '0scdb6cfeed476fc878af9d3246768cbe803714c87';

describe('deterministic account ids (NEP-616)', () => {
  it('derives the id of a state init deployed on mainnet', () => {
    assert.equal(WALLET_STATE.length, 61);
    assert.equal(deterministicAccountIdOfBorsh(WALLET_STATE_INIT_BORSH), WALLET_ACCOUNT_ID);
  });

  it('knows the 0s + 40 lowercase hex shape, an implicit and valid account id', () => {
    for (const id of [WALLET_ACCOUNT_ID, WALLET_GLOBAL_CONTRACT, `0s${'0'.repeat(40)}`]) {
      assert.equal(isNearDeterministicAccount(id), true, id);
      assert.equal(isImplicitAccount(id), true, id);
      assert.equal(isValidAccountId(id), true, id);
    }
    for (const id of [
      WALLET_ACCOUNT_ID.slice(0, -1),
      `${WALLET_ACCOUNT_ID}0`,
      `0S${WALLET_ACCOUNT_ID.slice(2)}`,
      `0s${WALLET_ACCOUNT_ID.slice(2).toUpperCase()}`,
      `0s${'g'.repeat(40)}`,
      `0x${WALLET_ACCOUNT_ID.slice(2)}`,
      'alice.near',
    ]) {
      assert.equal(isNearDeterministicAccount(id), false, id);
    }
  });

  it('encodes the state init as nearcore does and derives the same id from the typed form', () => {
    const init = stateInit({ kind: 'AccountId', accountId: WALLET_GLOBAL_CONTRACT }, [
      [new Uint8Array(0), WALLET_STATE],
    ]);
    assert.deepEqual(encodeStateInit(init), WALLET_STATE_INIT_BORSH);
    assert.equal(deterministicAccountId(init), WALLET_ACCOUNT_ID);
  });

  it('keeps the data as a BTreeMap: sorted by key bytes, the last value of a key wins', () => {
    const b = (s: string) => new Uint8Array(Buffer.from(s));
    const code = { kind: 'CodeHash' as const, codeHash: new Uint8Array(32).fill(7) };
    const init = stateInit(code, [
      [b('b'), b('1')],
      [b('ab'), b('2')],
      [b('a'), b('3')],
      [b('b'), b('4')],
    ]);
    assert.deepEqual(
      init.data.map(([k, v]) => [Buffer.from(k).toString(), Buffer.from(v).toString()]),
      [
        ['a', '3'],
        ['ab', '2'],
        ['b', '4'],
      ],
    );
    setStateInitEntry(init, b('aa'), b('5'));
    setStateInitEntry(init, b('a'), b('6'));
    assert.deepEqual(
      init.data.map(([k]) => Buffer.from(k).toString()),
      ['a', 'aa', 'ab', 'b'],
    );
    assert.equal(stateInitDataBytes(init), 1n + 1n + 2n + 1n + 2n + 1n + 1n + 1n);
  });

  it('writes action 11 in borsh and reads it back; refuses keys out of order', () => {
    const init = stateInit({ kind: 'AccountId', accountId: WALLET_GLOBAL_CONTRACT }, [
      [new Uint8Array(0), WALLET_STATE],
    ]);
    const action: Action = { type: 'DeterministicStateInit', stateInit: init, deposit: 10n ** 24n + 5n };
    const bytes = encodeAction(action);
    assert.equal(bytes[0], 11);
    assert.deepEqual(bytes.subarray(1, 1 + WALLET_STATE_INIT_BORSH.length), WALLET_STATE_INIT_BORSH);
    assert.equal(bytes.length, 1 + WALLET_STATE_INIT_BORSH.length + 16);
    assert.deepEqual(decodeAction(bytes), action);

    // Two entries, written in descending key order.
    const unordered = hex(
      `0b00${'00'.repeat(33)}02000000` +
        `0100000062` +
        `00000000` +
        `0100000061` +
        `00000000` +
        '00'.repeat(16),
    );
    assert.throws(() => decodeAction(unordered), BorshError);
    // The same entries in order decode.
    const ordered = hex(
      `0b00${'00'.repeat(33)}02000000` +
        `0100000061` +
        `00000000` +
        `0100000062` +
        `00000000` +
        '00'.repeat(16),
    );
    assert.equal((decodeAction(ordered) as { stateInit: { data: unknown[] } }).stateInit.data.length, 2);
  });

  it("shows the action as nearcore's ActionView and serde form, and reads both back", () => {
    const code = { kind: 'CodeHash' as const, codeHash: new Uint8Array(32).fill(1) };
    const init = stateInit(code, [
      [new Uint8Array([1]), new Uint8Array([2])],
      [new Uint8Array(0), new Uint8Array([3])],
    ]);
    const action: Action = { type: 'DeterministicStateInit', stateInit: init, deposit: 8n };
    const view = actionToView(action);
    assert.deepEqual(view, {
      DeterministicStateInit: {
        code: { hash: '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi' },
        data: { '': 'Aw==', 'AQ==': 'Ag==' },
        deposit: '8',
      },
    });
    assert.deepEqual(actionFromView(view), action);
    const json = actionToJson(action);
    assert.deepEqual(json, {
      DeterministicStateInit: {
        state_init: {
          V1: {
            code: { CodeHash: '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi' },
            data: { '': 'Aw==', 'AQ==': 'Ag==' },
          },
        },
        deposit: '8',
      },
    });
    assert.deepEqual(actionFromJson(json), action);
    const byAccount: Action = {
      type: 'DeterministicStateInit',
      stateInit: stateInit({ kind: 'AccountId', accountId: 'code.near' }, []),
      deposit: 0n,
    };
    assert.deepEqual(actionToView(byAccount), {
      DeterministicStateInit: { code: { account_id: 'code.near' }, data: {}, deposit: '0' },
    });
    assert.deepEqual(actionFromView(actionToView(byAccount)), byAccount);
  });
});
