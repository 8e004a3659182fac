import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bytesToHex } from '@noble/hashes/utils.js';
import { keccak256, keccak512, ripemd160, ripemd160Blocks, sha256 } from './hashes.js';

const text = (s: string) => new TextEncoder().encode(s);

describe('hash host functions', () => {
  it('sha256 matches the FIPS 180 vectors', () => {
    assert.equal(
      bytesToHex(sha256(text('abc'))),
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    assert.equal(
      bytesToHex(sha256(new Uint8Array())),
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('keccak256 / keccak512 are the original Keccak, not SHA3', () => {
    assert.equal(
      bytesToHex(keccak256(new Uint8Array())),
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    assert.equal(
      bytesToHex(keccak256(text('abc'))),
      '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
    assert.equal(
      bytesToHex(keccak512(new Uint8Array())),
      '0eab42de4c3ceb9235fc91acffe746b29c29a8c366b7c60e4e67c466f36a4304' +
        'c00fa9caf9d87976ba469bcbe06713b435f091ef2769fb160cdab33d3670680e',
    );
  });

  it('ripemd160 matches the reference vectors', () => {
    assert.equal(bytesToHex(ripemd160(new Uint8Array())), '9c1185a5c5e9fc54612808977ee8f548b2258d31');
    assert.equal(bytesToHex(ripemd160(text('abc'))), '8eb208f7e05d987a9b044a8e98c6b087f15a0bfc');
  });

  it('ripemd160Blocks counts padded 64-byte blocks as nearcore bills them', () => {
    assert.equal(ripemd160Blocks(0), 1n);
    assert.equal(ripemd160Blocks(55), 1n); // 55 + 1 pad + 8 length = 64
    assert.equal(ripemd160Blocks(56), 2n);
    assert.equal(ripemd160Blocks(119), 2n);
    assert.equal(ripemd160Blocks(120), 3n);
    assert.equal(ripemd160Blocks(1000n), 16n);
  });
});
