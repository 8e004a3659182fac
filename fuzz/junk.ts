/**
 * Random and mutated JSON values: wrong types, extra keys, huge numbers, invalid account ids, hashes, keys and
 * base64, nested junk. `mutate` takes a valid params value and breaks one thing in it (or nothing, sometimes,
 * so valid requests are part of the mix).
 */
import type { Random } from './random.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Strings a handler might choke on. */
export function junkString(r: Random): string {
  return r.weighted<() => string>([
    [3, () => r.text(r.range(0, 20))],
    [2, () => r.text(r.range(1, 70), `${BASE58}0OIl+/=_-.:`)],
    [
      2,
      () =>
        r.pick(['', ' ', '.', '..', 'a..b', '-a', 'A.near', 'a_', 'test.near.', 'x'.repeat(65), 'ed25519:']),
    ],
    [2, () => r.pick(['ed25519:', 'secp256k1:', 'ed25519:1', `ed25519:${'1'.repeat(44)}`, 'bls:abc'])],
    [
      2,
      () => r.pick(['0', '-1', '1e309', '18446744073709551616', '340282366920938463463374607431768211456']),
    ],
    [
      2,
      () => r.pick(['final', 'optimistic', 'near-final', 'FINAL', 'NONE', 'genesis', 'earliest_available']),
    ],
    [1, () => r.pick(['\u0000', '\uffff', '\ud800', '😀', '%00', '../../etc/passwd', '<script>', '\\', '"'])],
    [1, () => 'x'.repeat(r.pick([1000, 10_000, 70_000]))],
    [1, () => r.text(r.range(1, 100), '=+/AZaz09 \n')],
  ])();
}

export function junkNumber(r: Random): number {
  return r.pick([
    0,
    -1,
    1,
    2 ** 31,
    2 ** 32,
    2 ** 53,
    2 ** 64,
    1e308,
    -1e308,
    0.5,
    -0.0,
    Number.MAX_SAFE_INTEGER,
    r.int(1000),
    r.int(2 ** 31),
  ]);
}

export function junkValue(r: Random, depth = 0): Json {
  const scalar = (): Json =>
    r.weighted<() => Json>([
      [1, () => null],
      [1, () => r.chance(0.5)],
      [3, () => junkNumber(r)],
      [4, () => junkString(r)],
    ])();
  if (depth > 3) return scalar();
  return r.weighted<() => Json>([
    [6, scalar],
    [2, () => Array.from({ length: r.int(4) }, () => junkValue(r, depth + 1))],
    [
      2,
      () => {
        const o: Record<string, Json> = {};
        for (let i = r.int(4); i > 0; i--) o[junkKey(r)] = junkValue(r, depth + 1);
        return o;
      },
    ],
  ])();
}

const KEYS = [
  'finality',
  'block_id',
  'account_id',
  'request_type',
  'method_name',
  'args_base64',
  'prefix_base64',
  'public_key',
  'signed_tx_base64',
  'tx_hash',
  'sender_account_id',
  'wait_until',
  'receipt_id',
  'chunk_id',
  'shard_id',
  'epoch_id',
  'changes_type',
  'account_ids',
  'keys',
  'key_prefix_base64',
  'sync_checkpoint',
  'limit',
  'after_key_base64',
  'include_proof',
  'delta_height',
  'records',
  '__proto__',
  'constructor',
  'toString',
];

export function junkKey(r: Random): string {
  return r.chance(0.7) ? r.pick(KEYS) : junkString(r).slice(0, 40);
}

function clone(v: Json): Json {
  return v === null || typeof v !== 'object' ? v : JSON.parse(JSON.stringify(v));
}

/** All paths to values inside `v` (objects' keys and arrays' indexes). */
function paths(
  v: Json,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (v !== null && typeof v === 'object') {
    for (const [k, child] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
      const p = [...prefix, k];
      out.push(p);
      paths(child as Json, p, out);
    }
  }
  return out;
}

function getAt(v: Json, path: (string | number)[]): Json {
  let cur: Json = v;
  for (const k of path) cur = (cur as Record<string, Json>)[k as string];
  return cur;
}

function setAt(v: Json, path: (string | number)[], value: Json | undefined): void {
  const parent = getAt(v, path.slice(0, -1)) as Record<string, Json> | Json[];
  const key = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else (parent as Record<string, Json>)[key as string] = value;
}

/** A value like `valid` with one to three things broken (or, one time in eight, `valid` itself). */
export function mutate(r: Random, valid: Json): Json {
  if (r.chance(0.125)) return clone(valid);
  let v = clone(valid);
  for (let n = r.range(1, 3); n > 0; n--) {
    const all = paths(v);
    const op = r.int(all.length === 0 ? 2 : 7);
    if (op === 0) v = junkValue(r);
    else if (op === 1 && v !== null && typeof v === 'object' && !Array.isArray(v))
      v[junkKey(r)] = junkValue(r);
    else if (op === 1) v = r.chance(0.5) ? [v] : { params: v };
    else {
      const path = r.pick(all);
      const old = getAt(v, path);
      switch (op) {
        case 2:
          setAt(v, path, undefined);
          break;
        case 3:
          setAt(v, path, junkValue(r));
          break;
        case 4:
          // Same type, different value: a string changed by a character, a number made huge.
          if (typeof old === 'string' && old.length > 0) {
            const i = r.int(old.length);
            setAt(v, path, old.slice(0, i) + r.pick(['', 'x', '!', '1', 'A', '\u00e9']) + old.slice(i + 1));
          } else if (typeof old === 'number') setAt(v, path, junkNumber(r));
          else setAt(v, path, junkValue(r));
          break;
        case 5:
          // A number as a string, a string as a number, a value wrapped in an array.
          setAt(
            v,
            path,
            typeof old === 'string' ? junkNumber(r) : typeof old === 'number' ? String(old) : [old],
          );
          break;
        default:
          setAt(v, path, null);
      }
    }
  }
  return v;
}

/** JSON text nested `depth` levels deep (arrays or objects). */
export function deepJson(r: Random, depth: number): string {
  const open = r.chance(0.5) ? '[' : '{"a":';
  const close = open === '[' ? ']' : '}';
  return open.repeat(depth) + '1' + close.repeat(depth);
}
