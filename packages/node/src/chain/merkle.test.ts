import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combineHash, sha256 } from '@shadebox/primitives';
import { BlockMerkleTree } from './block-merkle-tree.js';
import { merklize, rootFromPath } from './merkle.js';

const leaf = (i: number) => sha256(new Uint8Array([i]));

describe('merklize', () => {
  it('has a zero root for no leaves and the leaf itself for one', () => {
    assert.deepEqual(merklize([]).root, new Uint8Array(32));
    const { root, paths } = merklize([leaf(1)]);
    assert.deepEqual(root, leaf(1));
    assert.deepEqual(paths, [[]]);
  });

  it('combines pairs and carries an odd node up unchanged', () => {
    const [a, b, c] = [leaf(1), leaf(2), leaf(3)];
    assert.deepEqual(merklize([a, b, c]).root, combineHash(combineHash(a, b), c));
  });

  it('gives every leaf a path back to the root', () => {
    for (let n = 1; n <= 9; n++) {
      const leaves = Array.from({ length: n }, (_, i) => leaf(i));
      const { root, paths } = merklize(leaves);
      leaves.forEach((l, i) => {
        assert.deepEqual(rootFromPath(l, paths[i]), root, `n=${n} i=${i}`);
      });
    }
  });
});

describe('BlockMerkleTree', () => {
  it('keeps the same root as merklize over every block hash so far', () => {
    const tree = BlockMerkleTree.empty();
    const hashes: Uint8Array[] = [];
    for (let i = 0; i < 20; i++) {
      hashes.push(leaf(i));
      tree.insert(leaf(i));
      assert.deepEqual(tree.root(), merklize(hashes).root, `after ${i + 1} blocks`);
    }
  });

  it('round-trips through JSON', () => {
    const tree = BlockMerkleTree.empty();
    for (let i = 0; i < 7; i++) tree.insert(leaf(i));
    const copy = BlockMerkleTree.fromJSON(JSON.parse(JSON.stringify(tree)));
    copy.insert(leaf(7));
    tree.insert(leaf(7));
    assert.deepEqual(copy.root(), tree.root());
  });
});
