/**
 * The log level of a CLI run: `SHADEBOX_LOG` when set (pino levels: trace, debug, info, warn, error, fatal,
 * silent), else `warn` in `--json` mode (stdout carries only the ready line, logs go to stderr) and `info`
 * otherwise.
 */
import { UsageError } from './usage-error.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function resolveLogLevel(command: string, json: boolean, env = process.env.SHADEBOX_LOG): LogLevel {
  if (env === undefined || env === '') return json ? 'warn' : 'info';
  const level = env.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(
      command,
      `invalid SHADEBOX_LOG '${env}': expected one of ${LOG_LEVELS.join(', ')}`,
      'SHADEBOX_LOG',
    );
  }
  return level as LogLevel;
}
