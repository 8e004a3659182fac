/**
 * Binary merkle trees over 32-byte hashes, as nearcore's `merklize` builds them (core/primitives/src/merkle.rs):
 * pairs are combined with sha256(left ‖ right); an odd node at the end of a level is carried up unchanged.
 * The root of no items is 32 zero bytes.
 */
import { combineHash, sha256 } from '@shadebox/primitives';

export interface MerklePathItem {
  hash: Uint8Array;
  direction: 'Left' | 'Right';
}

export function merklize(leaves: Uint8Array[]): { root: Uint8Array; paths: MerklePathItem[][] } {
  if (leaves.length === 0) return { root: new Uint8Array(32), paths: [] };
  const paths: MerklePathItem[][] = leaves.map(() => []);
  // Which leaves sit under each node of the current level.
  let level = leaves.map((hash, i) => ({ hash, members: [i] }));
  while (level.length > 1) {
    const next: typeof level = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i];
      const right = level[i + 1];
      if (!right) {
        next.push(left);
        continue;
      }
      for (const m of left.members) paths[m].push({ hash: right.hash, direction: 'Right' });
      for (const m of right.members) paths[m].push({ hash: left.hash, direction: 'Left' });
      next.push({ hash: combineHash(left.hash, right.hash), members: [...left.members, ...right.members] });
    }
    level = next;
  }
  return { root: level[0].hash, paths };
}

export function merkleRoot(leaves: Uint8Array[]): Uint8Array {
  return merklize(leaves).root;
}

/** Recomputes the root from a leaf and its path. */
export function rootFromPath(leaf: Uint8Array, path: MerklePathItem[]): Uint8Array {
  let hash = leaf;
  for (const item of path)
    hash = item.direction === 'Left' ? combineHash(item.hash, hash) : combineHash(hash, item.hash);
  return hash;
}

/** nearcore's `merklize(&[CryptoHash])`: each item is a leaf through `hash_borsh` (sha256 of its 32 bytes), as
 * a block's `outcome_root` and `prev_state_root` are made from its chunks' roots. */
export function merklizeHashes(items: Uint8Array[]): { root: Uint8Array; paths: MerklePathItem[][] } {
  return merklize(items.map((item) => sha256(item)));
}
