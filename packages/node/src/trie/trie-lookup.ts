/**
 * Looking a key up from a root, reporting every node retrieved on the way (nearcore's
 * `lookup_from_state_column` / `memtrie_lookup`, which walk the same nodes): 0 nodes for the empty root; a
 * leaf reached with another key, or a branch without the next child, is retrieved (and counted) before the
 * walk stops. These are the nodes trie-node gas counts for `storage_write` and `storage_remove`; the old
 * value, when there is one, counts once more when it is dereferenced.
 */
import { hexPrefixOffset, nibbleAt } from './nibbles.js';
import type { RawTrieNode, ValueRef } from './raw-node.js';
import { isEmptyRoot, retrieveNode, type TrieStorage } from './trie-storage.js';

/** Called for each node (or value) retrieved, in order. */
export type TrieVisitor = (hash: Uint8Array, bytes: Uint8Array) => void;

/** The value reference stored under `key`, or null; `visit` sees each node on the path, root first. */
export function lookupValueRef(
  storage: TrieStorage,
  root: Uint8Array,
  key: Uint8Array,
  visit?: TrieVisitor,
): ValueRef | null {
  return lookupValueRefBy(
    (hash) => {
      const { bytes, node } = retrieveNode(storage, hash);
      visit?.(hash, bytes);
      return node;
    },
    root,
    key,
  );
}

/** The same walk over nodes from `retrieve` (called once per node on the path, root first): a caller that
 * keeps decoded nodes walks shared paths without reading or decoding them again. */
export function lookupValueRefBy(
  retrieve: (hash: Uint8Array) => RawTrieNode,
  root: Uint8Array,
  key: Uint8Array,
): ValueRef | null {
  if (isEmptyRoot(root)) return null;
  const keyLength = key.length * 2;
  let hash = root;
  let pos = 0;
  for (;;) {
    const node = retrieve(hash);
    switch (node.kind) {
      case 'leaf': {
        const rest = matchedPathLength(node.key, key, pos);
        return rest === keyLength - pos ? node.value : null;
      }
      case 'extension': {
        const length = matchedPathLength(node.key, key, pos);
        if (length < 0) return null;
        pos += length;
        hash = node.child;
        break;
      }
      case 'branch': {
        if (pos === keyLength) return node.value;
        const child = node.children[nibbleAt(key, pos)];
        if (child === null) return null;
        pos += 1;
        hash = child;
        break;
      }
    }
  }
}

/**
 * The length of the hex-prefix encoded path `encoded` if `key`'s nibbles from `pos` start with it, else -1
 * (compared in place: lookups run for every read the chunk records and every write's trie-node gas).
 */
function matchedPathLength(encoded: Uint8Array, key: Uint8Array, pos: number): number {
  const offset = hexPrefixOffset(encoded);
  const length = encoded.length * 2 - offset;
  if (length > key.length * 2 - pos) return -1;
  for (let i = 0; i < length; i++) if (nibbleAt(encoded, offset + i) !== nibbleAt(key, pos + i)) return -1;
  return length;
}

/** The hashes of the nodes on `key`'s path (what a lookup retrieves) and the value reference found. */
export function keyPath(
  storage: TrieStorage,
  root: Uint8Array,
  key: Uint8Array,
): { nodes: Uint8Array[]; value: ValueRef | null } {
  const nodes: Uint8Array[] = [];
  const value = lookupValueRef(storage, root, key, (hash) => nodes.push(hash));
  return { nodes, value };
}
