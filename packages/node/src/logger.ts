/**
 * The one structured logger (pino). Logs go to stderr so stdout stays free for the machine-readable ready
 * line; the level comes from `SHADEBOX_LOG` (default `info`, `silent` to mute). `format: 'short'` writes
 * short readable lines instead of JSON (./short-log-stream.ts), for a person at a terminal.
 */
import { type Logger, pino } from 'pino';
import { shortLogStream } from './short-log-stream.js';

export type { Logger };

export function createLogger(
  name: string,
  level = process.env.SHADEBOX_LOG ?? 'info',
  format: 'json' | 'short' = 'json',
): Logger {
  if (format === 'short') return pino({ name, level, base: undefined }, shortLogStream(process.stderr));
  return pino({ name, level, base: undefined }, pino.destination({ fd: 2, sync: false }));
}

/** A logger that writes nothing (library use and tests). */
export const silentLogger: Logger = pino({ level: 'silent' });
