/** The soak's interval records and summary: percentiles per interval, RSS growth after warm-up, p99 flatness, checks. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FinalityCheck, SupplyCheck } from '../bench/soak/end-checks.js';
import {
  errorClass,
  formatInterval,
  IntervalRecorder,
  type IntervalSample,
} from '../bench/soak/interval-stats.js';
import { summarizeSoak } from '../bench/soak/summary.js';

const MIB = 2 ** 20;
const memory = (rssMiB: number) => ({
  rssBytes: rssMiB * MIB,
  rssAnonBytes: (rssMiB / 2) * MIB,
  rssFileBytes: (rssMiB / 2) * MIB,
  anon: {
    v8PagesBytes: (rssMiB / 4) * MIB,
    mallocHeapBytes: (rssMiB / 8) * MIB,
    otherBytes: (rssMiB / 8) * MIB,
  },
  storeBytes: rssMiB * MIB,
});

const finality: FinalityCheck = { accepted: 3, final: 3, notFinal: [], notFinalCount: 0, ok: true };
const supply: SupplyCheck = {
  genesisSupply: '100',
  finalHeight: 10,
  finalSupply: '90',
  burnt: '10',
  balances: '90',
  accounts: 2,
  blocks: 10,
  problems: [],
  ok: true,
};

/** Ten 10-s intervals: RSS from `rss(i)`, every kind's latencies 1..100 ms scaled by `scale(i)`. */
function run(rss: (i: number) => number, scale: (i: number) => number) {
  const recorder = new IntervalRecorder();
  const samples: IntervalSample[] = [];
  for (let i = 0; i < 10; i++) {
    for (let n = 1; n <= 100; n++) {
      for (const kind of ['transfer', 'call', 'view', 'sign'] as const)
        recorder.succeeded(kind, n * scale(i));
    }
    samples.push(recorder.flush((i + 1) * 10, memory(rss(i))));
  }
  return { recorder, samples };
}

const base = {
  warmupMs: 20_000,
  finality,
  supply,
  abandoned: 0,
  stackExit: { code: 0, signal: null },
  stackDiedDuringRun: false,
};

describe('soak summary', () => {
  it('an interval holds p50/p99 of what finished in it, and the next starts empty', () => {
    const recorder = new IntervalRecorder();
    for (let n = 1; n <= 100; n++) recorder.succeeded('view', n);
    recorder.failed('view', new Error('timeout after 10000 ms'));
    recorder.skipped('sign');
    const first = recorder.flush(10, memory(100));
    assert.deepEqual(first.kinds.view, { completed: 100, errors: 1, skipped: 0, p50Ms: 51, p99Ms: 100 });
    assert.equal(first.kinds.sign.skipped, 1);
    assert.match(
      formatInterval(first),
      /^\[soak +10 s\] rss 100\.0 MiB \(anon 50\.0: V8 25\.0, malloc 12\.5, other 12\.5; file 50\.0; data\.mdb 100\.0\) \| transfer 0 -\/- ms \| call 0/,
    );
    const second = recorder.flush(20, memory(100));
    assert.equal(second.kinds.view.completed, 0);
    assert.equal(recorder.totals.view.completed, 100);
    assert.deepEqual(Object.fromEntries(recorder.errorsByKind.view), { 'Error: timeout after N ms': 1 });
  });

  it('error classes drop numbers and hashes', () => {
    assert.equal(
      errorClass(new Error('tx 8YFh1oWQ5kdDTgUVPgsuwYSyqBVRaPb9wTCsm3aFyWs2 failed at 123')),
      'Error: tx … failed at N',
    );
  });

  it('RSS growth is measured from the end of warm-up; steady p99 is flat; all checks pass', () => {
    const { recorder, samples } = run(
      (i) => (i < 1 ? 100 : 150 + i),
      () => 1,
    );
    const summary = summarizeSoak({ ...base, samples, recorder, verifiedSignatures: 1000 });
    // A minute's window holds six samples, capped at a third of the nine after warm-up: 151–153 and 157–159.
    assert.equal(summary.rss.warmupBytes, 152 * MIB, 'the median of the samples after the 20 s of warm-up');
    assert.equal(summary.rss.endBytes, 158 * MIB);
    assert.equal(summary.rss.warmupSampleBytes, 151 * MIB, 'the sample taken when the warm-up ended');
    assert.equal(summary.rss.endSampleBytes, 159 * MIB);
    assert.ok(Math.abs(summary.rss.growth - 6 / 152) < 1e-9);
    assert.equal(summary.rss.met, true);
    // Samples after warm-up 151..159 MiB: thirds 151–153 and 157–159, medians 152 and 158.
    assert.equal(summary.rss.firstThirdMedianBytes, 152 * MIB);
    assert.equal(summary.rss.lastThirdMedianBytes, 158 * MIB);
    assert.ok(Math.abs(summary.rss.medianGrowth - 6 / 152) < 1e-9);
    assert.equal(summary.rss.lastThirdMedianAnonBytes, 79 * MIB);
    assert.deepEqual(summary.rss.lastThirdMedianAnon, {
      v8PagesBytes: 39.5 * MIB,
      mallocHeapBytes: 19.75 * MIB,
      otherBytes: 19.75 * MIB,
    });
    assert.equal(summary.kinds.call.p99Flat, true);
    assert.equal(summary.ok, true);
  });

  it('a growing RSS misses the target and a rising p99 is not flat, without failing a check', () => {
    const { recorder, samples } = run(
      (i) => 100 + 10 * i,
      (i) => (i < 6 ? 1 : 3),
    );
    const summary = summarizeSoak({ ...base, samples, recorder, verifiedSignatures: 1000 });
    assert.equal(summary.rss.met, false);
    assert.equal(summary.kinds.transfer.p99Flat, false);
    assert.equal(summary.kinds.transfer.p99FirstThirdMs, 100);
    assert.equal(summary.kinds.transfer.p99LastThirdMs, 300);
    assert.equal(summary.ok, true, 'targets are reported, checks decide the exit code');
  });

  it('errors, unanswered operations, missing finality, a supply gap, unverified signatures or a dead stack fail', () => {
    const { recorder, samples } = run(
      () => 100,
      () => 1,
    );
    recorder.failed('sign', new Error('HTTP 504'));
    const summary = summarizeSoak({
      ...base,
      samples,
      recorder,
      abandoned: 2,
      finality: { ...finality, final: 2, notFinalCount: 1, ok: false },
      supply: { ...supply, problems: ['Σ balances ≠ total_supply'], ok: false },
      verifiedSignatures: 999,
      stackExit: { code: 1, signal: null },
      stackDiedDuringRun: true,
    });
    assert.equal(summary.ok, false);
    assert.deepEqual(
      Object.entries(summary.checks)
        .filter(([, c]) => !c.ok)
        .map(([name]) => name),
      [
        'stackUp',
        'noErrors',
        'nothingAbandoned',
        'allFinal',
        'supplyAddsUp',
        'signaturesVerified',
        'stackStopped',
      ],
    );
  });

  it("judges the growth on a minute's median at each end, not on one sample of the sawtooth", () => {
    // Samples every 10 s for 200 s after a 20 s warm-up: a flat level with a collection's sawtooth (148/152
    // MiB), the first sample after warm-up at a trough (135) and the last at a peak (165).
    const recorder = new IntervalRecorder();
    const samples: IntervalSample[] = [];
    for (let i = 0; i < 20; i++) {
      const rss = i === 1 ? 135 : i === 19 ? 165 : i % 2 === 0 ? 152 : 148;
      samples.push(recorder.flush((i + 1) * 10, memory(rss)));
    }
    const summary = summarizeSoak({ ...base, samples, recorder, verifiedSignatures: 0 });
    assert.equal(summary.rss.warmupSampleBytes, 135 * MIB);
    assert.equal(summary.rss.endSampleBytes, 165 * MIB, 'one sample each: 22% of growth');
    // The first minute (20–70 s): 135, 152, 148, 152, 148, 152 → 150; the last (150–200 s): 152, 148, 152,
    // 148, 152, 165 → 152.
    assert.equal(summary.rss.warmupBytes, 150 * MIB);
    assert.equal(summary.rss.endBytes, 152 * MIB);
    assert.ok(Math.abs(summary.rss.growth - 2 / 150) < 1e-9);
    assert.equal(summary.rss.met, true);
    assert.equal(summary.rss.warmupAnonBytes, 75 * MIB);
  });

  it('takes the medians over the readings of every second when the samples carry them', () => {
    // Every 10-s sample happens to land on the store's refilled peak (170 MiB), while the readings of each
    // second show a sawtooth of 140..158 MiB (141..159 in the second half) whose median is 149 (150).
    const recorder = new IntervalRecorder();
    const samples: IntervalSample[] = [];
    for (let i = 0; i < 20; i++) {
      for (let second = 0; second < 10; second++) {
        const rss = (i < 10 ? 140 : 141) + 2 * second;
        recorder.noteMemoryReading({
          rssBytes: rss * MIB,
          rssAnonBytes: 60 * MIB,
          rssFileBytes: (rss - 60) * MIB,
        });
      }
      samples.push(recorder.flush((i + 1) * 10, memory(170)));
    }
    assert.equal(samples[0].readings.rss.length, 10);
    const summary = summarizeSoak({ ...base, samples, recorder, verifiedSignatures: 0 });
    assert.equal(summary.rss.warmupSampleBytes, 170 * MIB, 'the single samples stay what they were');
    assert.equal(summary.rss.warmupBytes, 149 * MIB, 'the median of 140, 142 … 158');
    assert.equal(summary.rss.endBytes, 150 * MIB);
    assert.equal(summary.rss.warmupAnonBytes, 60 * MIB);
    assert.equal(summary.rss.endFileBytes, 90 * MIB);
    assert.equal(summary.rss.firstThirdMedianBytes, 149 * MIB);
  });
});
