// The VALUE bytes of every trie column this node writes, held to bytes written by hand from nearcore's struct
// definitions (nearcore 2.14: core/store/src/utils/mod.rs `set_*`, which borsh-serialize the value;
// core/primitives/src/receipt.rs, core/primitives-core/src/account.rs; runtime/runtime/src/global_contracts.rs
// `set_nonce`). The trie hashes these bytes (ValueRef = length and sha256), so a byte off changes the root.
// Accounts (V1, V2, uninitialized) are held by global-contract-account.test.ts and uninitialized-account's tests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  fullAccessKey,
  functionCallAccessKey,
  gasKeyFullAccessKey,
  KEY_TYPE_ED25519,
  type Receipt,
} from '@shadebox/primitives';
import { setGlobalContractCode, setGlobalContractNonce } from './global-contract-state.js';
import {
  enqueuePromiseYieldTimeout,
  setPendingDataCount,
  setPostponedReceipt,
  setPostponedReceiptId,
  setPromiseYieldIndices,
  setPromiseYieldReceipt,
  setPromiseYieldStatus,
  setReceivedData,
} from './receipt-state.js';
import { StateUpdate } from './state-update.js';
import { setAccessKey, setGasKeyNonce } from './typed-state.js';
import { setYieldIdMapping } from './yield-id-state.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const u32 = (n: number) => Buffer.from(Uint32Array.of(n).buffer).toString('hex');
const u64 = (n: bigint) => Buffer.from(BigUint64Array.of(n).buffer).toString('hex');
const u128 = (n: bigint) => u64(n & 0xffff_ffff_ffff_ffffn) + u64(n >> 64n);
const str = (s: string) => u32(Buffer.byteLength(s)) + Buffer.from(s).toString('hex');
const bytes32 = (fill: number) => new Uint8Array(32).fill(fill);
const PK = { keyType: KEY_TYPE_ED25519, data: bytes32(9) };
const PK_BORSH = `00${hex(PK.data)}`;

/** The one value `write` puts into a fresh state. */
function valueWritten(write: (state: StateUpdate) => void): string {
  const state = new StateUpdate(undefined, -1);
  write(state);
  state.commit({ type: 'initial_state' });
  const writes = state.finish();
  assert.equal(writes.length, 1);
  return hex(writes[0][1]!);
}

/** The values `write` puts into a fresh state, in key order. */
function valuesWritten(write: (state: StateUpdate) => void): string[] {
  const state = new StateUpdate(undefined, -1);
  write(state);
  state.commit({ type: 'initial_state' });
  return state
    .finish()
    .sort(([a], [b]) => Buffer.compare(a, b))
    .map(([, v]) => hex(v!));
}

describe("state values as nearcore's borsh", () => {
  it('AccessKey { nonce: u64, permission } (2): FullAccess = 1, FunctionCall = 0, GasKeyFullAccess = 3', () => {
    assert.equal(
      valueWritten((s) => setAccessKey(s, 'a.near', PK, fullAccessKey(7n))),
      `${u64(7n)}01`,
    );
    // FunctionCallPermission { allowance: Option<u128>, receiver_id: String, method_names: Vec<String> }
    assert.equal(
      valueWritten((s) => setAccessKey(s, 'a.near', PK, functionCallAccessKey('c.near', ['m'], 5n, 2n))),
      `${u64(2n)}00` + `01${u128(5n)}` + str('c.near') + u32(1) + str('m'),
    );
    assert.equal(
      valueWritten((s) => setAccessKey(s, 'a.near', PK, functionCallAccessKey('c.near', [], null))),
      `${u64(0n)}00` + '00' + str('c.near') + u32(0),
    );
    // GasKeyInfo { balance: u128, num_nonces: u16 }
    assert.equal(
      valueWritten((s) => setAccessKey(s, 'a.near', PK, gasKeyFullAccessKey(3))),
      `${u64(0n)}03${u128(0n)}0300`,
    );
  });

  it('a gas key nonce (set_gas_key_nonce): the u64', () => {
    assert.equal(
      valueWritten((s) => setGasKeyNonce(s, 'a.near', PK, 1, 0x0102n)),
      u64(0x0102n),
    );
  });

  it('ReceivedData { data: Option<Vec<u8>> } (3)', () => {
    assert.equal(
      valueWritten((s) => setReceivedData(s, 'a.near', bytes32(1), Uint8Array.of(7, 8))),
      `01${u32(2)}0708`,
    );
    assert.equal(
      valueWritten((s) => setReceivedData(s, 'a.near', bytes32(1), null)),
      '00',
    );
    assert.equal(
      valueWritten((s) => setReceivedData(s, 'a.near', bytes32(1), new Uint8Array())),
      `01${u32(0)}`,
    );
  });

  it('PostponedReceiptId (4): the CryptoHash; PendingDataCount (5): u32', () => {
    assert.equal(
      valueWritten((s) => setPostponedReceiptId(s, 'a.near', bytes32(1), bytes32(2))),
      hex(bytes32(2)),
    );
    assert.equal(
      valueWritten((s) => setPendingDataCount(s, 'a.near', bytes32(1), 3)),
      u32(3),
    );
  });

  // ActionReceipt { signer_id, signer_public_key, gas_price: u128, output_data_receivers, input_data_ids, actions }
  const actionReceiptBody = (dataId: Uint8Array) =>
    str('s.near') + PK_BORSH + u128(100n) + u32(0) + `${u32(1)}${hex(dataId)}` + `${u32(1)}03${u128(1n)}`;
  const receipt = (inner: Partial<Receipt['receipt']>, priority = 0n): Receipt =>
    ({
      predecessorId: 'p.near',
      receiverId: 'a.near',
      receiptId: bytes32(4),
      priority,
      receipt: {
        kind: 'Action',
        signerId: 's.near',
        signerPublicKey: PK,
        gasPrice: 100n,
        outputDataReceivers: [],
        inputDataIds: [bytes32(5)],
        actions: [{ type: 'Transfer', deposit: 1n }],
        isPromiseYield: false,
        ...inner,
      },
    }) as Receipt;

  it('PostponedReceipt (6): the Receipt itself (ReceiptV0 untagged), not a StateStoredReceipt', () => {
    // StateStoredReceipt (0xff 0xff tag) wraps only the delayed and buffered queues' receipts; postponed and
    // yielded receipts go in as `Receipt` (utils `set_postponed_receipt`, `set_promise_yield_receipt`).
    assert.equal(
      valueWritten((s) => setPostponedReceipt(s, receipt({}))),
      str('p.near') + str('a.near') + hex(bytes32(4)) + '00' + actionReceiptBody(bytes32(5)),
    );
    // ReceiptV1: the byte 1, the same fields, then priority u64.
    assert.equal(
      valueWritten((s) => setPostponedReceipt(s, receipt({}, 9n))),
      `01${str('p.near')}${str('a.near')}${hex(bytes32(4))}00${actionReceiptBody(bytes32(5))}${u64(9n)}`,
    );
  });

  it('PromiseYieldReceipt (12): ReceiptEnum::PromiseYield = 2, PromiseYieldV2 = 6 (ActionReceiptV2: refund_to after signer_id)', () => {
    const yielded = receipt({ isPromiseYield: true }) as Parameters<typeof setPromiseYieldReceipt>[1];
    assert.equal(
      valueWritten((s) => setPromiseYieldReceipt(s, yielded)),
      str('p.near') + str('a.near') + hex(bytes32(4)) + '02' + actionReceiptBody(bytes32(5)),
    );
    const v2 = receipt({ isPromiseYield: true, v2: true }) as Parameters<typeof setPromiseYieldReceipt>[1];
    const body = actionReceiptBody(bytes32(5));
    const signer = str('s.near');
    assert.equal(
      valueWritten((s) => setPromiseYieldReceipt(s, v2)),
      `${str('p.near')}${str('a.near')}${hex(bytes32(4))}06${signer}00${body.slice(signer.length)}`,
    );
  });

  it('PromiseYieldIndices (10) { first_index, next_available_index: u64 }; PromiseYieldTimeout (11) { account_id, data_id, expires_at: u64 }', () => {
    assert.equal(
      valueWritten((s) => setPromiseYieldIndices(s, 0, { firstIndex: 1n, nextAvailableIndex: 2n })),
      u64(1n) + u64(2n),
    );
    const indices = { firstIndex: 0n, nextAvailableIndex: 5n };
    assert.equal(
      valueWritten((s) =>
        enqueuePromiseYieldTimeout(s, 0, indices, {
          accountId: 'a.near',
          dataId: bytes32(3),
          expiresAt: 200n,
        }),
      ),
      str('a.near') + hex(bytes32(3)) + u64(200n),
    );
    assert.equal(indices.nextAvailableIndex, 6n);
  });

  it('PromiseYieldStatus (20): Yielded = 0, ResumeInitiated = 1', () => {
    assert.equal(
      valueWritten((s) => setPromiseYieldStatus(s, 'a.near', bytes32(1), 'Yielded')),
      '00',
    );
    assert.equal(
      valueWritten((s) => setPromiseYieldStatus(s, 'a.near', bytes32(1), 'ResumeInitiated')),
      '01',
    );
  });

  it('YieldIdToDataId (22) holds the data id, DataIdToYieldId (23) the yield id: 32 bytes each', () => {
    // In key order: column 22 (under the yield id 6…) holds the data id 7…, column 23 the yield id.
    assert.deepEqual(
      valuesWritten((s) => setYieldIdMapping(s, 'a.near', bytes32(6), bytes32(7))),
      [hex(bytes32(7)), hex(bytes32(6))],
    );
  });

  it('GlobalContractCode (18): the code bytes; GlobalContractNonce (19): u64 LE (`set_nonce`)', () => {
    const id = { kind: 'CodeHash' as const, codeHash: bytes32(8) };
    assert.equal(
      valueWritten((s) => setGlobalContractCode(s, 0, id, Uint8Array.of(0, 97, 115, 109))),
      '0061736d',
    );
    assert.equal(
      valueWritten((s) => setGlobalContractNonce(s, 0, id, 258n)),
      u64(258n),
    );
  });
});
