/**
 * What grows in the soak's stack: starts `shadebox up` as `npm run soak` does (bench/soak/stack.ts) with the
 * V8 inspector on, drives the soak's workload (bench/soak/workload.ts), and at each `--at` second of the load
 * reads the live heap of the main thread and of every worker thread after a full collection, and writes a heap
 * snapshot of the main thread (and, with `--workers`, of each worker) to `--dir`. Diff two with
 * `bench/heap-diff.ts`. Every `--every` seconds, without forcing a collection, it prints where the process's
 * anonymous memory is: V8's committed and used heap per thread, and /proc/PID/smaps's anonymous mappings by
 * kind (256 KiB ones are V8 heap pages). The soak's end checks are not run.
 *
 *   nice -n 15 node --conditions=source --import tsx bench/soak-heap.ts --seconds 300 --rate 40 --at 90,270
 *     [--dir /tmp/soak-heap] [--workers]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { InspectorClient, type InspectorTarget } from './inspector-client.js';
import { sleep } from './load.js';
import { readAnonymousMappings, readMemory } from './metrics/memory.js';
import { installCleanup } from './processes.js';
import { PooledRpcClient } from './rpc.js';
import { IntervalRecorder } from './soak/interval-stats.js';
import { SeededRandom } from './soak/random.js';
import { startSoakStack } from './soak/stack.js';
import { prepareWorkload } from './soak/workload.js';

const INSPECTOR_PORT = 9_418;
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    rate: { type: 'string', default: '40' },
    at: { type: 'string', default: '90,270' },
    dir: { type: 'string', default: '/tmp/soak-heap' },
    workers: { type: 'boolean', default: false },
    every: { type: 'string', default: '30' },
  },
});
const durationMs = Number(values.seconds) * 1000;
const rate = Number(values.rate);
const at = values.at === '' ? [] : values.at.split(',').map((s) => Number(s) * 1000);
mkdirSync(values.dir, { recursive: true });
const MiB = 1024 * 1024;
const mib = (b: number) => `${(b / MiB).toFixed(1)} MiB`;

/** Resident anonymous memory by mapping kind: V8's 256 KiB heap pages, malloc's [heap], the rest. */
function anonymousMappings(pid: number): string {
  return [...(readAnonymousMappings(pid) ?? [])]
    .filter(([, g]) => g.rssBytes >= MiB)
    .sort((a, b) => b[1].rssBytes - a[1].rssBytes)
    .map(([k, g]) => `${k} ${mib(g.rssBytes)}/${g.count}`)
    .join(', ');
}

const HEAP_EXPRESSION = `JSON.stringify((() => { const u = process.memoryUsage(); return { used: u.heapUsed, total: u.heapTotal, external: u.external, buffers: u.arrayBuffers }; })())`;

async function heapLine(target: InspectorTarget): Promise<string> {
  const h = JSON.parse(String(await target.evaluate(HEAP_EXPRESSION))) as Record<string, number>;
  return `${target.label} used ${mib(h.used)} of ${mib(h.total)} (ext ${mib(h.external)})`;
}

installCleanup();
process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:${INSPECTOR_PORT}`.trim();
const stack = await startSoakStack();
delete process.env.NODE_OPTIONS;
const client = new PooledRpcClient(stack.rpcUrl, 64);
try {
  const inspector = await InspectorClient.connect(INSPECTOR_PORT);
  const workload = await prepareWorkload(stack, client, new IntervalRecorder(), new SeededRandom(1), 1);
  console.log(
    `soak-heap: pid ${stack.child.pid}, ${durationMs / 1000} s at ${rate}/s, probes at ${values.at} s`,
  );
  const started = performance.now();
  const run = workload.run(durationMs, rate);
  const everyMs = Number(values.every) * 1000;
  const sampler = setInterval(async () => {
    const second = Math.round((performance.now() - started) / 1000);
    const memory = readMemory(stack.child.pid);
    const heaps = [await heapLine(inspector.main)];
    for (const worker of inspector.workers.values()) heaps.push(await heapLine(worker));
    console.log(
      `[${second} s] anon ${mib(memory?.rssAnonBytes ?? Number.NaN)}: ${anonymousMappings(stack.child.pid)} | ${heaps.join(' | ')}`,
    );
  }, everyMs);
  for (const t of at) {
    await sleep(Math.max(0, t - (performance.now() - started)));
    const second = Math.round((performance.now() - started) / 1000);
    const memory = readMemory(stack.child.pid);
    const parts = [`main ${mib(await inspector.main.heapUsedAfterGc())}`];
    for (const worker of inspector.workers.values()) {
      parts.push(`${worker.label} ${mib(await worker.heapUsedAfterGc())}`);
    }
    console.log(
      `[${second} s] rss ${mib(memory?.rssBytes ?? Number.NaN)} (anon ${mib(memory?.rssAnonBytes ?? Number.NaN)}); live heap after a full GC: ${parts.join(', ')}`,
    );
    await inspector.main.snapshot(join(values.dir, `main-${second}.heapsnapshot`));
    if (values.workers) {
      let i = 0;
      for (const worker of inspector.workers.values()) {
        await worker.snapshot(join(values.dir, `worker${i++}-${second}.heapsnapshot`));
      }
    }
    console.log(`[${second} s] snapshots written to ${values.dir}`);
  }
  await run;
  clearInterval(sampler);
  inspector.close();
} finally {
  await stack.child.stop(30_000);
  await client.close();
}
