/**
 * Doomslug finality with one block producer, by heights as nearcore computes it (chain/chain/src/doomslug.rs
 * and the block header's `last_ds_final_block` / `last_final_block`): a block whose parent is at the height
 * just below it makes the parent doomslug-final (`near-final`); a block that makes its parent doomslug-final
 * while the parent did the same for its own parent makes the grandparent final. A block after skipped
 * heights (what `sandbox_fast_forward` makes, as nearcore's sandbox does) carries its parent's pointers
 * unchanged, so finality only moves again after two more consecutive heights.
 *
 * On a chain without skipped heights this is `near-final` = head − 1 and `final` = head − 2.
 */
import type { BlockRecord } from './records.js';

/** A block a finality pointer names. */
export interface BlockPointer {
  height: number;
  hash: string;
}

/** The finality pointers a block carries (`undefined`: none yet, the zero hash in the header). */
export interface FinalityPointers {
  lastDsFinal: BlockPointer | undefined;
  lastFinal: BlockPointer | undefined;
}

/**
 * The pointers `block` carries. Blocks written before the pointers were stored come from chains without
 * skipped heights, where they are the parent and the grandparent (`hashAt` reads a stored height).
 */
export function finalityOf(
  block: BlockRecord,
  genesisHeight: number,
  hashAt: (height: number) => string | undefined,
): FinalityPointers {
  if (block.finality !== undefined) return block.finality;
  if (block.height <= genesisHeight) return { lastDsFinal: undefined, lastFinal: undefined };
  const lastDsFinal = { height: block.height - 1, hash: block.prevHash };
  const h = block.height - 2;
  const hash = h >= genesisHeight ? hashAt(h) : undefined;
  return { lastDsFinal, lastFinal: hash === undefined ? undefined : { height: h, hash } };
}

/** The pointers of a new block at `height` on top of `prev`. */
export function nextFinality(
  prev: BlockRecord,
  prevFinality: FinalityPointers,
  height: number,
): FinalityPointers {
  if (height !== prev.height + 1) return prevFinality;
  const lastDsFinal = { height: prev.height, hash: prev.hash };
  const prevMadeItsParentDsFinal = prevFinality.lastDsFinal?.height === prev.height - 1;
  const lastFinal = prevMadeItsParentDsFinal ? prevFinality.lastDsFinal : prevFinality.lastFinal;
  return { lastDsFinal, lastFinal };
}
