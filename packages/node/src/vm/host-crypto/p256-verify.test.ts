import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { p256 } from '@noble/curves/nist.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { HostError } from '../vm-errors.js';
import { p256Verify } from './p256-verify.js';

// Wycheproof ecdsa_secp256r1_sha256_p1363 vectors, as used by nearcore's p256_verify tests.
const PK1 = hexToBytes('022927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838');
const MSG1 = hexToBytes('313233343030');
const SIG1 = hexToBytes(
  '2ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18' +
    '4cd60b855d442f5b3c7b11eb6c4e0ae7525fe710fab9aa7c77a67f79e6fadd76',
);

function invalidInput(msg: string) {
  return (e: unknown) =>
    e instanceof HostError && e.variant === 'P256VerifyInvalidInput' && e.fields?.msg === msg;
}

describe('p256Verify', () => {
  it('accepts a valid signature over the SHA-256 of the message (Wycheproof tcId 1)', () => {
    assert.equal(p256Verify(SIG1, MSG1, PK1), true);
    assert.equal(p256Verify(SIG1, hexToBytes('313233343031'), PK1), false);
  });

  it('accepts high-S signatures (Wycheproof tcId 171)', () => {
    const pk = hexToBytes('0268ec6e298eafe16539156ce57a14b04a7047c221bafc3a582eaeb0d857c4d946');
    const half = '7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a9';
    assert.equal(p256Verify(hexToBytes(half + half), MSG1, pk), true);
  });

  it('verifies signatures made by another implementation, and only for their key', () => {
    const sk = hexToBytes('c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721');
    const msg = new Uint8Array(32).fill(7);
    const sig = p256.sign(msg, sk); // compact r ‖ s over sha256(msg)
    const pk = p256.getPublicKey(sk, true);
    assert.equal(p256Verify(sig, msg, pk), true);
    const other = p256.getPublicKey(hexToBytes(`${'11'.repeat(31)}21`), true);
    assert.equal(p256Verify(sig, msg, other), false);
  });

  it('returns false for out-of-range r/s (Wycheproof tcIds 11, 18, 25) and r replaced by n − r (tcId 4)', () => {
    const zero = '00'.repeat(32);
    const one = `${'00'.repeat(31)}01`;
    const n = 'ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551';
    assert.equal(p256Verify(hexToBytes(zero + zero), MSG1, PK1), false);
    assert.equal(p256Verify(hexToBytes(one + zero), MSG1, PK1), false);
    assert.equal(p256Verify(hexToBytes(n + zero), MSG1, PK1), false);
    const tc4 =
      'd45c5740946b2a147f59262ee6f5bc90bd01ed280528b62b3aed5fc93f06f739' +
      'b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db';
    assert.equal(p256Verify(hexToBytes(tc4), MSG1, PK1), false);
  });

  it('returns false for keys that do not decode', () => {
    const badTag = PK1.slice();
    badTag[0] = 0x05;
    assert.equal(p256Verify(SIG1, MSG1, badTag), false);
    assert.equal(p256Verify(SIG1, MSG1, new Uint8Array(33)), false);
  });

  it('throws P256VerifyInvalidInput for wrong lengths, in nearcore order', () => {
    assert.throws(
      () => p256Verify(SIG1.subarray(0, 63), MSG1, PK1),
      invalidInput('invalid signature length'),
    );
    assert.throws(() => p256Verify(new Uint8Array(), MSG1, PK1), invalidInput('invalid signature length'));
    assert.throws(
      () => p256Verify(SIG1, MSG1, PK1.subarray(0, 32)),
      invalidInput('invalid public key length'),
    );
    // Only compressed keys: a 65-byte uncompressed key is a length error.
    const uncompressed = p256.Point.fromBytes(PK1).toBytes(false);
    assert.throws(() => p256Verify(SIG1, MSG1, uncompressed), invalidInput('invalid public key length'));
    // A signature that fails to parse is rejected before the key length is looked at.
    assert.equal(p256Verify(new Uint8Array(64), MSG1, PK1.subarray(0, 32)), false);
  });
});
