/**
 * What holds the memory of `shadebox node --memory` after the benchmark's loads (metric 4, "after the run").
 *
 * Starts the built CLI (`shadebox node --memory`) with the V8 inspector on, runs the read, transfer and
 * contract loads of `npm run bench` against it, then reads, through the inspector, `process.memoryUsage()` and
 * V8's heap spaces, and /proc (VmRSS, RssAnon, RssFile), right after the load and again after `--idle` seconds.
 * With `--snapshot DIR` it also writes a heap snapshot at each point and prints its largest retainers
 * (`bench/heap-summary.ts`).
 *
 *   flock /tmp/bench.lock node --import tsx bench/memory-probe.ts [--duration 5] [--idle 10] [--snapshot DIR]
 *
 * Extra `shadebox node` flags go after `--`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { formatHeapSummary, summarizeHeapSnapshot } from './heap-summary.js';
import { sleep } from './load.js';
import { measureShadeboxContracts } from './metrics/contracts.js';
import { measureReadThroughput, viewAccountBody } from './metrics/read-throughput.js';
import { measureShadeboxTransfers } from './metrics/transfers.js';
import { installCleanup, spawnTracked } from './processes.js';
import { parseReadyLine, REPO_ROOT } from './shadebox-node.js';

const INSPECTOR_PORT = 9_417;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const durationMs = Number(arg('--duration', '5')) * 1000;
const idleMs = Number(arg('--idle', '10')) * 1000;
const snapshotDir = process.argv.includes('--snapshot') ? arg('--snapshot', '/tmp') : undefined;
const only = new Set(arg('--only', 'read,transfers,contracts').split(','));
const dashDash = process.argv.indexOf('--');
const extraFlags = dashDash >= 0 ? process.argv.slice(dashDash + 1) : [];
/** V8/Node flags for the node process (`--node-flags "--optimize-for-size --heap-growing-percent=50"`). */
const nodeFlags = arg('--node-flags', '')
  .split(' ')
  .filter((f) => f !== '');

class Inspector {
  #id = 0;
  readonly #pending = new Map<number, (value: unknown) => void>();
  #chunks: string[] = [];
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as {
        id?: number;
        method?: string;
        params?: { chunk: string };
        result?: unknown;
        error?: unknown;
      };
      if (message.method === 'HeapProfiler.addHeapSnapshotChunk') this.#chunks.push(message.params!.chunk);
      if (message.id !== undefined) this.#pending.get(message.id)?.(message.error ?? message.result);
    });
  }

  static async connect(port: number): Promise<Inspector> {
    const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    const socket = new WebSocket(list[0].webSocketDebuggerUrl, { perMessageDeflate: false });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new Inspector(socket);
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.#id;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  async evaluate(expression: string): Promise<unknown> {
    const result = (await this.call('Runtime.evaluate', {
      expression,
      returnByValue: true,
      includeCommandLineAPI: true,
    })) as { result?: { value?: unknown } };
    return result.result?.value;
  }

  async snapshot(file: string): Promise<void> {
    this.#chunks = [];
    await this.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    writeFileSync(file, this.#chunks.join(''));
    this.#chunks = [];
  }
}

const MiB = 1024 * 1024;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

function procStatus(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const m = /^(VmRSS|VmHWM|RssAnon|RssFile|RssShmem|Threads):\s+(\d+)/.exec(line);
    if (m) out[m[1]] = m[1] === 'Threads' ? Number(m[2]) : Number(m[2]) * 1024;
  }
  return out;
}

async function report(label: string, pid: number, inspector: Inspector): Promise<void> {
  const status = procStatus(pid);
  const usage = (await inspector.evaluate(
    `JSON.stringify({ usage: process.memoryUsage(), spaces: require('v8').getHeapSpaceStatistics() })`,
  )) as string | undefined;
  console.log(`\n== ${label}`);
  console.log(
    `VmRSS ${mib(status.VmRSS)} (peak ${mib(status.VmHWM)}): anon ${mib(status.RssAnon)}, file ${mib(status.RssFile)}, threads ${status.Threads}`,
  );
  if (usage === undefined) return;
  const { usage: u, spaces } = JSON.parse(usage) as {
    usage: NodeJS.MemoryUsage;
    spaces: { space_name: string; space_size: number; space_used_size: number }[];
  };
  console.log(
    `main isolate: heapTotal ${mib(u.heapTotal)}, heapUsed ${mib(u.heapUsed)}, external ${mib(u.external)}, arrayBuffers ${mib(u.arrayBuffers)}`,
  );
  console.log(
    spaces
      .filter((s) => s.space_size > MiB)
      .map((s) => `  ${s.space_name}: ${mib(s.space_used_size)} used of ${mib(s.space_size)}`)
      .join('\n'),
  );
}

/** Resident bytes of the process's mappings by kind: file-backed, and anonymous ones grouped by their size. */
function smapsSummary(pid: number): string {
  const groups = new Map<string, { rss: number; count: number }>();
  const details: string[] = [];
  let current = '';
  let currentSize = 0;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const size = (Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16)) / MiB;
      const name = head[3];
      currentSize = size;
      current = name
        ? name.startsWith('/')
          ? 'file'
          : name
        : size >= 1024
          ? 'anon >= 1 GiB (wasm memory reservations)'
          : size >= 60
            ? 'anon 60 MiB..1 GiB (malloc arenas of threads, wasm)'
            : size >= 1
              ? 'anon 1..60 MiB'
              : 'anon < 1 MiB';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current === 'anon 1..60 MiB' && Number(rss[1]) > 1024)
      details.push(`    ${currentSize.toFixed(1)} MiB mapping: ${mib(Number(rss[1]) * 1024)} resident`);
    if (rss) {
      const g = groups.get(current) ?? { rss: 0, count: 0 };
      g.rss += Number(rss[1]) * 1024;
      g.count++;
      groups.set(current, g);
    }
  }
  return [...groups]
    .sort((a, b) => b[1].rss - a[1].rss)
    .map(([name, g]) => `  ${name.padEnd(48)} ${mib(g.rss).padStart(10)} in ${g.count} mappings`)
    .concat(details)
    .join('\n');
}

installCleanup();
const child = spawnTracked(
  process.execPath,
  [
    `--inspect=127.0.0.1:${INSPECTOR_PORT}`,
    ...nodeFlags,
    join(REPO_ROOT, 'packages', 'cli', 'bin', 'shadebox.js'),
    'node',
    '--memory',
    ...extraFlags,
    '--rpc-port',
    '0',
    '--json',
  ],
  { cwd: REPO_ROOT, env: { ...process.env, SHADEBOX_LOG: 'warn' }, keepStdinOpen: true },
);
/** With `--node-flags --trace-gc`: V8's full collections (Mark-Compact) by cause, with their pauses. */
const markCompacts = { ours: 0, oursMs: 0, v8: 0, v8Ms: 0 };
child.child.stdout?.on('data', (data: Buffer) => {
  for (const line of String(data).split('\n')) {
    const m = /Mark-Compact .*?MB, ([\d.]+) \/ [\d.]+ ms/.exec(line);
    if (!m) continue;
    // `gc()` (the heap trim's full collection) is reported with the reason "testing".
    if (line.includes('testing')) {
      markCompacts.ours++;
      markCompacts.oursMs += Number(m[1]);
    } else {
      markCompacts.v8++;
      markCompacts.v8Ms += Number(m[1]);
    }
  }
});
try {
  const { value: ready } = await child.waitForLine(parseReadyLine, 60_000);
  const inspector = await Inspector.connect(INSPECTOR_PORT);
  const account = ready.account!;
  await report('idle, after start', child.pid, inspector);
  const load = { concurrency: 32, warmupMs: 1000, durationMs };
  if (only.has('read')) {
    await measureReadThroughput(ready.rpcUrl, child.pid, viewAccountBody(account.accountId), load);
  }
  if (only.has('transfers')) {
    const t = await measureShadeboxTransfers(ready.rpcUrl, child.pid, account, load);
    console.log(`transfers: ${JSON.stringify(t).slice(0, 300)}`);
  }
  if (only.has('contracts')) {
    const c = await measureShadeboxContracts(ready.rpcUrl, child.pid, account, load);
    console.log(`contracts: ${JSON.stringify(c).slice(0, 300)}`);
  }
  const status = (await (
    await fetch(ready.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: [] }),
    })
  ).json()) as { result: { sync_info: { latest_block_height: number } } };
  console.log(`head height after the run: ${status.result.sync_info.latest_block_height}`);
  if (nodeFlags.includes('--trace-gc')) {
    console.log(
      `full collections during the run: ${markCompacts.ours} by gc() (${markCompacts.oursMs.toFixed(0)} ms of pauses), ${markCompacts.v8} by V8 (${markCompacts.v8Ms.toFixed(0)} ms)`,
    );
  }
  await report('after the run (what the bench reads)', child.pid, inspector);
  if (snapshotDir) {
    const file = join(snapshotDir, 'after-run.heapsnapshot');
    await inspector.snapshot(file);
    console.log(formatHeapSummary(summarizeHeapSnapshot(file)));
    await report('after the run, after the snapshot (a full GC)', child.pid, inspector);
  }
  await sleep(idleMs);
  await report(`after ${idleMs / 1000} s idle`, child.pid, inspector);
  console.log(smapsSummary(child.pid));
  if (process.argv.includes('--gc')) {
    await inspector.call('HeapProfiler.collectGarbage');
    await sleep(2000);
    await report('after a full GC (HeapProfiler.collectGarbage) and 2 s', child.pid, inspector);
    console.log(smapsSummary(child.pid));
  }
  inspector.socket.close();
} finally {
  await child.stop();
}
