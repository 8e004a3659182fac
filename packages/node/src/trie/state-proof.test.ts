import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { base58Encode, base64Decode, hexEncode, sha256, utf8Encode } from '@shadebox/primitives';
import { decodeRawNode } from './raw-node.js';
import { proveKey, verifyPrefixProof } from './state-proof.js';
import { InvalidStateProofError } from './trie-errors.js';
import { prefixProof } from './trie-iterator.js';
import { keyPath } from './trie-lookup.js';
import { EMPTY_ROOT, MemoryTrieStorage } from './trie-storage.js';
import { applyTrieChanges } from './trie-update.js';

const text = utf8Encode;

/**
 * A real mainnet `query view_state` answer with include_proof (prover.bridge.near, prefix "", block 99,917,403),
 * copied from ../shared/reference/vectors: 19 nodes, root first, one value under "STATE".
 */
const vector = JSON.parse(
  readFileSync(new URL('./test-vectors/mainnet-view-state-proof.json', import.meta.url), 'utf8'),
) as {
  account_id: string;
  values: { key: string; value: string }[];
  proof: string[];
  expected_root_base58: string;
  expected_nodes_on_path: number;
};

/** `09 ‖ account ‖ 2c`: the trie prefix of an account's contract data (nearcore's TrieKey::ContractData). */
function contractDataPrefix(account: string): Uint8Array {
  return new Uint8Array([0x09, ...text(account), 0x2c]);
}

describe('the mainnet view_state proof (prover.bridge.near)', () => {
  const proof = vector.proof.map(base64Decode);
  const root = sha256(proof[0]);
  const prefix = contractDataPrefix(vector.account_id);
  const values = vector.values.map(({ key, value }) => ({
    key: new Uint8Array([...prefix, ...base64Decode(key)]),
    value: base64Decode(value),
  }));

  it('decodes every node; the first hashes to the block’s state root', () => {
    assert.equal(proof.length, vector.expected_nodes_on_path);
    for (const bytes of proof) decodeRawNode(bytes);
    assert.equal(base58Encode(root), vector.expected_root_base58);
  });

  it('verifies: exactly the one value under the prefix, with exactly these nodes in this order', () => {
    const items = verifyPrefixProof(root, proof, prefix, values, { exactNodes: true });
    assert.equal(items.length, 1);
    assert.deepEqual(items[0].key, values[0].key);
    assert.equal(items[0].value.length, 43);
  });

  it('every child hash is the next node’s hash (root first, all on the one path)', () => {
    for (let i = 0; i + 1 < proof.length; i++) {
      const { node } = decodeRawNode(proof[i]);
      const next = hexEncode(sha256(proof[i + 1]));
      const children = node.kind === 'extension' ? [node.child] : node.kind === 'branch' ? node.children : [];
      assert.ok(
        children.some((c) => c !== null && hexEncode(c) === next),
        `node ${i} does not point at node ${i + 1}`,
      );
    }
    assert.equal(decodeRawNode(proof[proof.length - 1]).node.kind, 'leaf');
  });

  it('proves "STATE" present and another key absent', () => {
    const ref = proveKey(root, proof, values[0].key);
    assert.ok(ref !== null);
    assert.deepEqual(ref.hash, sha256(values[0].value));
    // Under the same leaf's path, another key is proven absent (the walk ends at that leaf).
    assert.equal(proveKey(root, proof, new Uint8Array([...prefix, ...text('STATF')])), null);
  });

  it('refuses a changed value, a missing node and a wrong root', () => {
    const changed = [{ key: values[0].key, value: new Uint8Array(values[0].value.length) }];
    assert.throws(() => verifyPrefixProof(root, proof, prefix, changed), InvalidStateProofError);
    assert.throws(() => verifyPrefixProof(root, proof.slice(0, 18), prefix, values), InvalidStateProofError);
    assert.throws(
      () => verifyPrefixProof(sha256(proof[1]), proof, prefix, values, { exactNodes: true }),
      InvalidStateProofError,
    );
    assert.throws(() => verifyPrefixProof(root, proof, prefix, []), InvalidStateProofError);
  });
});

describe('prefixProof: view_state’s proof of a trie we build', () => {
  const entries: [string, string][] = [
    ['\x00alice.near', 'account'],
    ['\x00bob.near', 'account'],
    ['\x09alice.near,STATE', 'state'],
    ['\x09alice.near,a', '1'],
    ['\x09alice.near,ab', '2'],
    ['\x09alice.near,b', '3'],
    ['\x09bob.near,x', '4'],
    ['\x09carol.near,y', '5'],
  ];
  const storage = new MemoryTrieStorage();
  const result = applyTrieChanges(
    storage,
    EMPTY_ROOT,
    entries.map(([k, v]) => ({ key: text(k), value: text(v) })),
  );
  storage.apply(result);
  const root = result.newRoot;

  it('a present prefix: the items in key order, verified with exactly these nodes', () => {
    const prefix = contractDataPrefix('alice.near');
    const { items, proof } = prefixProof(storage, root, prefix);
    assert.deepEqual(
      items.map((i) => Buffer.from(i.key).toString('latin1')),
      ['\x09alice.near,STATE', '\x09alice.near,a', '\x09alice.near,ab', '\x09alice.near,b'],
    );
    assert.deepEqual(proof[0], storage.get(root));
    const distinct = new Set(proof.map((p) => hexEncode(sha256(p))));
    assert.equal(distinct.size, proof.length);
    const values = items.map((i) => ({ key: i.key, value: storage.get(i.value.hash)! }));
    verifyPrefixProof(root, proof, prefix, values, { exactNodes: true });
  });

  it('the seek path first, then the subtree depth first: parents before children, children in order', () => {
    const { proof } = prefixProof(storage, root, new Uint8Array());
    const position = new Map(proof.map((p, i) => [hexEncode(sha256(p)), i]));
    for (let i = 0; i < proof.length; i++) {
      const { node } = decodeRawNode(proof[i]);
      const children = node.kind === 'extension' ? [node.child] : node.kind === 'branch' ? node.children : [];
      let last = i;
      for (const child of children) {
        if (child === null) continue;
        const at = position.get(hexEncode(child))!;
        assert.ok(at > last, `child at ${at} after ${last}`);
        last = at;
      }
    }
  });

  it('a whole key as prefix: the proof is the key’s lookup path', () => {
    const key = text('\x09alice.near,ab');
    const { items, proof } = prefixProof(storage, root, key);
    assert.equal(items.length, 1);
    assert.deepEqual(
      proof.map((p) => hexEncode(sha256(p))),
      keyPath(storage, root, key).nodes.map(hexEncode),
    );
  });

  it('an absent prefix: no items, the path nodes prove it', () => {
    const prefix = contractDataPrefix('dave.near');
    const { items, proof } = prefixProof(storage, root, prefix);
    assert.equal(items.length, 0);
    assert.ok(proof.length > 0);
    verifyPrefixProof(root, proof, prefix, [], { exactNodes: true });
    assert.equal(proveKey(root, proof, new Uint8Array([...prefix, ...text('k')])), null);
    // Claiming a value there is refused.
    assert.throws(
      () =>
        verifyPrefixProof(root, proof, prefix, [{ key: new Uint8Array([...prefix, 1]), value: text('x') }]),
      InvalidStateProofError,
    );
  });

  it('a node that does not decode is refused', () => {
    const { proof } = prefixProof(storage, root, contractDataPrefix('bob.near'));
    assert.throws(
      () => verifyPrefixProof(root, [...proof, new Uint8Array([9, 9])], new Uint8Array(), []),
      InvalidStateProofError,
    );
  });
});
