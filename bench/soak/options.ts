/**
 * Command-line options of `npm run soak -- [options]`.
 */
import { parseArgs } from 'node:util';

export interface SoakOptions {
  /** Length of the load, ms (`--minutes` or `--seconds`). */
  durationMs: number;
  /** Operations started per second, all kinds together. */
  rate: number;
  /** Seed of the generator's choices (payloads, receivers, view arguments). */
  seed: number;
  /** Sampling interval of RSS and latency, ms. */
  intervalMs: number;
  /** RSS at the end of this warm-up is the reference of the growth figure, ms. */
  warmupMs: number;
  /** Where the result JSON is written (none when undefined). */
  out: string | undefined;
}

export const SOAK_USAGE = `Usage: npm run soak -- --minutes N [--rate R] [--seed S] [--interval S] [--warmup S] [--out FILE]
  --minutes N    length of the load in minutes (or --seconds N)
  --rate R       operations started per second, all kinds together (default 20)
  --seed S       seed of payloads, receivers and view arguments (default 1)
  --interval S   seconds between RSS/latency samples (default 10; VmRSS is also read every second for the
                 growth figure)
  --warmup S     seconds of warm-up before the reference RSS (default: 2 minutes, at most a fifth of the run)
  --out FILE     also write the result as JSON`;

export function parseSoakOptions(argv: readonly string[]): SoakOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      minutes: { type: 'string' },
      seconds: { type: 'string' },
      rate: { type: 'string' },
      seed: { type: 'string' },
      interval: { type: 'string' },
      warmup: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(SOAK_USAGE);
    process.exit(0);
  }
  const number = (name: string, text: string | undefined, fallback: number | undefined) => {
    if (text === undefined) {
      if (fallback === undefined) throw new Error(`--${name} is required\n${SOAK_USAGE}`);
      return fallback;
    }
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, not ${text}`);
    return n;
  };
  if (values.minutes !== undefined && values.seconds !== undefined) {
    throw new Error('give --minutes or --seconds, not both');
  }
  const durationMs =
    values.seconds !== undefined
      ? number('seconds', values.seconds, undefined) * 1000
      : number('minutes', values.minutes, undefined) * 60_000;
  const intervalMs = number('interval', values.interval, 10) * 1000;
  const warmupMs =
    values.warmup !== undefined
      ? number('warmup', values.warmup, undefined) * 1000
      : Math.min(120_000, Math.max(intervalMs, Math.floor(durationMs / 5 / intervalMs) * intervalMs));
  return {
    durationMs,
    rate: number('rate', values.rate, 20),
    seed: Math.floor(number('seed', values.seed, 1)),
    intervalMs,
    warmupMs,
    out: values.out,
  };
}
