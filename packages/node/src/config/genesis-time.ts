/**
 * `genesis_time` as nearcore writes and reads it: chrono's RFC 3339 form of a `DateTime<Utc>`, with as many
 * fraction digits as needed (`SecondsFormat::AutoSi`: 0, 3, 6 or 9).
 */

/** Formats nanoseconds since the Unix epoch as chrono serialises a `DateTime<Utc>` (RFC 3339, AutoSi fraction). */
export function formatGenesisTime(nanos: bigint): string {
  if (nanos < 0n) throw new RangeError('genesis time before 1970 is not supported');
  const millis = nanos / 1_000_000n;
  const subSecond = nanos % 1_000_000_000n;
  const base = utcSeconds(new Date(Number(millis)));
  if (subSecond === 0n) return `${base}Z`;
  const digits = subSecond.toString().padStart(9, '0');
  if (subSecond % 1_000_000n === 0n) return `${base}.${digits.slice(0, 3)}Z`;
  if (subSecond % 1_000n === 0n) return `${base}.${digits.slice(0, 6)}Z`;
  return `${base}.${digits}Z`;
}

/**
 * `YYYY-MM-DDTHH:MM:SS` in UTC, as `toISOString().slice(0, 19)`, from the date's UTC fields: toISOString reads
 * ICU's time zone data (about 0.8 MiB of the node binary's pages mapped into every node that starts a chain).
 */
export function utcSeconds(date: Date): string {
  const year = date.getUTCFullYear();
  if (year > 9999) return date.toISOString().slice(0, 19);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${String(year).padStart(4, '0')}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}` +
    `T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`
  );
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Parses an RFC 3339 time (any offset, up to 9 fraction digits) into nanoseconds since the Unix epoch. */
export function parseGenesisTime(text: string): bigint {
  const m = RFC3339.exec(text);
  if (m === null) throw new RangeError(`not an RFC 3339 time: ${JSON.stringify(text)}`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    throw new RangeError(`not a valid date/time: ${JSON.stringify(text)}`);
  }
  const millis = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(millis).getUTCDate() !== day)
    throw new RangeError(`not a valid date: ${JSON.stringify(text)}`);
  let offsetMinutes = 0;
  if (m[9] !== undefined) offsetMinutes = (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const fraction = BigInt((m[7] ?? '').padEnd(9, '0'));
  const nanos = (BigInt(millis) - BigInt(offsetMinutes) * 60_000n) * 1_000_000n + fraction;
  if (nanos < 0n) throw new RangeError('genesis time before 1970 is not supported');
  return nanos;
}
