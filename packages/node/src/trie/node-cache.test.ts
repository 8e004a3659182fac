// The decoded-node cache of the chunk path (node-cache.ts): nodes decoded once and kept across chunks, bounded
// first in first out, content-addressed (never stale), and never a substitute for the store where a missing node
// must be reported (views and proofs read the storage itself).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { utf8Encode } from '@shadebox/primitives';
import { CachedTrieStorage, TrieNodeCache } from './node-cache.js';
import { decodeRawNode } from './raw-node.js';
import { Trie } from './trie.js';
import { MissingTrieNodeError } from './trie-errors.js';
import { keyPath } from './trie-lookup.js';
import { EMPTY_ROOT, MemoryTrieStorage, type TrieStorage } from './trie-storage.js';
import { applyTrieChanges } from './trie-update.js';

const text = utf8Encode;

/** A storage that counts the reads that reach it. */
class CountingStorage implements TrieStorage {
  reads = 0;
  constructor(readonly inner: MemoryTrieStorage) {}
  get(hash: Uint8Array): Uint8Array | undefined {
    this.reads++;
    return this.inner.get(hash);
  }
}

function build(count: number): { storage: MemoryTrieStorage; root: Uint8Array } {
  const storage = new MemoryTrieStorage();
  const changes = Array.from({ length: count }, (_, i) => ({
    key: text(`key-${i}`),
    value: text(`value-${i}`),
  }));
  const result = applyTrieChanges(storage, EMPTY_ROOT, changes);
  storage.apply(result);
  return { storage, root: result.newRoot };
}

describe('TrieNodeCache', () => {
  it('reads and decodes each node once, then serves it from memory', () => {
    const { storage, root } = build(200);
    const counting = new CountingStorage(storage);
    const cached = new CachedTrieStorage(counting, new TrieNodeCache(1024));
    const path = keyPath(storage, root, text('key-17')).nodes;
    assert.deepEqual(keyPath(cached, root, text('key-17')).nodes, path);
    assert.equal(counting.reads, path.length);
    assert.deepEqual(keyPath(cached, root, text('key-17')).nodes, path);
    assert.equal(counting.reads, path.length, 'the second walk reads nothing');
    const node = cached.node(root);
    assert.deepEqual(node.node, decodeRawNode(storage.get(root)!).node);
    assert.deepEqual(node.bytes, storage.get(root));
  });

  it('keeps at most its capacity, dropping the oldest generation first', () => {
    const { storage, root } = build(300);
    const cache = new TrieNodeCache(4);
    const cached = new CachedTrieStorage(storage, cache);
    const path = keyPath(storage, root, text('key-42')).nodes;
    assert.ok(path.length > 4, `a path of ${path.length} nodes`);
    for (const hash of path) cached.node(hash);
    assert.ok(cache.size <= 4);
    assert.equal(cache.get(path[0]), undefined, 'the first node read was dropped');
    assert.ok(cache.get(path[path.length - 1]), 'the last one is kept');
    assert.throws(() => new TrieNodeCache(1), RangeError);
  });

  it('keeps a node read again while newer ones come in', () => {
    const { storage, root } = build(300);
    const cache = new TrieNodeCache(8);
    const cached = new CachedTrieStorage(storage, cache);
    const hashes = [
      ...new Set(
        ['key-1', 'key-99', 'key-150', 'key-222', 'key-280'].flatMap((k) =>
          keyPath(storage, root, text(k)).nodes.map((h) => Buffer.from(h).toString('hex')),
        ),
      ),
    ].map((h) => Uint8Array.from(Buffer.from(h, 'hex')));
    assert.ok(hashes.length > 12, `${hashes.length} distinct nodes`);
    for (const hash of hashes) {
      cached.node(hash);
      assert.ok(cache.get(root) ?? cached.node(root), 'the root is read between every other node');
    }
    assert.ok(cache.get(root), 'the root, read all along, is still there');
  });

  it('learns the nodes an update makes, so the next update walks them from memory', () => {
    const { storage, root } = build(100);
    const counting = new CountingStorage(storage);
    const cached = new CachedTrieStorage(counting, new TrieNodeCache(1024));
    const first = applyTrieChanges(cached, root, [{ key: text('key-5'), value: text('changed') }]);
    storage.apply(first);
    const readsAfterFirst = counting.reads;
    const second = applyTrieChanges(cached, first.newRoot, [{ key: text('key-5'), value: text('again') }]);
    assert.equal(counting.reads, readsAfterFirst, 'the new path came from the cache');
    // The same change through the plain storage gives the same root and refcount changes.
    const plain = applyTrieChanges(storage, first.newRoot, [{ key: text('key-5'), value: text('again') }]);
    assert.deepEqual(second.newRoot, plain.newRoot);
    assert.deepEqual(second.insertions, plain.insertions);
    assert.deepEqual(second.deletions, plain.deletions);
  });

  it('is only a cache: a trie over the storage itself still reports a node that is gone', () => {
    const { storage, root } = build(50);
    const cached = new CachedTrieStorage(storage, new TrieNodeCache(1024));
    assert.deepEqual(new Trie(cached, root).get(text('key-3')), text('value-3'));
    // The whole trie collected (as GC does below the window): the store has nothing left.
    const emptied = applyTrieChanges(
      storage,
      root,
      Array.from({ length: 50 }, (_, i) => ({ key: text(`key-${i}`), value: null })),
    );
    storage.apply(emptied);
    assert.throws(() => new Trie(storage, root).get(text('key-3')), MissingTrieNodeError);
    // Decoded nodes stay valid for their hash; the value itself is not cached.
    assert.throws(() => new Trie(cached, root).get(text('key-3')), MissingTrieNodeError);
  });
});
