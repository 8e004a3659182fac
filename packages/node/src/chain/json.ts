/**
 * JSON text with exact u64 numbers. nearcore writes some u64 values (block timestamps, nonces) as JSON numbers
 * larger than 2^53; `JSON.stringify` cannot, so `bigint` values are written as raw digits here.
 */
const MARK = '~~shadebox-u64~~';
const MARKED = /"~~shadebox-u64~~(-?\d+)"/g;

export function stringifyJson(value: unknown): string {
  try {
    // Most values hold no bigint: the plain (much faster) path, which throws a TypeError on a bigint.
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  const text = JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${MARK}${v}` : v));
  return text.includes(MARK) ? text.replace(MARKED, '$1') : text;
}

/** A u64 as a JSON number: a plain number when it is exact, a bigint (raw digits) otherwise. */
export function u64Json(value: bigint | number): number | bigint {
  const n = typeof value === 'bigint' ? value : BigInt(value);
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}
