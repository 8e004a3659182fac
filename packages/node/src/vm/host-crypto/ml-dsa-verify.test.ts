import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyPair } from '@shadebox/primitives';
import { HostError } from '../vm-errors.js';
import { mlDsaVerify } from './ml-dsa-verify.js';

const pair = KeyPair.fromMlDsa65Seed(new Uint8Array(32).fill(9));
const message = new Uint8Array(32).fill(7);
const signature = pair.sign(message).data;
const publicKey = pair.publicKey.data;

function invalidInput(fn: () => unknown, msg: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof HostError);
    assert.equal(e.variant, 'MlDsaVerifyInvalidInput');
    assert.equal(e.fields?.msg, msg);
    return true;
  });
}

describe('mlDsaVerify (ML-DSA-65, FIPS 204)', () => {
  it('accepts a signature made by the transaction signer (pure ML-DSA, empty context)', () => {
    assert.equal(signature.length, 3309);
    assert.equal(publicKey.length, 1952);
    assert.equal(mlDsaVerify(signature, message, publicKey), true);
  });

  it('is false for another message, a changed signature, another key, or an all-zero key', () => {
    const otherMessage = message.slice();
    otherMessage[0] ^= 1;
    assert.equal(mlDsaVerify(signature, otherMessage, publicKey), false);
    const changed = signature.slice();
    changed[100] ^= 0xff;
    assert.equal(mlDsaVerify(changed, message, publicKey), false);
    const other = KeyPair.fromMlDsa65Seed(new Uint8Array(32).fill(1)).publicKey.data;
    assert.equal(mlDsaVerify(signature, message, other), false);
    assert.equal(mlDsaVerify(signature, message, new Uint8Array(1952)), false);
    assert.equal(mlDsaVerify(new Uint8Array(3309), message, publicKey), false);
  });

  it('refuses a wrong signature length first, then a wrong key length (MlDsaVerifyInvalidInput)', () => {
    invalidInput(() => mlDsaVerify(signature.subarray(1), message, publicKey), 'invalid signature length');
    invalidInput(() => mlDsaVerify(new Uint8Array(), message, new Uint8Array()), 'invalid signature length');
    invalidInput(() => mlDsaVerify(signature, message, publicKey.subarray(1)), 'invalid public key length');
    invalidInput(
      () => mlDsaVerify(signature, message, Uint8Array.of(...publicKey, 0)),
      'invalid public key length',
    );
  });
});
