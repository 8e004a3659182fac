import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base58Encode, hexEncode, sha256, utf8Encode } from '@shadebox/primitives';
import { decodeRawNode } from './raw-node.js';
import {
  CountingStorage,
  randomBytes,
  referenceRoot,
  seededRandom,
  shuffle,
} from './test-support/reference-trie.js';
import { Trie } from './trie.js';
import { keyPath } from './trie-lookup.js';
import { TrieRecorder } from './trie-recorder.js';
import { EMPTY_ROOT, MemoryTrieStorage, type TrieStorage } from './trie-storage.js';
import { applyTrieChanges, type TrieChange } from './trie-update.js';

const text = utf8Encode;

/** Applies `changes` on `root` and writes the result into `storage` (insertions and deletions). */
function commit(storage: MemoryTrieStorage, root: Uint8Array, changes: TrieChange[]): Uint8Array {
  const result = applyTrieChanges(storage, root, changes);
  storage.apply(result);
  return result.newRoot;
}

/** Every node and value reachable from `root`, counted with multiplicity per distinct hash. */
function reachable(storage: TrieStorage, root: Uint8Array): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (hash: Uint8Array) => {
    const key = hexEncode(hash);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  const walk = (hash: Uint8Array) => {
    add(hash);
    const { node } = decodeRawNode(storage.get(hash)!);
    if (node.kind === 'leaf') add(node.value.hash);
    else if (node.kind === 'extension') walk(node.child);
    else {
      if (node.value !== null) add(node.value.hash);
      for (const child of node.children) if (child !== null) walk(child);
    }
  };
  if (root.some((b) => b !== 0)) walk(root);
  return counts;
}

function randomState(seed: number, count: number): Map<string, [Uint8Array, Uint8Array]> {
  const random = seededRandom(seed);
  const state = new Map<string, [Uint8Array, Uint8Array]>();
  while (state.size < count) {
    // Keys of nearcore's shapes: a column byte, an account-like middle, sometimes a suffix; short values.
    const column = [0, 1, 2, 9][Math.floor(random() * 4)];
    const account = text(`acc${Math.floor(random() * (count / 4))}.near`);
    const suffix = randomBytes(random, column === 9 ? 1 + Math.floor(random() * 6) : column === 2 ? 33 : 0);
    const key = new Uint8Array([column, ...account, ...(suffix.length > 0 ? [0x2c, ...suffix] : [])]);
    state.set(hexEncode(key), [key, randomBytes(random, 1 + Math.floor(random() * 40))]);
  }
  return state;
}

describe('applyTrieChanges: small tries (reference doc §3.4, nearcore test_trie_recording_reads_update)', () => {
  it('{doge: coin} is a single leaf', () => {
    const storage = new MemoryTrieStorage();
    const root = commit(storage, EMPTY_ROOT, [{ key: text('doge'), value: text('coin') }]);
    const bytes = storage.get(root)!;
    assert.equal(
      hexEncode(bytes),
      `000500000020646f676504000000${hexEncode(sha256(text('coin')))}${'7200000000000000'}`,
    );
    assert.equal(decodeRawNode(bytes).memoryUsage, 114);
    assert.equal(base58Encode(root), '95v8GsKGps5foAqUkR6GBLyD7qRW8x9uDi356Xims8GF');
  });

  it('{doge, docu} is extension → branch → two leaves', () => {
    const storage = new MemoryTrieStorage();
    const root = commit(storage, EMPTY_ROOT, [
      { key: text('doge'), value: text('coin') },
      { key: text('docu'), value: text('value') },
    ]);
    const top = decodeRawNode(storage.get(root)!);
    assert.equal(top.node.kind, 'extension');
    assert.equal(hexEncode(top.node.kind === 'extension' ? top.node.key : new Uint8Array()), '1646f6');
    assert.equal(top.memoryUsage, 323);
    assert.equal(base58Encode(root), '5XoUea9mXnWj5Wx4yaVrdSK5ULv1bExFvSrhGq9tG6b3');
  });

  it('records what nearcore records: get doge 4, delete doge 4, insert dodo 2', () => {
    const storage = new MemoryTrieStorage();
    const root = commit(storage, EMPTY_ROOT, [
      { key: text('doge'), value: text('coin') },
      { key: text('docu'), value: text('value') },
    ]);
    const read = new TrieRecorder();
    assert.deepEqual(new Trie(storage, root, { recorder: read }).get(text('doge')), text('coin'));
    assert.equal(read.count, 4); // extension, branch, leaf, value

    const removal = new TrieRecorder();
    new Trie(storage, root, { recorder: removal }).update([{ key: text('doge'), value: null }]);
    assert.equal(removal.count, 4); // extension, branch, both leaves (the sibling to squash), not the value

    const insertion = new TrieRecorder();
    new Trie(storage, root, { recorder: insertion }).update([{ key: text('dodo'), value: text('asdf') }]);
    assert.equal(insertion.count, 2); // extension and branch
    const top = decodeRawNode(storage.get(root)!).node;
    const branch = storage.get(top.kind === 'extension' ? top.child : root)!;
    assert.equal(insertion.size, storage.get(root)!.length + branch.length);
    assert.equal(insertion.upperBound, insertion.size);
  });

  it('a delete that leaves a branch one child squashes at once, reading the sibling, even if a later key re-grows it', () => {
    // Branch{1: leaf "\x11", 2: leaf "\x12"} under nothing else: deleting "\x11" then adding "\x13" in one batch.
    const storage = new MemoryTrieStorage();
    const root = commit(storage, EMPTY_ROOT, [
      { key: new Uint8Array([0x11]), value: text('x') },
      { key: new Uint8Array([0x12]), value: text('y') },
    ]);
    const recorder = new TrieRecorder();
    const result = new Trie(storage, root, { recorder }).update([
      { key: new Uint8Array([0x13]), value: text('z') },
      { key: new Uint8Array([0x11]), value: null },
    ]);
    // Extension(1) → Branch, the deleted leaf, and the sibling read by the squash (as nearcore, key by key).
    assert.equal(recorder.count, 4);
    assert.deepEqual(
      result.newRoot,
      referenceRoot([
        [new Uint8Array([0x12]), text('y')],
        [new Uint8Array([0x13]), text('z')],
      ]).root,
    );
  });

  it('no changes keep the root and read nothing', () => {
    const storage = new CountingStorage(new MemoryTrieStorage());
    const result = applyTrieChanges(storage, EMPTY_ROOT, []);
    assert.deepEqual(result.newRoot, EMPTY_ROOT);
    assert.equal(storage.reads, 0);
  });
});

describe('applyTrieChanges: the canonical shape at genesis scale (3,000 keys)', () => {
  const state = randomState(7, 3000);
  const entries = [...state.values()];
  const expected = referenceRoot(entries);

  it('sorted, random order and many small batches give the reference root and memory usage', () => {
    const sorted = new MemoryTrieStorage();
    const sortedRoot = commit(
      sorted,
      EMPTY_ROOT,
      entries.map(([key, value]) => ({ key, value })),
    );
    assert.deepEqual(sortedRoot, expected.root);
    assert.equal(decodeRawNode(sorted.get(sortedRoot)!).memoryUsage, expected.mem);

    const random = seededRandom(11);
    const storage = new MemoryTrieStorage();
    let root = EMPTY_ROOT;
    const shuffled = shuffle(random, entries.slice());
    for (let i = 0; i < shuffled.length; i += 97) {
      root = commit(
        storage,
        root,
        shuffled.slice(i, i + 97).map(([key, value]) => ({ key, value })),
      );
    }
    assert.deepEqual(root, expected.root);
    // The store holds exactly the trie's nodes and values: deletions removed everything replaced.
    assert.equal(storage.size, reachable(storage, root).size);
  });

  it('updates, duplicate changes (last wins) and deletes of absent keys', () => {
    const random = seededRandom(5);
    const storage = new MemoryTrieStorage();
    let root = commit(
      storage,
      EMPTY_ROOT,
      entries.map(([key, value]) => ({ key, value })),
    );
    const current = new Map(state);
    for (let round = 0; round < 20; round++) {
      const changes: TrieChange[] = [];
      for (let i = 0; i < 60; i++) {
        const [key] = entries[Math.floor(random() * entries.length)];
        const roll = random();
        if (roll < 0.4) changes.push({ key, value: null });
        else if (roll < 0.8) changes.push({ key, value: randomBytes(random, 1 + Math.floor(random() * 30)) });
        else changes.push({ key: new Uint8Array([...key, 0x01]), value: null }); // absent
      }
      root = commit(storage, root, changes);
      for (const { key, value } of changes) {
        const id = hexEncode(key);
        if (value === null) current.delete(id);
        else current.set(id, [key, value]);
      }
      assert.deepEqual(root, referenceRoot(current.values()).root, `round ${round}`);
    }
    assert.equal(storage.size, reachable(storage, root).size);
  });

  it('deleting every key, in random order and batches, leaves the empty root and an empty store', () => {
    const storage = new MemoryTrieStorage();
    let root = commit(
      storage,
      EMPTY_ROOT,
      entries.map(([key, value]) => ({ key, value })),
    );
    const keys = shuffle(
      seededRandom(3),
      entries.map(([key]) => key),
    );
    for (let i = 0; i < keys.length; i += 250) {
      root = commit(
        storage,
        root,
        keys.slice(i, i + 250).map((key) => ({ key, value: null })),
      );
    }
    assert.deepEqual(root, EMPTY_ROOT);
    assert.equal(storage.size, 0);
  });

  it('keys that are prefixes of others (branches with values) and the empty key', () => {
    const pairs: [Uint8Array, Uint8Array][] = [
      [text(''), text('root value')],
      [text('a'), text('1')],
      [text('ab'), text('2')],
      [text('abc'), text('3')],
      [text('abd'), text('4')],
      [text('b'), text('5')],
    ];
    const storage = new MemoryTrieStorage();
    let root = commit(
      storage,
      EMPTY_ROOT,
      pairs.map(([key, value]) => ({ key, value })),
    );
    assert.deepEqual(root, referenceRoot(pairs).root);
    root = commit(storage, root, [
      { key: text('ab'), value: null },
      { key: text(''), value: null },
    ]);
    assert.deepEqual(root, referenceRoot([pairs[1], pairs[3], pairs[4], pairs[5]]).root);
    const trie = new Trie(storage, root);
    assert.deepEqual(trie.get(text('abc')), text('3'));
    assert.equal(trie.get(text('ab')), null);
  });

  it('an update reads only the nodes on the changed paths', () => {
    const memory = new MemoryTrieStorage();
    const root = commit(
      memory,
      EMPTY_ROOT,
      entries.map(([key, value]) => ({ key, value })),
    );
    const storage = new CountingStorage(memory);
    const [key] = entries[100];
    const { nodes } = keyPath(memory, root, key);
    const result = applyTrieChanges(storage, root, [{ key, value: text('changed') }]);
    assert.equal(storage.reads, nodes.length);
    // Only the path's nodes are rewritten: one new node per level, the old ones deleted, plus the values.
    assert.equal(result.insertions.length, storage.reads + 1);
    assert.equal(result.deletions.length, storage.reads + 1);
  });
});
