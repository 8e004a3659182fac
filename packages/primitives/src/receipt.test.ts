import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { testRandom } from '../../../test/test-random.js';
import { hexDecode, hexEncode } from './encoding.js';
import { BorshError } from './errors.js';
import { decodeReceipt, encodeReceipt } from './receipt.js';
import {
  createActionHash,
  createDataId,
  createHashUpgradable,
  createRandomSeed,
  createReceiptIdFromReceiptId,
  createReceiptIdFromTransaction,
} from './receipt-id.js';
import type { Receipt } from './types.js';

const rng = testRandom('packages/primitives/src/receipt.test.ts');

const DATA_RECEIPT_V0_HEX = [
  '05000000616c696365', // predecessor "alice"
  '03000000626f62', // receiver "bob"
  '01'.repeat(32), // receipt_id
  '01', // ReceiptEnum::Data
  '02'.repeat(32), // data_id
  '01', // Some
  '020000000506', // [5, 6]
].join('');

const dataReceipt: Receipt = {
  predecessorId: 'alice',
  receiverId: 'bob',
  receiptId: new Uint8Array(32).fill(1),
  receipt: {
    kind: 'Data',
    dataId: new Uint8Array(32).fill(2),
    data: Uint8Array.from([5, 6]),
    isPromiseResume: false,
  },
  priority: 0n,
  version: 0,
};

describe('receipts', () => {
  it('encode a ReceiptV0 byte for byte', () => {
    assert.equal(hexEncode(encodeReceipt(dataReceipt)), DATA_RECEIPT_V0_HEX);
    assert.deepEqual(decodeReceipt(hexDecode(DATA_RECEIPT_V0_HEX)), dataReceipt);
  });

  it('encode a ReceiptV1 with the 0x01 prefix and a trailing priority', () => {
    const v1: Receipt = { ...dataReceipt, priority: 0x0708n, version: 1 };
    const hex = `01${DATA_RECEIPT_V0_HEX}0807000000000000`;
    assert.equal(hexEncode(encodeReceipt(v1)), hex);
    assert.deepEqual(decodeReceipt(hexDecode(hex)), v1);
    const v1zero: Receipt = { ...dataReceipt, version: 1 };
    assert.deepEqual(decodeReceipt(encodeReceipt(v1zero)), v1zero);
  });

  it('choose the version from the priority when none is given', () => {
    const { version: _, ...noVersion } = dataReceipt;
    assert.equal(encodeReceipt(noVersion)[0], 5);
    assert.equal(encodeReceipt({ ...noVersion, priority: 1n })[0], 1);
    assert.throws(() => encodeReceipt({ ...dataReceipt, priority: 1n, version: 0 }), BorshError);
  });

  it('round trip all four ReceiptEnum variants', () => {
    const kp = rng.keyPair('secp256k1');
    const action = {
      kind: 'Action' as const,
      signerId: 'alice.near',
      signerPublicKey: kp.publicKey,
      gasPrice: 100_000_000n,
      outputDataReceivers: [{ dataId: new Uint8Array(32).fill(9), receiverId: 'c.near' }],
      inputDataIds: [new Uint8Array(32).fill(8), new Uint8Array(32).fill(7)],
      actions: [{ type: 'Transfer' as const, deposit: 1n }],
    };
    const variants: Array<[Receipt['receipt'], number]> = [
      [{ ...action, isPromiseYield: false }, 0],
      [{ kind: 'Data', dataId: new Uint8Array(32), data: null, isPromiseResume: false }, 1],
      [{ ...action, isPromiseYield: true }, 2],
      [{ kind: 'Data', dataId: new Uint8Array(32), data: new Uint8Array(0), isPromiseResume: true }, 3],
    ];
    for (const [inner, tag] of variants) {
      const receipt: Receipt = { ...dataReceipt, receipt: inner };
      const bytes = encodeReceipt(receipt);
      assert.equal(bytes[4 + 5 + 4 + 3 + 32], tag);
      assert.deepEqual(decodeReceipt(bytes), receipt);
    }
  });

  it('reject unknown variants and version tags', () => {
    const bytes = hexDecode(DATA_RECEIPT_V0_HEX);
    bytes[48] = 5;
    assert.throws(() => decodeReceipt(bytes), BorshError);
    bytes[48] = 7;
    assert.throws(() => decodeReceipt(bytes), BorshError);
    const v1 = encodeReceipt({ ...dataReceipt, priority: 1n, version: 1 });
    v1[0] = 3;
    assert.throws(() => decodeReceipt(v1), BorshError);
  });
});

describe('ActionReceiptV2 (ReceiptEnum 5 ActionV2, 6 PromiseYieldV2)', () => {
  const v1Action: Receipt = {
    predecessorId: 'alice',
    receiverId: 'bob',
    receiptId: new Uint8Array(32).fill(1),
    receipt: {
      kind: 'Action',
      signerId: 'carol',
      signerPublicKey: { keyType: 0, data: new Uint8Array(32).fill(9) },
      gasPrice: 100n,
      outputDataReceivers: [],
      inputDataIds: [],
      actions: [{ type: 'Transfer', deposit: 5n }],
      isPromiseYield: false,
    },
    priority: 0n,
    version: 0,
  };
  const head = 4 + 5 + 4 + 3 + 32;

  it('V2 is the V1 layout with the tag 5 and Option<AccountId> refund_to right after signer_id', () => {
    const v1 = encodeReceipt(v1Action);
    const withRefund = encodeReceipt({
      ...v1Action,
      receipt: { ...v1Action.receipt, v2: true, refundTo: 'dave' },
    } as Receipt);
    assert.equal(withRefund[head], 5);
    const signer = 4 + 5; // "carol"
    assert.deepEqual(
      withRefund.subarray(head + 1, head + 1 + signer),
      v1.subarray(head + 1, head + 1 + signer),
    );
    assert.equal(
      hexEncode(withRefund.subarray(head + 1 + signer, head + 1 + signer + 9)),
      '01' + '04000000' + hexEncode(new TextEncoder().encode('dave')),
    );
    assert.deepEqual(withRefund.subarray(head + 1 + signer + 9), v1.subarray(head + 1 + signer));
    const without = encodeReceipt({ ...v1Action, receipt: { ...v1Action.receipt, v2: true } } as Receipt);
    assert.equal(without.length, v1.length + 1);
    assert.equal(without[head + 1 + signer], 0);
  });

  it('round trip with and without refund_to, action and yield', () => {
    for (const isPromiseYield of [false, true]) {
      for (const refundTo of [undefined, 'dave']) {
        const receipt = {
          ...v1Action,
          receipt: { ...v1Action.receipt, isPromiseYield, v2: true, ...(refundTo ? { refundTo } : {}) },
        } as Receipt;
        const bytes = encodeReceipt(receipt);
        assert.equal(bytes[head], isPromiseYield ? 6 : 5);
        assert.deepEqual(decodeReceipt(bytes), receipt);
      }
    }
  });

  it('a refund_to needs a V2 receipt', () => {
    assert.throws(
      () => encodeReceipt({ ...v1Action, receipt: { ...v1Action.receipt, refundTo: 'dave' } } as Receipt),
      BorshError,
    );
  });
});

describe('GlobalContractDistribution receipts (ReceiptEnum 4)', () => {
  const V2_HEX = [
    '05000000616c696365', // predecessor "alice"
    '05000000616c696365', // receiver "alice"
    '03'.repeat(32), // receipt_id
    '04', // ReceiptEnum::GlobalContractDistribution
    '01', // V2
    '01', // GlobalContractIdentifier::AccountId
    '05000000616c696365', // "alice"
    '0100000000000000', // target_shard 1
    '01000000', // already_delivered_shards: one
    '0000000000000000', // shard 0
    '03000000', // code: 3 bytes
    '006173', // [0, 0x61, 0x73]
    '0700000000000000', // nonce 7
  ].join('');

  it('decodes and re-encodes a V2 distribution byte for byte', () => {
    const bytes = hexDecode(V2_HEX);
    const receipt = decodeReceipt(bytes);
    assert.equal(receipt.receipt.kind, 'GlobalContractDistribution');
    if (receipt.receipt.kind !== 'GlobalContractDistribution') return;
    assert.equal(receipt.receipt.version, 2);
    assert.deepEqual(receipt.receipt.id, { kind: 'AccountId', accountId: 'alice' });
    assert.equal(receipt.receipt.targetShard, 1n);
    assert.deepEqual(receipt.receipt.alreadyDeliveredShards, [0n]);
    assert.deepEqual(receipt.receipt.code, Uint8Array.from([0, 0x61, 0x73]));
    assert.equal(receipt.receipt.nonce, 7n);
    assert.equal(hexEncode(encodeReceipt(receipt)), V2_HEX);
  });

  it('decodes a V1 distribution (no nonce) by code hash', () => {
    const receipt: Receipt = {
      predecessorId: 'alice',
      receiverId: 'alice',
      receiptId: new Uint8Array(32).fill(4),
      receipt: {
        kind: 'GlobalContractDistribution',
        version: 1,
        id: { kind: 'CodeHash', codeHash: new Uint8Array(32).fill(9) },
        targetShard: 0n,
        alreadyDeliveredShards: [],
        code: Uint8Array.from([1, 2]),
        nonce: 0n,
      },
      priority: 0n,
      version: 0,
    };
    const bytes = encodeReceipt(receipt);
    // tag 4, V1 tag 0, identifier tag 0, then the 32-byte hash
    assert.deepEqual([...bytes.subarray(50, 53)], [4, 0, 0]);
    assert.equal(bytes.length, 50 + 3 + 32 + 8 + 4 + 4 + 2);
    assert.deepEqual(decodeReceipt(bytes), receipt);
    bytes[51] = 2;
    assert.throws(() => decodeReceipt(bytes), BorshError);
  });
});

function manual(base: Uint8Array, height: bigint, salt: bigint): Uint8Array {
  const tail = Buffer.alloc(16);
  tail.writeBigUInt64LE(height, 0);
  tail.writeBigUInt64LE(salt, 8);
  return new Uint8Array(createHash('sha256').update(base).update(tail).digest());
}

describe('receipt ids (protocol 85: block height, not block hash)', () => {
  const base = new Uint8Array(32).fill(0x42);

  it('createHashUpgradable = sha256(base ‖ u64_le(height) ‖ u64_le(salt))', () => {
    assert.deepEqual(createHashUpgradable(base, 123_456_789n, 3n), manual(base, 123_456_789n, 3n));
    assert.notDeepEqual(createHashUpgradable(base, 1n, 3n), createHashUpgradable(base, 2n, 3n));
    assert.throws(() => createHashUpgradable(new Uint8Array(31), 1n, 0n), RangeError);
  });

  it('derive transaction, receipt, action and data ids with their salts', () => {
    assert.deepEqual(createReceiptIdFromTransaction(base, 10n), manual(base, 10n, 0n));
    assert.deepEqual(createReceiptIdFromReceiptId(base, 10n, 2), manual(base, 10n, 2n));
    assert.deepEqual(createActionHash(base, 10n, 0), manual(base, 10n, (1n << 64n) - 1n));
    assert.deepEqual(createActionHash(base, 10n, 3), manual(base, 10n, (1n << 64n) - 4n));
    assert.deepEqual(createDataId(base, 10n, 1), manual(base, 10n, 1n));
    const random = new Uint8Array(32).fill(0x99);
    assert.deepEqual(
      createRandomSeed(base, random),
      new Uint8Array(createHash('sha256').update(base).update(random).digest()),
    );
  });
});
