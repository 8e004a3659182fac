/**
 * FixMlDsaCostCharging (protocol 87, nearcore 2.14 87.yaml `fix_ml_dsa_cost_charging`): the execution fees of
 * gas-key actions are priced on the key's stored length (`trie_id_len`: an ML-DSA-65 key is stored as a
 * 33-byte handle) instead of its wire length (1 + 1,952 bytes); send fees keep the wire length. Keys whose two
 * lengths agree (ed25519, secp256k1) cost the same at 86 and 87.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Action, KEY_TYPE_ED25519, type PublicKey } from '@shadebox/primitives';
import { execFee, feeContextFrom, totalSendFees } from './fees.js';
import { loadRuntimeConfig } from './runtime-config.js';

const mlDsa: PublicKey = { keyType: 2, data: new Uint8Array(1952).fill(7) };
const ed25519: PublicKey = { keyType: KEY_TYPE_ED25519, data: new Uint8Array(32).fill(7) };
const ACCOUNT = 'alice.near'; // 10 bytes

function fees(version: number, action: Action) {
  const ctx = feeContextFrom(loadRuntimeConfig(version));
  return { send: totalSendFees(ctx, true, [action], ACCOUNT), exec: execFee(ctx, action, ACCOUNT) };
}

describe('FixMlDsaCostCharging', () => {
  const transfer = (publicKey: PublicKey): Action => ({ type: 'TransferToGasKey', publicKey, deposit: 1n });
  const rc = loadRuntimeConfig(87);
  const base = rc.fees.gas_key_transfer_base.execution;
  const byte = rc.fees.gas_key_byte.execution;
  // access_key_key_len (1 + account + 1 + key) and the smallest gas key (27 bytes).
  const execOn = (keyLen: bigint) => base + byte * (1n + 10n + 1n + keyLen + 27n);

  it('TransferToGasKey with an ML-DSA-65 key: execution priced on 1,953 bytes at 86, on 33 at 87', () => {
    assert.equal(fees(86, transfer(mlDsa)).exec, execOn(1953n));
    assert.equal(fees(87, transfer(mlDsa)).exec, execOn(33n));
    // Sending is priced on the wire length at both.
    assert.equal(fees(86, transfer(mlDsa)).send, fees(87, transfer(mlDsa)).send);
  });

  it('an ed25519 key costs the same at 86 and 87', () => {
    assert.deepEqual(fees(86, transfer(ed25519)), fees(87, transfer(ed25519)));
    assert.equal(fees(87, transfer(ed25519)).exec, execOn(33n));
  });

  it("adding an ML-DSA-65 gas key: its nonces' keys priced on the stored length at 87", () => {
    const addKey: Action = {
      type: 'AddKey',
      publicKey: mlDsa,
      accessKey: {
        nonce: 0n,
        permission: { kind: 'GasKeyFullAccess', gasKeyInfo: { balance: 0n, numNonces: 2 } },
      },
    };
    const at86 = fees(86, addKey).exec;
    const at87 = fees(87, addKey).exec;
    // Two nonce entries, each (1 + 10 + 1 + key + 2) + 8 bytes: 1,920 bytes fewer per entry at 87.
    assert.equal(at86 - at87, rc.fees.gas_key_byte.execution * 2n * (1953n - 33n));
  });
});
