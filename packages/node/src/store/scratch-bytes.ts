/**
 * Bump allocation of small byte arrays: arrays of more than 64 bytes get their own off-heap ArrayBuffer in V8,
 * which is slow to allocate and to collect by the million; these are views into shared 64 KiB slabs instead.
 * For internal buffers (range bounds, encoded lookup keys) and for what is made by the thousand and dropped
 * soon after (trie nodes: a chunk's new nodes, kept a while by the node cache). A region is never reused, so
 * an array stays valid for as long as it is referenced, and keeps its whole slab alive: not for arrays that
 * outlive their neighbours by much.
 */
const SLAB_SIZE = 64 * 1024;
const MAX_SLAB_ITEM = 1024;

let slab = new Uint8Array(0);
let used = 0;

/** A zero-filled array of `length` bytes, possibly sharing its ArrayBuffer with other such arrays. */
export function scratchBytes(length: number): Uint8Array {
  if (length > MAX_SLAB_ITEM) return new Uint8Array(length);
  if (used + length > slab.length) {
    slab = new Uint8Array(SLAB_SIZE);
    used = 0;
  }
  const bytes = slab.subarray(used, used + length);
  used += length;
  return bytes;
}
