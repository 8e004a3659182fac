/**
 * The one structured logger (pino). Logs go to stderr so stdout stays free for the machine-readable ready
 * line; the level comes from `SHADEBOX_LOG` (default `info`, `silent` to mute). `format: 'short'` writes
 * short readable lines instead of JSON (./short-log-stream.ts), for a person at a terminal.
 *
 * A logger makes its pino logger (and its destination stream) on the first call at an enabled level or any
 * other use, so a node that logs nothing at its level (`--json` mode's `warn`, `silent`) never builds one; in the
 * CLI's bundles pino itself then never loads (packages/cli/scripts/bundle-cli.mjs).
 */
import { type Logger, pino } from 'pino';
import { shortLogStream } from './short-log-stream.js';

export type { Logger };

const LEVEL_VALUES: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

const skip = (): void => {};

/** A logger at `level` that calls `make` for its pino logger only when something is logged or asked of it. */
export function lazyLogger(level: string, make: () => Logger): Logger {
  let threshold = LEVEL_VALUES[level];
  // An unknown level: pino's own error, at once.
  if (threshold === undefined) return make();
  let real: Logger | undefined;
  return new Proxy({} as Logger, {
    get(_target, key) {
      if (typeof key === 'string' && key !== 'silent') {
        const value = LEVEL_VALUES[key];
        if (value !== undefined && value < threshold) return skip;
        if (key === 'level' && real === undefined) return level;
      }
      real ??= make();
      const value = Reflect.get(real, key, real);
      return typeof value === 'function' ? value.bind(real) : value;
    },
    set(_target, key, value) {
      real ??= make();
      const done = Reflect.set(real, key, value, real);
      if (key === 'level') threshold = LEVEL_VALUES[real.level] ?? threshold;
      return done;
    },
    has(_target, key) {
      real ??= make();
      return key in real;
    },
  });
}

export function createLogger(
  name: string,
  level = process.env.SHADEBOX_LOG ?? 'info',
  format: 'json' | 'short' = 'json',
): Logger {
  return lazyLogger(level, () =>
    format === 'short'
      ? pino({ name, level, base: undefined }, shortLogStream(process.stderr))
      : pino({ name, level, base: undefined }, pino.destination({ fd: 2, sync: false })),
  );
}

/** A logger that writes nothing (library use and tests). */
export const silentLogger: Logger = lazyLogger('silent', () => pino({ level: 'silent' }));
