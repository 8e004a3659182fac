/**
 * Micro-benchmark of the storage layer, for the LMDB and the memory store:
 *   node --conditions=source --import tsx packages/node/src/state/store.bench.ts [--keys 100000]
 *
 * State: 100k keys (account-like, 20..40 bytes, 100-byte values), each written at 4 heights spread over
 * 20,000 blocks (400k versions). Reads: `VersionedState.get` at the head and 10,000 blocks back, random keys.
 * Writes: commits of 1,000-put batches (raw `KeyValueStore` puts, and `VersionedState.write` of 1,000
 * changes), each LMDB commit durable (fsync) before it returns. Each figure is the median of 5 rounds, with
 * the best round beside it. Options: `--keys N`, `--only lmdb|memory`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KeyValueStore, WriteBatch } from '../store/key-value-store.js';
import { openLmdbStore } from '../store/lmdb-store.js';
import { openMemoryStore } from '../store/memory-store.js';
import { seededRandom as random } from '../store/seeded-random.js';
import { VersionedState } from './versioned-state.js';

const KEYS = Number(argument('--keys') ?? 100_000);
const HEAD = 20_000;
const VERSIONS = 4;
const STATE = 1;
/** Reads per round. */
const READS = 20_000;
const RAW = 2;

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Deterministic pseudo-random numbers (mulberry32). */

interface Rate {
  median: number;
  best: number;
}

/**
 * Runs `fn` in `rounds` rounds of `ops` calls (after a warm-up round) and returns the median and the best
 * round's operations per second (the machine may be shared: the best round shows the code's own speed).
 */
function measure(ops: number, fn: (i: number) => void, rounds = 5): Rate {
  for (let i = 0; i < ops; i++) fn(i);
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) fn(r * ops + i);
    rates.push(ops / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  rates.sort((x, y) => x - y);
  return { median: rates[rates.length >> 1], best: rates[rates.length - 1] };
}

function format(rate: Rate, unit: string): string {
  const n = (x: number) => Math.round(x).toLocaleString('en-US').padStart(10);
  return `${n(rate.median)} ${unit} (best round ${n(rate.best).trim()})`;
}

function stateKey(i: number): Uint8Array {
  return new TextEncoder().encode(`\u0000account-${(i * 2654435761) % 1_000_000_007}.near`);
}

/** Height of version `j` of key `i`: spread over [0, HEAD] so reads 10,000 back hit older versions. */
function versionHeight(i: number, j: number): number {
  return j * (HEAD / VERSIONS) + (i % (HEAD / VERSIONS));
}

async function run(kind: 'lmdb' | 'memory'): Promise<void> {
  const dir = kind === 'lmdb' ? mkdtempSync(join(tmpdir(), 'shadebox-bench-')) : undefined;
  const store: KeyValueStore = dir !== undefined ? openLmdbStore(dir) : openMemoryStore();
  const state = new VersionedState(store, STATE);
  const keys = Array.from({ length: KEYS }, (_, i) => stateKey(i));
  const value = new Uint8Array(100).fill(0x5a);
  /** Version `j` of every key: 100 bytes of `j + 1`. */
  const versionValues = Array.from({ length: VERSIONS }, (_, j) => new Uint8Array(100).fill(j + 1));

  const loadStart = process.hrtime.bigint();
  for (let j = 0; j < VERSIONS; j++) {
    for (let first = 0; first < KEYS; first += 50_000) {
      const batch = new WriteBatch();
      for (let i = first; i < Math.min(KEYS, first + 50_000); i++) {
        state.write(batch, versionHeight(i, j), [[keys[i], versionValues[j]]]);
      }
      store.commit(batch);
    }
  }
  const loadSeconds = Number(process.hrtime.bigint() - loadStart) / 1e9;
  print(`${kind}: loaded ${KEYS * VERSIONS} versions of ${KEYS} keys in ${loadSeconds.toFixed(1)} s`);

  const next = random(1);
  const order = Array.from({ length: KEYS }, () => Math.floor(next() * KEYS));
  let found = 0;
  const atHead = measure(READS, (i) => {
    if (state.get(keys[order[i % KEYS]], HEAD) !== undefined) found++;
  });
  const back = measure(READS, (i) => {
    if (state.get(keys[order[i % KEYS]], HEAD - 10_000) !== undefined) found++;
  });
  if (found === 0) throw new Error('benchmark read nothing');
  for (let i = 0; i < KEYS; i += 97) {
    for (const height of [HEAD, HEAD - 10_000]) {
      let j = VERSIONS - 1;
      while (versionHeight(i, j) > height) j--;
      if (state.get(keys[i], height)?.[0] !== j + 1)
        throw new Error(`wrong version of key ${i} at ${height}`);
    }
  }

  // Raw point reads of the store, as a baseline for the versioned reads.
  const rawBatch = new WriteBatch();
  for (let i = 0; i < KEYS; i++) rawBatch.put(RAW, keys[i], value);
  store.commit(rawBatch);
  const rawGet = measure(READS, (i) => {
    store.get(RAW, keys[order[i % KEYS]]);
  });

  // Pages of 100 keys (all keys share the prefix), starting after a random key, at random past heights.
  const prefix = new TextEncoder().encode('\u0000account-');
  const sorted = [...keys].sort(Buffer.compare);
  let scanned = 0;
  const scan = measure(200, (i) => {
    const after = sorted[order[i % KEYS] % (KEYS - 100)];
    for (const _ of state.scan(prefix, HEAD - (i % 10_000), { after, limit: 100 })) scanned++;
  });
  if (scanned !== 200 * 6 * 100) throw new Error(`scan pages were short: ${scanned}`);

  let height = HEAD;
  const commits = kind === 'lmdb' ? 20 : 50;
  const rawCommit = measure(commits, () => {
    const batch = new WriteBatch();
    for (let i = 0; i < 1000; i++) batch.put(RAW, keys[Math.floor(next() * KEYS)], value);
    store.commit(batch);
  });
  const stateCommit = measure(commits, () => {
    height++;
    const batch = new WriteBatch();
    const changes: [Uint8Array, Uint8Array][] = [];
    for (let i = 0; i < 1000; i++) changes.push([keys[Math.floor(next() * KEYS)], value]);
    state.write(batch, height, changes);
    store.commit(batch);
  });

  print(`${kind}: VersionedState.get at head              ${format(atHead, 'ops/s')}`);
  print(`${kind}: VersionedState.get 10,000 blocks back   ${format(back, 'ops/s')}`);
  print(`${kind}: KeyValueStore.get (raw, baseline)       ${format(rawGet, 'ops/s')}`);
  print(`${kind}: VersionedState.scan of 100 keys         ${format(scan, 'scans/s')}`);
  print(`${kind}: commit of 1,000 raw puts                ${format(rawCommit, 'commits/s')}`);
  print(`${kind}: commit of 1,000 VersionedState writes   ${format(stateCommit, 'commits/s')}`);

  await store.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}

print(`node ${process.version}, ${KEYS} keys x ${VERSIONS} versions, head ${HEAD}`);
for (const kind of ['memory', 'lmdb'] as const)
  if (!argument('--only') || argument('--only') === kind) await run(kind);
