/**
 * The page's copy of the chain-signature derivation (derive.ts) against @shadebox/mpc, the node-side one
 * the responder signs with: same derived keys and addresses for both domains and several paths.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  bitcoinP2wpkhAddress,
  derivedPublicKey,
  ed25519PublicKeyToNaj,
  evmAddress,
  secp256k1PublicKeyOf,
  secp256k1PublicKeyToNaj,
  solanaAddress,
} from '@shadebox/mpc';
import { hex } from './decode.js';
import { deriveAddresses, tweakOf } from './derive.js';

const secpRoot = secp256k1PublicKeyToNaj(secp256k1PublicKeyOf(new Uint8Array(32).fill(3)));
const edRoot = ed25519PublicKeyToNaj(ed25519.getPublicKey(new Uint8Array(32).fill(5)));

test('derived keys and addresses match @shadebox/mpc', () => {
  for (const [predecessor, path] of [
    ['agent.test.near', 'ethereum-1'],
    ['test.near', ''],
    ['a-very-long-account-name.some-parent.test.near', 'bitcoin,with,commas/and/slashes'],
  ]) {
    const secp = deriveAddresses(secpRoot, predecessor, path);
    const expectedSecp = derivedPublicKey(secpRoot, predecessor, path, 0);
    assert.equal(secp.publicKey, expectedSecp);
    assert.equal(secp.evm, evmAddress(expectedSecp));
    assert.equal(secp.bitcoin, bitcoinP2wpkhAddress(expectedSecp, 'testnet'));
    assert.match(secp.bitcoin!, /^tb1q[02-9ac-hj-np-z]{38}$/);
    const ed = deriveAddresses(edRoot, predecessor, path);
    const expectedEd = derivedPublicKey(edRoot, predecessor, path, 1);
    assert.equal(ed.publicKey, expectedEd);
    assert.equal(ed.solana, solanaAddress(expectedEd));
  }
});

test('the tweak is sha3-256 of the prefix, predecessor, comma and path', () => {
  // Node's own SHA3 as the oracle.
  for (const [predecessor, path] of [
    ['alice.near', ''],
    ['agent.test.near', 'ethereum-1'],
  ]) {
    const expected = createHash('sha3-256')
      .update(`near-mpc-recovery v0.1.0 epsilon derivation:${predecessor},${path}`)
      .digest('hex');
    assert.equal(hex(tweakOf(predecessor, path)), expected);
  }
});
