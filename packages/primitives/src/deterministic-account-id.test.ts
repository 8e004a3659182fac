import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isImplicitAccount, isValidAccountId } from './account-id.js';
import { deterministicAccountIdOfBorsh, isNearDeterministicAccount } from './deterministic-account-id.js';

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
});
