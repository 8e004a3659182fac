import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testRandom } from '../../../test/test-random.js';
import { base58Encode, hexDecode, hexEncode } from './encoding.js';
import { BorshError } from './errors.js';
import { cryptoHashToString, sha256 } from './hash.js';
import { parsePublicKey } from './keys.js';
import {
  createTransaction,
  decodeSignedTransaction,
  decodeTransaction,
  encodeSignedTransaction,
  encodeTransaction,
  signTransaction,
  transactionHash,
  verifyTransactionSignature,
} from './transaction.js';
import type { SignedTransaction, Transaction } from './types.js';

const rng = testRandom('packages/primitives/src/transaction.test.ts');

// nearcore's change-checker test (core/primitives/src/transaction.rs, `test_serialize_transaction`): this
// transaction, signed with an all-zero ed25519 signature, has the hash below.
describe('nearcore transaction vector', () => {
  const pk = parsePublicKey('22skMptHjFWNyuEWY22ftn2AbLPSYpmYwGJRGwpNHbTV');
  const tx: Transaction = {
    version: 0,
    signerId: 'test.near',
    publicKey: pk,
    nonce: 1n,
    receiverId: '123',
    blockHash: new Uint8Array(32),
    actions: [
      { type: 'CreateAccount' },
      { type: 'DeployContract', code: Uint8Array.from([1, 2, 3]) },
      {
        type: 'FunctionCall',
        methodName: 'qqq',
        args: Uint8Array.from([1, 2, 3]),
        gas: 1000n,
        deposit: 1_000_000n,
      },
      { type: 'Transfer', deposit: 123n },
      { type: 'Stake', stake: 1_000_000n, publicKey: pk },
      {
        type: 'AddKey',
        publicKey: pk,
        accessKey: {
          nonce: 0n,
          permission: { kind: 'FunctionCall', allowance: null, receiverId: 'zzz', methodNames: ['www'] },
        },
      },
      { type: 'DeleteKey', publicKey: pk },
      { type: 'DeleteAccount', beneficiaryId: '123' },
    ],
  };

  it('hashes to 4GXvjMFN6wSxnU9jEVT8HbXP5Yk6yELX9faRSKp6n9fX', () => {
    assert.equal(cryptoHashToString(transactionHash(tx)), '4GXvjMFN6wSxnU9jEVT8HbXP5Yk6yELX9faRSKp6n9fX');
    const stx: SignedTransaction = { transaction: tx, signature: { keyType: 0, data: new Uint8Array(64) } };
    const decoded = decodeSignedTransaction(encodeSignedTransaction(stx));
    assert.equal(cryptoHashToString(decoded.hash), '4GXvjMFN6wSxnU9jEVT8HbXP5Yk6yELX9faRSKp6n9fX');
    assert.deepEqual(decoded.signedTransaction, stx);
  });
});

describe('TransactionV1', () => {
  const pkBytes = new Uint8Array(32).fill(0xab);
  const tx: Transaction = {
    version: 1,
    signerId: 'ab',
    publicKey: { keyType: 0, data: pkBytes },
    nonce: 0x0102n,
    nonceIndex: 3,
    receiverId: 'cd',
    blockHash: new Uint8Array(32).fill(0x11),
    actions: [{ type: 'Transfer', deposit: 5n }],
    nonceMode: 'Strict',
  };
  // Hand-assembled from nearcore's TransactionV1: 0x01, signer_id, public_key, TransactionNonce::GasKeyNonce
  // (tag 1, nonce u64, nonce_index u16), receiver_id, block_hash, actions, NonceMode::Strict (1).
  const expected = [
    '01',
    '02000000',
    '6162',
    `00${'ab'.repeat(32)}`,
    '01',
    '0201000000000000',
    '0300',
    '02000000',
    '6364',
    '11'.repeat(32),
    '01000000',
    `03${'05'}${'00'.repeat(15)}`,
    '01',
  ].join('');

  it('encodes with the 0x01 prefix, a TransactionNonce and a trailing NonceMode', () => {
    assert.equal(hexEncode(encodeTransaction(tx)), expected);
    assert.deepEqual(decodeTransaction(hexDecode(expected)), tx);
  });

  it('encodes a plain nonce (TransactionNonce::Nonce) and the default Monotonic mode', () => {
    const plain: Transaction = { ...tx, nonceIndex: undefined, nonceMode: 'Monotonic' };
    delete plain.nonceIndex;
    const bytes = encodeTransaction(plain);
    const hex = hexEncode(bytes);
    assert.equal(hex.slice(0, 2 + 8 + 4 + 66), expected.slice(0, 2 + 8 + 4 + 66));
    assert.equal(hex.slice(80, 82 + 16), `000201000000000000`);
    assert.equal(hex.slice(-2), '00');
    assert.deepEqual(decodeTransaction(bytes), plain);
    // An absent mode is written as Monotonic.
    assert.deepEqual(encodeTransaction({ ...plain, nonceMode: undefined }), bytes);
  });

  it('hashes the prefix too', () => {
    assert.deepEqual(transactionHash(tx), sha256(hexDecode(expected)));
    assert.notDeepEqual(
      transactionHash(tx),
      transactionHash({ ...tx, version: 0, nonceIndex: undefined, nonceMode: undefined }),
    );
  });

  it('is told apart from V0 by the second byte', () => {
    const v0 = encodeTransaction({ ...tx, version: 0, nonceIndex: undefined, nonceMode: undefined });
    assert.equal(v0[1], 0);
    assert.equal(decodeTransaction(v0).version, 0);
    assert.equal(decodeTransaction(hexDecode(expected)).version, 1);
  });

  it('rejects a version tag other than 1 when the second byte is not 0', () => {
    const bad = hexDecode(expected);
    bad[0] = 2;
    assert.throws(
      () => decodeTransaction(bad),
      (e: unknown) => e instanceof BorshError && /version tag 2/.test(e.message),
    );
  });

  it('rejects unknown TransactionNonce and NonceMode variants', () => {
    const badNonce = hexDecode(expected);
    badNonce[1 + 4 + 2 + 33] = 2;
    assert.throws(() => decodeTransaction(badNonce), /invalid TransactionNonce variant 2/);
    const badMode = hexDecode(expected);
    badMode[badMode.length - 1] = 2;
    assert.throws(() => decodeTransaction(badMode), /invalid NonceMode variant 2/);
  });

  it('refuses a gas-key nonce or a strict mode on a V0 transaction', () => {
    assert.throws(() => encodeTransaction({ ...tx, version: 0, nonceMode: undefined }), BorshError);
    assert.throws(() => encodeTransaction({ ...tx, version: 0, nonceIndex: undefined }), BorshError);
  });

  it('signs, decodes with hash and size, and verifies', () => {
    for (const type of ['ed25519', 'secp256k1'] as const) {
      const kp = rng.keyPair(type);
      const signed = signTransaction({ ...tx, publicKey: kp.publicKey }, kp);
      const bytes = encodeSignedTransaction(signed);
      const { signedTransaction, hash, size } = decodeSignedTransaction(bytes);
      assert.deepEqual(signedTransaction, signed);
      assert.deepEqual(hash, transactionHash(signed.transaction));
      assert.equal(size, encodeTransaction(signed.transaction).length);
      assert.equal(size + 1 + (type === 'ed25519' ? 64 : 65), bytes.length);
      assert.equal(verifyTransactionSignature(signedTransaction, hash), true);
      assert.equal(
        verifyTransactionSignature({
          ...signedTransaction,
          transaction: { ...signed.transaction, nonce: 7n },
        }),
        false,
      );
    }
  });
});

describe('transaction decoding', () => {
  const kp = rng.keyPair();
  const base = createTransaction({
    signerId: 'alice.near',
    publicKey: kp.publicKey,
    nonce: 5n,
    receiverId: 'bob.near',
    blockHash: new Uint8Array(32),
    actions: [],
  });

  it('createTransaction defaults to V0, and to V1 given a nonce index or mode', () => {
    assert.equal(base.version, 0);
    assert.deepEqual(decodeTransaction(encodeTransaction(base)), base);
    const { version: _, ...fields } = base;
    assert.equal(createTransaction({ ...fields, nonceIndex: 0 }).version, 1);
    assert.equal(createTransaction({ ...fields, nonceMode: 'Strict' }).version, 1);
  });

  it('rejects invalid account ids, as nearcore does while deserializing', () => {
    const bytes = encodeTransaction(base);
    const upper = Uint8Array.from(bytes);
    upper[4] = 'A'.charCodeAt(0); // 'alice.near' → 'Alice.near'
    assert.throws(
      () => decodeTransaction(upper),
      (e: unknown) => e instanceof BorshError && /invalid account id/.test(e.message),
    );
    assert.throws(() => encodeTransaction({ ...base, receiverId: 'Bob' }), BorshError);
  });

  it('rejects trailing bytes after the signature', () => {
    const bytes = encodeSignedTransaction(signTransaction(base, kp));
    assert.throws(() => decodeSignedTransaction(Uint8Array.from([...bytes, 0])), BorshError);
  });

  it('rejects an ed25519 signature with the top bits of its last byte set', () => {
    const bytes = encodeSignedTransaction({
      transaction: base,
      signature: { keyType: 0, data: new Uint8Array(64) },
    });
    bytes[bytes.length - 1] = 0x80;
    assert.throws(() => decodeSignedTransaction(bytes), BorshError);
  });

  it('takes a Buffer as input', () => {
    const bytes = encodeSignedTransaction(signTransaction(base, kp));
    const decoded = decodeSignedTransaction(Buffer.from(bytes));
    assert.equal(base58Encode(decoded.hash), base58Encode(transactionHash(base)));
  });
});

describe('lenient account ids', () => {
  it('decodes an invalid signer id only when asked to', async () => {
    const { BorshWriter } = await import('./borsh.js');
    const { writePublicKey, writeSignature } = await import('./key-borsh.js');
    const key = rng.keyPair('ed25519');
    const w = new BorshWriter();
    w.string('Bad..Id');
    writePublicKey(w, key.publicKey);
    w.u64(1n);
    w.string('receiver.near');
    w.fixedBytes(new Uint8Array(32), 32);
    w.u32(0);
    writeSignature(w, key.sign(new Uint8Array(32)));
    const bytes = w.toBytes();
    assert.throws(() => decodeSignedTransaction(bytes), /invalid account id/);
    const decoded = decodeSignedTransaction(bytes, { lenientAccountIds: true });
    assert.equal(decoded.signedTransaction.transaction.signerId, 'Bad..Id');
    assert.equal(decoded.signedTransaction.transaction.receiverId, 'receiver.near');
  });
});
