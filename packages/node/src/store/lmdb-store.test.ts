/** The LMDB store's memory map: one map for the store's whole life, however much the file grows. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { WriteBatch } from './key-value-store.js';
import { openLmdbStore } from './lmdb-store.js';

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
