import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { bytesToHex } from '@noble/hashes/utils.js';
import {
  keccak256,
  keccak512,
  ripemd160,
  ripemd160Blocks,
  sha3_256,
  sha3_384,
  sha3_512,
  sha256,
} from './hashes.js';

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

  // NIST's FIPS 202 examples: the empty message, "abc", and 1600 bits of 0xa3.
  const A3 = new Uint8Array(200).fill(0xa3);
  const SHA3: [string, (data: Uint8Array) => Uint8Array, [Uint8Array, string][]][] = [
    [
      'sha3-256',
      sha3_256,
      [
        [new Uint8Array(), 'a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a'],
        [text('abc'), '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532'],
        [A3, '79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787'],
      ],
    ],
    [
      'sha3-384',
      sha3_384,
      [
        [
          new Uint8Array(),
          '0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004',
        ],
        [
          text('abc'),
          'ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25',
        ],
        [
          A3,
          '1881de2ca7e41ef95dc4732b8f5f002b189cc1e42b74168ed1732649ce1dbcdd76197a31fd55ee989f2d7050dd473e8f',
        ],
      ],
    ],
    [
      'sha3-512',
      sha3_512,
      [
        [
          new Uint8Array(),
          'a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6' +
            '15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26',
        ],
        [
          text('abc'),
          'b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e' +
            '10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0',
        ],
        [
          A3,
          'e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca8' +
            '1b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00',
        ],
      ],
    ],
  ];

  it('sha3_256 / sha3_384 / sha3_512 match the FIPS 202 vectors (and are not Keccak)', () => {
    for (const [name, fn, vectors] of SHA3) {
      for (const [message, digest] of vectors) assert.equal(bytesToHex(fn(message)), digest, name);
    }
    assert.notEqual(bytesToHex(sha3_256(new Uint8Array())), bytesToHex(keccak256(new Uint8Array())));
  });

  it('sha3_* agree with an independent implementation (Node/OpenSSL) on every length 0..300', () => {
    for (const [name, fn] of SHA3) {
      for (let len = 0; len <= 300; len++) {
        const data = new Uint8Array(len).map((_, i) => (i * 31 + len) & 0xff);
        assert.equal(bytesToHex(fn(data)), createHash(name).update(data).digest('hex'), `${name} ${len}`);
      }
    }
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
