import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MapBudgetWatch } from './map-budget-watch.js';

const MiB = 2 ** 20;
const OPTIONS = { maxIntervalMs: 1000, minIntervalMs: 100, minRemapGapMs: 250 };
const BINARY = 45 * MiB;
const BIG_FILE = 1700 * MiB;

/**
 * Drives a watch against a node that maps `refill(ms)` bytes of the store in the first `ms` after a remap (a
 * concave curve: the hottest pages come back first), for `totalMs`. Returns every remap's time and, from the
 * fifth second on (the first check comes after the longest interval), the store's bytes held at every
 * millisecond, as a soak sampling at random moments would see them.
 */
function simulate(refill: (ms: number) => number, budget: number, totalMs: number) {
  const watch = new MapBudgetWatch(budget, BINARY, OPTIONS);
  let now = 0;
  let lastRemap = 0;
  const remaps: number[] = [];
  const held: number[] = [];
  let next = watch.intervalMs;
  while (now < totalMs) {
    for (let t = now + 1; t <= now + next && t <= totalMs; t++)
      if (t > 5000) held.push(refill(t - lastRemap));
    now += next;
    const check = watch.check(BINARY + refill(now - lastRemap), BIG_FILE);
    if (check.remap) {
      lastRemap = now;
      remaps.push(now);
      watch.remapped(BINARY);
    }
    next = check.nextCheckMs;
  }
  held.sort((a, b) => a - b);
  return { remaps, median: held[Math.floor(held.length / 2)] ?? 0, max: held.at(-1) ?? 0 };
}

/** Bytes mapped `ms` after a remap when the node's hot set is `hot` and half of it is back in `halfMs`. */
const concave = (hot: number, halfMs: number) => (ms: number) => (hot * ms) / (ms + halfMs);

describe('MapBudgetWatch', () => {
  it('does nothing, at the longest interval, while the file fits in the budget', () => {
    const watch = new MapBudgetWatch(32 * MiB, BINARY, OPTIONS);
    for (let i = 0; i < 10; i++) {
      assert.deepEqual(watch.check(BINARY + 200 * MiB, 30 * MiB), { remap: false, nextCheckMs: 1000 });
    }
  });

  it('remaps once the pages held pass the budget, and measures from what the remap left', () => {
    const watch = new MapBudgetWatch(32 * MiB, BINARY, OPTIONS);
    assert.equal(watch.check(BINARY + 10 * MiB, BIG_FILE).remap, false);
    assert.equal(watch.check(BINARY + 20 * MiB, BIG_FILE).remap, false);
    assert.equal(watch.check(BINARY + 33 * MiB, BIG_FILE).remap, true);
    watch.remapped(BINARY + 1 * MiB);
    assert.equal(watch.check(BINARY + 30 * MiB, BIG_FILE).remap, false, '29 MiB since the remap');
  });

  it('checks more often while the pages come back fast, and less often once they stop', () => {
    const watch = new MapBudgetWatch(32 * MiB, BINARY, OPTIONS);
    // 40 MiB in one second: a quarter of the budget (8 MiB) comes back in 200 ms.
    const fast = watch.check(BINARY + 40 * MiB, BIG_FILE);
    assert.equal(fast.nextCheckMs, 200);
    watch.remapped(BINARY);
    // Faster still: never below the shortest interval.
    assert.equal(watch.check(BINARY + 30 * MiB, BIG_FILE).nextCheckMs, 100);
    // Quiet: the wait at most doubles per check, up to the longest.
    const waits = [];
    for (let i = 0; i < 6; i++) waits.push(watch.check(BINARY + 30 * MiB, BIG_FILE).nextCheckMs);
    assert.deepEqual(waits, [200, 400, 800, 1000, 1000, 1000]);
  });

  it('does not remap again before the least gap between remaps', () => {
    const watch = new MapBudgetWatch(8 * MiB, BINARY, OPTIONS);
    assert.equal(watch.check(BINARY + 100 * MiB, BIG_FILE).remap, true);
    watch.remapped(BINARY);
    // The hot set alone is past the budget: 100 ms after the remap it is back, but remapping gains nothing yet.
    assert.equal(watch.check(BINARY + 100 * MiB, BIG_FILE).remap, false);
    assert.equal(watch.check(BINARY + 100 * MiB, BIG_FILE).remap, false);
    assert.equal(watch.check(BINARY + 100 * MiB, BIG_FILE).remap, true);
  });

  it('follows a lower baseline when the rest of the file-backed RSS shrinks', () => {
    const watch = new MapBudgetWatch(32 * MiB, BINARY, OPTIONS);
    assert.equal(watch.check(BINARY - 5 * MiB, BIG_FILE).remap, false);
    assert.equal(watch.check(BINARY + 28 * MiB, BIG_FILE).remap, true, '33 MiB above the new baseline');
  });

  it('holds the store within 1.25 × the budget however fast the hot set comes back, within the remap gap', () => {
    const budget = 32 * MiB;
    // A hot set of which 20, 40 and 80 MiB are back one second after a remap (the soak's small and large
    // stores): checked once a second, the store would hold all of that at the check.
    const medians = [];
    for (const hot of [40, 80, 160]) {
      const { remaps, median, max } = simulate(concave(hot * MiB, 1000), budget, 60_000);
      assert.ok(max <= 1.25 * budget, `hot ${hot} MiB: held at most ${(max / MiB).toFixed(1)} MiB`);
      assert.ok(remaps.length <= 60_000 / OPTIONS.minRemapGapMs);
      medians.push(median / MiB);
    }
    // Once the hot set passes the budget, the median no longer follows it.
    const [m40 = 0, m80 = 0, m160 = 0] = medians;
    assert.ok(
      m160 <= m80 && m80 <= 32 && m40 <= 32,
      `medians ${medians.map((m) => m.toFixed(1)).join(', ')} MiB`,
    );
  });

  it('remaps at most once per gap when the hot set comes back faster than the budget allows', () => {
    // 160 MiB back in the first second, 64 MiB of it within the 250 ms gap: remapping more often gains nothing.
    const { remaps, max } = simulate(concave(320 * MiB, 1000), 32 * MiB, 60_000);
    assert.ok(remaps.length <= 60_000 / OPTIONS.minRemapGapMs, `${remaps.length} remaps`);
    assert.ok(remaps.every((at, i) => i === 0 || at - (remaps[i - 1] ?? 0) >= OPTIONS.minRemapGapMs));
    assert.ok(max < 32 * MiB + concave(320 * MiB, 1000)(OPTIONS.minRemapGapMs + OPTIONS.minIntervalMs));
  });
});
