/**
 * Borsh of receipts (core/primitives/src/receipt.rs).
 *
 * ReceiptV0 = predecessor_id, receiver_id, receipt_id [32], receipt: ReceiptEnum. ReceiptV1 = the byte 0x01,
 * the same fields, then priority u64; told apart by the second byte like transactions. ReceiptEnum: 0 Action,
 * 1 Data, 2 PromiseYield (an ActionReceipt), 3 PromiseResume (a DataReceipt), 4 GlobalContractDistribution
 * (global-contract.ts); later variants are rejected. ActionReceipt = signer_id, signer_public_key, gas_price u128,
 * output_data_receivers Vec<{data_id [32], receiver_id}>, input_data_ids Vec<[32]>, actions Vec<Action>.
 * DataReceipt = data_id [32], data Option<Vec<u8>>. Receipts created from transactions are ReceiptV0.
 * 5 ActionV2 and 6 PromiseYieldV2 carry an ActionReceiptV2: signer_id, refund_to Option<AccountId>, then the
 * ActionReceipt fields from signer_public_key on; contracts' receipts are V2 from protocol 82.
 */

import { readAccountId, writeAccountId } from './account-id-borsh.js';
import { readAction, writeAction } from './action.js';
import { type BorshReader, type BorshWriter, decodeBorsh, encodeBorsh } from './borsh.js';
import { BorshError } from './errors.js';
import { readGlobalContractDistribution, writeGlobalContractDistribution } from './global-contract.js';
import { readPublicKey, writePublicKey } from './key-borsh.js';
import type { ActionReceipt, DataReceipt, DataReceiver, Receipt } from './types.js';

const ENUM_TAG = {
  Action: 0,
  Data: 1,
  PromiseYield: 2,
  PromiseResume: 3,
  GlobalContractDistribution: 4,
  ActionV2: 5,
  PromiseYieldV2: 6,
} as const;

function writeActionReceipt(w: BorshWriter, receipt: ActionReceipt): void {
  writeAccountId(w, receipt.signerId);
  if (receipt.v2) w.option(receipt.refundTo, writeAccountId);
  writePublicKey(w, receipt.signerPublicKey);
  w.u128(receipt.gasPrice);
  w.vec(receipt.outputDataReceivers, (w, dr: DataReceiver) => {
    w.fixedBytes(dr.dataId, 32);
    writeAccountId(w, dr.receiverId);
  });
  w.vec(receipt.inputDataIds, (w, id) => w.fixedBytes(id, 32));
  w.vec(receipt.actions, writeAction);
}

function readActionReceipt(r: BorshReader, v2: boolean): ActionReceipt {
  const signerId = readAccountId(r);
  const refundTo = v2 ? r.option(readAccountId) : null;
  return {
    signerId,
    ...(v2 ? { v2: true } : {}),
    ...(refundTo !== null ? { refundTo } : {}),
    signerPublicKey: readPublicKey(r),
    gasPrice: r.u128(),
    outputDataReceivers: r.vec((r) => ({ dataId: r.fixedBytes(32), receiverId: readAccountId(r) }), 36),
    inputDataIds: r.vec((r) => r.fixedBytes(32), 32),
    actions: r.vec(readAction),
  };
}

function writeDataReceipt(w: BorshWriter, receipt: DataReceipt): void {
  w.fixedBytes(receipt.dataId, 32);
  w.option(receipt.data, (w, data) => w.bytes(data));
}

function readDataReceipt(r: BorshReader): DataReceipt {
  return { dataId: r.fixedBytes(32), data: r.option((r) => r.bytes()) };
}

export function writeReceipt(w: BorshWriter, receipt: Receipt): void {
  const version = receipt.version ?? (receipt.priority === 0n ? 0 : 1);
  if (version === 1) w.u8(1);
  else if (version !== 0) throw new BorshError(`unknown receipt version ${String(version)}`);
  else if (receipt.priority !== 0n) throw new BorshError('a ReceiptV0 has no priority; priority must be 0');
  writeAccountId(w, receipt.predecessorId);
  writeAccountId(w, receipt.receiverId);
  w.fixedBytes(receipt.receiptId, 32);
  const inner = receipt.receipt;
  if (inner.kind === 'Action') {
    if (inner.v2) w.u8(inner.isPromiseYield ? ENUM_TAG.PromiseYieldV2 : ENUM_TAG.ActionV2);
    else if (inner.refundTo !== undefined)
      throw new BorshError('refundTo needs an ActionReceiptV2 (v2: true)');
    else w.u8(inner.isPromiseYield ? ENUM_TAG.PromiseYield : ENUM_TAG.Action);
    writeActionReceipt(w, inner);
  } else if (inner.kind === 'Data') {
    w.u8(inner.isPromiseResume ? ENUM_TAG.PromiseResume : ENUM_TAG.Data);
    writeDataReceipt(w, inner);
  } else if (inner.kind === 'GlobalContractDistribution') {
    w.u8(ENUM_TAG.GlobalContractDistribution);
    writeGlobalContractDistribution(w, inner);
  } else {
    throw new BorshError(`unknown receipt kind ${String((inner as { kind: unknown }).kind)}`);
  }
  if (version === 1) w.u64(receipt.priority);
}

export function readReceipt(r: BorshReader): Receipt {
  const at = r.offset;
  let version: 0 | 1 = 0;
  if (r.peekByte(1) !== 0) {
    const tag = r.u8();
    if (tag !== 1) throw new BorshError(`invalid receipt version tag ${tag}`, at);
    version = 1;
  }
  const predecessorId = readAccountId(r);
  const receiverId = readAccountId(r);
  const receiptId = r.fixedBytes(32);
  const tagAt = r.offset;
  const tag = r.u8();
  let receipt: Receipt['receipt'];
  switch (tag) {
    case ENUM_TAG.Action:
    case ENUM_TAG.PromiseYield:
      receipt = {
        kind: 'Action',
        ...readActionReceipt(r, false),
        isPromiseYield: tag === ENUM_TAG.PromiseYield,
      };
      break;
    case ENUM_TAG.ActionV2:
    case ENUM_TAG.PromiseYieldV2:
      receipt = {
        kind: 'Action',
        ...readActionReceipt(r, true),
        isPromiseYield: tag === ENUM_TAG.PromiseYieldV2,
      };
      break;
    case ENUM_TAG.Data:
    case ENUM_TAG.PromiseResume:
      receipt = { kind: 'Data', ...readDataReceipt(r), isPromiseResume: tag === ENUM_TAG.PromiseResume };
      break;
    case ENUM_TAG.GlobalContractDistribution:
      receipt = { kind: 'GlobalContractDistribution', ...readGlobalContractDistribution(r) };
      break;
    default:
      throw new BorshError(`invalid ReceiptEnum variant ${tag}`, tagAt);
  }
  const priority = version === 1 ? r.u64() : 0n;
  return { predecessorId, receiverId, receiptId, receipt, priority, version };
}

export function encodeReceipt(receipt: Receipt): Uint8Array {
  return encodeBorsh((w) => writeReceipt(w, receipt));
}

export function decodeReceipt(bytes: Uint8Array): Receipt {
  return decodeBorsh(bytes, readReceipt);
}
