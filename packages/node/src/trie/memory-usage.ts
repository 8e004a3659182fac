/**
 * `memory_usage`, the size estimate every stored node carries for its whole subtree. It is part of the hashed
 * bytes, so it must be exactly nearcore's: `TRIE_COSTS = { node_cost: 50, byte_of_key: 2, byte_of_value: 1 }`
 * (core/store/src/trie/mod.rs) and `memory_usage_direct` (core/store/src/trie/ops/interface.rs):
 *   leaf       50 + 2 × (HP key bytes) + (50 + value length)
 *   extension  50 + 2 × (HP key bytes)                       + the child's memory usage
 *   branch     50 + (value ? 50 + value length : 0)          + the children's memory usage
 */
import type { RawTrieNode } from './raw-node.js';

export const TRIE_COSTS = { nodeCost: 50, byteOfKey: 2, byteOfValue: 1 } as const;

/** The memory usage a value adds to the node that references it. */
export function valueMemoryUsage(valueLength: number): number {
  return TRIE_COSTS.nodeCost + valueLength * TRIE_COSTS.byteOfValue;
}

export function leafMemoryUsage(encodedKeyLength: number, valueLength: number): number {
  return TRIE_COSTS.nodeCost + encodedKeyLength * TRIE_COSTS.byteOfKey + valueMemoryUsage(valueLength);
}

/** An extension's own part, without its child's. */
export function extensionMemoryUsageDirect(encodedKeyLength: number): number {
  return TRIE_COSTS.nodeCost + encodedKeyLength * TRIE_COSTS.byteOfKey;
}

/** A branch's own part, without its children's. */
export function branchMemoryUsageDirect(valueLength: number | null): number {
  return TRIE_COSTS.nodeCost + (valueLength === null ? 0 : valueMemoryUsage(valueLength));
}

/** A node's own part of its memory usage (the subtree's total minus its children's). */
export function memoryUsageDirect(node: RawTrieNode): number {
  switch (node.kind) {
    case 'leaf':
      return leafMemoryUsage(node.key.length, node.value.length);
    case 'extension':
      return extensionMemoryUsageDirect(node.key.length);
    case 'branch':
      return branchMemoryUsageDirect(node.value === null ? null : node.value.length);
  }
}
