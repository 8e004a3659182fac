/**
 * The LMDB store's memory map: one map however much the file grows, and remaps (closing and reopening the
 * environment) that drop the mapped pages while reads and writes go on, with the same answers.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type KeyValue, type KeyValueStore, WriteBatch } from './key-value-store.js';
import { openLmdbStore } from './lmdb-store.js';
import { openMemoryStore } from './memory-store.js';
import { seededRandom } from './seeded-random.js';

const tempDirs: string[] = [];
after(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** This process's memory maps of `file` (Linux /proc/self/maps). */
function mapsOf(file: string): string[] {
  return readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .filter((line) => line.endsWith(file));
}

describe('LMDB store memory map', () => {
  it('maps data.mdb once while the store grows to 24 MiB (earlier maps would stay in the RSS)', {
    skip: !existsSync('/proc/self/maps') && 'needs /proc/self/maps (Linux)',
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shadebox-store-map-'));
    tempDirs.push(dir);
    const file = join(dir, 'data.mdb');
    const store = openLmdbStore(dir);
    const value = new Uint8Array(64 * 1024);
    for (let round = 0; round < 8; round++) {
      const batch = new WriteBatch();
      for (let i = 0; i < 48; i++) {
        value.fill(round * 48 + i);
        batch.put(1, Uint8Array.of(round, i), value);
      }
      store.commit(batch);
      // Reads go through the map: every page read is then part of the process's RSS.
      assert.equal(store.get(1, Uint8Array.of(round, 47))?.[0], (round * 48 + 47) & 255);
      assert.equal(mapsOf(file).length, 1, `one map of data.mdb after ${round + 1} commits`);
    }
    assert.ok(statSync(file).size >= 24 * 2 ** 20, 'the file grew with the data');
    assert.equal(store.get(1, Uint8Array.of(0, 5))?.[1000], 5);
    await store.close();
  });
});

const hasProc = existsSync('/proc/self/smaps');

/** Every entry of `column` as `key=value` lines (hex), for comparing two stores. */
function dump(store: KeyValueStore, column: number): string[] {
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  return [...store.range(column)].map(({ key, value }: KeyValue) => `${hex(key)}=${hex(value)}`);
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('LMDB store remap', () => {
  it('answers as an in-memory store while it remaps between interleaved reads, scans and commits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shadebox-store-remap-'));
    tempDirs.push(dir);
    const lmdb = openLmdbStore(dir);
    const memory = openMemoryStore();
    const random = seededRandom(17);
    const int = (n: number) => Math.floor(random() * n);
    const key = () => Uint8Array.of(int(64));
    let stop = false;
    const failures: string[] = [];

    // Writer: batches of puts and deletes, committed to both stores.
    const writer = (async () => {
      for (let round = 0; round < 120; round++) {
        const batch = new WriteBatch();
        for (let i = 0; i < 8; i++) {
          if (int(4) === 0) batch.delete(1, key());
          else batch.put(1, key(), new Uint8Array(200 + int(300)).fill(round & 255));
        }
        lmdb.commit(batch);
        memory.commit(batch);
        await tick();
      }
      stop = true;
    })();
    // Point readers: every answer must equal the in-memory store's, whatever the remaps.
    const reader = async () => {
      while (!stop) {
        const k = key();
        const a = lmdb.get(1, k);
        const b = memory.get(1, k);
        if ((a === undefined) !== (b === undefined) || (a && b && Buffer.compare(a, b) !== 0)) {
          failures.push(`get ${k[0]}`);
        }
        if (lmdb.has(1, k) !== memory.has(1, k)) failures.push(`has ${k[0]}`);
        await tick();
      }
    };
    // Scanners: a scan open across awaits keeps its snapshot, and holds off remaps until it ends.
    let refusedWhileScanning = 0;
    const scanner = async () => {
      while (!stop) {
        const expected = dump(memory, 1);
        const seen: string[] = [];
        const iterator = lmdb.range(1)[Symbol.iterator]();
        for (let step = iterator.next(); !step.done; step = iterator.next()) {
          seen.push(
            `${Buffer.from(step.value.key).toString('hex')}=${Buffer.from(step.value.value).toString('hex')}`,
          );
          if (seen.length === 3) {
            if (!lmdb.remap()) refusedWhileScanning++;
            await tick();
          }
        }
        if (seen.join('\n') !== expected.join('\n')) failures.push('scan differs from its snapshot');
        await tick();
      }
    };
    // Remapper: as often as it can.
    const remapper = async () => {
      while (!stop) {
        lmdb.remap();
        await tick();
      }
    };
    await Promise.all([writer, reader(), reader(), scanner(), remapper()]);

    assert.deepEqual(failures, []);
    assert.ok(lmdb.remapCount > 10, `remapped ${lmdb.remapCount} times`);
    assert.ok(refusedWhileScanning > 0, 'a remap was refused while a scan was open');
    assert.deepEqual(dump(lmdb, 1), dump(memory, 1));
    await lmdb.close();
    assert.equal(lmdb.remap(), false, 'a closed store does not remap');
    // Everything committed is on disk: a fresh open reads it.
    const reopened = openLmdbStore(dir);
    assert.deepEqual(dump(reopened, 1), dump(memory, 1));
    await reopened.close();
  });

  it('remaps by itself once the pages it holds mapped pass the budget, and drops them', {
    skip: !hasProc && 'needs /proc/self/smaps (Linux)',
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shadebox-store-budget-'));
    tempDirs.push(dir);
    const budget = 2 * 2 ** 20;
    let remapsSeen = 0;
    const store = openLmdbStore(dir, {
      mapBudgetBytes: budget,
      mapCheckIntervalMs: 20,
      onRemap: () => remapsSeen++,
    });
    const value = new Uint8Array(8000);
    const batch = new WriteBatch();
    for (let i = 0; i < 1024; i++) batch.put(1, Uint8Array.of(i >> 8, i & 255), value.fill(i & 255));
    store.commit(batch);
    // Reading all 8 MiB maps every page of it.
    let bytes = 0;
    for (const { value } of store.range(1)) bytes += value.length;
    assert.equal(bytes, 1024 * 8000);
    assert.equal(store.remapCount, 0);
    const resident = store.residentMapBytes() ?? 0;
    assert.ok(resident > budget, `${resident} bytes mapped after the scan`);
    const deadline = Date.now() + 60_000;
    while (store.remapCount === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(store.remapCount >= 1, 'the store remapped');
    assert.equal(remapsSeen, store.remapCount, 'onRemap heard of every remap of the budget');
    assert.ok((store.residentMapBytes() ?? 0) <= budget, 'the remap dropped the mapped pages');
    assert.equal(store.get(1, Uint8Array.of(3, 255))?.[0], 255);
    await store.close();
  });

  it('never remaps without a budget, nor while the file fits in it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shadebox-store-nobudget-'));
    tempDirs.push(dir);
    const store = openLmdbStore(dir, { mapBudgetBytes: 64 * 2 ** 20, mapCheckIntervalMs: 5 });
    const batch = new WriteBatch();
    for (let i = 0; i < 64; i++) batch.put(1, Uint8Array.of(i), new Uint8Array(1000));
    store.commit(batch);
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(store.remapCount, 0);
    await store.close();
  });
});
