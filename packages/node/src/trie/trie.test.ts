// Lookups and trie-node counting (reference doc §1.4–1.6): the nodes a storage_write / storage_remove counts,
// and the chunk cache's split between db reads (TOUCHING_TRIE_NODE) and mem reads (READ_CACHED_TRIE_NODE).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { utf8Encode } from '@shadebox/primitives';
import { decodeRawNode } from './raw-node.js';
import { Trie } from './trie.js';
import { TrieAccountingCache } from './trie-accounting.js';
import { keyPath } from './trie-lookup.js';
import { TrieRecorder } from './trie-recorder.js';
import { EMPTY_ROOT, MemoryTrieStorage } from './trie-storage.js';
import { applyTrieChanges } from './trie-update.js';

const text = utf8Encode;

function build(pairs: [string, string][]): { storage: MemoryTrieStorage; root: Uint8Array } {
  const storage = new MemoryTrieStorage();
  const result = applyTrieChanges(
    storage,
    EMPTY_ROOT,
    pairs.map(([k, v]) => ({ key: text(k), value: text(v) })),
  );
  storage.apply(result);
  return { storage, root: result.newRoot };
}

/** The node kinds on a key's path, root first. */
function kinds(storage: MemoryTrieStorage, root: Uint8Array, key: string): string[] {
  return keyPath(storage, root, text(key)).nodes.map((h) => decodeRawNode(storage.get(h)!).node.kind);
}

describe('lookups: the nodes on a key’s path', () => {
  // "ab" ends at a branch; "abc1"/"abc2" share "c" and the high nibble of the digit:
  // Extension(6,1,6,2) → BranchWithValue → Extension(3,3) → Branch → {Leaf, Leaf}.
  const { storage, root } = build([
    ['ab', 'v0'],
    ['abc1', 'v1'],
    ['abc2', 'v2'],
  ]);

  it('the shape of nearcore’s compare_node_counts trie', () => {
    assert.deepEqual(kinds(storage, root, 'abc1'), ['extension', 'branch', 'extension', 'branch', 'leaf']);
  });

  it('the empty root retrieves nothing', () => {
    assert.deepEqual(keyPath(storage, EMPTY_ROOT, text('abc1')), { nodes: [], value: null });
  });

  it('a branch without the next child and a leaf with another key are retrieved, then the walk stops', () => {
    assert.deepEqual(kinds(storage, root, 'ab\x10'), ['extension', 'branch']);
    // "abd": the branch's child 6 is the extension (3,3), which "d" (0x64) leaves.
    assert.deepEqual(kinds(storage, root, 'abd'), ['extension', 'branch', 'extension']);
    assert.deepEqual(kinds(storage, root, 'abc3'), ['extension', 'branch', 'extension', 'branch']);
    assert.deepEqual(kinds(storage, root, 'abc1x'), ['extension', 'branch', 'extension', 'branch', 'leaf']);
    assert.equal(keyPath(storage, root, text('abc1x')).value, null);
    // An extension that does not match is retrieved too.
    assert.deepEqual(kinds(storage, root, 'x'), ['extension']);
  });

  it('a key ending at a branch reads its value there', () => {
    const trie = new Trie(storage, root);
    assert.deepEqual(trie.get(text('ab')), text('v0'));
    assert.equal(trie.get(text('a')), null);
  });
});

describe('countWrite: trie nodes a storage_write / storage_remove counts, with the chunk cache', () => {
  const { storage, root } = build([
    ['ab', 'v0'],
    ['abc1', 'v1'],
    ['abc2', 'v2'],
  ]);

  it('existing keys: path + old value; the second key finds the shared nodes cached (db 8, mem 4 in all)', () => {
    const accounting = new TrieAccountingCache();
    const trie = new Trie(storage, root, { accounting });
    const first = trie.countWrite(text('abc1'));
    assert.deepEqual(first.counts, { dbReads: 6, memReads: 0 });
    assert.ok(first.oldValue !== null);
    const second = trie.countWrite(text('abc2'));
    assert.deepEqual(second.counts, { dbReads: 2, memReads: 4 });
    assert.deepEqual(accounting.getCounts(), { dbReads: 8, memReads: 4 });
  });

  it('a new key counts the path up to where it leaves the trie, no value', () => {
    const trie = new Trie(storage, root, { accounting: new TrieAccountingCache() });
    const write = trie.countWrite(text('abc3'));
    assert.deepEqual(write.counts, { dbReads: 4, memReads: 0 });
    assert.equal(write.oldValue, null);
  });

  it('the same key again in the chunk: all cached (the overlay, not the trie, decides it costs nothing)', () => {
    const trie = new Trie(storage, root, { accounting: new TrieAccountingCache() });
    trie.countWrite(text('ab'));
    assert.deepEqual(trie.countWrite(text('ab')).counts, { dbReads: 0, memReads: 3 });
  });

  it('identical subtrees share a hash: two leaves with the same rest and value are one node to the cache', () => {
    const same = build([
      ['k1', 'same'],
      ['k2', 'same'],
    ]);
    const accounting = new TrieAccountingCache();
    const trie = new Trie(same.storage, same.root, { accounting });
    trie.countWrite(text('k1'));
    // Extension(6,b,3) → Branch{1, 2} → two leaves "" with the same value: the same bytes, the same hash.
    assert.deepEqual(trie.countWrite(text('k2')).counts, { dbReads: 0, memReads: 4 });
  });

  it('needs an accounting cache', () => {
    assert.throws(() => new Trie(storage, root).countWrite(text('ab')), TypeError);
  });
});

describe('TrieRecorder', () => {
  const { storage, root } = build([
    ['ab', 'v0'],
    ['abc1', 'v1'],
    ['abc2', 'v2'],
  ]);

  it('records each node and value once; size is their bytes, the upper bound adds 2000 per removal', () => {
    const recorder = new TrieRecorder(4_000);
    const trie = new Trie(storage, root, { recorder });
    trie.get(text('abc1'));
    trie.get(text('abc1'));
    const path = keyPath(storage, root, text('abc1')).nodes;
    const bytes = path.reduce((sum, h) => sum + storage.get(h)!.length, 0) + 'v1'.length;
    assert.equal(recorder.count, path.length + 1);
    assert.equal(recorder.size, bytes);
    recorder.recordKeyRemoval();
    assert.equal(recorder.upperBound, bytes + 2000);
    assert.equal(recorder.exceedsLimit(), false);
    recorder.recordKeyRemoval();
    assert.equal(recorder.exceedsLimit(), true);
    recorder.recordCodeLength(10);
    assert.equal(recorder.upperBound, bytes + 4010);
    assert.equal(recorder.size, bytes);
  });
});
