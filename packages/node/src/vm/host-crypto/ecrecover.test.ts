import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { testRandom } from '../../../../../test/test-random.js';
import { HostError } from '../vm-errors.js';
import { ecrecover } from './ecrecover.js';

const rng = testRandom('packages/node/src/vm/host-crypto/ecrecover.test.ts');

const N = secp256k1.Point.CURVE().n;
const be32 = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0'));

function ecrecoverErr(msg: string) {
  return (e: unknown) =>
    e instanceof HostError &&
    e.variant === 'ECRecoverError' &&
    e.fields?.msg === msg &&
    e.display === `ECDSA recover error: ${msg}`;
}

/** A fresh signature from a fixed key: (hash, r‖s, recovery id, uncompressed key without 0x04). */
function signed() {
  const sk = hexToBytes('c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721');
  const hash = hexToBytes('ce0677bb30baa8cf067c88db9811f4333d131bf8bcf12fe7065d211dce971008');
  const rec = secp256k1.sign(hash, sk, { prehash: false, format: 'recovered' });
  const v = BigInt(rec[0]!);
  const sig = rec.subarray(1, 65);
  const pk = secp256k1.getPublicKey(sk, false).subarray(1);
  return { hash, sig, v, pk };
}

describe('ecrecover', () => {
  it("recovers the signer of go-ethereum's ecrecover precompile vector", () => {
    const hash = hexToBytes('456e9aea5e197a1f1af7a3e85a3212fa4049a3ba34c2289b4c860fc0b0c64ef3');
    const sig = hexToBytes(
      '9242685bf161793cc25603c231bc2f568eb630ea16aa137d2664ac8038825608' +
        '4f8ae3bd7535248d0bd448298cc2e2071e56992d0774dc340c368ae950852ada',
    );
    const pk = ecrecover(hash, sig, 1n, 0n); // Ethereum's v = 28
    assert.ok(pk);
    assert.equal(pk.length, 64);
    // The Ethereum address is the last 20 bytes of keccak256(x ‖ y).
    assert.equal(bytesToHex(keccak_256(pk).subarray(12)), '7156526fbd7a3c72969b54f64e42c10fbb768c8a');
    assert.notEqual(bytesToHex(ecrecover(hash, sig, 0n, 0n) ?? new Uint8Array()), bytesToHex(pk));
  });

  it('recovers a freshly signed key with either malleability flag (low S)', () => {
    const { hash, sig, v, pk } = signed();
    assert.equal(bytesToHex(ecrecover(hash, sig, v, 0n)!), bytesToHex(pk));
    assert.equal(bytesToHex(ecrecover(hash, sig, v, 1n)!), bytesToHex(pk));
  });

  it('accepts the high-S twin only without the malleability flag', () => {
    const { hash, sig, v, pk } = signed();
    const s = BigInt(`0x${bytesToHex(sig.subarray(32))}`);
    const high = new Uint8Array([...sig.subarray(0, 32), ...be32(N - s)]);
    assert.equal(bytesToHex(ecrecover(hash, high, v ^ 1n, 0n)!), bytesToHex(pk));
    assert.equal(ecrecover(hash, high, v ^ 1n, 1n), null);
  });

  it('applies check_signature_values bounds: s < n/2+1 with the flag, r and s < n always', () => {
    const { hash, sig, v } = signed();
    const r = sig.subarray(0, 32);
    const halfOne = N / 2n + 1n;
    assert.equal(ecrecover(hash, new Uint8Array([...r, ...be32(halfOne)]), v, 1n), null);
    assert.equal(ecrecover(hash, new Uint8Array([...r, ...be32(N)]), v, 0n), null);
    assert.equal(ecrecover(hash, new Uint8Array([...be32(N), ...sig.subarray(32)]), v, 0n), null);
  });

  it('returns null for zero r or s and for an r that is no x coordinate', () => {
    const { hash, sig, v } = signed();
    assert.equal(ecrecover(hash, new Uint8Array([...be32(0n), ...sig.subarray(32)]), v, 0n), null);
    assert.equal(ecrecover(hash, new Uint8Array([...sig.subarray(0, 32), ...be32(0n)]), v, 0n), null);
    // x = 5 gives x³ + 7 = 132, not a square mod p.
    assert.equal(ecrecover(hash, new Uint8Array([...be32(5n), ...sig.subarray(32)]), 0n, 0n), null);
  });

  it('returns null for recovery ids 2/3 when r + n ≥ p', () => {
    const { hash, sig } = signed();
    assert.equal(ecrecover(hash, sig, 2n, 0n), null);
    assert.equal(ecrecover(hash, sig, 3n, 0n), null);
  });

  it('throws ECRecoverError with nearcore messages, signature length first', () => {
    const { hash, sig } = signed();
    assert.throws(
      () => ecrecover(hash, sig.subarray(0, 63), 0n, 0n),
      ecrecoverErr('The length of the signature: 63, exceeds the limit of 64 bytes'),
    );
    assert.throws(
      () => ecrecover(new Uint8Array(31), new Uint8Array(65), 9n, 7n),
      ecrecoverErr('The length of the signature: 65, exceeds the limit of 64 bytes'),
    );
    assert.throws(
      () => ecrecover(new Uint8Array(31), sig, 4n, 7n),
      ecrecoverErr('V recovery byte 0 through 3 are valid but was provided 4'),
    );
    assert.throws(
      () => ecrecover(new Uint8Array(31), sig, 0n, 7n),
      ecrecoverErr('The length of the hash: 31, exceeds the limit of 32 bytes'),
    );
    assert.throws(
      () => ecrecover(hash, sig, 0n, 2n),
      ecrecoverErr('Malleability flag needs to be 0 or 1, but is instead 2'),
    );
  });
});

describe('ecrecover, repeated inputs', () => {
  it('answers the same again (keys and "no key" alike), and a returned key cannot change the next answer', () => {
    const sk = rng.secp256k1SecretKey();
    const hash = new Uint8Array(32).fill(9);
    const sig = secp256k1.sign(hash, sk, { prehash: false, format: 'recovered' });
    const v = BigInt(sig[0]);
    const expected = bytesToHex(secp256k1.getPublicKey(sk, false).subarray(1));
    const first = ecrecover(hash, sig.subarray(1), v, 0n)!;
    assert.equal(bytesToHex(first), expected);
    first.fill(0);
    assert.equal(bytesToHex(ecrecover(hash, sig.subarray(1), v, 0n)!), expected);
    const zero = new Uint8Array(64);
    assert.equal(ecrecover(hash, zero, 0n, 0n), null);
    assert.equal(ecrecover(hash, zero, 0n, 0n), null);
  });
});
