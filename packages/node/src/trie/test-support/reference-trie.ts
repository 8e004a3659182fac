/**
 * Test helpers: an independent reference trie built as a pure function of the sorted key set (a branch where
 * keys diverge or one ends, an extension over every shared run, a leaf for the rest), a deterministic random
 * generator, and a storage that counts reads. Used by the tests and the bench only.
 */
import { sha256 } from '@shadebox/primitives';
import { encodeNibbles } from '../nibbles.js';
import { emptyChildren, encodeRawNode, type RawTrieNode } from '../raw-node.js';
import { EMPTY_ROOT, type TrieStorage } from '../trie-storage.js';

function nibblesOf(key: Uint8Array): number[] {
  const out: number[] = [];
  for (const b of key) out.push(b >> 4, b & 15);
  return out;
}

interface Built {
  hash: Uint8Array;
  mem: number;
}

/** The root of the trie holding exactly `entries`, computed without the update code. */
export function referenceRoot(entries: Iterable<[Uint8Array, Uint8Array]>): {
  root: Uint8Array;
  mem: number;
} {
  const items = [...entries]
    .sort((a, b) => Buffer.compare(a[0], b[0]))
    .map(([key, value]) => ({ nibbles: nibblesOf(key), value }));
  const node = (raw: RawTrieNode, mem: number): Built => ({ hash: sha256(encodeRawNode(raw, mem)), mem });
  const valueRef = (value: Uint8Array) => ({ length: value.length, hash: sha256(value) });
  const build = (list: typeof items, depth: number): Built => {
    if (list.length === 1) {
      const key = encodeNibbles(list[0].nibbles.slice(depth), true);
      return node(
        { kind: 'leaf', key, value: valueRef(list[0].value) },
        50 + 2 * key.length + 50 + list[0].value.length,
      );
    }
    const first = list[0].nibbles;
    const last = list[list.length - 1].nibbles;
    let common = 0;
    while (
      depth + common < first.length &&
      depth + common < last.length &&
      first[depth + common] === last[depth + common]
    ) {
      common++;
    }
    if (common > 0) {
      const child = buildBranch(list, depth + common);
      const key = encodeNibbles(first.slice(depth, depth + common), false);
      return node({ kind: 'extension', key, child: child.hash }, 50 + 2 * key.length + child.mem);
    }
    return buildBranch(list, depth);
  };
  const buildBranch = (list: typeof items, depth: number): Built => {
    let rest = list;
    let value: Uint8Array | null = null;
    if (list[0].nibbles.length === depth) {
      value = list[0].value;
      rest = list.slice(1);
    }
    const children = emptyChildren();
    let mem = 50 + (value === null ? 0 : 50 + value.length);
    for (let nibble = 0; nibble < 16; nibble++) {
      const group = rest.filter((item) => item.nibbles[depth] === nibble);
      if (group.length === 0) continue;
      const child = build(group, depth + 1);
      children[nibble] = child.hash;
      mem += child.mem;
    }
    return node({ kind: 'branch', children, value: value === null ? null : valueRef(value) }, mem);
  };
  if (items.length === 0) return { root: EMPTY_ROOT, mem: 0 };
  const built = build(items, 0);
  return { root: built.hash, mem: built.mem };
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random bytes of a given length from `random`. */
export function randomBytes(random: () => number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.floor(random() * 256);
  return out;
}

/** Fisher-Yates shuffle in place. */
export function shuffle<T>(random: () => number, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** A storage wrapper that counts `get` calls. */
export class CountingStorage implements TrieStorage {
  reads = 0;
  constructor(readonly inner: TrieStorage) {}
  get(hash: Uint8Array): Uint8Array | undefined {
    this.reads++;
    return this.inner.get(hash);
  }
}
