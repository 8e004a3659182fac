/**
 * The `Date` header's value (RFC 9110 IMF-fixdate, `Tue, 24 Nov 2026 12:41:01 GMT`), as `toUTCString()` gives it,
 * made from the date's UTC fields once per second: toUTCString reads ICU's time zone data, which maps about
 * 0.8 MiB of the node binary into a process that answers one request.
 */
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

let cachedSecond = Number.NaN;
let cachedText = '';

export function httpDate(nowMs: number = Date.now()): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== cachedSecond) {
    const d = new Date(second * 1000);
    const two = (n: number) => String(n).padStart(2, '0');
    cachedText =
      `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ` +
      `${String(d.getUTCFullYear()).padStart(4, '0')} ` +
      `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} GMT`;
    cachedSecond = second;
  }
  return cachedText;
}
