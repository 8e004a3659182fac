// The state trie as nearcore keeps it: node encoding and hashing, canonical updates, lookups with trie-node
// counting, a recorder, proofs in view_state's order and their verification.
export * from './hash-map.js';
export * from './memory-usage.js';
export * from './nibbles.js';
export * from './node-cache.js';
export * from './raw-node.js';
export * from './state-proof.js';
export * from './store-trie-storage.js';
export * from './trie.js';
export * from './trie-accounting.js';
export * from './trie-changes-encoding.js';
export * from './trie-errors.js';
export * from './trie-iterator.js';
export * from './trie-lookup.js';
export * from './trie-recorder.js';
export * from './trie-storage.js';
export * from './trie-update.js';
