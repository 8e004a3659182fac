/**
 * What an LMDB store's remap (store/lmdb-store.ts `remap`: close and reopen the environment) costs in native
 * memory. Commits `--blocks` block-like batches (30 records under random 32-byte keys in five columns, one
 * 4 KB record under its height) to a fresh store in a temporary folder, reads the last 20 height records after
 * each, remaps every `--remap-every` blocks (0: never), runs a full collection every `--gc-every` blocks, and
 * prints the resident size of glibc's main heap (`[heap]` in /proc/self/smaps) and RssAnon every `--report`
 * blocks. Run it under the executables' GLIBC_TUNABLES to see what a node sees:
 *
 *   GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=1048576 \
 *     node --expose-gc --import tsx packages/node/src/store/remap-memory.bench.ts \
 *     --blocks 20000 --remap-every 20 --gc-every 80
 *
 * Run under `heaptrack -o FILE node …` (Debian's heaptrack), `heaptrack_print -f FILE.zst --print-leaks 1`
 * names what was never freed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WriteBatch } from './key-value-store.js';
import { openLmdbStore } from './lmdb-store.js';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '20000' },
    'remap-every': { type: 'string', default: '20' },
    'gc-every': { type: 'string', default: '80' },
    report: { type: 'string', default: '4000' },
  },
});
const blocks = Number(values.blocks);
const remapEvery = Number(values['remap-every']);
const gcEvery = Number(values['gc-every']);
const reportEvery = Number(values.report);
const gc = (globalThis as { gc?: () => void }).gc;
if (gcEvery > 0 && !gc) throw new Error('run with node --expose-gc (or --gc-every 0)');

/** KiB resident in glibc's main heap, and the process's RssAnon in KiB. */
function memory(): { heapKiB: number; anonKiB: number } {
  let inHeap = false;
  let heapKiB = 0;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) inHeap = head[1] === '[heap]';
    else if (inHeap && line.startsWith('Rss:')) heapKiB += Number(line.split(/\s+/)[1]);
  }
  const anon = /RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
  return { heapKiB, anonKiB: Number(anon?.[1] ?? Number.NaN) };
}

const dir = mkdtempSync(join(tmpdir(), 'shadebox-remap-memory-'));
const store = openLmdbStore(dir);
const heightKey = (height: number) => {
  const key = new Uint8Array(8);
  new DataView(key.buffer).setUint32(4, height);
  return key;
};
try {
  console.log(`blocks ${blocks}, remap every ${remapEvery || 'never'}, collect every ${gcEvery || 'never'}`);
  for (let height = 0; height < blocks; height++) {
    const batch = new WriteBatch();
    for (let i = 0; i < 30; i++) batch.put(2 + (i % 5), randomBytes(32), randomBytes(200 + ((i * 37) % 800)));
    batch.put(1, heightKey(height), randomBytes(4000));
    store.commit(batch);
    for (let back = 0; back < 20; back++) store.get(1, heightKey(Math.max(0, height - back)));
    if (remapEvery > 0 && height % remapEvery === 0) store.remap();
    if (gcEvery > 0 && height % gcEvery === gcEvery - 1) gc?.();
    // Let lmdb-js's and Node's deferred work run, as a node's event loop does between blocks.
    if (height % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    if (height % reportEvery === reportEvery - 1) {
      const { heapKiB, anonKiB } = memory();
      console.log(
        `${height + 1} blocks: main heap ${(heapKiB / 1024).toFixed(1)} MiB, RssAnon ${(anonKiB / 1024).toFixed(1)} MiB, ${store.remapCount} remaps`,
      );
    }
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
