/**
 * pino's JSON lines as short readable lines, for people reading a terminal (`shadebox up`/`node` in text
 * mode): `12:03:04 WARN message key=value ...`. Machines get the JSON lines (`--json`).
 */

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const OMIT = new Set(['level', 'time', 'msg', 'name', 'pid', 'hostname']);

/** A pino destination writing each JSON line to `out` as one short line. */
export function shortLogStream(out: { write(text: string): unknown }): { write(line: string): void } {
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        out.write(line);
        return;
      }
      out.write(`${formatShortLine(entry)}\n`);
    },
  };
}

export function formatShortLine(entry: Record<string, unknown>): string {
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '';
  const level = LEVELS[entry.level as number] ?? String(entry.level);
  const fields = Object.entries(entry)
    .filter(([key]) => !OMIT.has(key))
    .map(([key, value]) => `${key}=${fieldText(value)}`);
  return [time, level, String(entry.msg ?? ''), ...fields].filter((part) => part !== '').join(' ');
}

function fieldText(value: unknown): string {
  if (value && typeof value === 'object' && 'message' in value) {
    // An error (pino's err serializer): its message, not its stack.
    return JSON.stringify((value as { message: unknown }).message);
  }
  return typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value);
}
