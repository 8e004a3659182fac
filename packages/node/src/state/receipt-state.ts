/**
 * Receipts waiting in the state (nearcore core/store/src/utils.rs): data a receipt received before it could
 * run, receipts postponed until all their input data arrives (with a count of what is missing and, per
 * missing data id, which receipt waits for it), yielded promises waiting for their resume, and the queue of
 * yield timeouts. Values are borsh, as nearcore stores them.
 */
import { BorshReader, BorshWriter, decodeReceipt, encodeReceipt, type Receipt } from '@shadebox/primitives';
import {
  accountRecordKey,
  legacyPromiseYieldIndicesKey,
  legacyPromiseYieldTimeoutKey,
  promiseYieldIndicesKey,
  promiseYieldTimeoutKey,
  StateColumn,
} from './state-keys.js';
import type { StateUpdate } from './state-update.js';

const C = StateColumn;

/** `ReceivedData`: `Option<Vec<u8>>` (None when the producing receipt failed). */
export function getReceivedData(
  state: StateUpdate,
  accountId: string,
  dataId: Uint8Array,
): { data: Uint8Array | null } | undefined {
  const bytes = state.get(accountRecordKey(C.ReceivedData, accountId, dataId));
  if (!bytes) return undefined;
  const r = new BorshReader(bytes);
  return { data: r.u8() === 1 ? r.bytes() : null };
}

export function setReceivedData(
  state: StateUpdate,
  accountId: string,
  dataId: Uint8Array,
  data: Uint8Array | null,
): void {
  const w = new BorshWriter();
  if (data === null) w.u8(0);
  else {
    w.u8(1);
    w.bytes(data);
  }
  state.set(accountRecordKey(C.ReceivedData, accountId, dataId), w.toBytes());
}

export function removeReceivedData(state: StateUpdate, accountId: string, dataId: Uint8Array): void {
  state.remove(accountRecordKey(C.ReceivedData, accountId, dataId));
}

export function getPostponedReceiptId(
  state: StateUpdate,
  accountId: string,
  dataId: Uint8Array,
): Uint8Array | undefined {
  return state.get(accountRecordKey(C.PostponedReceiptId, accountId, dataId));
}

export function setPostponedReceiptId(
  state: StateUpdate,
  accountId: string,
  dataId: Uint8Array,
  receiptId: Uint8Array,
): void {
  state.set(accountRecordKey(C.PostponedReceiptId, accountId, dataId), receiptId);
}

export function removePostponedReceiptId(state: StateUpdate, accountId: string, dataId: Uint8Array): void {
  state.remove(accountRecordKey(C.PostponedReceiptId, accountId, dataId));
}

export function getPendingDataCount(
  state: StateUpdate,
  accountId: string,
  receiptId: Uint8Array,
): number | undefined {
  const bytes = state.get(accountRecordKey(C.PendingDataCount, accountId, receiptId));
  return bytes ? new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) : undefined;
}

export function setPendingDataCount(
  state: StateUpdate,
  accountId: string,
  receiptId: Uint8Array,
  count: number,
): void {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, count, true);
  state.set(accountRecordKey(C.PendingDataCount, accountId, receiptId), b);
}

export function removePendingDataCount(state: StateUpdate, accountId: string, receiptId: Uint8Array): void {
  state.remove(accountRecordKey(C.PendingDataCount, accountId, receiptId));
}

export function getPostponedReceipt(
  state: StateUpdate,
  accountId: string,
  receiptId: Uint8Array,
): Receipt | undefined {
  const bytes = state.get(accountRecordKey(C.PostponedReceipt, accountId, receiptId));
  return bytes ? decodeReceipt(bytes) : undefined;
}

export function setPostponedReceipt(state: StateUpdate, receipt: Receipt): void {
  state.set(
    accountRecordKey(C.PostponedReceipt, receipt.receiverId, receipt.receiptId),
    encodeReceipt(receipt),
  );
}

export function removePostponedReceipt(state: StateUpdate, accountId: string, receiptId: Uint8Array): void {
  state.remove(accountRecordKey(C.PostponedReceipt, accountId, receiptId));
}

/** A yielded promise is stored under the data id its resume will carry. */
export function getPromiseYieldReceipt(
  state: StateUpdate,
  accountId: string,
  dataId: Uint8Array,
): Receipt | undefined {
  const bytes = state.get(accountRecordKey(C.PromiseYieldReceipt, accountId, dataId));
  return bytes ? decodeReceipt(bytes) : undefined;
}

export function hasPromiseYieldReceipt(state: StateUpdate, accountId: string, dataId: Uint8Array): boolean {
  return state.has(accountRecordKey(C.PromiseYieldReceipt, accountId, dataId));
}

export function setPromiseYieldReceipt(
  state: StateUpdate,
  receipt: Receipt & { receipt: { kind: 'Action' } },
): void {
  const dataId = receipt.receipt.inputDataIds[0];
  state.set(accountRecordKey(C.PromiseYieldReceipt, receipt.receiverId, dataId), encodeReceipt(receipt));
}

export function removePromiseYieldReceipt(state: StateUpdate, accountId: string, dataId: Uint8Array): void {
  state.remove(accountRecordKey(C.PromiseYieldReceipt, accountId, dataId));
}

/** nearcore's `PromiseYieldStatus`, borsh: 0 `Yielded` (set when the yield is created, before its receipt is
 * stored), 1 `ResumeInitiated` (a resume was sent: a timeout's resume then finds nothing to do). */
export type PromiseYieldStatus = 'Yielded' | 'ResumeInitiated';

export function getPromiseYieldStatus(
  state: StateUpdate,
  accountId: string,
  dataId: Uint8Array,
): PromiseYieldStatus | undefined {
  const bytes = state.get(accountRecordKey(C.PromiseYieldStatus, accountId, dataId));
  if (!bytes) return undefined;
  return bytes[0] === 1 ? 'ResumeInitiated' : 'Yielded';
}

export function hasPromiseYieldStatus(state: StateUpdate, accountId: string, dataId: Uint8Array): boolean {
  return state.has(accountRecordKey(C.PromiseYieldStatus, accountId, dataId));
}

export function setPromiseYieldStatus(
  state: StateUpdate,
  accountId: string,
  dataId: Uint8Array,
  status: PromiseYieldStatus,
): void {
  state.set(
    accountRecordKey(C.PromiseYieldStatus, accountId, dataId),
    Uint8Array.of(status === 'Yielded' ? 0 : 1),
  );
}

export function removePromiseYieldStatus(state: StateUpdate, accountId: string, dataId: Uint8Array): void {
  state.remove(accountRecordKey(C.PromiseYieldStatus, accountId, dataId));
}

export interface PromiseYieldIndices {
  firstIndex: bigint;
  nextAvailableIndex: bigint;
}

/** A shard's yield queue (nearcore keeps one per shard's trie). */
export function getPromiseYieldIndices(state: StateUpdate, shardId: number): PromiseYieldIndices {
  const bytes = state.get(promiseYieldIndicesKey(shardId));
  if (!bytes) return { firstIndex: 0n, nextAvailableIndex: 0n };
  const r = new BorshReader(bytes);
  return { firstIndex: r.u64(), nextAvailableIndex: r.u64() };
}

export function setPromiseYieldIndices(
  state: StateUpdate,
  shardId: number,
  indices: PromiseYieldIndices,
): void {
  const w = new BorshWriter();
  w.u64(indices.firstIndex);
  w.u64(indices.nextAvailableIndex);
  state.set(promiseYieldIndicesKey(shardId), w.toBytes());
}

export interface PromiseYieldTimeout {
  accountId: string;
  dataId: Uint8Array;
  expiresAt: bigint;
}

export function getPromiseYieldTimeout(
  state: StateUpdate,
  shardId: number,
  index: bigint,
): PromiseYieldTimeout | undefined {
  const bytes = state.get(promiseYieldTimeoutKey(shardId, index));
  if (!bytes) return undefined;
  const r = new BorshReader(bytes);
  return { accountId: r.string(), dataId: r.fixedBytes(32), expiresAt: r.u64() };
}

/** Appends a timeout to the queue (entries are in expiry order because every yield waits equally long). */
export function enqueuePromiseYieldTimeout(
  state: StateUpdate,
  shardId: number,
  indices: PromiseYieldIndices,
  timeout: PromiseYieldTimeout,
): void {
  const w = new BorshWriter();
  w.string(timeout.accountId);
  w.fixedBytes(timeout.dataId);
  w.u64(timeout.expiresAt);
  state.set(promiseYieldTimeoutKey(shardId, indices.nextAvailableIndex), w.toBytes());
  indices.nextAvailableIndex += 1n;
}

export function removePromiseYieldTimeout(state: StateUpdate, shardId: number, index: bigint): void {
  state.remove(promiseYieldTimeoutKey(shardId, index));
}

/**
 * A home made before the queue was kept per shard holds one queue under nearcore's bare keys: its entries
 * move, in order, to the end of shard 0's queue (the shard whose trie held them), and the old keys go.
 * Returns whether there was anything to move.
 */
export function migrateLegacyPromiseYieldQueue(state: StateUpdate): boolean {
  // Checked by every chunk of shard 0; nearcore has no such key, so the check records nothing.
  const bytes = state.getUnrecorded(legacyPromiseYieldIndicesKey());
  if (!bytes) return false;
  const r = new BorshReader(bytes);
  const legacy = { firstIndex: r.u64(), nextAvailableIndex: r.u64() };
  const indices = getPromiseYieldIndices(state, 0);
  for (let index = legacy.firstIndex; index < legacy.nextAvailableIndex; index++) {
    const entry = state.get(legacyPromiseYieldTimeoutKey(index));
    if (entry) {
      state.set(promiseYieldTimeoutKey(0, indices.nextAvailableIndex), entry);
      indices.nextAvailableIndex += 1n;
      state.remove(legacyPromiseYieldTimeoutKey(index));
    }
  }
  state.remove(legacyPromiseYieldIndicesKey());
  setPromiseYieldIndices(state, 0, indices);
  return true;
}
