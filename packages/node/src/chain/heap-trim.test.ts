/** The full collections of HeapTrim: past the headroom whatever the load, and once blocks (or jobs) go quiet. */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type { Chain } from './chain.js';
import { chainBlocks, HeapTrim } from './heap-trim.js';

const MiB = 1024 * 1024;

/** A trim on a stand-in chain (only its 'block' events are used), with a hand-moved clock and heap; its own
 * timer is set far off, the test calls check(). */
function setup() {
  const chain = new EventEmitter();
  const state = { now: 1_000, heap: 50 * MiB, collections: 0 };
  const trim = new HeapTrim(chainBlocks(chain as unknown as Chain), {
    headroomBytes: 64 * MiB,
    idleMs: 1_000,
    idleGrowthBytes: 32 * MiB,
    intervalMs: 1_000_000,
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

describe('HeapTrim', () => {
  it('collects once blocks have gone quiet for idleMs, when the heap grew by idleGrowthBytes', () => {
    const { chain, state, trim } = setup();
    try {
      chain.emit('block', { height: 1 });
      state.heap = 100 * MiB;
      state.now += 500;
      trim.check(); // not quiet long enough yet
      assert.equal(state.collections, 0);
      chain.emit('block', { height: 2 });
      state.now += 999;
      trim.check();
      assert.equal(state.collections, 0);
      state.now += 1;
      trim.check();
      assert.equal(state.collections, 1);
      assert.equal(trim.collections, 1);
      // Quiet without new blocks: nothing more below the headroom (views, polls).
      state.heap = 60 * MiB + 64 * MiB - 1;
      state.now += 10_000;
      trim.check();
      assert.equal(state.collections, 1);
    } finally {
      trim.stop();
    }
  });

  it('skips the idle collection when the heap grew less than idleGrowthBytes', () => {
    const { chain, state, trim } = setup();
    try {
      chain.emit('block', { height: 1 });
      state.heap = 50 * MiB + 32 * MiB - 1;
      state.now += 1_000;
      trim.check();
      assert.equal(state.collections, 0);
      // The next burst, with more growth: counted from the heap at start (50 MiB).
      chain.emit('block', { height: 2 });
      state.heap = 50 * MiB + 32 * MiB;
      state.now += 1_000;
      trim.check();
      assert.equal(state.collections, 1);
      // Then from the heap that collection left (60 MiB).
      chain.emit('block', { height: 3 });
      state.heap = 91 * MiB;
      state.now += 1_000;
      trim.check();
      assert.equal(state.collections, 1);
    } finally {
      trim.stop();
    }
  });

  it('collects past the headroom while blocks keep coming', () => {
    const { chain, state, trim } = setup();
    try {
      for (let i = 0; i < 10; i++) {
        chain.emit('block', { height: i });
        state.now += 100;
        state.heap += 6 * MiB;
        trim.check();
      }
      // 50 + 60 MiB at the tenth check: below 50 + 64.
      assert.equal(state.collections, 0);
      chain.emit('block', { height: 11 });
      state.heap += 4 * MiB;
      trim.check();
      assert.equal(state.collections, 1);
      assert.equal(state.heap, 60 * MiB);
    } finally {
      trim.stop();
    }
  });

  it('checks on its own timer, and stops listening when stopped', async () => {
    const chain = new EventEmitter();
    let heap = 0;
    const trim = new HeapTrim(chainBlocks(chain as unknown as Chain), {
      headroomBytes: 10,
      intervalMs: 5,
      heapUsed: () => heap,
      collect: () => {
        heap = 0;
      },
    });
    trim.start();
    heap = 10;
    const deadline = Date.now() + 30_000;
    while (trim.collections === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(trim.collections, 1);
    trim.stop();
    assert.equal(chain.listenerCount('block'), 0);
  });

  it('runs V8 full collections by default, and leaves no gc global behind', () => {
    const chain = new EventEmitter();
    const trim = new HeapTrim(chainBlocks(chain as unknown as Chain), {
      idleMs: 0,
      idleGrowthBytes: 0,
      intervalMs: 1_000_000,
    });
    trim.start();
    try {
      chain.emit('block', { height: 1 });
      trim.check();
      assert.equal(trim.collections, 1);
      assert.equal((globalThis as { gc?: unknown }).gc, undefined);
    } finally {
      trim.stop();
    }
  });

  it("takes its activity from any subscription (a view worker's batches of jobs)", () => {
    let onJobs: (() => void) | undefined;
    let unsubscribed = 0;
    const state = { now: 0, heap: 6 * MiB, collections: 0 };
    const trim = new HeapTrim(
      (onActivity) => {
        onJobs = onActivity;
        return () => {
          onJobs = undefined;
          unsubscribed++;
        };
      },
      {
        headroomBytes: 4 * MiB,
        idleGrowthBytes: 2 * MiB,
        intervalMs: 1_000_000,
        now: () => state.now,
        heapUsed: () => state.heap,
        collect: () => {
          state.collections++;
          state.heap = 6 * MiB;
        },
      },
    );
    trim.start();
    try {
      // Jobs keep coming: only the headroom collects.
      for (let i = 0; i < 3; i++) {
        onJobs?.();
        state.heap += MiB;
        state.now += 100;
        trim.check();
      }
      assert.equal(state.collections, 0);
      onJobs?.();
      state.heap += MiB;
      trim.check();
      assert.equal(state.collections, 1);
      // A burst, then quiet: collected once it has been quiet for idleMs.
      onJobs?.();
      state.heap += 2 * MiB;
      state.now += 999;
      trim.check();
      assert.equal(state.collections, 1);
      state.now += 1;
      trim.check();
      assert.equal(state.collections, 2);
    } finally {
      trim.stop();
    }
    assert.equal(onJobs, undefined);
    assert.equal(unsubscribed, 1);
    trim.stop();
    assert.equal(unsubscribed, 1);
  });

  it('collects at the check after releasesPerCollection native releases, below the headroom', () => {
    const { state, trim } = setup();
    try {
      for (let i = 0; i < 3; i++) trim.nativeReleased();
      trim.check();
      assert.equal(state.collections, 0);
      trim.nativeReleased();
      trim.check();
      assert.equal(state.collections, 1, 'the fourth release (the default)');
      // The count starts again after any collection.
      for (let i = 0; i < 3; i++) trim.nativeReleased();
      trim.check();
      assert.equal(state.collections, 1);
    } finally {
      trim.stop();
    }
  });

  it('while blocks keep coming, collects past the headroom at most once per busyGapMs (15 s)', () => {
    const { chain, state, trim } = setup();
    try {
      let height = 0;
      const block = (ms: number, grow: number) => {
        chain.emit('block', { height: height++ });
        state.now += ms;
        state.heap += grow;
      };
      block(100, 64 * MiB);
      trim.check();
      assert.equal(state.collections, 1, 'the first is not held back');
      const first = state.now;
      // Past the headroom again within the gap: neither the checks nor automine running out of work collect.
      while (state.now - first < 14_900) {
        block(100, 2 * MiB);
        trim.check();
        trim.burstEnded();
      }
      assert.equal(state.collections, 1);
      assert.ok(state.heap >= 60 * MiB + 64 * MiB);
      block(100, 0);
      trim.check();
      assert.equal(state.collections, 2, '15 s after the first');
    } finally {
      trim.stop();
    }
  });

  it('once the blocks stop, collects past the headroom after idleMs, without waiting for busyGapMs', () => {
    const { chain, state, trim } = setup();
    try {
      chain.emit('block', { height: 1 });
      state.heap += 64 * MiB;
      trim.check();
      assert.equal(state.collections, 1);
      for (let h = 2; h < 30; h++) {
        state.now += 100;
        chain.emit('block', { height: h });
        state.heap += 4 * MiB;
        trim.check();
      }
      assert.equal(state.collections, 1, 'busy: held back');
      state.now += 999;
      trim.check();
      assert.equal(state.collections, 1);
      state.now += 1;
      trim.check();
      assert.equal(state.collections, 2, 'quiet for idleMs, 3.9 s after the first');
    } finally {
      trim.stop();
    }
  });

  it('leaves at least minGapMs between collections, whatever asks for one', () => {
    const state = { now: 0, heap: 10 * MiB, collections: 0 };
    const trim = new HeapTrim(() => () => {}, {
      headroomBytes: 4 * MiB,
      minGapMs: 10_000,
      intervalMs: 1_000_000,
      now: () => state.now,
      heapUsed: () => state.heap,
      collect: () => {
        state.collections++;
        state.heap = 10 * MiB;
      },
    });
    trim.start();
    try {
      state.heap = 14 * MiB;
      trim.check();
      assert.equal(state.collections, 1, 'the first is not held back');
      // A heavy load: past the headroom, native releases and bursts of blocks ending, every second for ten seconds.
      for (let t = 1; t < 10; t++) {
        state.now = t * 1_000;
        state.heap = 40 * MiB;
        for (let i = 0; i < 4; i++) trim.nativeReleased();
        trim.check();
        trim.burstEnded();
      }
      assert.equal(state.collections, 1);
      state.now = 10_000;
      trim.check();
      assert.equal(state.collections, 2);
    } finally {
      trim.stop();
    }
  });

  it('collects when the blocks stop (burstEnded) if the heap is past the headroom, without waiting for a check', () => {
    const { chain, state, trim } = setup();
    try {
      chain.emit('block', { height: 1 });
      state.heap = 50 * MiB + 64 * MiB - 1;
      trim.burstEnded();
      assert.equal(state.collections, 0, 'below the headroom: left to the checks, however much it grew');
      chain.emit('block', { height: 2 });
      state.heap = 50 * MiB + 64 * MiB;
      trim.burstEnded();
      assert.equal(state.collections, 1, 'at once, at the same instant as the last block');
      // The checks that follow find nothing left to do.
      state.now += 2_000;
      trim.check();
      assert.equal(state.collections, 1);
    } finally {
      trim.stop();
    }
  });

  it('with settleAfterStart, runs one memory-reducing collection once quiet for idleMs after start', () => {
    const chain = new EventEmitter();
    const state = { now: 1_000, reductions: 0, collections: 0 };
    const trim = new HeapTrim(chainBlocks(chain as unknown as Chain), {
      settleAfterStart: true,
      idleMs: 1_000,
      intervalMs: 1_000_000,
      now: () => state.now,
      heapUsed: () => 50 * MiB,
      collect: () => state.collections++,
      settle: (done) => {
        state.reductions++;
        done();
      },
    });
    trim.start();
    try {
      state.now += 999;
      trim.check();
      assert.equal(state.reductions, 0, 'not yet idleMs after start');
      chain.emit('block', { height: 1 }); // start-up work: the quiet time counts from it
      state.now += 1;
      trim.check();
      assert.equal(state.reductions, 0);
      state.now += 1_000;
      trim.check();
      assert.equal(state.reductions, 1);
      assert.equal(trim.collections, 1);
      state.now += 60_000;
      trim.check();
      assert.equal(state.reductions, 1, 'once');
      assert.equal(state.collections, 0, 'the plain collection is not run for it');
    } finally {
      trim.stop();
    }
  });

  it('runs no settling collection without settleAfterStart', () => {
    const { state, trim } = setup();
    try {
      state.now += 60_000;
      trim.check();
      assert.equal(state.collections, 0);
      assert.equal(trim.collections, 0);
    } finally {
      trim.stop();
    }
  });
});
