/**
 * A block's `TrieChanges` as kept beside it (nearcore's `DBCol::TrieChanges`, by block and shard): the old and
 * new roots and the hashes whose reference counts it changed. GC applies the deletions when the block is
 * collected; a revert takes the insertions back. The bytes of inserted nodes are not kept here: they are in
 * the node column already.
 */
import { TrieError } from './trie-errors.js';
import type { TrieChanges } from './trie-storage.js';

/** What is kept of a `TrieChanges`: hashes and counts only. */
export interface StoredTrieChanges {
  oldRoot: Uint8Array;
  newRoot: Uint8Array;
  insertions: { hash: Uint8Array; rc: number }[];
  deletions: { hash: Uint8Array; rc: number }[];
}

const ENTRY = 36;

/** `oldRoot ‖ newRoot ‖ u32 n ‖ (hash ‖ u32 rc)×n ‖ u32 m ‖ (hash ‖ u32 rc)×m`, integers little-endian. */
export function encodeTrieChanges(changes: TrieChanges | StoredTrieChanges): Uint8Array {
  const { insertions, deletions } = changes;
  const out = new Uint8Array(64 + 8 + ENTRY * (insertions.length + deletions.length));
  const view = new DataView(out.buffer);
  out.set(changes.oldRoot, 0);
  out.set(changes.newRoot, 32);
  let offset = 64;
  for (const list of [insertions, deletions]) {
    view.setUint32(offset, list.length, true);
    offset += 4;
    for (const { hash, rc } of list) {
      out.set(hash, offset);
      view.setUint32(offset + 32, rc, true);
      offset += ENTRY;
    }
  }
  return out;
}

export function decodeTrieChanges(bytes: Uint8Array): StoredTrieChanges {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = () => new TrieError(`stored trie changes of ${bytes.length} bytes do not decode`);
  if (bytes.length < 72) throw fail();
  let offset = 64;
  const readList = () => {
    if (offset + 4 > bytes.length) throw fail();
    const n = view.getUint32(offset, true);
    offset += 4;
    if (offset + n * ENTRY > bytes.length) throw fail();
    const list: { hash: Uint8Array; rc: number }[] = [];
    for (let i = 0; i < n; i++, offset += ENTRY) {
      list.push({ hash: bytes.slice(offset, offset + 32), rc: view.getUint32(offset + 32, true) });
    }
    return list;
  };
  const insertions = readList();
  const deletions = readList();
  if (offset !== bytes.length) throw fail();
  return { oldRoot: bytes.slice(0, 32), newRoot: bytes.slice(32, 64), insertions, deletions };
}
