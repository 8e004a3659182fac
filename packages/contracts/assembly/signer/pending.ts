// Pending sign requests. Per request key (sha256 of the request's canonical JSON):
//   q<hash> → the FIFO of yield data ids (32 bytes each, at most 128)
//   j<hash> → the request's JSON (for the `pending_requests` listing)
// and the IndexedSet "i" of hashes with a non-empty queue.
import { concat } from "../lib/bytes";
import { sha256 } from "../lib/crypto";
import { utf8 } from "../lib/bytes";
import { promiseYieldResume } from "../lib/promises";
import { key, storageRead, storageRemove, storageWrite } from "../lib/storage";
import { IndexedSet } from "../lib/vector";

export const MAX_PENDING_REQUEST_FAN_OUT: i32 = 128;
const index = new IndexedSet("i");

export function requestHash(requestJson: string): Uint8Array {
  return sha256(utf8(requestJson));
}

function queueOf(hash: Uint8Array): Uint8Array | null {
  return storageRead(key("q", hash));
}

function drop(hash: Uint8Array): void {
  storageRemove(key("q", hash));
  storageRemove(key("j", hash));
  index.remove(hash);
}

export function pushPendingYield(requestJson: string, dataId: Uint8Array): void {
  const hash = requestHash(requestJson);
  const queue = queueOf(hash);
  if (queue === null) {
    storageWrite(key("q", hash), dataId);
    storageWrite(key("j", hash), utf8(requestJson));
    index.add(hash);
    return;
  }
  if (queue.length / 32 >= MAX_PENDING_REQUEST_FAN_OUT)
    throw new Error(
      "Pending-request queue is full for this request key (limit: 128). Try again once an in-flight response or timeout has cleared room.",
    );
  storageWrite(key("q", hash), concat(queue, dataId));
}

/** Resumes every queued yield of the request with `payload`; false when nothing was queued. */
export function resolveYieldsFor(requestJson: string, payload: Uint8Array): bool {
  const hash = requestHash(requestJson);
  const queue = queueOf(hash);
  if (queue === null || queue.length == 0) return false;
  drop(hash);
  for (let i = 0; i < queue.length; i += 32) promiseYieldResume(queue.subarray(i, i + 32), payload);
  return true;
}

/** On a timeout: removes the oldest queued yield of the request (no-op when none). */
export function popOldestPendingYield(requestJson: string): void {
  const hash = requestHash(requestJson);
  const queue = queueOf(hash);
  if (queue === null) return;
  if (queue.length <= 32) drop(hash);
  else storageWrite(key("q", hash), queue.slice(32));
}

/** The head of the queue (a presence check), or null. */
export function firstPendingYield(requestJson: string): Uint8Array | null {
  const queue = queueOf(requestHash(requestJson));
  return queue === null || queue.length < 32 ? null : queue.slice(0, 32);
}

export function pendingCount(): u32 {
  return index.length;
}

/** The request JSON and queue length at position `i` of the index. */
export function pendingAt(i: u32, outJson: Array<string>): i32 {
  const hash = index.at(i);
  const json = storageRead(key("j", hash));
  const queue = queueOf(hash);
  if (json === null || queue === null) return 0;
  outJson.push(String.UTF8.decodeUnsafe(json.dataStart, <usize>json.length));
  return queue.length / 32;
}
