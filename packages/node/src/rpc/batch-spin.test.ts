import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { BatchSpin, DEFAULT_SPIN_MS, spinFromEnv } from './batch-spin.js';

/**
 * A worker's clock and the pool's counter. `post()`: the pool posts a message now; `handle(ms, next)`: the worker
 * handles the next message, taking `ms`, and the pool posts another `next` ms after it ends (on the other thread,
 * while this one may be waiting awake); `busy(count)`: back-to-back batches of a busy worker.
 */
function harness(maxSpinMs = 0.4) {
  const posted = new Int32Array(new SharedArrayBuffer(4));
  const clock = { t: 0, postAt: Number.POSITIVE_INFINITY };
  const now = () => {
    clock.t += 0.001;
    if (clock.t >= clock.postAt) {
      clock.postAt = Number.POSITIVE_INFINITY;
      Atomics.add(posted, 0, 1);
    }
    return clock.t;
  };
  const spin = new BatchSpin(posted, maxSpinMs, now);
  const post = () => Atomics.add(posted, 0, 1);
  /** The post the worker did not wait for comes before it handles the message. */
  const arrive = () => {
    if (clock.postAt === Number.POSITIVE_INFINITY) return;
    clock.t = Math.max(clock.t, clock.postAt);
    clock.postAt = Number.POSITIVE_INFINITY;
    post();
  };
  const handle = (busyMs: number, nextPostedAfterMs?: number) => {
    arrive();
    spin.batchBegins();
    clock.t += busyMs;
    if (nextPostedAfterMs !== undefined) clock.postAt = clock.t + nextPostedAfterMs;
    spin.batchEnds();
  };
  /** `count` batches of 1 ms, each next one posted 0.05 ms after the last ends: a busy worker. */
  const busy = (count: number) => {
    for (let i = 0; i < count; i++) handle(1, 0.05);
    arrive();
  };
  return { posted, clock, spin, post, handle, busy };
}

describe('BatchSpin', () => {
  it('never spins while the worker is busy less than 30 % of the time', () => {
    const { clock, spin, post, handle } = harness();
    // 200 batches of 0.1 ms, one every 0.5 ms: 20 % busy.
    for (let i = 0; i < 200; i++) {
      post();
      handle(0.1);
      clock.t += 0.4;
    }
    assert.deepEqual(spin.stats, { spunMs: 0, caught: 0, missed: 0 });
  });

  it('once busy, waits awake after each batch until the next one is posted', () => {
    const { spin, post, busy } = harness();
    post();
    busy(300);
    // The first window (100 ms) is measured before any wait: about 200 waits after it.
    assert.ok(spin.stats.caught > 150, `${spin.stats.caught} waits caught the next batch`);
    assert.equal(spin.stats.missed, 0);
    // Each wait lasted about the 0.05 ms until the next post, never the whole 0.4.
    const perWait = spin.stats.spunMs / spin.stats.caught;
    assert.ok(perWait > 0.04 && perWait < 0.06, `${perWait} ms per wait`);
  });

  it('waits at most maxSpinMs when nothing is posted, and not at all when the next batch is already there', () => {
    const { spin, post, handle, busy } = harness(0.4);
    post();
    busy(120);
    const before = { ...spin.stats };
    handle(1); // nothing is posted after it
    assert.equal(spin.stats.missed, before.missed + 1);
    const waited = spin.stats.spunMs - before.spunMs;
    assert.ok(waited >= 0.4 && waited < 0.41, `waited ${waited} ms`);

    post();
    post(); // the next message arrives while this one is handled
    const again = { ...spin.stats };
    handle(1);
    assert.deepEqual(spin.stats, again, 'a batch already posted is handled without waiting');
  });

  it('stops spinning once the load drops', () => {
    const { clock, spin, post, handle, busy } = harness();
    post();
    busy(120);
    // 300 ms at 10 % busy: at most the first window's batches still wait.
    for (let i = 0; i < 300; i++) {
      handle(0.1);
      clock.t += 0.9;
      post();
    }
    const quiet = { ...spin.stats };
    for (let i = 0; i < 50; i++) {
      handle(0.1);
      clock.t += 0.9;
      post();
    }
    assert.deepEqual(spin.stats, quiet);
  });

  it('counts as the shared Int32 counter does past 2^31', () => {
    const { posted, spin, post, busy } = harness();
    // The pool's counter wraps to negative numbers; the worker's count must wrap with it.
    const start = (2 ** 31 - 60) | 0;
    posted[0] = start;
    (spin as unknown as { handled: number }).handled = start;
    post();
    busy(200);
    assert.ok(posted[0] < 0, 'the counter wrapped');
    assert.ok(spin.stats.caught > 50);
    assert.equal(spin.stats.missed, 0);
  });

  it('wakes as soon as another thread posts', async () => {
    const posted = new Int32Array(new SharedArrayBuffer(4));
    // Set by the clock once the spin loop reads it (its second read in batchEnds), so the other thread posts
    // while the worker is spinning, however slow this machine is; the limit is far away for the same reason.
    const spinning = new Int32Array(new SharedArrayBuffer(4));
    // A clock of our own: windows are measured in its time, so no pause of this machine changes what is busy;
    // while armed each read advances it a little, so the spin's 10 s limit lies billions of reads away.
    let t = 0;
    let armed = false;
    let reads = 0;
    const now = () => {
      if (!armed) return t;
      if (++reads === 2) {
        Atomics.store(spinning, 0, 1);
        Atomics.notify(spinning, 0);
      }
      t += 1e-6;
      return t;
    };
    // The other thread, started first: its start-up must not fall inside the busy window measured below.
    const poster = new Worker(
      `const { workerData } = require('node:worker_threads');
       const [posted, spinning] = workerData.map((b) => new Int32Array(b));
       Atomics.wait(spinning, 0, 0);
       Atomics.add(posted, 0, 1);`,
      { eval: true, workerData: [posted.buffer, spinning.buffer] },
    );
    await new Promise((resolve) => poster.once('online', resolve));
    const spin = new BatchSpin(posted, 10_000, now);
    // The pool posted two messages; the first takes a whole window (110 ms): busy.
    Atomics.add(posted, 0, 2);
    spin.batchBegins();
    t += 110;
    spin.batchEnds();
    assert.equal(spin.stats.spunMs, 0, 'the second message was already posted');
    // The second one is handled; the other thread posts a third once the spin has begun.
    spin.batchBegins();
    armed = true;
    spin.batchEnds();
    await poster.terminate();
    // Caught, not timed out: the spin ended because the third message was posted.
    assert.equal(spin.stats.caught, 1);
    assert.equal(spin.stats.missed, 0);
    assert.ok(spin.stats.spunMs > 0, 'it waited awake');
  });

  it('reads SHADEBOX_VIEW_SPIN_US', () => {
    assert.equal(spinFromEnv({}), DEFAULT_SPIN_MS);
    assert.equal(spinFromEnv({ SHADEBOX_VIEW_SPIN_US: '0' }), 0);
    assert.equal(spinFromEnv({ SHADEBOX_VIEW_SPIN_US: '250' }), 0.25);
    assert.equal(spinFromEnv({ SHADEBOX_VIEW_SPIN_US: 'fast' }), DEFAULT_SPIN_MS);
  });
});
