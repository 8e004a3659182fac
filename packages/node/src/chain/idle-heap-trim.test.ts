/** The full collection run once block production goes quiet after a burst, if the heap grew. */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type { Chain } from './chain.js';
import { IdleHeapTrim } from './idle-heap-trim.js';

const MiB = 1024 * 1024;

/** A trim on a stand-in chain (only its 'block' events are used), with a hand-moved clock and heap. */
function setup(options: { idleMs?: number; minGrowthBytes?: number } = {}) {
  const chain = new EventEmitter();
  const state = { now: 1_000, heap: 50 * MiB, collections: 0 };
  const trim = new IdleHeapTrim(chain as unknown as Chain, {
    idleMs: options.idleMs ?? 1_000,
    minGrowthBytes: options.minGrowthBytes ?? 32 * MiB,
    now: () => state.now,
    heapUsed: () => state.heap,
    collect: () => {
      state.collections++;
      state.heap = 60 * MiB; // what is live
    },
  });
  trim.start();
  return { chain, state, trim };
}

describe('IdleHeapTrim', () => {
  it('collects once, after the quiet time that follows blocks, when the heap grew by the threshold', () => {
    const { chain, state, trim } = setup();
    try {
      chain.emit('block', { height: 1 });
      state.heap = 200 * MiB;
      state.now += 500;
      trim.check(); // not quiet long enough yet: nothing
      assert.equal(state.collections, 0);
      chain.emit('block', { height: 2 });
      state.now += 999;
      trim.check();
      assert.equal(state.collections, 0);
      state.now += 1;
      trim.check();
      assert.equal(state.collections, 1);
      assert.equal(trim.collections, 1);
      // Quiet without new blocks: nothing more, however much the heap grows (views, polls).
      state.heap = 500 * MiB;
      state.now += 10_000;
      trim.check();
      assert.equal(state.collections, 1);
    } finally {
      trim.stop();
    }
  });

  it('does not collect when the heap grew less than the threshold since its last collection', () => {
    const { chain, state, trim } = setup();
    try {
      chain.emit('block', { height: 1 });
      state.heap = 50 * MiB + 32 * MiB - 1;
      state.now += 1_000;
      trim.check();
      assert.equal(state.collections, 0);
      // The next burst, with more growth: the baseline is the heap at start.
      chain.emit('block', { height: 2 });
      state.heap = 50 * MiB + 32 * MiB;
      state.now += 1_000;
      trim.check();
      assert.equal(state.collections, 1);
      // Growth is counted from the heap after that collection (60 MiB).
      chain.emit('block', { height: 3 });
      state.heap = 91 * MiB;
      state.now += 1_000;
      trim.check();
      assert.equal(state.collections, 1);
    } finally {
      trim.stop();
    }
  });

  it('collects on its own timer, and stops listening when stopped', async () => {
    const chain = new EventEmitter();
    let collections = 0;
    let heap = 0;
    const trim = new IdleHeapTrim(chain as unknown as Chain, {
      idleMs: 5,
      minGrowthBytes: 1,
      heapUsed: () => heap,
      collect: () => {
        collections++;
      },
    });
    trim.start();
    heap = 10;
    chain.emit('block', { height: 1 });
    const deadline = Date.now() + 30_000;
    while (collections === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(collections, 1);
    trim.stop();
    assert.equal(chain.listenerCount('block'), 0);
  });

  it('runs V8 full collections by default', () => {
    const chain = new EventEmitter();
    const trim = new IdleHeapTrim(chain as unknown as Chain, { idleMs: 0, minGrowthBytes: 0 });
    trim.start();
    try {
      chain.emit('block', { height: 1 });
      trim.check();
      assert.equal(trim.collections, 1);
      assert.equal((globalThis as { gc?: unknown }).gc, undefined, 'no gc global is left behind');
    } finally {
      trim.stop();
    }
  });
});
