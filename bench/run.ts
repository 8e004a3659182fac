/**
 * `npm run bench`: Shadebox and anvil side by side, printed as a table with issue 37's targets met or missed and
 * written as JSON to bench/results/. See bench/README.md.
 *
 * Each server runs alone in its own process while it is measured (first Shadebox, then anvil, each through
 * every load phase on one process), so the two never compete for the cores; the load generator runs here.
 */
import { readdirSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { type AnvilServer, locateAnvil, startAnvil } from './anvil.js';
import type { LoadSettings, ViewResult } from './load.js';
import { measureAgent } from './metrics/agent.js';
import * as calls from './metrics/calls.js';
import { measureColdStarts } from './metrics/cold-start.js';
import { bareNodeIdle, idleMemory } from './metrics/memory.js';
import { measureNearSandboxStart } from './metrics/near-sandbox.js';
import * as reads from './metrics/reads.js';
import * as transfers from './metrics/transfers.js';
import * as viewsFt from './metrics/views-ft.js';
import * as viewsHello from './metrics/views-hello.js';
import * as viewsKv from './metrics/views-kv.js';
import { type BenchOptions, type Phase, parseOptions, SERVER_PHASES, USAGE } from './options.js';
import { readMemory } from './proc.js';
import { installCleanup, killAllChildren } from './processes.js';
import {
  formatProfileSummary,
  type ProfileSummary,
  sliceProfile,
  summarizeProfile,
} from './profile-summary.js';
import {
  type BenchReport,
  formatTable,
  judgeTargets,
  type Outcome,
  ok,
  type Results,
  serverEnvironment,
  writeReport,
} from './report.js';
import {
  ensureFreshBundle,
  staleBuilds as findStaleBuilds,
  LAUNCHER_DESCRIPTIONS,
  REPO_ROOT,
  type ShadeboxServer,
  startShadebox,
} from './shadebox-node.js';

const progress = (message: string) => console.error(`[bench] ${message}`);

/** Runs `fn` with the 1-minute load average noted on its result; a failure becomes `{ error }`. */
async function attempt<T extends object>(what: string, fn: () => Promise<T>): Promise<Outcome<T>> {
  const loadAverage = loadavg()[0];
  try {
    return { ...(await fn()), loadAverage };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    progress(`${what} failed: ${message}`);
    return { error: message };
  }
}

/** A load metric measured on both servers: its module's `shadebox` and `anvil`, and where it goes in Results. */
interface ServerMetric {
  phase: Phase;
  key: 'read' | 'transfers' | 'calls' | 'viewsKv' | 'viewsFt' | 'viewsHello';
  title: string;
  shadebox(server: ShadeboxServer, load: LoadSettings): Promise<object>;
  anvil(server: AnvilServer, load: LoadSettings): Promise<object>;
}

const SERVER_METRICS: ServerMetric[] = [
  { phase: 'read', key: 'read', title: 'reads', ...reads },
  { phase: 'transfers', key: 'transfers', title: 'transfers to final', ...transfers },
  { phase: 'contracts', key: 'calls', title: 'contract calls to final', ...calls },
  { phase: 'contracts', key: 'viewsKv', title: 'views of the WAT kv contract (32,768 keys)', ...viewsKv },
  { phase: 'ft', key: 'viewsFt', title: 'ft_balance_of | balanceOf over 1,000 holders', ...viewsFt },
  { phase: 'hello', key: 'viewsHello', title: 'getValueByKey | SLOAD over 1,000 keys', ...viewsHello },
];

/** Every load metric of the run on one server, then its RSS; the idle RSS first. */
async function onServer(
  side: 'shadebox' | 'anvil',
  server: ShadeboxServer | AnvilServer,
  options: BenchOptions,
  results: Results,
): Promise<void> {
  const load = {
    concurrency: options.concurrency,
    warmupMs: options.warmupMs,
    durationMs: options.durationMs,
  };
  results.memoryIdle ??= {};
  results.memoryIdle[side] = await attempt(`${side} idle memory`, () =>
    idleMemory(server.rpcUrl, server.pid, side === 'shadebox' ? 'status' : 'eth_chainId'),
  );
  for (const m of SERVER_METRICS) {
    if (!options.phases.has(m.phase)) continue;
    progress(`${side}: ${m.title}`);
    const run =
      side === 'shadebox'
        ? () => m.shadebox(server as ShadeboxServer, load)
        : () => m.anvil(server as AnvilServer, load);
    results[m.key] ??= {};
    (results[m.key] as Record<string, unknown>)[side] = await attempt(`${side} ${m.title}`, run);
  }
  const fullRun = SERVER_PHASES.every((p) => options.phases.has(p));
  results.memoryAfter ??= { fullRun };
  results.memoryAfter[side] = readMemory(server.pid) ?? { error: `cannot read /proc/${server.pid}/status` };
}

/** The server's profiles (one per thread) cut to each view window and summarized: the view path alone. */
function viewProfiles(dir: string, pid: number, since: number, results: Results): ProfileSummary[] {
  const summaries: ProfileSummary[] = [];
  const files = readdirSync(dir)
    .filter((n) => n.startsWith('CPU.') && n.includes(`.${pid}.`) && n.endsWith('.cpuprofile'))
    .map((n) => join(dir, n))
    .filter((f) => statSync(f).mtimeMs >= since);
  const windows: [string, Outcome<ViewResult> | undefined][] = [
    ['views-kv', results.viewsKv?.shadebox],
    ['views-ft', results.viewsFt?.shadebox],
    ['views-hello', results.viewsHello?.shadebox],
  ];
  for (const [label, outcome] of windows) {
    const v = ok(outcome);
    if (!v) continue;
    for (const file of files) {
      const cut = sliceProfile(file, v.window.startMonotonicUs, v.window.endMonotonicUs, label);
      if (!cut) continue;
      const summary = summarizeProfile(cut, REPO_ROOT, 25);
      if (summary.projectByTotal.length > 0) summaries.push({ ...summary, label: `the ${label} window` });
    }
  }
  return summaries;
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  installCleanup();
  const started = new Date();
  const t0 = performance.now();
  const loadAverageAtStart = loadavg()[0];
  const anvil = options.anvil ? locateAnvil() : ({ ok: false, reason: 'disabled with --no-anvil' } as const);
  progress(
    anvil.ok
      ? `anvil ${anvil.version} at ${anvil.path} (${anvil.how})`
      : `anvil unavailable: ${anvil.reason}`,
  );
  const staleBuilds = options.launcher === 'cli' ? findStaleBuilds() : [];
  if (options.launcher === 'cli' && (await ensureFreshBundle()))
    progress('the bundles were older than the build: bundled again');

  const results: Results = {};
  const profiles: ProfileSummary[] = [];
  const finish = (abortedAtDeadline: boolean) => {
    const report: BenchReport = {
      startedAt: started.toISOString(),
      elapsedMs: Math.round(performance.now() - t0),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        node: process.versions.node,
        loadAverageAtStart,
        loadAverageAtEnd: loadavg()[0],
      },
      settings: {
        concurrency: options.concurrency,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
        coldRuns: options.coldStartRuns,
        launcher: LAUNCHER_DESCRIPTIONS[options.launcher],
        anvil: anvil.ok
          ? `${anvil.version} (${relative(REPO_ROOT, anvil.path)})`
          : `unavailable: ${anvil.reason}`,
        staleBuilds,
        serverEnvironment: serverEnvironment(),
      },
      ...(abortedAtDeadline ? { abortedAtDeadlineMs: options.deadlineMs } : {}),
      results,
      targets: judgeTargets(results),
      profiles,
    };
    const paths = writeReport(options.outDir, report);
    console.log(formatTable(report));
    for (const p of profiles) console.log(`\n${formatProfileSummary(p)}`);
    console.log(
      `\nJSON: ${relative(process.cwd(), paths.latest)} (and ${relative(process.cwd(), paths.stamped)})`,
    );
    return report;
  };
  const deadline = setTimeout(() => {
    console.error(`bench: still running after ${options.deadlineMs / 1000} s, aborting`);
    killAllChildren();
    finish(true);
    process.exit(1);
  }, options.deadlineMs);

  if (options.phases.has('cold')) {
    progress(
      `cold starts: node -e 0, Shadebox${anvil.ok ? ', anvil' : ''}, x${options.coldStartRuns} interleaved`,
    );
    results.cold = await measureColdStarts(
      options.launcher,
      anvil.ok ? anvil.path : undefined,
      options.coldStartRuns,
    );
  }
  if (SERVER_PHASES.some((p) => options.phases.has(p))) {
    progress('a bare Node process idle');
    results.memoryIdle = { bareNode: await attempt('bare Node idle', bareNodeIdle) };
    const since = Date.now();
    let pid: number | undefined;
    try {
      const server = await startShadebox({ launcher: options.launcher, cpuProfileDir: options.profileDir });
      pid = server.pid;
      progress(`Shadebox: pid ${server.pid} at ${server.rpcUrl}`);
      try {
        await onServer('shadebox', server, options, results);
      } finally {
        await server.stop();
      }
    } catch (error) {
      progress(`Shadebox server failed: ${(error as Error).message}`);
    }
    if (options.profileDir && pid !== undefined)
      profiles.push(...viewProfiles(options.profileDir, pid, since, results));
    if (anvil.ok) {
      try {
        const server = await startAnvil({
          path: anvil.path,
          accounts: options.concurrency,
          quietRequests: true,
        });
        progress(`anvil: pid ${server.pid} at ${server.rpcUrl}`);
        try {
          await onServer('anvil', server, options, results);
        } finally {
          await server.stop();
        }
      } catch (error) {
        progress(`anvil server failed: ${(error as Error).message}`);
      }
    }
  }
  if (options.phases.has('sandbox')) {
    progress('near-sandbox init + run to GET /status x10, each after two node -e 0');
    results.sandbox = await attempt('near-sandbox start', () => measureNearSandboxStart(10));
  }
  if (options.phases.has('agent')) {
    const since = Date.now();
    const load = {
      concurrency: options.concurrency,
      warmupMs: options.warmupMs,
      durationMs: options.durationMs,
    };
    results.agent = await attempt('agent API', () =>
      measureAgent(options.launcher, load, options.profileDir, progress),
    );
    if (options.profileDir) {
      for (const f of readdirSync(options.profileDir)) {
        const file = join(options.profileDir, f);
        if (!f.startsWith('CPU.') || statSync(file).mtimeMs < since) continue;
        const summary = summarizeProfile(file, REPO_ROOT);
        if (summary.projectByTotal.length > 0) profiles.push({ ...summary, label: 'the agent stack' });
      }
    }
  }
  clearTimeout(deadline);
  const report = finish(false);
  // Exit 1 when a measurement failed (a target missed is a result, not a failure).
  return JSON.stringify(report.results).includes('"error":') ? 1 : 0;
}

main().then(
  (code) => {
    killAllChildren();
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('bench failed:', error);
    killAllChildren();
    process.exitCode = 1;
  },
);
