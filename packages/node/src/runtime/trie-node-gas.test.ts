// Trie-node gas of the storage host functions over known tries (reference doc §1.3–1.8, §3.5): the runtime's
// External (contract-external.ts) over a trie built with the library, called through the VM's host functions
// at each protocol version 83-87. Paths are counted by hand from the trie's shape, asserted beside them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { utf8Encode } from '@shadebox/primitives';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { contractDataKey } from '../state/state-keys.js';
import { StateUpdate } from '../state/state-update.js';
import type { VersionedState } from '../state/versioned-state.js';
import { decodeRawNode } from '../trie/raw-node.js';
import { Trie } from '../trie/trie.js';
import { TrieAccountingCache } from '../trie/trie-accounting.js';
import { keyPath } from '../trie/trie-lookup.js';
import { REMOVAL_UPPER_BOUND_BYTES, TrieRecorder } from '../trie/trie-recorder.js';
import { EMPTY_ROOT, MemoryTrieStorage } from '../trie/trie-storage.js';
import { applyTrieChanges } from '../trie/trie-update.js';
import { EXT_COST_INDEX } from '../vm/gas-profile.js';
import { TestVMLogic } from '../vm/test-support/vm-logic-builder.js';
import { vmConfigFrom } from '../vm/vm-config.js';
import type { VMConfig } from '../vm/vm-logic.js';
import type { ChunkTrie } from './chunk-trie.js';
import { contractExternal } from './contract-external.js';

const ACCOUNT = 'alice.near';
const TTN = 2_280_000_000n; // touching_trie_node and read_cached_trie_node at 83-87
const text = utf8Encode;
const stateKey = (key: string) => contractDataKey(ACCOUNT, text(key));

/** The chunk's trie over `pairs` of ALICE's contract data, with a fresh accounting cache and recorder. */
function chunkTrieOver(
  pairs: [string, string][],
  storageGetMode: 'FlatStorage' | 'Trie' = 'FlatStorage',
): ChunkTrie {
  const storage = new MemoryTrieStorage();
  const changes = applyTrieChanges(
    storage,
    EMPTY_ROOT,
    pairs.map(([k, v]) => ({ key: stateKey(k), value: text(v) })),
  );
  storage.apply(changes);
  const trie = new Trie(storage, changes.newRoot, {
    accounting: new TrieAccountingCache(),
    recorder: new TrieRecorder(),
  });
  const chunkTrie: ChunkTrie = { trie, storageGetMode };
  FLAT.set(chunkTrie, new Map(pairs.map(([k, v]) => [hex(stateKey(k)), text(v)])));
  return chunkTrie;
}

/** The flat state the trie of `chunkTrieOver` was built from, by key. */
const FLAT = new WeakMap<ChunkTrie, Map<string, Uint8Array>>();
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** A chunk's state overlay over the flat state `chunkTrie` holds (what reads see before the chunk writes). */
function chunkState(chunkTrie: ChunkTrie): StateUpdate {
  const flat = FLAT.get(chunkTrie)!;
  const base = { get: (key: Uint8Array) => flat.get(hex(key)) } as unknown as VersionedState;
  return new StateUpdate(base, 0);
}

/** The node kinds on `key`'s path, root first. */
function kinds(chunkTrie: ChunkTrie, key: string): string[] {
  const { storage, root } = chunkTrie.trie;
  return keyPath(storage, root, stateKey(key)).nodes.map((h) => decodeRawNode(storage.get(h)!).node.kind);
}

/** One contract call (a VMLogic) of a receipt of the chunk: over the chunk's overlay and trie. */
function call(
  state: StateUpdate,
  chunkTrie: ChunkTrie,
  options: { config?: Partial<VMConfig>; prepaidGas?: bigint } = {},
) {
  const logic = new TestVMLogic({
    external: contractExternal(state, ACCOUNT, new Map(), { chunkTrie }),
    config: options.config,
    context: options.prepaidGas === undefined ? {} : { prepaidGas: options.prepaidGas },
  });
  const profile = () => ({
    touching: logic.vm.profiler.profile.ext[EXT_COST_INDEX.touching_trie_node],
    cached: logic.vm.profiler.profile.ext[EXT_COST_INDEX.read_cached_trie_node],
  });
  const run = (name: string, ...args: string[]) => {
    const slices = args.map((a) => logic.memWrite(a));
    const flat = slices.flatMap((s) => [s.len, s.ptr]);
    return name === 'storage_write' || name === 'storage_read' || name === 'storage_remove'
      ? logic.call(name, ...flat, 0n)
      : logic.call(name, ...flat);
  };
  return { logic, profile, run };
}

/** Gas in the profile for `db` first-time and `mem` cached nodes. */
const nodes = (db: number, mem: number) => ({ touching: BigInt(db) * TTN, cached: BigInt(mem) * TTN });

describe('trie-node gas of contract storage (nearcore ext.rs, at 83-87)', () => {
  // nearcore's compare_node_counts shape under the account's prefix: "ab" ends at a branch; "abc1"/"abc2"
  // share "c" and the digit's high nibble: Extension → BranchWithValue → Extension → Branch → {Leaf, Leaf}.
  const PAIRS: [string, string][] = [
    ['ab', 'v0'],
    ['abc1', 'v1'],
    ['abc2', 'v2'],
  ];

  it('the trie has the shape the counts below assume', () => {
    const chunkTrie = chunkTrieOver(PAIRS);
    assert.deepEqual(kinds(chunkTrie, 'abc1'), ['extension', 'branch', 'extension', 'branch', 'leaf']);
    assert.deepEqual(kinds(chunkTrie, 'ab'), ['extension', 'branch']);
    assert.deepEqual(kinds(chunkTrie, 'abc3'), ['extension', 'branch', 'extension', 'branch']);
    assert.deepEqual(kinds(chunkTrie, 'x'), ['extension']);
  });

  for (const version of [83, 84, 85, 86, 87]) {
    it(`protocol ${version}: writes pay the old value's path and the value, the chunk cache splits them`, () => {
      const config = vmConfigFrom(loadRuntimeConfig(version));
      assert.equal(config.extCosts.touching_trie_node, TTN);
      assert.equal(config.extCosts.read_cached_trie_node, TTN);
      assert.equal(config.storageGetMode, 'FlatStorage');
      const chunkTrie = chunkTrieOver(PAIRS);
      const state = chunkState(chunkTrie);

      // compare_node_counts: two existing keys, 5 path nodes + the value each; the second shares 4 nodes.
      const first = call(state, chunkTrie, { config });
      assert.equal(first.run('storage_write', 'abc1', 'new1'), 1n);
      assert.deepEqual(first.profile(), nodes(6, 0));
      first.run('storage_write', 'abc2', 'new2');
      assert.deepEqual(first.profile(), nodes(8, 4));
      // A key the chunk already wrote is answered from the overlay: nothing more.
      first.run('storage_write', 'abc1', 'again');
      assert.deepEqual(first.profile(), nodes(8, 4));
      state.commit({ type: 'receipt_processing', receipt_hash: 'r1' });

      // A later receipt of the chunk: the cache is the chunk's. A new key stops at the branch without its child
      // (4 nodes, all cached); a key ending at a branch with a value reads 2 cached nodes and its value.
      const second = call(state, chunkTrie, { config });
      assert.equal(second.run('storage_write', 'abc3', 'v3'), 0n);
      assert.deepEqual(second.profile(), nodes(0, 4));
      assert.equal(second.run('storage_remove', 'ab'), 1n);
      assert.deepEqual(second.profile(), nodes(1, 6));
      // Reads and has_key pay no trie node (flat storage), whether the key is in the overlay or not.
      assert.equal(second.run('storage_read', 'abc2'), 1n);
      assert.equal(second.run('storage_read', 'zz'), 0n);
      assert.equal(second.run('storage_has_key', 'ab'), 0n);
      assert.equal(second.run('storage_has_key', 'x'), 0n);
      assert.deepEqual(second.profile(), nodes(1, 6));
      // A key that leaves the root extension reads it alone.
      second.run('storage_remove', 'x');
      assert.deepEqual(second.profile(), nodes(1, 7));
    });
  }

  it('a value a read dereferenced is cached for a later write of the key (the read itself pays nothing)', () => {
    const chunkTrie = chunkTrieOver(PAIRS);
    const state = chunkState(chunkTrie);
    const c = call(state, chunkTrie);
    assert.equal(c.run('storage_read', 'abc1'), 1n);
    assert.deepEqual(c.profile(), nodes(0, 0));
    // Reads do not enter the overlay: the write walks the trie; its path is new, the value is not.
    c.run('storage_write', 'abc1', 'w');
    assert.deepEqual(c.profile(), nodes(5, 1));
    // has_key dereferences nothing: the later write of abc2 counts its value as new.
    c.run('storage_has_key', 'abc2');
    c.run('storage_write', 'abc2', 'w');
    assert.deepEqual(c.profile(), nodes(7, 5));
  });

  it('a failed receipt rolls back its writes but not the cache: the key is looked up again, all cached', () => {
    const chunkTrie = chunkTrieOver(PAIRS);
    const state = chunkState(chunkTrie);
    call(state, chunkTrie).run('storage_write', 'abc1', 'w');
    state.rollback();
    const again = call(state, chunkTrie);
    again.run('storage_write', 'abc1', 'w');
    assert.deepEqual(again.profile(), nodes(0, 6));
  });

  it('identical subtrees are one hash: the second key’s leaf and value are cached reads', () => {
    const chunkTrie = chunkTrieOver([
      ['k1', 'same'],
      ['k2', 'same'],
    ]);
    assert.deepEqual(kinds(chunkTrie, 'k1'), ['extension', 'branch', 'leaf']);
    const c = call(chunkState(chunkTrie), chunkTrie);
    c.run('storage_write', 'k1', 'a');
    c.run('storage_write', 'k2', 'b');
    // The branch takes the keys' last nibble: both leaves are Leaf(empty rest, ref("same")), one node.
    // k1: extension, branch, leaf, value (4 new); k2: the same 4 nodes, all cached.
    assert.deepEqual(c.profile(), nodes(4, 4));
  });

  it('storage_get_mode Trie (no protocol 83-87 sets it): a read pays its path, its value stays free', () => {
    const chunkTrie = chunkTrieOver(PAIRS, 'Trie');
    const c = call(chunkState(chunkTrie), chunkTrie, { config: { storageGetMode: 'Trie' } });
    c.run('storage_read', 'abc1');
    assert.deepEqual(c.profile(), nodes(5, 0));
    c.run('storage_has_key', 'abc2');
    assert.deepEqual(c.profile(), nodes(6, 4));
  });

  it('an empty trie touches nothing', () => {
    const chunkTrie = chunkTrieOver([]);
    const c = call(chunkState(chunkTrie), chunkTrie);
    assert.equal(c.run('storage_write', 'a', 'b'), 0n);
    assert.equal(c.run('storage_remove', 'c'), 0n);
    assert.deepEqual(c.profile(), nodes(0, 0));
  });
});

describe('running out of gas inside a storage operation (the order of ext.rs storage_set / storage_remove)', () => {
  const PAIRS: [string, string][] = [
    ['ab', 'v0'],
    ['abc1', 'value-1'],
    ['abc2', 'v2'],
  ];
  const costs = vmConfigFrom(loadRuntimeConfig(86)).extCosts;
  /** Gas of storage_write(abc1, 'w') up to and including the value bytes (key and value from memory). */
  const beforeLookup =
    costs.base +
    costs.storage_write_base +
    2n * (costs.read_memory_base + costs.read_memory_byte * 4n) -
    costs.read_memory_byte * 3n + // the value 'w' is 1 byte, the key 4
    costs.storage_write_key_byte * 4n +
    costs.storage_write_value_byte * 1n;
  const evicted = costs.storage_write_evicted_byte * 7n;

  it('gas that ends at the old value’s bytes: no trie node is charged, the path is cached, the value is not', () => {
    const chunkTrie = chunkTrieOver(PAIRS);
    const state = chunkState(chunkTrie);
    const c = call(state, chunkTrie, { prepaidGas: beforeLookup + evicted - 1n });
    assert.throws(() => c.run('storage_write', 'abc1', 'w'), { variant: 'GasExceeded' });
    assert.equal(c.logic.burntGas, beforeLookup + evicted - 1n);
    assert.deepEqual(c.profile(), nodes(0, 0));
    assert.equal(c.logic.vm.profiler.profile.ext[EXT_COST_INDEX.storage_write_evicted_byte], evicted);
    assert.equal(state.inOverlay(stateKey('abc1')), false);
    // The receipt fails; a later one writes the key: the 5 path nodes are cached, the value is new.
    state.rollback();
    const later = call(state, chunkTrie);
    later.run('storage_write', 'abc1', 'w');
    assert.deepEqual(later.profile(), nodes(1, 5));
  });

  it('gas that ends at TOUCHING_TRIE_NODE: its full charge is booked, READ_CACHED_TRIE_NODE never comes', () => {
    const chunkTrie = chunkTrieOver(PAIRS);
    const state = chunkState(chunkTrie);
    // Warm two nodes of abc1's path (extension, branch) with a removal of "ab" in an earlier receipt.
    call(state, chunkTrie).run('storage_remove', 'ab');
    state.commit({ type: 'receipt_processing', receipt_hash: 'r1' });
    const c = call(state, chunkTrie, { prepaidGas: beforeLookup + evicted + TTN });
    assert.throws(() => c.run('storage_write', 'abc1', 'w'), { variant: 'GasExceeded' });
    // 4 first-time nodes (extension, branch, leaf, value) are booked in full; the 2 cached are not charged.
    assert.deepEqual(c.profile(), nodes(4, 0));
    assert.equal(state.inOverlay(stateKey('abc1')), false);
  });

  it('storage_remove charges the removed bytes before the nodes, and removes after charging them', () => {
    const chunkTrie = chunkTrieOver(PAIRS);
    const state = chunkState(chunkTrie);
    const c = call(state, chunkTrie);
    assert.equal(c.run('storage_remove', 'abc1'), 1n);
    assert.deepEqual(c.profile(), nodes(6, 0));
    assert.equal(
      c.logic.vm.profiler.profile.ext[EXT_COST_INDEX.storage_remove_ret_value_byte],
      costs.storage_remove_ret_value_byte * 7n,
    );
    assert.equal(state.inOverlay(stateKey('abc1')), true);
  });
});

describe('the recorded storage proof and its per-receipt limit (RecordedStorageCounter)', () => {
  const PAIRS: [string, string][] = [
    ['ab', 'v0'],
    ['abc1', 'v1'],
    ['abc2', 'v2'],
  ];

  it('writes record the path and the old value, reads the value, removals add 2000 to the bound', () => {
    const chunkTrie = chunkTrieOver(PAIRS);
    const recorder = chunkTrie.trie.recorder!;
    const { storage, root } = chunkTrie.trie;
    const c = call(chunkState(chunkTrie), chunkTrie);
    const size = (hashes: Uint8Array[]) => hashes.reduce((n, h) => n + storage.get(h)!.length, 0);
    // has_key dereferences nothing; a read records the value it returns ("v2"), not its path (flat storage).
    c.run('storage_has_key', 'abc2');
    assert.equal(recorder.size, 0);
    c.run('storage_read', 'abc2');
    assert.equal(recorder.size, 2);
    c.run('storage_remove', 'abc1');
    const abc1Path = keyPath(storage, root, stateKey('abc1')).nodes;
    assert.equal(recorder.size, 2 + size(abc1Path) + 2);
    assert.equal(recorder.upperBound, recorder.size + REMOVAL_UPPER_BOUND_BYTES);
    // A removal of a key that is not there still adds to the bound.
    c.run('storage_remove', 'nothing');
    assert.equal(recorder.upperBound - recorder.size, 2 * REMOVAL_UPPER_BOUND_BYTES);
  });

  it('a call whose storage operations record more than the limit fails with RecordedStorageExceeded', () => {
    const chunkTrie = chunkTrieOver(PAIRS);
    const base = vmConfigFrom(loadRuntimeConfig(85));
    const c = call(chunkState(chunkTrie), chunkTrie, {
      config: { limits: { ...base.limits, perReceiptStorageProofSizeLimit: 3000 } },
    });
    c.run('storage_remove', 'abc1'); // path + value + 2000
    assert.throws(() => c.run('storage_remove', 'abc2'), {
      variant: 'RecordedStorageExceeded',
      message: 'Size of the recorded trie storage proof has exceeded the allowed limit (3.0 KB)',
    });
  });

  it('the limit counts from the receipt’s start when the runtime gives it (86), else from the call’s', () => {
    const chunkTrie = chunkTrieOver(PAIRS);
    const base = vmConfigFrom(loadRuntimeConfig(86));
    const config = { limits: { ...base.limits, perReceiptStorageProofSizeLimit: 3000 } };
    const state = chunkState(chunkTrie);
    call(state, chunkTrie, { config }).run('storage_remove', 'abc1');
    // Before 86: a new call starts counting afresh.
    call(state, chunkTrie, { config }).run('storage_remove', 'abc2');
    // From 86: the receipt started before both removals.
    chunkTrie.sizeBeforeReceipt = 0;
    assert.throws(() => call(state, chunkTrie, { config }).run('storage_has_key', 'ab'), {
      variant: 'RecordedStorageExceeded',
    });
  });
});
