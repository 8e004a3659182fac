/**
 * Micro-benchmark of the state trie:
 *   node --conditions=source --import tsx packages/node/src/trie/trie.bench.ts [--keys 10000,100000]
 *
 * For each size: builds the trie of N keys (nearcore-shaped: a column byte, an account id, contract-data
 * suffixes; 100-byte values) from the empty root in one batch (inserts/s, the root included), applies 1,000-change
 * chunks (half updates of existing keys, a quarter new keys, a quarter deletes) on top of it (changes/s, each with
 * its new root), looks keys up (lookups/s, with the nodes on their path) and builds view_state proofs of an
 * account's data. Median of 5 rounds, the best beside it.
 */
import { seededRandom } from './test-support/reference-trie.js';
import { prefixProof } from './trie-iterator.js';
import { keyPath } from './trie-lookup.js';
import { EMPTY_ROOT, MemoryTrieStorage } from './trie-storage.js';
import { applyTrieChanges, type TrieChange } from './trie-update.js';

const SIZES = (argument('--keys') ?? '10000,100000').split(',').map(Number);
const BATCH = 1_000;

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function keysOf(count: number, random: () => number): Uint8Array[] {
  const keys: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < count; i++) {
    const account = encoder.encode(`account-${Math.floor(random() * count)}-${i}.near`);
    const column = i % 4 === 0 ? 0 : 9;
    const suffix = column === 9 ? encoder.encode(`,k${Math.floor(random() * 1e9)}`) : new Uint8Array();
    const key = new Uint8Array(1 + account.length + suffix.length);
    key[0] = column;
    key.set(account, 1);
    key.set(suffix, 1 + account.length);
    keys.push(key);
  }
  return keys;
}

function value(random: () => number): Uint8Array {
  const out = new Uint8Array(100);
  for (let i = 0; i < out.length; i++) out[i] = (random() * 256) | 0;
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function rounds(count: number, fn: () => number): { median: number; best: number } {
  fn();
  const rates: number[] = [];
  for (let i = 0; i < count; i++) rates.push(fn());
  return { median: median(rates), best: Math.max(...rates) };
}

function rate(ops: number, fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return ops / (Number(process.hrtime.bigint() - start) / 1e9);
}

const fmt = (r: { median: number; best: number }, unit: string) =>
  `${Math.round(r.median).toLocaleString('en')} ${unit} (best ${Math.round(r.best).toLocaleString('en')})`;

for (const size of SIZES) {
  const random = seededRandom(size);
  const keys = keysOf(size, random);
  const initial: TrieChange[] = keys.map((key) => ({ key, value: value(random) }));

  let storage = new MemoryTrieStorage();
  let root = EMPTY_ROOT;
  const build = rounds(5, () => {
    storage = new MemoryTrieStorage();
    return rate(size, () => {
      const result = applyTrieChanges(storage, EMPTY_ROOT, initial);
      storage.apply(result);
      root = result.newRoot;
    });
  });
  print(
    `trie ${size.toLocaleString('en')} keys: build from empty, root included: ${fmt(build, 'inserts/s')}`,
  );

  const extra = keysOf(size, seededRandom(size + 1));
  let next = 0;
  const chunk = rounds(5, () => {
    const changes: TrieChange[] = [];
    for (let i = 0; i < BATCH; i++) {
      const roll = random();
      const existing = keys[Math.floor(random() * keys.length)];
      if (roll < 0.5) changes.push({ key: existing, value: value(random) });
      else if (roll < 0.75) changes.push({ key: extra[next++ % extra.length], value: value(random) });
      else changes.push({ key: existing, value: null });
    }
    return rate(BATCH, () => {
      const result = applyTrieChanges(storage, root, changes);
      storage.apply(result);
      root = result.newRoot;
    });
  });
  print(
    `trie ${size.toLocaleString('en')} keys: ${BATCH}-change chunks with their root: ${fmt(chunk, 'changes/s')}`,
  );

  const lookups = rounds(5, () =>
    rate(10_000, () => {
      for (let i = 0; i < 10_000; i++) keyPath(storage, root, keys[Math.floor(random() * keys.length)]);
    }),
  );
  print(`trie ${size.toLocaleString('en')} keys: lookups with their path: ${fmt(lookups, 'lookups/s')}`);

  const proofs = rounds(5, () =>
    rate(1_000, () => {
      for (let i = 0; i < 1_000; i++) {
        const key = keys[Math.floor(random() * keys.length)];
        const comma = key.indexOf(0x2c);
        prefixProof(storage, root, comma > 0 ? key.subarray(0, comma + 1) : key);
      }
    }),
  );
  print(`trie ${size.toLocaleString('en')} keys: view_state proofs: ${fmt(proofs, 'proofs/s')}`);
}
