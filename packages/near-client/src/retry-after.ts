/**
 * HTTP `Retry-After` (RFC 9110 §10.2.3): a number of seconds or an HTTP date. Public RPC providers send it with
 * 429 (rate limited) and 503; the client waits at least that long before asking the same endpoint again.
 */

/** The wait `Retry-After` asks for, in ms from `now` (0 for a date in the past); undefined when absent or not
 * one of the two forms. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP date (IMF-fixdate, or the obsolete RFC 850 / asctime forms Date.parse also reads); never a bare number.
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
