/**
 * Byte layout of `VersionedState` entries.
 *
 * Store key of a version: `group(stateKey) ‖ invertedHeight`.
 *
 * `group(k)`: the state key in groups of 8 bytes, each followed by a marker byte; the last group is padded
 * with zero bytes and its marker is `0xFF - padding` (0xF7..0xFE), full groups that are not the last have
 * marker 0xFF (a key whose length is a multiple of 8 ends with an all-padding group, marker 0xF7). This is the
 * "memcomparable" byte-string encoding: it is
 *  - order-preserving: `group(a) < group(b)` exactly when `a < b` (byte order, shorter prefix first), and
 *  - prefix-free: no `group(a)` is a proper prefix of `group(b)`,
 * so every key's versions are contiguous and sorted by key, whatever bytes the keys contain (`alice` and
 * `alice.near`, keys containing 0x00 or 0xFF, a key whose tail looks like another key's height suffix). It
 * grows a key by 1/8 plus at most 9 bytes (escaping 0x00 as two bytes would double a key of zero bytes), which
 * keeps a NEAR contract-data key (2 KiB plus the account id) well inside the store's key limit: state keys of
 * up to `MAX_STATE_KEY_LENGTH` (3,543) bytes fit.
 *
 * `invertedHeight`: `MAX_HEIGHT - height` as 8 bytes big-endian, so a key's versions run from the newest to
 * the oldest and the newest version at or below `h` is the first entry at or after
 * `group(k) ‖ invertedHeight(h)`: one seek.
 *
 * Value of a version: `0x01 ‖ value`, or the single byte `0x00` for a deletion (tombstone), so an empty
 * value (`0x01`) and a deletion stay distinct.
 */

import { MAX_KEY_LENGTH } from '../store/key-value-store.js';
import { scratchBytes } from '../store/scratch-bytes.js';
import { StoreCorruptionError } from '../store/store-errors.js';

/** Highest block height that can be stored. */
export const MAX_HEIGHT = Number.MAX_SAFE_INTEGER;

/** Length of the height suffix of a version key. */
export const HEIGHT_BYTES = 8;

const GROUP = 8;
const BLOCK = GROUP + 1;
const FULL_MARKER = 0xff;

/** Longest state key whose version keys fit in the store's `MAX_KEY_LENGTH` (3,543 bytes). */
export const MAX_STATE_KEY_LENGTH = Math.floor((MAX_KEY_LENGTH - HEIGHT_BYTES) / BLOCK) * GROUP - 1;

export const TAG_DELETED = 0x00;
export const TAG_VALUE = 0x01;

/** Length of `group(key)` for a state key of `length` bytes. */
export function groupedLength(length: number): number {
  return (Math.floor(length / GROUP) + 1) * BLOCK;
}

/** Writes `group(key)` into `out` at `offset`; returns the offset after it. */
export function writeGrouped(key: Uint8Array, out: Uint8Array, offset: number): number {
  const n = key.length;
  let o = offset;
  let i = 0;
  for (; i + GROUP <= n; i += GROUP) {
    for (let j = 0; j < GROUP; j++) out[o++] = key[i + j];
    out[o++] = FULL_MARKER;
  }
  const rest = n - i;
  for (let j = 0; j < rest; j++) out[o++] = key[i + j];
  for (let j = rest; j < GROUP; j++) out[o++] = 0;
  out[o++] = FULL_MARKER - (GROUP - rest);
  return o;
}

/** Reads the state key back from `grouped` (the bytes of `group(key)`, possibly followed by more bytes). */
export function readGrouped(grouped: Uint8Array, length: number = grouped.length): Uint8Array {
  const bytes: number[] = [];
  for (let o = 0; o + BLOCK <= length; o += BLOCK) {
    const marker = grouped[o + GROUP];
    if (marker === FULL_MARKER) {
      for (let j = 0; j < GROUP; j++) bytes.push(grouped[o + j]);
      continue;
    }
    const used = GROUP - (FULL_MARKER - marker);
    if (used < 0) break;
    for (let j = 0; j < used; j++) bytes.push(grouped[o + j]);
    if (o + BLOCK !== length) break;
    return Uint8Array.from(bytes);
  }
  throw new StoreCorruptionError('malformed state key in a version entry');
}

/** Writes `MAX_HEIGHT - height` as 8 bytes big-endian into `out` at `offset`. */
export function writeInvertedHeight(height: number, out: Uint8Array, offset: number): void {
  const x = MAX_HEIGHT - height;
  const hi = Math.floor(x / 0x1_0000_0000);
  const lo = x >>> 0;
  out[offset] = hi >>> 24;
  out[offset + 1] = (hi >>> 16) & 0xff;
  out[offset + 2] = (hi >>> 8) & 0xff;
  out[offset + 3] = hi & 0xff;
  out[offset + 4] = lo >>> 24;
  out[offset + 5] = (lo >>> 16) & 0xff;
  out[offset + 6] = (lo >>> 8) & 0xff;
  out[offset + 7] = lo & 0xff;
}

/** Reads the height from the 8 bytes at `offset` written by `writeInvertedHeight`. */
export function readInvertedHeight(bytes: Uint8Array, offset: number): number {
  const hi =
    ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0;
  const lo =
    ((bytes[offset + 4] << 24) | (bytes[offset + 5] << 16) | (bytes[offset + 6] << 8) | bytes[offset + 7]) >>>
    0;
  return MAX_HEIGHT - (hi * 0x1_0000_0000 + lo);
}

/**
 * Store key of the version of `key` written at `height`: `group(key) ‖ invertedHeight(height)`. Like the
 * other bound builders below, the result may share its ArrayBuffer (see `scratchBytes`): it is meant for
 * the store's bounds, which the store copies.
 */
export function versionKey(key: Uint8Array, height: number): Uint8Array {
  const out = scratchBytes(groupedLength(key.length) + HEIGHT_BYTES);
  writeInvertedHeight(height, out, writeGrouped(key, out, 0));
  return out;
}

/**
 * Store key just past every version of `key`: `group(key) ‖ invertedHeight(-1)`. Nothing else lies between a
 * key's versions and this bound, since `group` is prefix-free.
 */
export function pastVersionsKey(key: Uint8Array): Uint8Array {
  const out = scratchBytes(groupedLength(key.length) + HEIGHT_BYTES);
  writeInvertedHeight(-1, out, writeGrouped(key, out, 0));
  return out;
}

/**
 * Smallest store key of any version of any state key starting with `prefix`: the full groups of `prefix`
 * followed by its remaining bytes unpadded. Every version key of such a state key starts with these bytes.
 * (The converse does not hold: a shorter key whose zero padding matches the rest of `prefix` also starts with
 * them, so scans still check each key.)
 */
export function prefixLowerBound(prefix: Uint8Array): Uint8Array {
  const full = Math.floor(prefix.length / GROUP);
  const rest = prefix.length - full * GROUP;
  const out = scratchBytes(full * BLOCK + rest);
  let o = 0;
  for (let g = 0; g < full; g++) {
    for (let j = 0; j < GROUP; j++) out[o++] = prefix[g * GROUP + j];
    out[o++] = FULL_MARKER;
  }
  for (let j = 0; j < rest; j++) out[o++] = prefix[full * GROUP + j];
  return out;
}

/** The smallest byte string greater than every string starting with `bytes`, or undefined if none. */
export function prefixSuccessor(bytes: Uint8Array): Uint8Array | undefined {
  let n = bytes.length;
  while (n > 0 && bytes[n - 1] === 0xff) n--;
  if (n === 0) return undefined;
  const out = scratchBytes(n);
  out.set(bytes.subarray(0, n));
  out[n - 1]++;
  return out;
}

/** The value of a stored version, or null for a deletion. Returns a view of `stored` (no copy). */
export function decodeVersionValue(stored: Uint8Array): Uint8Array | null {
  const tag = stored[0];
  if (tag === TAG_VALUE) return stored.subarray(1);
  if (tag === TAG_DELETED && stored.length === 1) return null;
  throw new StoreCorruptionError('malformed state version value');
}

/** Whether `a[0..length)` equals `b[0..length)`. */
export function equalPrefix(a: Uint8Array, b: Uint8Array, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Byte-order comparison (unsigned, shorter prefix first). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
