/**
 * The LMDB store across processes: a writer killed with SIGKILL right after its commits, and a second
 * process reading the same directory while it is open. End-to-end tier: these spawn node processes.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type KeyValueStore, WriteBatch } from './key-value-store.js';
import { openLmdbStore } from './lmdb-store.js';
import { ReadOnlyStoreError } from './store-errors.js';

const tempDirs: string[] = [];
after(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shadebox-store-'));
  tempDirs.push(dir);
  return dir;
}

const b = (...bytes: number[]) => Uint8Array.from(bytes);
const s = (text: string) => new TextEncoder().encode(text);

function commit(store: KeyValueStore, build: (batch: WriteBatch) => void): void {
  const batch = new WriteBatch();
  build(batch);
  store.commit(batch);
}

describe('LMDB store on disk, across processes', () => {
  it('keeps every commit that returned when the writing process is killed right after', async () => {
    const dir = tempDir();
    const child = join(dir, 'writer.mts');
    const storeModule = new URL('./lmdb-store.ts', import.meta.url).href;
    const batchModule = new URL('./key-value-store.ts', import.meta.url).href;
    writeFileSync(
      child,
      `import { openLmdbStore } from ${JSON.stringify(storeModule)};
      import { WriteBatch } from ${JSON.stringify(batchModule)};
      const store = openLmdbStore(process.argv[2]);
      for (let block = 0; block < 20; block++) {
        const batch = new WriteBatch();
        for (let i = 0; i < 200; i++) batch.put(1, Uint8Array.of(block, i), Uint8Array.of(block));
        batch.put(0, new TextEncoder().encode('head'), Uint8Array.of(block));
        store.commit(batch);
      }
      process.kill(process.pid, 'SIGKILL');`,
    );
    const result = spawnSync(process.execPath, [
      '--conditions=source',
      '--import',
      'tsx',
      child,
      join(dir, 'db'),
    ]);
    assert.equal(result.signal, 'SIGKILL', result.stderr.toString());
    const store = openLmdbStore(join(dir, 'db'));
    assert.deepEqual(store.get(0, s('head')), b(19));
    assert.equal([...store.range(1)].length, 20 * 200);
    await store.close();
  });

  it('can be read by another process while open, and read-only opens cannot commit', async () => {
    const dir = tempDir();
    const store = openLmdbStore(dir);
    commit(store, (batch) => batch.put(5, s('shared'), s('visible')));
    // A separate process opens the same directory read-only with plain lmdb-js and reads the raw entry.
    const lmdbEntry = createRequire(import.meta.url).resolve('lmdb');
    const script = `
      const { open } = require(${JSON.stringify(lmdbEntry)});
      const db = open({ path: process.argv[1], readOnly: true, keyEncoding: 'binary', encoding: 'binary' });
      const value = db.getBinary(Buffer.concat([Buffer.of(5), Buffer.from('shared')]));
      process.stdout.write(value ? Buffer.from(value).toString() : 'missing');
      db.close();`;
    const output = execFileSync(process.execPath, ['-e', script, dir], { encoding: 'utf8' });
    assert.equal(output, 'visible');
    const reader = openLmdbStore(dir, { readOnly: true });
    assert.deepEqual(reader.get(5, s('shared')), s('visible'));
    assert.throws(() => commit(reader, (batch) => batch.put(5, s('x'), s('y'))), ReadOnlyStoreError);
    await reader.close();
    await store.close();
  });
});
