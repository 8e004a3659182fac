/**
 * The merkle tree of all block hashes, kept as its O(log n) frontier (nearcore's `PartialMerkleTree`,
 * core/primitives/src/merkle.rs). Each header's `block_merkle_root` is the root over every block before it.
 */
import { base58Decode, base58Encode, combineHash } from '@shadebox/primitives';

export class BlockMerkleTree {
  /** Roots of complete subtrees, largest first; `sizes[i]` leaves under `path[i]`. */
  private constructor(
    private readonly path: Uint8Array[],
    private size: number,
  ) {}

  static empty(): BlockMerkleTree {
    return new BlockMerkleTree([], 0);
  }

  root(): Uint8Array {
    if (this.path.length === 0) return new Uint8Array(32);
    let result = this.path[this.path.length - 1];
    for (let i = this.path.length - 2; i >= 0; i--) result = combineHash(this.path[i], result);
    return result;
  }

  insert(hash: Uint8Array): void {
    let s = this.size;
    let node = hash;
    while (s % 2 === 1) {
      node = combineHash(this.path.pop()!, node);
      s = Math.floor(s / 2);
    }
    this.path.push(node);
    this.size += 1;
  }

  clone(): BlockMerkleTree {
    return new BlockMerkleTree([...this.path], this.size);
  }

  toJSON() {
    return { path: this.path.map(base58Encode), size: this.size };
  }

  static fromJSON(json: { path: string[]; size: number }): BlockMerkleTree {
    return new BlockMerkleTree(json.path.map(base58Decode), json.size);
  }
}
