/**
 * view_state's proof from a trie of real state keys (accounts, access keys, contract data of neighbouring
 * accounts): the values without the account's key prefix, the nodes in nearcore's iterator order, verified with
 * the library's verifier against the root; an absent prefix and an account without data get the seek path alone,
 * which proves there is nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64Decode, sha256, utf8Encode } from '@shadebox/primitives';
import { accountKey, contractCodeKey, contractDataPrefix } from '../../state/state-keys.js';
import {
  applyTrieChanges,
  decodeRawNode,
  EMPTY_ROOT,
  keyPath,
  MemoryTrieStorage,
  MissingTrieNodeError,
  proveKey,
  Trie,
  verifyPrefixProof,
} from '../../trie/index.js';
import { provenContractState, provenStateView } from './view-state-proof.js';

const text = utf8Encode;
const data = (account: string, key: string) => new Uint8Array([...contractDataPrefix(account), ...text(key)]);

const entries: [Uint8Array, Uint8Array][] = [
  [accountKey('alice.test'), text('account alice')],
  [accountKey('alice.test2'), text('account alice2')],
  [accountKey('bob.test'), text('account bob')],
  [contractCodeKey('alice.test'), new Uint8Array(300).fill(7)],
  [data('alice.test', 'STATE'), text('{"owner":"alice.test"}')],
  [data('alice.test', 'a'), text('1')],
  [data('alice.test', 'a\x00'), text('1.0')],
  [data('alice.test', 'ab'), text('2')],
  [data('alice.test', 'b'), new Uint8Array(5000).fill(1)],
  // An account whose name extends alice.test's: its data is not under alice.test's prefix.
  [data('alice.test2', 'a'), text('other')],
  [data('bob.test', ''), text('empty key')],
];

/** The trie as the chain keeps it: nodes only, the values in a flat map (the node's flat state). */
function trieOf(list: [Uint8Array, Uint8Array][]): Trie {
  const storage = new MemoryTrieStorage();
  const changes = applyTrieChanges(
    storage,
    EMPTY_ROOT,
    list.map(([key, value]) => ({ key, value })),
    { storeValues: false },
  );
  storage.apply(changes);
  return new Trie(storage, changes.newRoot);
}

const flat = new Map(entries.map(([key, value]) => [Buffer.from(key).toString('hex'), value]));
const flatValue = (key: Uint8Array) => flat.get(Buffer.from(key).toString('hex'));

const trie = trieOf(entries);

/** Verifies the answer as a client does: the proof from the root holds exactly these values under the prefix. */
function verify(account: string, prefix: Uint8Array, view: ReturnType<typeof provenStateView>) {
  const base = contractDataPrefix(account);
  const proof = (view.proof ?? []).map(base64Decode);
  const values = view.values.map(({ key, value }) => ({
    key: new Uint8Array([...base, ...base64Decode(key)]),
    value: base64Decode(value),
  }));
  return verifyPrefixProof(trie.root, proof, new Uint8Array([...base, ...prefix]), values, {
    exactNodes: true,
  });
}

describe('view_state with include_proof', () => {
  it('the whole state of an account: its keys without the prefix, in key order, proven', () => {
    const view = provenStateView(provenContractState(trie, 'alice.test', new Uint8Array(), flatValue));
    assert.deepEqual(
      view.values.map(({ key }) => Buffer.from(base64Decode(key)).toString('latin1')),
      ['STATE', 'a', 'a\x00', 'ab', 'b'],
    );
    assert.equal(Buffer.from(base64Decode(view.values[4].value)).length, 5000);
    assert.ok(view.proof !== undefined && view.proof.length > 0);
    // The first node is the root; every node once; no value among them.
    assert.deepEqual(sha256(base64Decode(view.proof[0])), trie.root);
    const hashes = view.proof.map((p) => Buffer.from(sha256(base64Decode(p))).toString('hex'));
    assert.equal(new Set(hashes).size, hashes.length);
    for (const p of view.proof) decodeRawNode(base64Decode(p));
    assert.equal(verify('alice.test', new Uint8Array(), view).length, 5);
  });

  it('a prefix inside the state and a whole key as the prefix', () => {
    const a = provenStateView(provenContractState(trie, 'alice.test', text('a'), flatValue));
    assert.deepEqual(
      a.values.map(({ key }) => Buffer.from(base64Decode(key)).toString('latin1')),
      ['a', 'a\x00', 'ab'],
    );
    verify('alice.test', text('a'), a);
    const state = provenStateView(provenContractState(trie, 'alice.test', text('STATE'), flatValue));
    assert.equal(state.values.length, 1);
    verify('alice.test', text('STATE'), state);
    // A whole key's proof is its lookup path (the walk ends at its leaf).
    const { nodes } = keyPath(trie.storage, trie.root, data('alice.test', 'STATE'));
    assert.deepEqual(
      state.proof?.map(base64Decode),
      nodes.map((hash) => trie.storage.get(hash)),
    );
  });

  it('an absent prefix: no values and the seek path, which proves each absent key', () => {
    for (const [account, prefix] of [
      ['alice.test', 'c'],
      ['alice.test', 'STATF'],
      ['alice.test', 'ab\x01'],
      ['carol.test', ''],
    ] as const) {
      const view = provenStateView(provenContractState(trie, account, text(prefix), flatValue));
      assert.deepEqual(view.values, []);
      assert.ok(view.proof !== undefined && view.proof.length > 0, `${account} ${prefix}`);
      assert.deepEqual(verify(account, text(prefix), view), []);
      const proof = view.proof.map(base64Decode);
      assert.equal(proveKey(trie.root, proof, data(account, prefix)), null);
    }
  });

  it('the neighbour with a longer name keeps its own data', () => {
    const view = provenStateView(provenContractState(trie, 'alice.test2', new Uint8Array(), flatValue));
    assert.deepEqual(view.values, [
      { key: Buffer.from('a').toString('base64'), value: Buffer.from('other').toString('base64') },
    ]);
    verify('alice.test2', new Uint8Array(), view);
    // An empty key is a key like any other.
    const bob = provenStateView(provenContractState(trie, 'bob.test', new Uint8Array(), flatValue));
    assert.deepEqual(bob.values, [{ key: '', value: Buffer.from('empty key').toString('base64') }]);
    verify('bob.test', new Uint8Array(), bob);
  });

  it('a tampered proof or value does not verify', () => {
    const view = provenStateView(provenContractState(trie, 'alice.test', new Uint8Array(), flatValue));
    const changed = { ...view, values: view.values.map((v, i) => (i === 1 ? { ...v, value: 'Mg==' } : v)) };
    assert.throws(() => verify('alice.test', new Uint8Array(), changed), /does not match/);
    const short = { ...view, proof: view.proof?.slice(0, -1) };
    assert.throws(() => verify('alice.test', new Uint8Array(), short), /lacks node/);
  });

  it('a value the flat state does not hold as the leaf references it is a missing value, not a wrong answer', () => {
    const stale = (key: Uint8Array) => {
      const value = flatValue(key);
      return value && Buffer.from(key).toString('latin1').endsWith(',ab') ? text('3') : value;
    };
    assert.throws(
      () => provenContractState(trie, 'alice.test', new Uint8Array(), stale),
      MissingTrieNodeError,
    );
    assert.throws(
      () => provenContractState(trie, 'alice.test', new Uint8Array(), () => undefined),
      MissingTrieNodeError,
    );
  });

  it('an empty trie has no node to prove with: the proof is left out, as nearcore serializes it', () => {
    const empty = new Trie(new MemoryTrieStorage(), EMPTY_ROOT);
    assert.deepEqual(provenStateView(provenContractState(empty, 'alice.test', new Uint8Array(), flatValue)), {
      values: [],
    });
  });
});
