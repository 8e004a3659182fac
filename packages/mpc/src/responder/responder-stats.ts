/** What the responder counts, the latency of each answer, and a summary of those latencies. */

export interface ResponderStats {
  /** Poll cycles run. */
  polls: number;
  /** RPC errors while polling. */
  pollErrors: number;
  /** Distinct requests seen (a duplicate arriving after its answer counts again). */
  requestsSeen: number;
  /** `respond` transactions that succeeded. */
  responded: number;
  /** `respond` attempts that failed (RPC error or a failed outcome). */
  failedSends: number;
  /** Requests that cannot be answered (unknown domain, malformed payload). */
  rejected: number;
  /** Requests currently tracked. */
  inFlight: number;
  /** Latency (ms) of each successful answer, first seen → `respond` executed; the last 1000. */
  latenciesMs: number[];
  lastLatencyMs: number | null;
}

const MAX_LATENCIES = 1000;

export function newResponderStats(): ResponderStats {
  return {
    polls: 0,
    pollErrors: 0,
    requestsSeen: 0,
    responded: 0,
    failedSends: 0,
    rejected: 0,
    inFlight: 0,
    latenciesMs: [],
    lastLatencyMs: null,
  };
}

/** Counts one successful answer and keeps its latency (the last 1000 are kept). */
export function recordAnswer(stats: ResponderStats, latencyMs: number): void {
  stats.responded++;
  stats.lastLatencyMs = latencyMs;
  stats.latenciesMs.push(latencyMs);
  if (stats.latenciesMs.length > MAX_LATENCIES) stats.latenciesMs.shift();
}

/** Percentiles and mean of `stats.latenciesMs`. */
export function latencySummary(stats: Pick<ResponderStats, 'latenciesMs'>): {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p95: number;
  max: number;
} {
  const xs = [...stats.latenciesMs].sort((a, b) => a - b);
  if (xs.length === 0) return { count: 0, min: 0, mean: 0, p50: 0, p95: 0, max: 0 };
  const at = (q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  return {
    count: xs.length,
    min: xs[0],
    mean: xs.reduce((a, b) => a + b, 0) / xs.length,
    p50: at(0.5),
    p95: at(0.95),
    max: xs[xs.length - 1],
  };
}
