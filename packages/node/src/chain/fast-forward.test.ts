import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nextFastForwardStep } from './fast-forward.js';

/** Every block a fast-forward makes, as [height, skipped] pairs. */
function blocks(
  head: number,
  delta: number,
  epochLength: number,
  genesisHeight = 0,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let height = head;
  let remaining = delta;
  while (remaining > 0) {
    const step = nextFastForwardStep(height, remaining, epochLength, genesisHeight);
    out.push([step.height, step.skipped]);
    height = step.height;
    remaining = step.remaining;
  }
  return out;
}

describe('nextFastForwardStep (nearcore sandbox_process_fast_forward)', () => {
  test('within an epoch: one skip of delta, and the block after it (head + delta + 1)', () => {
    assert.deepEqual(blocks(20, 100, 500), [[121, 100]]);
    assert.deepEqual(blocks(20, 1, 500), [[22, 1]]);
  });

  test('stops 3 heights before the epoch end, then one block at a time across the boundary', () => {
    // near-workspaces-js's 09.fast-forward: 10,000 heights from 20 with neard's 500-block epochs.
    const made = blocks(20, 10_000, 500);
    assert.deepEqual(made.slice(0, 5), [
      [498, 477],
      [499, 0],
      [500, 0],
      [501, 0],
      [998, 496],
    ]);
    assert.deepEqual(made.slice(-5), [
      [9998, 496],
      [9999, 0],
      [10000, 0],
      [10001, 0],
      [10021, 19],
    ]);
    assert.equal(made.length, 20 * 4 + 1);
    // The skipped heights plus one per block made while not done add up to delta.
    const skipped = made.reduce((sum, [, s]) => sum + s, 0);
    assert.equal(skipped + made.length - 1, 10_000);
  });

  test('near an epoch end or at its first height, the next block is made at the next height', () => {
    assert.deepEqual(nextFastForwardStep(497, 50, 500, 0), { height: 498, skipped: 0, remaining: 49 });
    assert.deepEqual(nextFastForwardStep(500, 50, 500, 0), { height: 501, skipped: 0, remaining: 49 });
    // Counted from the genesis height: a chain restarted from a dump at 1234 has its epochs from there.
    assert.deepEqual(nextFastForwardStep(1234, 50, 500, 1234), { height: 1235, skipped: 0, remaining: 49 });
    assert.deepEqual(nextFastForwardStep(1235, 50, 500, 1234), { height: 1286, skipped: 50, remaining: 0 });
  });

  test('ends on a block made one by one when delta runs out at a boundary', () => {
    assert.deepEqual(blocks(497, 3, 500), [
      [498, 0],
      [499, 0],
      [500, 0],
    ]);
  });

  test('epochs of 3 blocks or fewer (refused by nearcore) advance one block per height', () => {
    assert.deepEqual(blocks(0, 4, 3), [
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 0],
    ]);
  });
});
