/**
 * Which blocks `sandbox_fast_forward` makes, as nearcore's sandbox does (chain/client/src/client_actor.rs,
 * `sandbox_process_fast_forward`, `pre_block_production` / `post_block_production`):
 *
 * - the chain skips heights instead of making a block for each: the next block is made `delta` heights
 *   further, so `delta_height` 10,000 costs a few blocks, not 10,000;
 * - but never across an epoch boundary: a skip stops 3 heights before the epoch's last height, and the
 *   blocks around the boundary (the last 3 heights of an epoch and the first of the next) are made one by one,
 *   each counting 1 towards `delta`, so epochs advance exactly as on a running chain;
 * - every block made while the fast-forward is not done counts 1 towards `delta` too; the block made after the
 *   last skip does not (the call returns once it exists, so the head ends `delta` + 1 above where it was
 *   when the last step was a skip);
 * - block timestamps move with the skipped heights: every later block's timestamp is ahead of the wall clock
 *   by the skipped heights × the average of the block production delays (nearcore's `sandbox_delta_time`).
 *
 * Heights are counted from the genesis height, so epoch boundaries are where the chain's epochs end.
 */

/** The next block of a fast-forward that still has `remaining` heights to go from the head at `headHeight`.
 * nearcore refuses epochs of 3 blocks or fewer; here they advance one block per height. */
export function nextFastForwardStep(
  headHeight: number,
  remaining: number,
  epochLength: number,
  genesisHeight: number,
): { height: number; skipped: number; remaining: number } {
  const inEpoch = (headHeight - genesisHeight) % epochLength;
  let skipped = 0;
  let left = remaining;
  const nearBoundary = epochLength <= 3 || inEpoch === 0 || epochLength - inEpoch <= 3;
  if (!nearBoundary) {
    skipped = inEpoch + left >= epochLength ? epochLength - inEpoch - 3 : left;
    left -= skipped;
  }
  if (left > 0) left -= 1;
  return { height: headHeight + skipped + 1, skipped, remaining: left };
}
