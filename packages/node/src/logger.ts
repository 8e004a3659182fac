/**
 * The one structured logger (pino). Logs go to stderr so stdout stays free for the machine-readable ready
 * line; the level comes from `SHADEBOX_LOG` (default `info`, `silent` to mute).
 */
import { type Logger, pino } from 'pino';

export type { Logger };

export function createLogger(name: string, level = process.env.SHADEBOX_LOG ?? 'info'): Logger {
  return pino({ name, level, base: undefined }, pino.destination({ fd: 2, sync: false }));
}

/** A logger that writes nothing (library use and tests). */
export const silentLogger: Logger = pino({ level: 'silent' });
