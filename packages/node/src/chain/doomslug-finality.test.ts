import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type FinalityPointers, finalityOf, nextFinality } from './doomslug-finality.js';
import type { BlockRecord } from './records.js';

const block = (height: number, prevHeight: number, finality?: FinalityPointers) =>
  ({ height, hash: `h${height}`, prevHash: `h${prevHeight}`, finality }) as unknown as BlockRecord;

/** Builds a chain at `heights` (the first is genesis) and returns each block's pointers, by height. */
function chain(heights: number[]): Map<number, FinalityPointers> {
  const out = new Map<number, FinalityPointers>();
  let prev = block(heights[0], heights[0]);
  out.set(
    prev.height,
    finalityOf(prev, heights[0], () => undefined),
  );
  for (const h of heights.slice(1)) {
    const f = nextFinality(prev, out.get(prev.height) as FinalityPointers, h);
    out.set(h, f);
    prev = block(h, prev.height, f);
  }
  return out;
}

describe('doomslug finality by heights', () => {
  test('consecutive heights: near-final is the parent, final the grandparent', () => {
    const f = chain([0, 1, 2, 3, 4]);
    assert.deepEqual(f.get(1), { lastDsFinal: { height: 0, hash: 'h0' }, lastFinal: undefined });
    assert.deepEqual(f.get(2), {
      lastDsFinal: { height: 1, hash: 'h1' },
      lastFinal: { height: 0, hash: 'h0' },
    });
    assert.deepEqual(f.get(4), {
      lastDsFinal: { height: 3, hash: 'h3' },
      lastFinal: { height: 2, hash: 'h2' },
    });
  });

  test('a block after skipped heights keeps its parent pointers until two more consecutive heights', () => {
    const f = chain([0, 1, 2, 3, 10, 11, 12]);
    assert.deepEqual(f.get(10), f.get(3));
    assert.deepEqual(f.get(11)?.lastDsFinal, { height: 10, hash: 'h10' });
    assert.deepEqual(f.get(11)?.lastFinal, f.get(3)?.lastFinal, '10 did not make 3 near-final');
    assert.deepEqual(f.get(12)?.lastFinal, { height: 10, hash: 'h10' });
  });

  test('blocks stored without pointers (chains without skipped heights) read as parent and grandparent', () => {
    const stored = block(7, 6);
    assert.deepEqual(
      finalityOf(stored, 0, (h) => `h${h}`),
      { lastDsFinal: { height: 6, hash: 'h6' }, lastFinal: { height: 5, hash: 'h5' } },
    );
    assert.deepEqual(finalityOf(block(1, 0), 0, (h) => `h${h}`).lastFinal, undefined);
  });
});
