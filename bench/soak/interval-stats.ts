/**
 * What the soak measures while it runs: per kind of operation, the latencies and errors of each sampling
 * interval (an operation counts in the interval in which it finished), the total errors by message, and the
 * stack's RSS at the end of each interval.
 */
import { summarize } from '../load.js';
import type { AnonymousParts } from '../proc.js';

export const KINDS = ['transfer', 'call', 'view', 'sign'] as const;
export type Kind = (typeof KINDS)[number];

export interface KindInterval {
  completed: number;
  errors: number;
  /** Operations not started because the kind already had its most operations in flight. */
  skipped: number;
  p50Ms: number;
  p99Ms: number;
}

export interface IntervalSample {
  /** Seconds since the load started, at the end of the interval. */
  atS: number;
  rssBytes: number;
  /** RssAnon (the JS heap and other private memory) and RssFile (code, LMDB's mapped pages). */
  rssAnonBytes: number;
  rssFileBytes: number;
  /** RssAnon by where it comes from (V8's pages, glibc's main heap, the rest), from /proc/PID/smaps. */
  anon: AnonymousParts;
  /** VmRSS, RssAnon and RssFile read every second during the interval (bytes), so that a window's median
   * stands on many readings of the store's and the heaps' sawtooth, not on a few. */
  readings: MemoryReadings;
  /** Size of the store's data.mdb (LMDB's high-water mark): RssFile grows with the pages of it the node reads. */
  storeBytes: number;
  kinds: Record<Kind, KindInterval>;
}

export interface MemoryReadings {
  rss: number[];
  anon: number[];
  file: number[];
}

const noReadings = (): MemoryReadings => ({ rss: [], anon: [], file: [] });

interface Bucket {
  latencies: number[];
  errors: number;
  skipped: number;
}

const emptyBuckets = () =>
  Object.fromEntries(KINDS.map((k) => [k, { latencies: [], errors: 0, skipped: 0 }])) as unknown as Record<
    Kind,
    Bucket
  >;

/** Shortens an error to a class of errors: numbers, hashes and keys removed, at most 160 characters. */
export function errorClass(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message
    .replace(/[1-9A-HJ-NP-Za-km-z]{32,}/g, '…')
    .replace(/\d+/g, 'N')
    .slice(0, 160);
}

export class IntervalRecorder {
  #buckets = emptyBuckets();
  #readings = noReadings();
  readonly totals = Object.fromEntries(
    KINDS.map((k) => [k, { completed: 0, errors: 0, skipped: 0 }]),
  ) as Record<Kind, { completed: number; errors: number; skipped: number }>;
  /** Per kind: error class → count. */
  readonly errorsByKind = Object.fromEntries(KINDS.map((k) => [k, new Map<string, number>()])) as Record<
    Kind,
    Map<string, number>
  >;

  succeeded(kind: Kind, latencyMs: number): void {
    this.#buckets[kind].latencies.push(latencyMs);
    this.totals[kind].completed++;
  }

  failed(kind: Kind, error: unknown): void {
    this.#buckets[kind].errors++;
    this.totals[kind].errors++;
    const key = errorClass(error);
    const byClass = this.errorsByKind[kind];
    byClass.set(key, (byClass.get(key) ?? 0) + 1);
  }

  skipped(kind: Kind): void {
    this.#buckets[kind].skipped++;
    this.totals[kind].skipped++;
  }

  /** One reading of the stack's memory (taken every second), kept with the current interval. */
  noteMemoryReading(memory: { rssBytes: number; rssAnonBytes: number; rssFileBytes: number }): void {
    this.#readings.rss.push(memory.rssBytes);
    this.#readings.anon.push(memory.rssAnonBytes);
    this.#readings.file.push(memory.rssFileBytes);
  }

  /** Closes the current interval and starts the next. */
  flush(
    atS: number,
    memory: {
      rssBytes: number;
      rssAnonBytes: number;
      rssFileBytes: number;
      anon: AnonymousParts;
      storeBytes: number;
    },
  ): IntervalSample {
    const buckets = this.#buckets;
    this.#buckets = emptyBuckets();
    const readings = this.#readings;
    this.#readings = noReadings();
    const kinds = Object.fromEntries(
      KINDS.map((k) => {
        const b = buckets[k];
        const s = summarize(b.latencies);
        return [
          k,
          {
            completed: b.latencies.length,
            errors: b.errors,
            skipped: b.skipped,
            p50Ms: s.p50Ms,
            p99Ms: s.p99Ms,
          },
        ];
      }),
    ) as Record<Kind, KindInterval>;
    return { atS, ...memory, readings, kinds };
  }
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const ms = (v: number) => (Number.isNaN(v) ? '-' : v < 10 ? v.toFixed(1) : Math.round(v).toString());

/** One line per interval: time, RSS, then per kind count, p50/p99 and errors. */
export function formatInterval(sample: IntervalSample): string {
  const parts = KINDS.map((k) => {
    const s = sample.kinds[k];
    const extra = `${s.errors ? ` err ${s.errors}` : ''}${s.skipped ? ` skip ${s.skipped}` : ''}`;
    return `${k} ${s.completed} ${ms(s.p50Ms)}/${ms(s.p99Ms)} ms${extra}`;
  });
  return `[soak ${String(Math.round(sample.atS)).padStart(5)} s] rss ${mib(sample.rssBytes)} MiB (anon ${mib(sample.rssAnonBytes)}: V8 ${mib(sample.anon.v8PagesBytes)}, malloc ${mib(sample.anon.mallocHeapBytes)}, other ${mib(sample.anon.otherBytes)}; file ${mib(sample.rssFileBytes)}; data.mdb ${mib(sample.storeBytes)}) | ${parts.join(' | ')}`;
}
