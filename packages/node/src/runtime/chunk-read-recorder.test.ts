// The runtime's own reads in the chunk's storage proof (chunk-read-recorder.ts): what a read, an existence
// check and a listing record, against the nodes the trie library reports for the same key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newAccount } from '../state/account.js';
import { accessKeyKey, accessKeyPrefix, accountKey, contractCodeKey } from '../state/state-keys.js';
import { StateUpdate } from '../state/state-update.js';
import { getAccessKey, getAccount, listAccessKeys, setAccount } from '../state/typed-state.js';
import type { VersionedState } from '../state/versioned-state.js';
import { Trie } from '../trie/trie.js';
import { TrieAccountingCache } from '../trie/trie-accounting.js';
import { iteratePrefix } from '../trie/trie-iterator.js';
import { keyPath } from '../trie/trie-lookup.js';
import { TrieRecorder } from '../trie/trie-recorder.js';
import { EMPTY_ROOT, MemoryTrieStorage } from '../trie/trie-storage.js';
import { applyTrieChanges } from '../trie/trie-update.js';
import { recordingReads } from './chunk-read-recorder.js';
import { testPublicKey } from './test-support/apply-receipt-harness.js';

const CODE = new Uint8Array(5000).fill(7);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Three accounts with a key each, one with code: the flat state and its trie. */
function chunk() {
  const setup = new StateUpdate(undefined, -1);
  for (const id of ['alice.near', 'bob.near', 'carol.near']) {
    setAccount(setup, id, newAccount(10n ** 24n, 182n));
    setup.set(accessKeyKey(id, testPublicKey()), new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 1]));
  }
  setup.set(contractCodeKey('bob.near'), CODE);
  setup.commit({ type: 'initial_state' });
  const writes = setup.finish();
  const storage = new MemoryTrieStorage();
  const changes = applyTrieChanges(
    storage,
    EMPTY_ROOT,
    writes.map(([key, value]) => ({ key, value })),
  );
  storage.apply(changes);
  const flat = new Map(writes.map(([k, v]) => [hex(k), v ?? undefined]));
  const recorder = new TrieRecorder();
  const accounting = new TrieAccountingCache();
  const trie = new Trie(storage, changes.newRoot, { recorder, accounting });
  const base = {
    get: (k: Uint8Array) => flat.get(hex(k)),
    scan: (prefix: Uint8Array) =>
      writes
        .filter(([k, v]) => v !== null && hex(k).startsWith(hex(prefix)))
        .map(([key, value]) => ({ key, value })),
  } as unknown as VersionedState;
  const state = new StateUpdate(base, 0);
  /** The bytes of the nodes on `key`'s path (and of its value with `withValue`), each distinct node once. */
  const pathBytes = (keys: Uint8Array[], withValue: boolean) => {
    const seen = new Set<string>();
    let size = 0;
    for (const key of keys) {
      const { nodes, value } = keyPath(storage, changes.newRoot, key);
      for (const h of nodes) {
        if (seen.has(hex(h))) continue;
        seen.add(hex(h));
        size += storage.get(h)!.length;
      }
      if (withValue && value) size += value.length;
    }
    return size;
  };
  return { state, trie, recorder, accounting, pathBytes, storage, root: changes.newRoot };
}

describe('the runtime reads in the storage proof (nearcore TrieUpdate reads with a recorder)', () => {
  it('a read records the path and the value; a second read of the key records nothing new', () => {
    const c = chunk();
    recordingReads(c.state, c.trie, () => {
      assert.ok(getAccount(c.state, 'alice.near'));
      assert.ok(getAccessKey(c.state, 'alice.near', testPublicKey()));
      const size = c.recorder.size;
      getAccount(c.state, 'alice.near');
      assert.equal(c.recorder.size, size);
    });
    const keys = [accountKey('alice.near'), accessKeyKey('alice.near', testPublicKey())];
    assert.equal(c.recorder.size, c.pathBytes(keys, true));
    // The runtime's reads use no access tracker: no trie-node gas, no warmed chunk cache.
    assert.deepEqual(c.accounting.getCounts(), { dbReads: 0, memReads: 0 });
  });

  it('an absent key records the nodes its lookup retrieves; an existence check records no value', () => {
    const c = chunk();
    recordingReads(c.state, c.trie, () => {
      assert.equal(getAccount(c.state, 'dave.near'), undefined);
      assert.equal(c.state.has(accountKey('carol.near')), true);
    });
    assert.equal(c.recorder.size, c.pathBytes([accountKey('dave.near'), accountKey('carol.near')], false));
  });

  it("an account's contract code records nothing (nearcore reads it by hash, outside the trie and the witness)", () => {
    const c = chunk();
    recordingReads(c.state, c.trie, () =>
      assert.equal(c.state.get(contractCodeKey('bob.near'))?.length, 5000),
    );
    assert.equal(c.recorder.size, 0);
  });

  it('what the chunk wrote is answered by the overlay and records nothing', () => {
    const c = chunk();
    recordingReads(c.state, c.trie, () => {
      setAccount(c.state, 'alice.near', newAccount(1n));
      c.state.commit({ type: 'initial_state' });
      assert.equal(getAccount(c.state, 'alice.near')?.amount, 1n);
      assert.equal(c.state.has(accountKey('alice.near')), true);
    });
    assert.equal(c.recorder.size, 0);
  });

  it("a listing records the nodes the trie's iterator retrieves under the prefix", () => {
    const c = chunk();
    recordingReads(c.state, c.trie, () => assert.equal(listAccessKeys(c.state, 'bob.near').length, 1));
    const nodes: Uint8Array[] = [];
    iteratePrefix(c.storage, c.root, accessKeyPrefix('bob.near'), (_h, bytes) => nodes.push(bytes));
    // The listing's own nodes; `listAccessKeys` reads the values from the flat state's scan.
    assert.ok(nodes.length > 0);
    assert.equal(
      c.recorder.size,
      nodes.reduce((n, b) => n + b.length, 0),
    );
  });

  it('nothing is recorded outside the chunk', () => {
    const c = chunk();
    recordingReads(c.state, c.trie, () => undefined);
    getAccount(c.state, 'alice.near');
    assert.equal(c.recorder.size, 0);
    assert.equal(c.state.readObserver, undefined);
  });
});
