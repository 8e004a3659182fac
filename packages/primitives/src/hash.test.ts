import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base58Encode, hexEncode, utf8Encode } from './encoding.js';
import { EncodingError } from './errors.js';
import {
  combineHash,
  cryptoHashToString,
  isCryptoHash,
  keccak256,
  parseCryptoHash,
  sha256,
  ZERO_HASH,
} from './hash.js';

describe('hashes', () => {
  it('sha256 and keccak256 match the standard test vectors', () => {
    assert.equal(
      hexEncode(sha256(utf8Encode('abc'))),
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    assert.equal(
      hexEncode(keccak256(new Uint8Array(0))),
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
  });

  it('combineHash is sha256 of the concatenation', () => {
    const a = sha256(utf8Encode('a'));
    const b = sha256(utf8Encode('b'));
    const joined = new Uint8Array(64);
    joined.set(a);
    joined.set(b, 32);
    assert.deepEqual(combineHash(a, b), sha256(joined));
    assert.notDeepEqual(combineHash(a, b), combineHash(b, a));
  });

  it('gives each digest as a plain Uint8Array of its own, for views and for halves longer than 64 bytes', () => {
    const backing = utf8Encode('..abc..');
    const first = sha256(backing.subarray(2, 5));
    assert.equal(hexEncode(first), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(Object.getPrototypeOf(first), Uint8Array.prototype);
    assert.equal(first.buffer.byteLength, 32);
    const copy = first.slice();
    sha256(utf8Encode('something else'));
    combineHash(first, first);
    assert.deepEqual(first, copy, 'later digests leave it alone');
    const long = new Uint8Array(40).fill(1);
    const other = new Uint8Array(41).fill(2);
    const joined = new Uint8Array(81);
    joined.set(long);
    joined.set(other, 40);
    assert.deepEqual(combineHash(long, other), sha256(joined));
  });

  it('CryptoHash strings are base58 of exactly 32 bytes', () => {
    assert.equal(cryptoHashToString(ZERO_HASH), '11111111111111111111111111111111');
    const h = sha256(utf8Encode('x'));
    assert.deepEqual(parseCryptoHash(cryptoHashToString(h)), h);
    assert.throws(() => parseCryptoHash(base58Encode(new Uint8Array(31))), EncodingError);
    assert.throws(() => parseCryptoHash(base58Encode(new Uint8Array(33))), EncodingError);
    assert.throws(() => parseCryptoHash('0OIl'), EncodingError);
    assert.throws(() => cryptoHashToString(new Uint8Array(31)), EncodingError);
    assert.equal(isCryptoHash(cryptoHashToString(h)), true);
    assert.equal(isCryptoHash('abc'), false);
    assert.equal(isCryptoHash(42), false);
  });
});
