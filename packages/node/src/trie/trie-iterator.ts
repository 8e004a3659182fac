/**
 * Iterating the keys under a prefix, recording every node retrieved: what nearcore's `view_state` with
 * `include_proof` returns as the proof (`TrieIterator` with `remember_visited_nodes`, then `seek_prefix`,
 * core/store/src/trie/iterator.rs and ops/iter.rs). The order is the iterator's: the seek path from the root,
 * then the subtree under the prefix depth first (a branch's value before its children, children 0 to 15),
 * each node once, values never. A prefix nothing is stored under still yields the seek path: the proof that
 * there is nothing.
 */
import { decodeNibbles, nibbleAt, nibblesToBytes } from './nibbles.js';
import { decodeRawNode, type RawTrieNode, type ValueRef } from './raw-node.js';
import type { TrieVisitor } from './trie-lookup.js';
import { getOrThrow, isEmptyRoot, type TrieStorage } from './trie-storage.js';

export interface TrieItem {
  /** The whole trie key. */
  key: Uint8Array;
  value: ValueRef;
}

/** The items under `prefix` in key order; `visit` sees each node retrieved, in retrieval order. */
export function iteratePrefix(
  storage: TrieStorage,
  root: Uint8Array,
  prefix: Uint8Array,
  visit?: TrieVisitor,
): TrieItem[] {
  const items: TrieItem[] = [];
  if (isEmptyRoot(root)) return items;
  const retrieve = (hash: Uint8Array): RawTrieNode => {
    const bytes = getOrThrow(storage, hash);
    visit?.(hash, bytes);
    return decodeRawNode(bytes).node;
  };
  const emit = (nibbles: number[], value: ValueRef): void => {
    // Every stored key is whole bytes; an odd path would be a node nearcore could not have written.
    if (nibbles.length % 2 === 0) items.push({ key: nibblesToBytes(nibbles), value });
  };
  const walk = (node: RawTrieNode, nibbles: number[]): void => {
    switch (node.kind) {
      case 'leaf':
        emit([...nibbles, ...decodeNibbles(node.key)], node.value);
        return;
      case 'extension': {
        const path = [...nibbles, ...decodeNibbles(node.key)];
        walk(retrieve(node.child), path);
        return;
      }
      case 'branch':
        if (node.value !== null) emit(nibbles, node.value);
        for (let i = 0; i < 16; i++) {
          const child = node.children[i];
          if (child !== null) walk(retrieve(child), [...nibbles, i]);
        }
        return;
    }
  };

  const prefixLength = prefix.length * 2;
  let pos = 0;
  const nibbles: number[] = [];
  let node = retrieve(root);
  for (;;) {
    const remaining = prefixLength - pos;
    switch (node.kind) {
      case 'leaf': {
        const rest = decodeNibbles(node.key);
        if (startsWithPrefix(rest, prefix, pos)) walk(node, nibbles);
        return items;
      }
      case 'branch': {
        if (remaining === 0) {
          walk(node, nibbles);
          return items;
        }
        const index = nibbleAt(prefix, pos);
        const child = node.children[index];
        if (child === null) return items;
        nibbles.push(index);
        pos += 1;
        node = retrieve(child);
        break;
      }
      case 'extension': {
        const path = decodeNibbles(node.key);
        if (path.length <= remaining && matches(path, prefix, pos)) {
          nibbles.push(...path);
          pos += path.length;
          node = retrieve(node.child);
          break;
        }
        // The prefix ends inside this extension: everything below it is under the prefix.
        if (startsWithPrefix(path, prefix, pos)) walk(node, nibbles);
        return items;
      }
    }
  }
}

/** Whether `nibbles` begins with the nibbles of `prefix` from `pos` on. */
function startsWithPrefix(nibbles: Uint8Array, prefix: Uint8Array, pos: number): boolean {
  const remaining = prefix.length * 2 - pos;
  if (nibbles.length < remaining) return false;
  for (let i = 0; i < remaining; i++) if (nibbles[i] !== nibbleAt(prefix, pos + i)) return false;
  return true;
}

/** Whether the nibbles of `prefix` from `pos` on begin with all of `path`. */
function matches(path: Uint8Array, prefix: Uint8Array, pos: number): boolean {
  for (let i = 0; i < path.length; i++) if (path[i] !== nibbleAt(prefix, pos + i)) return false;
  return true;
}

/**
 * The proof `view_state` returns with `include_proof`: the encoded nodes the iteration under `prefix`
 * retrieved, in order, with the items found.
 */
export function prefixProof(
  storage: TrieStorage,
  root: Uint8Array,
  prefix: Uint8Array,
): { items: TrieItem[]; proof: Uint8Array[] } {
  const proof: Uint8Array[] = [];
  const items = iteratePrefix(storage, root, prefix, (_hash, bytes) => proof.push(bytes));
  return { items, proof };
}
