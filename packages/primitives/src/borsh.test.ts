import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testRandom } from '../../../test/test-random.js';
import { decodeAccessKey, encodeAccessKey } from './access-key.js';
import { decodeAction } from './action.js';
import { BorshReader, BorshWriter, decodeBorsh, encodeBorsh } from './borsh.js';
import { signDelegateAction } from './delegate-action.js';
import { hexDecode, hexEncode } from './encoding.js';
import { BorshError } from './errors.js';
import { decodePublicKey, decodeSignature, encodePublicKey } from './key-borsh.js';
import { decodeReceipt, encodeReceipt } from './receipt.js';
import { decodeSignedTransaction, encodeSignedTransaction, signTransaction } from './transaction.js';
import type { Receipt, Transaction } from './types.js';

const rng = testRandom('packages/primitives/src/borsh.test.ts');

function isBorshError(err: unknown): boolean {
  return err instanceof BorshError && typeof err.details.reason === 'string';
}

describe('BorshWriter / BorshReader', () => {
  it('writes little-endian integers, length-prefixed bytes and strings, options and vectors', () => {
    const bytes = encodeBorsh((w) => {
      w.u8(1)
        .u16(0x0203)
        .u32(0x04050607)
        .u64(0x08090a0b0c0d0e0fn)
        .u128((1n << 127n) + 5n)
        .bool(true);
      w.fixedBytes(Uint8Array.from([9, 9]), 2)
        .bytes(Uint8Array.from([7]))
        .string('hé');
      w.option(null, (w, v: number) => w.u8(v)).option(3, (w, v) => w.u8(v));
      w.vec([1, 2], (w, v) => w.u16(v));
    });
    assert.equal(
      hexEncode(bytes),
      [
        '01',
        '0302',
        '07060504',
        '0f0e0d0c0b0a0908',
        '05000000000000000000000000000080',
        '01',
        '0909',
        '0100000007',
        '0300000068c3a9',
        '00',
        '0103',
        '0200000001000200',
      ].join(''),
    );
    const r = new BorshReader(bytes);
    assert.equal(r.u8(), 1);
    assert.equal(r.u16(), 0x0203);
    assert.equal(r.u32(), 0x04050607);
    assert.equal(r.u64(), 0x08090a0b0c0d0e0fn);
    assert.equal(r.u128(), (1n << 127n) + 5n);
    assert.equal(r.bool(), true);
    assert.deepEqual(r.fixedBytes(2), Uint8Array.from([9, 9]));
    assert.deepEqual(r.bytes(), Uint8Array.from([7]));
    assert.equal(r.string(), 'hé');
    assert.equal(
      r.option((r) => r.u8()),
      null,
    );
    assert.equal(
      r.option((r) => r.u8()),
      3,
    );
    assert.deepEqual(
      r.vec((r) => r.u16()),
      [1, 2],
    );
    assert.equal(r.remaining, 0);
    r.finish();
  });

  it('handles the extremes of u64 and u128', () => {
    const max64 = (1n << 64n) - 1n;
    const max128 = (1n << 128n) - 1n;
    const bytes = encodeBorsh((w) => w.u64(max64).u128(max128).u64(0n).u128(0n));
    assert.deepEqual(
      decodeBorsh(bytes, (r) => [r.u64(), r.u128(), r.u64(), r.u128()]),
      [max64, max128, 0n, 0n],
    );
  });

  it('refuses to encode values out of range', () => {
    const w = new BorshWriter();
    for (const write of [
      () => w.u8(256),
      () => w.u8(-1),
      () => w.u8(1.5),
      () => w.u32(2 ** 32),
      () => w.u64(-1n),
      () => w.u64(1n << 64n),
      () => w.u64(5 as unknown as bigint),
      () => w.u128(1n << 128n),
      () => w.fixedBytes(new Uint8Array(3), 32),
      () => w.string(7 as unknown as string),
    ]) {
      assert.throws(write, BorshError);
    }
  });

  it('grows its buffer', () => {
    const big = new Uint8Array(10_000).fill(3);
    const bytes = encodeBorsh((w) => w.bytes(big).u8(1));
    assert.equal(bytes.length, 4 + 10_000 + 1);
    assert.deepEqual(
      decodeBorsh(bytes, (r) => [r.bytes().length, r.u8()]),
      [10_000, 1],
    );
  });

  it('copies out of Buffer inputs into plain Uint8Arrays', () => {
    const input = Buffer.from([2, 0, 0, 0, 5, 6]);
    const out = decodeBorsh(input, (r) => r.bytes());
    assert.equal(Object.getPrototypeOf(out), Uint8Array.prototype);
    input[4] = 9;
    assert.deepEqual(out, Uint8Array.from([5, 6]));
  });
});

describe('malformed borsh input throws BorshError', () => {
  const cases: Array<[string, () => unknown]> = [
    ['truncated u32', () => decodeBorsh(Uint8Array.from([1, 2]), (r) => r.u32())],
    ['truncated u128', () => decodeBorsh(new Uint8Array(15), (r) => r.u128())],
    ['truncated Vec<u8>', () => decodeBorsh(Uint8Array.from([5, 0, 0, 0, 1]), (r) => r.bytes())],
    [
      'huge vector count',
      () => decodeBorsh(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0]), (r) => r.vec((r) => r.u8())),
    ],
    ['bad option tag', () => decodeBorsh(Uint8Array.from([2]), (r) => r.option((r) => r.u8()))],
    ['bad bool', () => decodeBorsh(Uint8Array.from([2]), (r) => r.bool())],
    ['invalid UTF-8', () => decodeBorsh(Uint8Array.from([2, 0, 0, 0, 0xc3, 0x28]), (r) => r.string())],
    [
      'lone surrogate encoded as UTF-8',
      () => decodeBorsh(Uint8Array.from([3, 0, 0, 0, 0xed, 0xa0, 0x80]), (r) => r.string()),
    ],
    ['trailing bytes', () => decodeBorsh(Uint8Array.from([1, 0]), (r) => r.u8())],
    ['empty input', () => decodeBorsh(new Uint8Array(0), (r) => r.u8())],
    ['public key type 2', () => decodePublicKey(Uint8Array.from([2, ...new Uint8Array(32)]))],
    ['short ed25519 key', () => decodePublicKey(Uint8Array.from([0, ...new Uint8Array(31)]))],
    ['ed25519 key with a secp256k1 tag', () => decodePublicKey(Uint8Array.from([1, ...new Uint8Array(32)]))],
    ['signature type 3', () => decodeSignature(Uint8Array.from([3, ...new Uint8Array(64)]))],
    [
      'ed25519 signature with top bits set',
      () => decodeSignature(Uint8Array.from([0, ...new Uint8Array(63), 0x20])),
    ],
    ['action tag 14', () => decodeAction(Uint8Array.from([14]))],
    ['action tag 9 with deploy mode 2', () => decodeAction(Uint8Array.from([9, 0, 0, 0, 0, 2]))],
    ['action tag 10 with identifier tag 2', () => decodeAction(Uint8Array.from([10, 2]))],
    ['access key permission tag 2', () => decodeAccessKey(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 2]))],
    ['account id that is not valid', () => decodeAction(Uint8Array.from([7, 2, 0, 0, 0, 0x41, 0x42]))],
    ['not a Uint8Array', () => decodeBorsh('abc' as unknown as Uint8Array, (r) => r.u8())],
    [
      'a reader callback that throws something else',
      () =>
        decodeBorsh(Uint8Array.from([1]), () => {
          throw new TypeError('boom');
        }),
    ],
  ];
  for (const [name, run] of cases) {
    it(name, () => assert.throws(run, isBorshError));
  }

  it('decodes valid access keys and public keys byte for byte', () => {
    const ak = { nonce: 7n, permission: { kind: 'FullAccess' } } as const;
    assert.equal(hexEncode(encodeAccessKey(ak)), '070000000000000001');
    assert.deepEqual(decodeAccessKey(hexDecode('070000000000000001')), ak);
    const pk = rng.keyPair().publicKey;
    assert.deepEqual(decodePublicKey(encodePublicKey(pk)), pk);
  });
});

describe('fuzzing the decoders', () => {
  const signer = rng.keyPair('ed25519');
  const secp = rng.keyPair('secp256k1');
  const tx: Transaction = {
    version: 1,
    signerId: 'alice.near',
    publicKey: signer.publicKey,
    nonce: 12n,
    receiverId: 'bob.near',
    blockHash: new Uint8Array(32).fill(4),
    actions: [
      { type: 'FunctionCall', methodName: 'go', args: Uint8Array.from([1, 2]), gas: 10n ** 13n, deposit: 1n },
      {
        type: 'AddKey',
        publicKey: secp.publicKey,
        accessKey: {
          nonce: 0n,
          permission: { kind: 'FunctionCall', allowance: 5n, receiverId: 'c.near', methodNames: ['a'] },
        },
      },
      {
        type: 'Delegate',
        signedDelegateAction: signDelegateAction(
          {
            senderId: 'alice.near',
            receiverId: 'c.near',
            actions: [{ type: 'Transfer', deposit: 3n }, { type: 'CreateAccount' }],
            nonce: 1n,
            maxBlockHeight: 100n,
            publicKey: signer.publicKey,
          },
          signer,
        ),
      },
    ],
    priorityFee: 2n,
  };
  const stxBytes = encodeSignedTransaction(signTransaction(tx, signer));
  const receipt: Receipt = {
    predecessorId: 'alice.near',
    receiverId: 'bob.near',
    receiptId: new Uint8Array(32).fill(1),
    receipt: {
      kind: 'Action',
      signerId: 'alice.near',
      signerPublicKey: signer.publicKey,
      gasPrice: 100n,
      outputDataReceivers: [{ dataId: new Uint8Array(32).fill(2), receiverId: 'c.near' }],
      inputDataIds: [new Uint8Array(32).fill(3)],
      actions: tx.actions,
      isPromiseYield: false,
    },
    priority: 5n,
  };
  const receiptBytes = encodeReceipt(receipt);

  // A deterministic PRNG so failures reproduce.
  let seed = 0x12345678;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed % n;
  };

  for (const [name, bytes, decode] of [
    ['signed transaction', stxBytes, decodeSignedTransaction],
    ['receipt', receiptBytes, decodeReceipt],
  ] as const) {
    it(`every truncation of a ${name} throws BorshError`, () => {
      for (let len = 0; len < bytes.length; len++) {
        assert.throws(() => decode(bytes.subarray(0, len)), isBorshError, `length ${len}`);
      }
      assert.throws(() => decode(Uint8Array.from([...bytes, 0])), isBorshError);
    });

    it(`random corruptions of a ${name} decode or throw BorshError, never anything else`, () => {
      for (let i = 0; i < 3000; i++) {
        const mutated = Uint8Array.from(bytes);
        const flips = 1 + rand(3);
        for (let j = 0; j < flips; j++) mutated[rand(mutated.length)] = rand(256);
        try {
          decode(mutated);
        } catch (err) {
          assert.ok(isBorshError(err), `iteration ${i}: ${String(err)}`);
        }
      }
    });
  }
});
