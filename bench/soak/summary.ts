/**
 * The soak's summary: RSS after warm-up against the end (growth %), p50/p99 per kind per interval and
 * whether p99 stayed flat, errors by kind, and the end checks; which checks failed decides the exit code.
 */
import { median } from '../load.js';
import type { AnonymousParts } from '../proc.js';
import type { FinalityCheck, SupplyCheck } from './end-checks.js';
import {
  type IntervalRecorder,
  type IntervalSample,
  KINDS,
  type Kind,
  type MemoryReadings,
} from './interval-stats.js';

/** RSS may grow by less than this share from the end of warm-up to the end of the run. */
export const RSS_GROWTH_TARGET = 0.1;
/**
 * The RSS "after warm-up" and "at the end" are each the median of one minute (at most a third of the run after
 * warm-up): the first minute after warm-up, the last minute of the run, over the readings taken every second in
 * it (the samples' own when a sample has none). One reading sits anywhere on the sawtooth of the JS heap's
 * collections and the store's remaps (the store refills its map budget in about a second under the soak's load),
 * a swing of 20–30 MiB in a 120–150 MiB process, which alone can read as ±10%; the median of the six 10-s samples
 * of a minute still moved by ±4 MiB from run to run, that of its sixty readings does not.
 */
export const RSS_WINDOW_MS = 60_000;
/** p99 counts as flat when the median interval p99 of the last third is under 1.5× that of the first third. */
export const P99_FLAT_FACTOR = 1.5;

export interface KindSummary {
  completed: number;
  errors: number;
  skipped: number;
  /** Error class → count. */
  errorsByClass: Record<string, number>;
  /** Median of the interval p99s in the first and last third after warm-up, ms. */
  p99FirstThirdMs: number;
  p99LastThirdMs: number;
  p99Flat: boolean;
}

export interface SoakSummary {
  rss: {
    /** Median RSS of the first minute after warm-up and of the last minute ({@link RSS_WINDOW_MS}). */
    warmupBytes: number;
    endBytes: number;
    peakBytes: number;
    /** Growth between those two medians: the target's figure. */
    growth: number;
    met: boolean;
    /** The single samples: the first after warm-up and the last. */
    warmupSampleBytes: number;
    endSampleBytes: number;
    /** The same two medians for RssAnon alone (the heaps) and RssFile (the binary and the LMDB pages mapped). */
    warmupAnonBytes: number;
    endAnonBytes: number;
    anonGrowth: number;
    warmupFileBytes: number;
    endFileBytes: number;
    /** data.mdb at the first sample after warm-up and at the last. */
    warmupStoreBytes: number;
    endStoreBytes: number;
    /** The median RSS (and RssAnon, RssFile) of the samples in the first and last third after warm-up, and the
     * growth between them. */
    firstThirdMedianBytes: number;
    lastThirdMedianBytes: number;
    medianGrowth: number;
    firstThirdMedianAnonBytes: number;
    lastThirdMedianAnonBytes: number;
    /** RssAnon's parts (V8's pages, glibc's main heap, the rest): medians of the first and last third. */
    firstThirdMedianAnon: AnonymousParts;
    lastThirdMedianAnon: AnonymousParts;
    firstThirdMedianFileBytes: number;
    lastThirdMedianFileBytes: number;
  };
  kinds: Record<Kind, KindSummary>;
  checks: Record<string, { ok: boolean; detail: string }>;
  ok: boolean;
}

export function summarizeSoak(input: {
  samples: IntervalSample[];
  warmupMs: number;
  recorder: IntervalRecorder;
  finality: FinalityCheck;
  supply: SupplyCheck;
  abandoned: number;
  verifiedSignatures: number;
  stackExit: { code: number | null; signal: string | null } | undefined;
  stackDiedDuringRun: boolean;
}): SoakSummary {
  const { samples, recorder } = input;
  const afterWarmup = samples.filter((s) => s.atS * 1000 >= input.warmupMs);
  const steady = afterWarmup.length > 0 ? afterWarmup : samples;
  const third = Math.max(1, Math.floor(steady.length / 3));
  const startAtS = steady[0]?.atS ?? 0;
  const endAtS = steady.at(-1)?.atS ?? 0;
  const firstMinute = steady.filter((s) => (s.atS - startAtS) * 1000 < RSS_WINDOW_MS).slice(0, third);
  const lastMinute = steady.filter((s) => (endAtS - s.atS) * 1000 < RSS_WINDOW_MS).slice(-third);
  const warmupBytes = medianOf(firstMinute, 'rssBytes');
  const endBytes = medianOf(lastMinute, 'rssBytes');
  const growth = (endBytes - warmupBytes) / warmupBytes;
  const peakBytes = Math.max(...samples.map((s) => s.rssBytes));
  const warmupAnonBytes = medianOf(firstMinute, 'rssAnonBytes');
  const endAnonBytes = medianOf(lastMinute, 'rssAnonBytes');
  const last = samples.at(-1);
  const kinds = Object.fromEntries(
    KINDS.map((k) => {
      const p99s = (list: IntervalSample[]) =>
        median(list.map((s) => s.kinds[k].p99Ms).filter((v) => !Number.isNaN(v)));
      const first = p99s(steady.slice(0, third));
      const last = p99s(steady.slice(-third));
      return [
        k,
        {
          ...recorder.totals[k],
          errorsByClass: Object.fromEntries(recorder.errorsByKind[k]),
          p99FirstThirdMs: first,
          p99LastThirdMs: last,
          p99Flat: !(last > first * P99_FLAT_FACTOR),
        },
      ];
    }),
  ) as Record<Kind, KindSummary>;
  const errors = KINDS.reduce((n, k) => n + kinds[k].errors, 0);
  const checks: SoakSummary['checks'] = {
    stackUp: {
      ok: !input.stackDiedDuringRun,
      detail: input.stackDiedDuringRun ? 'the stack process exited during the run' : 'ran to the end',
    },
    noErrors: { ok: errors === 0, detail: `${errors} operations failed` },
    nothingAbandoned: {
      ok: input.abandoned === 0,
      detail: `${input.abandoned} operations unanswered after the load`,
    },
    allFinal: {
      ok: input.finality.ok,
      detail: `${input.finality.final} of ${input.finality.accepted} accepted transactions FINAL`,
    },
    supplyAddsUp: {
      ok: input.supply.ok,
      detail: input.supply.ok
        ? `genesis ${input.supply.genesisSupply} = Σ balances ${input.supply.balances} (${input.supply.accounts} accounts) + burnt ${input.supply.burnt}, ${input.supply.blocks} blocks`
        : input.supply.problems.join('; '),
    },
    signaturesVerified: {
      ok: input.verifiedSignatures === kinds.sign.completed,
      detail: `${input.verifiedSignatures} signatures recovered to the derived key`,
    },
    stackStopped: {
      ok: input.stackExit?.code === 0,
      detail: `SIGTERM: exit ${input.stackExit?.code ?? input.stackExit?.signal ?? 'none'}`,
    },
  };
  const firstThird = steady.slice(0, third);
  const lastThird = steady.slice(-third);
  const firstThirdMedianBytes = medianOf(firstThird, 'rssBytes');
  const lastThirdMedianBytes = medianOf(lastThird, 'rssBytes');
  return {
    rss: {
      warmupBytes,
      endBytes,
      peakBytes,
      growth,
      met: growth < RSS_GROWTH_TARGET,
      warmupSampleBytes: steady[0]?.rssBytes ?? Number.NaN,
      endSampleBytes: last?.rssBytes ?? Number.NaN,
      warmupAnonBytes,
      endAnonBytes,
      anonGrowth: (endAnonBytes - warmupAnonBytes) / warmupAnonBytes,
      warmupFileBytes: medianOf(firstMinute, 'rssFileBytes'),
      endFileBytes: medianOf(lastMinute, 'rssFileBytes'),
      warmupStoreBytes: steady[0]?.storeBytes ?? Number.NaN,
      endStoreBytes: last?.storeBytes ?? Number.NaN,
      firstThirdMedianBytes,
      lastThirdMedianBytes,
      medianGrowth: (lastThirdMedianBytes - firstThirdMedianBytes) / firstThirdMedianBytes,
      firstThirdMedianAnonBytes: medianOf(firstThird, 'rssAnonBytes'),
      lastThirdMedianAnonBytes: medianOf(lastThird, 'rssAnonBytes'),
      firstThirdMedianAnon: anonMedians(firstThird),
      lastThirdMedianAnon: anonMedians(lastThird),
      firstThirdMedianFileBytes: medianOf(firstThird, 'rssFileBytes'),
      lastThirdMedianFileBytes: medianOf(lastThird, 'rssFileBytes'),
    },
    kinds,
    checks,
    ok: Object.values(checks).every((c) => c.ok),
  };
}

type MemoryField = 'rssBytes' | 'rssAnonBytes' | 'rssFileBytes';
const READINGS_OF: Record<MemoryField, keyof MemoryReadings> = {
  rssBytes: 'rss',
  rssAnonBytes: 'anon',
  rssFileBytes: 'file',
};

/** The median of every reading of `field` in the samples of `list`: the per-second ones, or the sample's own if
 * it has none (NaN for no samples). */
function medianOf(list: IntervalSample[], field: MemoryField): number {
  return median(
    list.flatMap((s) => {
      const each = s.readings?.[READINGS_OF[field]];
      return each !== undefined && each.length > 0 ? each : [s[field]];
    }),
  );
}

/** The median of each part of RssAnon over `list`. */
function anonMedians(list: IntervalSample[]): AnonymousParts {
  return {
    v8PagesBytes: median(list.map((s) => s.anon.v8PagesBytes)),
    mallocHeapBytes: median(list.map((s) => s.anon.mallocHeapBytes)),
    otherBytes: median(list.map((s) => s.anon.otherBytes)),
  };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const ms = (v: number) => (Number.isNaN(v) ? '-' : `${v.toFixed(1)} ms`);

export function formatSummary(summary: SoakSummary): string {
  const lines = [
    'soak summary',
    `  RSS after warm-up ${mib(summary.rss.warmupBytes)}, at the end ${mib(summary.rss.endBytes)} (medians of a minute of readings every second; growth ${(summary.rss.growth * 100).toFixed(1)}%, target < ${RSS_GROWTH_TARGET * 100}%: ${summary.rss.met ? 'met' : 'NOT met'}), peak ${mib(summary.rss.peakBytes)}; single samples ${mib(summary.rss.warmupSampleBytes)} → ${mib(summary.rss.endSampleBytes)}`,
    `  median of the first and last third after warm-up: ${mib(summary.rss.firstThirdMedianBytes)} → ${mib(summary.rss.lastThirdMedianBytes)} (growth ${(summary.rss.medianGrowth * 100).toFixed(1)}%; RssAnon ${mib(summary.rss.firstThirdMedianAnonBytes)} → ${mib(summary.rss.lastThirdMedianAnonBytes)}, RssFile ${mib(summary.rss.firstThirdMedianFileBytes)} → ${mib(summary.rss.lastThirdMedianFileBytes)})`,
    `  RssAnon's parts, the same medians: V8's pages ${mib(summary.rss.firstThirdMedianAnon.v8PagesBytes)} → ${mib(summary.rss.lastThirdMedianAnon.v8PagesBytes)}, glibc's main heap ${mib(summary.rss.firstThirdMedianAnon.mallocHeapBytes)} → ${mib(summary.rss.lastThirdMedianAnon.mallocHeapBytes)}, the rest (threads' arenas, stacks, Wasm memories) ${mib(summary.rss.firstThirdMedianAnon.otherBytes)} → ${mib(summary.rss.lastThirdMedianAnon.otherBytes)}`,
    `  of which anonymous (RssAnon, minute medians): ${mib(summary.rss.warmupAnonBytes)} → ${mib(summary.rss.endAnonBytes)} (growth ${(summary.rss.anonGrowth * 100).toFixed(1)}%); file-backed (RssFile): ${mib(summary.rss.warmupFileBytes)} → ${mib(summary.rss.endFileBytes)}, while data.mdb grew ${mib(summary.rss.warmupStoreBytes)} → ${mib(summary.rss.endStoreBytes)}`,
  ];
  for (const k of KINDS) {
    const s = summary.kinds[k];
    lines.push(
      `  ${k.padEnd(8)} ${s.completed} ok, ${s.errors} errors, ${s.skipped} skipped; p99 ${ms(s.p99FirstThirdMs)} → ${ms(s.p99LastThirdMs)} (${s.p99Flat ? 'flat' : 'NOT flat'})`,
    );
    for (const [message, count] of Object.entries(s.errorsByClass))
      lines.push(`           ${count}× ${message}`);
  }
  for (const [name, c] of Object.entries(summary.checks)) {
    lines.push(`  ${c.ok ? 'ok  ' : 'FAIL'} ${name}: ${c.detail}`);
  }
  lines.push(summary.ok ? 'soak: every check passed' : 'soak: a check FAILED');
  return lines.join('\n');
}
