/**
 * JSON text as nearcore's RPC writes it:
 * - object keys in sorted order, because nearcore turns every result (and every error cause and data) into a
 *   `serde_json::Value`, whose map is a `BTreeMap` (serde_json's `preserve_order` is off);
 * - u64 values exact: nearcore writes some u64s (block timestamps, nonces) as JSON numbers above 2^53, which
 *   `JSON.stringify` cannot, so `bigint` values are written as raw digits.
 * Objects with a `toJSON()` are serialised through it; `undefined` members are left out, as `JSON.stringify`
 * does.
 */
export function stringifyJson(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

function write(value: unknown, out: string[]): void {
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      out.push(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'bigint':
      out.push(value.toString());
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      break;
    default:
      out.push('null');
      return;
  }
  if (value === null) {
    out.push('null');
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      const item = value[i];
      write(item === undefined || typeof item === 'function' ? null : item, out);
    }
    out.push(']');
    return;
  }
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') {
    write(withToJson.toJSON(), out);
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out.push('{');
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined || typeof member === 'function') continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(member, out);
  }
  out.push('}');
}

/** A u64 as a JSON number: a plain number when it is exact, a bigint (raw digits) otherwise. */
export function u64Json(value: bigint | number): number | bigint {
  const n = typeof value === 'bigint' ? value : BigInt(value);
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

/**
 * JSON text for records the node stores and parses back itself (outcomes, receipts, transactions, chunks):
 * key order does not matter there, so the native serialiser is used unless a bigint needs exact digits.
 * Answers re-serialise what they read with `stringifyJson`.
 */
export function stringifyRecord(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return stringifyJson(value);
  }
}
