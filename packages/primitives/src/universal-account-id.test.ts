import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isImplicitAccount } from './account-id.js';
import { decodeAction, encodeAction } from './action.js';
import { hexDecode } from './encoding.js';
import { KEY_HANDLE_ML_DSA_65_HASH } from './public-key-handle.js';
import {
  encodeUniversalAccountId,
  isUniversalAccount,
  universalAccountIdOfRaw,
} from './universal-account-id.js';
import {
  decodeUniversalStateInit,
  encodeUniversalStateInit,
  tryDecodeUniversalStateInit,
  universalAccountId,
  universalStateInit,
  universalStateInitCounts,
} from './universal-state-init.js';
import { actionFromJson, actionToJson, actionToView } from './views.js';

// nearcore core/primitives-core/src/universal_account_id.rs `KATS`.
const KATS: [Uint8Array, string][] = [
  [new Uint8Array(32), '0u0000000000000000000000000000000000000000000000000000'],
  [new Uint8Array(32).fill(0xff), '0uzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzg'],
  [Uint8Array.from({ length: 32 }, (_, i) => i), '0u000g40r40m30e209185gr38e1w8124gk2gahc5rr34d1p70x3rfg'],
  [
    Uint8Array.from({ length: 32 }, (_, i) => (7 * i) % 256),
    '0u003gw58w4cn32e1z8s6n8pv2d5r7ezm5hj9sn8d8nyvbvh6btbcg',
  ],
];

describe('universal account ids', () => {
  it("encodes nearcore's known-answer vectors", () => {
    for (const [hash, id] of KATS) {
      assert.equal(encodeUniversalAccountId(hash), id);
      assert.equal(id.length, 54);
      assert.ok(isUniversalAccount(id));
      assert.ok(isImplicitAccount(id));
    }
  });

  it("derives nearcore's id of a key-only state init (one ML-DSA-65 handle of 0x11 bytes)", () => {
    const init = universalStateInit(
      null,
      [],
      [{ keyType: KEY_HANDLE_ML_DSA_65_HASH, data: new Uint8Array(32).fill(0x11) }],
    );
    assert.equal(universalAccountId(init), '0ux8te7g99f9kqzdtp9h4qnwt9aczpgayymmtbdc50w199rcw3at1g');
  });

  it('classifies only canonical spellings as universal', () => {
    const valid = encodeUniversalAccountId(new Uint8Array(32).fill(0x11));
    assert.ok(isUniversalAccount(valid));
    assert.equal(isUniversalAccount(valid.slice(0, 53)), false);
    assert.equal(isUniversalAccount(`${valid}0`), false);
    assert.equal(isUniversalAccount(`0s${valid.slice(2)}`), false);
    let accepted = 0;
    for (const symbol of '0123456789abcdefghjkmnpqrstvwxyz') {
      if (isUniversalAccount(valid.slice(0, 53) + symbol)) accepted++;
    }
    assert.equal(accepted, 2);
    for (const bad of 'ilou')
      assert.equal(isUniversalAccount(valid.slice(0, 27) + bad + valid.slice(28)), false);
  });

  it('derives from the bytes as sent: a non-canonical encoding names another account', () => {
    // V1, no code, two entries in descending order, no keys.
    const raw = hexDecode(
      '0000' + '02000000' + '0100000062' + '00000000' + '0100000061' + '00000000' + '00000000',
    );
    const decoded = decodeUniversalStateInit(raw);
    assert.deepEqual(
      decoded.data.map(([k]) => k[0]),
      [0x61, 0x62],
    );
    assert.notDeepEqual(encodeUniversalStateInit(decoded), raw);
    assert.notEqual(universalAccountIdOfRaw(raw), universalAccountId(decoded));
  });

  it('rejects malformed and trailing bytes; counts what decodes', () => {
    const raw = encodeUniversalStateInit(
      universalStateInit(null, [[Uint8Array.of(1), Uint8Array.of(2)]], []),
    );
    assert.equal(tryDecodeUniversalStateInit(Uint8Array.of(...raw, 0)), null);
    assert.equal(tryDecodeUniversalStateInit(new Uint8Array()), null);
    assert.equal(tryDecodeUniversalStateInit(Uint8Array.of(0)), null);
    assert.deepEqual(universalStateInitCounts(raw), { numBytes: raw.length, numEntries: 1, numKeys: 0 });
    assert.deepEqual(universalStateInitCounts(Uint8Array.of(7, 7, 7)), {
      numBytes: 3,
      numEntries: 0,
      numKeys: 0,
    });
  });

  it('is action 15 in borsh and {state_init, deposit} in JSON', () => {
    const action = { type: 'UniversalStateInit' as const, stateInit: Uint8Array.of(4, 5, 6), deposit: 7n };
    const bytes = encodeAction(action);
    assert.deepEqual([...bytes], [15, 3, 0, 0, 0, 4, 5, 6, 7, ...new Array(15).fill(0)]);
    assert.deepEqual(decodeAction(bytes), action);
    const json = { UniversalStateInit: { state_init: 'BAUG', deposit: '7' } };
    assert.deepEqual(actionToView(action), json);
    assert.deepEqual(actionToJson(action), json);
    assert.deepEqual(actionFromJson(json), action);
  });
});
