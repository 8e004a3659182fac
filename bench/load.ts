/**
 * The load generator: a closed loop of `concurrency` workers, each sending its next request as soon as the
 * previous one answers. Requests run through a warmup, then a fixed measurement window; only operations that
 * start and finish inside the window count, so the rate is (completed in window) / (window length).
 *
 * It runs in the benchmark process, which does nothing else meanwhile; the server is always another process.
 * `rawLoad` drives prepared JSON-RPC bodies through raw keep-alive sockets (raw-http.ts), for reads and views.
 */
import { serverProbes } from './proc.js';
import { RawHttpClients } from './raw-http.js';

/** The settings every throughput metric takes from the command line. */
export interface LoadSettings {
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}

export interface LoadOptions {
  /** Workers running at once (each holds one request in flight). */
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  /** After the window: how long to wait for in-flight operations before giving up on them. */
  drainTimeoutMs: number;
  /**
   * One operation of worker `worker`; resolves when it is complete and correct. A rejection counts as an error
   * (the message of the first few is kept).
   */
  operation: (worker: number) => Promise<void>;
  /**
   * Counters read at the start and at the end of the window (the chain height, the server's CPU time); their
   * growth over the window is returned in `deltas` under the same names.
   */
  probes?: Record<string, () => Promise<number> | number>;
}

export interface LatencySummary {
  meanMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface LoadResult {
  concurrency: number;
  warmupMs: number;
  /** The measured window, as actually elapsed. */
  durationMs: number;
  /** Operations completed successfully inside the window. */
  completed: number;
  /** Operations that failed inside the window. */
  errors: number;
  /** completed / window seconds. */
  perSecond: number;
  latency: LatencySummary;
  /** Up to five distinct error messages. */
  sampleErrors: string[];
  /** Operations still in flight when the drain timed out. */
  abandoned: number;
  /** How much each probe grew over the window (NaN when a reading failed). */
  deltas: Record<string, number>;
  /**
   * The window on the machine's monotonic clock, µs (`process.hrtime`, CLOCK_MONOTONIC: the clock of V8's CPU
   * profiles in every process), so a server's profile can be cut to it.
   */
  window: { startMonotonicUs: number; endMonotonicUs: number };
}

/** A view metric's result: the load over its distinct requests, and what it was measured on. */
export interface ViewResult extends LoadResult {
  contract: string;
  distinctRequests: number;
  /** Deploying and filling the contract, ms (not in the rate). */
  setupMs: number;
}

/** The monotonic clock shared by every process of the machine, µs. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export async function runClosedLoop(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const sampleErrors = new Set<string>();
  let completed = 0;
  let errors = 0;
  const t0 = performance.now();
  const windowStart = t0 + options.warmupMs;
  const windowEnd = windowStart + options.durationMs;
  let stop = false;
  let inFlight = 0;

  const worker = async (index: number) => {
    while (!stop) {
      const started = performance.now();
      if (started >= windowEnd) break;
      inFlight++;
      let failed: unknown;
      try {
        await options.operation(index);
      } catch (error) {
        failed = error;
      }
      inFlight--;
      const finished = performance.now();
      if (started < windowStart || finished > windowEnd) continue;
      if (failed === undefined) {
        completed++;
        latencies.push(finished - started);
      } else {
        errors++;
        if (sampleErrors.size < 5)
          sampleErrors.add(String((failed as Error)?.message ?? failed).slice(0, 300));
      }
    }
  };

  const workers = Array.from({ length: options.concurrency }, (_, i) => worker(i));
  const probes = Object.entries(options.probes ?? {});
  const read = () =>
    probes.map(([, probe]) =>
      Promise.resolve()
        .then(probe)
        .catch(() => Number.NaN),
    );
  await sleep(Math.max(0, windowStart - performance.now()));
  const startMonotonicUs = monotonicUs();
  const atStart = read();
  await sleep(Math.max(0, windowEnd - performance.now()));
  const endMonotonicUs = monotonicUs();
  const atEnd = read();
  stop = true;
  const drained = await Promise.race([
    Promise.all(workers).then(() => true),
    sleep(options.drainTimeoutMs).then(() => false),
  ]);
  const durationMs = options.durationMs;
  const [starts, ends] = [await Promise.all(atStart), await Promise.all(atEnd)];
  const deltas = Object.fromEntries(probes.map(([name], i) => [name, ends[i] - starts[i]]));
  return {
    concurrency: options.concurrency,
    warmupMs: options.warmupMs,
    durationMs,
    completed,
    errors,
    perSecond: completed / (durationMs / 1000),
    latency: summarize(latencies),
    sampleErrors: [...sampleErrors],
    abandoned: drained ? 0 : inFlight,
    deltas,
    window: { startMonotonicUs, endMonotonicUs },
  };
}

export function summarize(samples: number[]): LatencySummary {
  if (samples.length === 0)
    return { meanMs: Number.NaN, p50Ms: Number.NaN, p90Ms: Number.NaN, p99Ms: Number.NaN, maxMs: Number.NaN };
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  let sum = 0;
  for (const s of sorted) sum += s;
  return {
    meanMs: sum / sorted.length,
    p50Ms: at(0.5),
    p90Ms: at(0.9),
    p99Ms: at(0.99),
    maxMs: sorted[sorted.length - 1],
  };
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Drives prepared JSON-RPC `bodies` at `url` from `load.concurrency` keep-alive connections: the workers take
 * the bodies in turn (one shared counter), so a body repeats only after all the others were sent. Each answer
 * must be HTTP 200 with a `result`, which `validate` checks further (`index`: which body it answers); a
 * throw counts the request as an error.
 */
export async function rawLoad(
  url: string,
  pid: number,
  bodies: readonly string[],
  load: LoadSettings,
  validate?: (result: unknown, index: number) => void,
): Promise<LoadResult> {
  const clients = new RawHttpClients(url, load.concurrency);
  const requests = bodies.map((b) => clients.jsonPost(b));
  let next = 0;
  try {
    return await runClosedLoop({
      ...load,
      drainTimeoutMs: 5000,
      probes: serverProbes(pid),
      operation: async (worker) => {
        const index = next;
        next = (next + 1) % requests.length;
        const { status, body } = await clients.request(worker, requests[index]);
        const message = JSON.parse(body.toString('utf8')) as { result?: unknown; error?: unknown };
        if (status !== 200 || message.result === undefined) {
          throw new Error(`HTTP ${status}: ${JSON.stringify(message.error ?? message).slice(0, 200)}`);
        }
        validate?.(message.result, index);
      },
    });
  } finally {
    clients.close();
  }
}
