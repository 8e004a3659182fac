/**
 * What holds the memory of `shadebox node --memory` after the benchmark's loads (metric 4, "after the run").
 *
 * Starts the built CLI (`shadebox node --memory`) with the V8 inspector on, runs the read, transfer and
 * contract loads of `npm run bench` against it, then reads, through the inspector, `process.memoryUsage()` and
 * V8's heap spaces (the node's isolate and each view worker's, through the NodeWorker domain), and /proc (VmRSS,
 * RssAnon, RssFile, the mappings by kind: glibc's heap and its arenas, stacks, the rest), right after the load and
 * again after `--idle` seconds. The node runs with the node flags and the GLIBC_TUNABLES default of the bin's
 * `sh` line, as the benchmark runs it.
 * With `--snapshot DIR` it also writes a heap snapshot at each point and prints its largest retainers
 * (`bench/heap-summary.ts`).
 *
 *   flock /tmp/bench.lock node --import tsx bench/memory-probe.ts [--duration 5] [--idle 10] [--snapshot DIR] \
 *     [--gc] [--node-flags "<V8 flags>"] [--repo <checkout>]
 *
 * Extra `shadebox node` flags go after `--`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatHeapSummary, summarizeHeapSnapshot } from './heap-summary.js';
import { InspectorClient } from './inspector-client.js';
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

async function report(label: string, pid: number, inspector: InspectorClient): Promise<void> {
  const status = procStatus(pid);
  const usage = (await inspector.main.evaluate(
    `JSON.stringify({ usage: process.memoryUsage(), spaces: require('v8').getHeapSpaceStatistics() })`,
  )) as string | undefined;
  console.log(`\n== ${label}`);
  console.log(
    `VmRSS ${mib(status.VmRSS)} (peak ${mib(status.VmHWM)}): anon ${mib(status.RssAnon)}, file ${mib(status.RssFile)}, threads ${status.Threads}`,
  );
  if (usage === undefined) return;
  const { usage: u, spaces } = JSON.parse(usage) as {
    usage: NodeJS.MemoryUsage;
    spaces: HeapSpace[];
  };
  console.log(
    `main isolate: heapTotal ${mib(u.heapTotal)}, heapUsed ${mib(u.heapUsed)}, external ${mib(u.external)}, arrayBuffers ${mib(u.arrayBuffers)}`,
  );
  console.log(formatSpaces(spaces));
  for (const [sessionId, worker] of inspector.workers) {
    // A worker's `process.memoryUsage()` gives its own isolate's heap; the spaces come from its `v8` module,
    // which an ES module worker reaches through `process.getBuiltinModule` (Node 22) or not at all (then
    // only the totals).
    const text = (await Promise.race([
      worker.evaluate(
        `JSON.stringify({ usage: process.memoryUsage(), spaces: globalThis.process.getBuiltinModule?.('v8')?.getHeapSpaceStatistics() ?? (typeof require === 'function' ? require('v8').getHeapSpaceStatistics() : []) })`,
      ),
      sleep(5000),
    ])) as string | undefined;
    if (text === undefined) {
      console.log(`worker ${sessionId}: no answer`);
      continue;
    }
    const w = JSON.parse(text) as { usage: NodeJS.MemoryUsage; spaces: HeapSpace[] };
    console.log(
      `worker isolate ${sessionId}: heapTotal ${mib(w.usage.heapTotal)}, heapUsed ${mib(w.usage.heapUsed)}, external ${mib(w.usage.external)}, arrayBuffers ${mib(w.usage.arrayBuffers)}`,
    );
    if (w.spaces.length > 0) console.log(formatSpaces(w.spaces));
  }
}

interface HeapSpace {
  space_name: string;
  space_size: number;
  space_used_size: number;
  physical_space_size: number;
}

function formatSpaces(spaces: HeapSpace[]): string {
  return spaces
    .filter((s) => s.space_size > MiB)
    .map(
      (s) =>
        `  ${s.space_name}: ${mib(s.space_used_size)} used of ${mib(s.space_size)} (${mib(s.physical_space_size)} resident)`,
    )
    .join('\n');
}

/**
 * Resident bytes of the process's mappings by kind: file-backed; glibc's main heap (`[heap]`) and its
 * per-thread arenas (a read-write start of a 64 MiB-aligned reservation whose rest is inaccessible); stacks
 * (a read-write mapping right above a one-page guard); the rest of the anonymous ones grouped by size (V8's
 * heap pages, compiled code, Wasm memories' reservations).
 */
function smapsSummary(pid: number): string {
  const maps: { start: number; end: number; perms: string; name: string; rss: number }[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      maps.push({
        start: Number.parseInt(head[1], 16),
        end: Number.parseInt(head[2], 16),
        perms: head[3],
        name: head[4],
        rss: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length > 0) maps[maps.length - 1].rss = Number(rss[1]) * 1024;
  }
  const ARENA = 64 * MiB;
  const groups = new Map<string, { rss: number; count: number }>();
  const details: string[] = [];
  maps.forEach((m, i) => {
    const size = (m.end - m.start) / MiB;
    const next = maps[i + 1];
    const previous = maps[i - 1];
    let kind: string;
    if (m.name.startsWith('/')) kind = 'file';
    else if (m.name !== '') kind = m.name;
    else if (
      m.perms.startsWith('rw') &&
      m.start % ARENA === 0 &&
      next?.start === m.end &&
      next.perms.startsWith('---') &&
      next.end - m.start === ARENA
    )
      kind = 'anon: glibc arenas of threads';
    else if (
      m.perms.startsWith('rw') &&
      previous?.end === m.start &&
      previous.perms.startsWith('---') &&
      previous.end - previous.start === 4096
    )
      kind = 'anon: thread stacks (after a guard page)';
    else if (size >= 1024) kind = 'anon >= 1 GiB (wasm memory reservations)';
    else if (size >= 1) kind = 'anon 1 MiB..1 GiB';
    else kind = 'anon < 1 MiB (V8 heap pages among them)';
    const g = groups.get(kind) ?? { rss: 0, count: 0 };
    g.rss += m.rss;
    g.count++;
    groups.set(kind, g);
    if (m.rss > MiB && kind.startsWith('anon'))
      details.push(`    ${kind}: ${size.toFixed(1)} MiB mapping (${m.perms}), ${mib(m.rss)} resident`);
  });
  return [...groups]
    .sort((a, b) => b[1].rss - a[1].rss)
    .map(([name, g]) => `  ${name.padEnd(48)} ${mib(g.rss).padStart(10)} in ${g.count} mappings`)
    .concat(details)
    .join('\n');
}

installCleanup();
// The benchmark runs the bin by its path, so that its `sh` line applies: the same GLIBC_TUNABLES default and
// node flags are given here to a `node` that also takes the inspector and `--node-flags` (some V8 flags, such as
// `--trace-gc`, are refused in NODE_OPTIONS).
/** `--repo DIR`: the checkout whose built CLI runs (another worktree's, for a before/after). */
const repoRoot = arg('--repo', REPO_ROOT);
const CLI_BIN = join(repoRoot, 'packages', 'cli', 'bin', 'shadebox.js');
const shLine = readFileSync(CLI_BIN, 'utf8').split('\n')[1] ?? '';
const tunables = /GLIBC_TUNABLES-([^}"]*)\}/.exec(shLine)?.[1];
const binFlags = (/exec node (.*?)"\$0"/.exec(shLine)?.[1] ?? '').split(' ').filter((f) => f !== '');
const env: NodeJS.ProcessEnv = { ...process.env, SHADEBOX_LOG: 'warn' };
delete env.NODE_EXTRA_CA_CERTS; // as the sh line does for `shadebox node`
if (tunables !== undefined && env.GLIBC_TUNABLES === undefined) env.GLIBC_TUNABLES = tunables;
const child = spawnTracked(
  process.execPath,
  [
    `--inspect=127.0.0.1:${INSPECTOR_PORT}`,
    ...binFlags,
    ...nodeFlags,
    CLI_BIN,
    'node',
    '--memory',
    ...extraFlags,
    '--rpc-port',
    '0',
    '--json',
  ],
  { cwd: repoRoot, env, keepStdinOpen: true },
);
console.log(
  `node flags: ${[...binFlags, ...nodeFlags].join(' ') || '(none)'}; GLIBC_TUNABLES=${env.GLIBC_TUNABLES ?? '(unset)'}`,
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
  const inspector = await InspectorClient.connect(INSPECTOR_PORT);
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
  console.log(smapsSummary(child.pid));
  if (snapshotDir) {
    const file = join(snapshotDir, 'after-run.heapsnapshot');
    await inspector.main.snapshot(file);
    console.log(formatHeapSummary(summarizeHeapSnapshot(file)));
    await report('after the run, after the snapshot (a full GC)', child.pid, inspector);
  }
  await sleep(idleMs);
  await report(`after ${idleMs / 1000} s idle`, child.pid, inspector);
  console.log(smapsSummary(child.pid));
  if (process.argv.includes('--gc')) {
    await inspector.main.call('HeapProfiler.collectGarbage');
    await sleep(2000);
    await report('after a full GC (HeapProfiler.collectGarbage) and 2 s', child.pid, inspector);
    console.log(smapsSummary(child.pid));
  }
  inspector.close();
} finally {
  await child.stop();
}
