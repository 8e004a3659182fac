/**
 * `npm run bench`: Shadebox and anvil side by side — reads/s, transfers/s to final, cold start and RSS —
 * printed as a table and written as JSON to bench/results/. See bench/README.md.
 *
 * Each server runs alone in its own process while it is measured (first Shadebox, then anvil), so the two
 * never compete for the machine's cores; the load generator runs here, in the benchmark process.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { locateAnvil, startAnvil } from './anvil.js';
import { sleep } from './load.js';
import { AGENT_DEFAULTS, measureAgent } from './metrics/agent.js';
import { CHAINSIG_DEFAULTS, measureChainSignatures } from './metrics/chainsig.js';
import { measureAnvilColdStart, measureShadeboxColdStart } from './metrics/cold-start.js';
import {
  measureAnvilContracts,
  measureShadeboxContracts,
  VIEW_BODIES,
  VIEW_WORKLOAD,
} from './metrics/contracts.js';
import { HISTORY_DEFAULTS, measureHistoricalReads } from './metrics/history.js';
import { readMemory } from './metrics/memory.js';
import { measureNearSandboxStart } from './metrics/near-sandbox-start.js';
import { measureNoopNodeServer } from './metrics/noop-baseline.js';
import { measureNpmInstall } from './metrics/npm-install.js';
import { getBalanceBody, measureReadThroughput, viewAccountBody } from './metrics/read-throughput.js';
import { measureRestart } from './metrics/restart.js';
import { measureStoreSize } from './metrics/store-size.js';
import { measureAnvilTransfers, measureShadeboxTransfers } from './metrics/transfers.js';
import { type BenchOptions, type Phase, parseOptions, USAGE } from './options.js';
import { compareRatios, fullServerRun, readPreviousRatios } from './previous-ratios.js';
import { installCleanup, killAllChildren } from './processes.js';
import {
  formatProfileSummary,
  type ProfileSummary,
  sliceProfile,
  summarizeProfile,
} from './profile-summary.js';
import {
  type BenchReport,
  computeRatios,
  formatTable,
  issue17TargetsMet,
  ok,
  type ServerResults,
  serverEnvironment,
  TARGETS,
  targetsMet,
  writeReport,
} from './report.js';
import { PooledRpcClient, probeOnce } from './rpc.js';
import {
  ensureFreshBundle,
  staleBuilds as findStaleBuilds,
  LAUNCHER_DESCRIPTIONS,
  REPO_ROOT,
  startShadebox,
} from './shadebox-node.js';

/** The benchmark process's semi-space (MiB), when its command line sets one (package.json's `bench` script). */
const LOAD_GENERATOR_SEMI_SPACE = process.execArgv
  .find((flag) => flag.startsWith('--max-semi-space-size='))
  ?.split('=')[1];

const LOAD_GENERATOR =
  'closed loop in the benchmark process, one request in flight per keep-alive connection: raw sockets for ' +
  'reads and view calls (raw-http.ts), an undici Pool for transfers and contract calls; ' +
  'the server is a separate process; both share the same cores; ' +
  (LOAD_GENERATOR_SEMI_SPACE !== undefined
    ? `the benchmark process runs with a ${LOAD_GENERATOR_SEMI_SPACE} MiB semi-space, so that its own scavenges, ` +
      'each a pause of every request in flight, are rare'
    : "the benchmark process runs with V8's default semi-space (npm run bench sets 64 MiB): its own scavenges " +
      "pause every request in flight and add to both servers' latency tails");

function progress(message: string): void {
  console.error(`[bench] ${message}`);
}

/** Runs `fn`, turning a failure into `{ error }` so one metric cannot sink the others. */
async function attempt<T>(what: string, fn: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await fn();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    progress(`${what} failed: ${message}`);
    return { error: message };
  }
}

const SERVER_PHASES: readonly Phase[] = ['read', 'transfers', 'contracts'];

/** Whether a phase needs a running server (cold starts spawn their own). */
function serverPhases(options: BenchOptions): boolean {
  return SERVER_PHASES.some((p) => options.phases.has(p));
}

async function benchShadebox(options: BenchOptions, results: ServerResults): Promise<ProfileSummary[]> {
  if (options.launcher === 'cli' && (await ensureFreshBundle()))
    progress('Shadebox: the bundles were older than the build: bundled again');
  const load = {
    concurrency: options.concurrency,
    warmupMs: options.warmupMs,
    durationMs: options.durationMs,
  };
  if (options.phases.has('cold')) {
    progress(`Shadebox: cold start x${options.coldStartRuns}`);
    results.coldStart = await attempt('Shadebox cold start', () =>
      measureShadeboxColdStart(options.launcher, options.coldStartRuns),
    );
    if (options.launcher === 'cli') {
      // tsx compiles on the fly: each start takes seconds, so at most 5.
      const runs = Math.min(5, options.coldStartRuns);
      progress(`Shadebox: cold start from sources x${runs}`);
      results.coldStartFromSource = await attempt('Shadebox cold start from sources', () =>
        measureShadeboxColdStart('cli-source', runs),
      );
    }
  }
  if (!serverPhases(options)) return [];

  const profileStart = Date.now();
  const server = await startShadebox({ launcher: options.launcher, cpuProfileDir: options.profileDir });
  progress(`Shadebox: server pid ${server.pid} at ${server.rpcUrl}`);
  try {
    results.memoryIdle = await attempt('Shadebox idle memory', () =>
      idleMemory(server.rpcUrl, server.pid, 'status'),
    );
    if (options.phases.has('read')) {
      progress(`Shadebox: view_account at ${options.concurrency} connections`);
      const accountId = server.account?.accountId ?? 'test.near';
      results.read = await attempt('Shadebox reads', () =>
        measureReadThroughput(server.rpcUrl, server.pid, viewAccountBody(accountId), load),
      );
    }
    if (options.phases.has('transfers')) {
      progress(`Shadebox: creating ${options.concurrency} signers, then transfers to FINAL`);
      const account = server.account;
      results.transfers = account
        ? await attempt('Shadebox transfers', () =>
            measureShadeboxTransfers(server.rpcUrl, server.pid, account, load),
          )
        : { error: 'the ready line gave no genesis account key' };
    }
    if (options.phases.has('contracts')) {
      progress(
        `Shadebox: near-hello deployed, setValue to FINAL from ${options.concurrency} signers, then kv.test.near filled and get views over ${VIEW_BODIES} distinct requests`,
      );
      const account = server.account;
      const contracts = account
        ? await attempt('Shadebox contracts', () =>
            measureShadeboxContracts(server.rpcUrl, server.pid, account, load),
          )
        : { error: 'the ready line gave no genesis account key' };
      if ('error' in contracts) results.contractCalls = results.viewCalls = contracts;
      else ({ calls: results.contractCalls, views: results.viewCalls } = contracts);
    }
    results.memoryAfterRun = readMemory(server.pid) ?? { error: `cannot read /proc/${server.pid}/status` };
  } finally {
    await server.stop();
  }
  const profiles = collectProfiles(options.profileDir, profileStart);
  const views = ok(results.viewCalls);
  if (options.profileDir && views) {
    profiles.push(...viewWindowProfiles(options.profileDir, server.pid, profileStart, views.window));
  }
  return profiles;
}

/**
 * The server's profiles (one per thread) cut to the view-call window, written as `view-window.<name>` beside
 * them and summarized: the view path alone, without start-up, setup, reads, transfers and calls.
 */
function viewWindowProfiles(
  dir: string,
  pid: number,
  since: number,
  window: { startMonotonicUs: number; endMonotonicUs: number },
): ProfileSummary[] {
  const summaries: ProfileSummary[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.startsWith('CPU.') || !name.includes(`.${pid}.`) || !name.endsWith('.cpuprofile')) continue;
    const file = join(dir, name);
    if (statSync(file).mtimeMs < since) continue;
    const cut = sliceProfile(file, window.startMonotonicUs, window.endMonotonicUs, 'view-window');
    if (!cut) continue;
    const summary = summarizeProfile(cut, REPO_ROOT);
    if (summary.projectByTotal.length > 0) summaries.push({ ...summary, label: 'the view-call window' });
  }
  return summaries;
}

/** Idle time before the idle RSS is read: start-up work (timers, lazy loading) is over by then. */
const IDLE_MS = 2000;

/** RSS of a server that has answered one request (`method`) and then sat idle for `IDLE_MS`. */
async function idleMemory(rpcUrl: string, pid: number, method: string) {
  await probeOnce(rpcUrl, method, []);
  await sleep(IDLE_MS);
  const reading = readMemory(pid);
  if (!reading) throw new Error(`cannot read /proc/${pid}/status`);
  return { ...reading, afterMs: IDLE_MS };
}

/** Summaries of the CPU profiles written into `dir` since `since` (Date.now()); none without --profile. */
function collectProfiles(dir: string | undefined, since: number): ProfileSummary[] {
  if (!dir) return [];
  const profiles = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).mtimeMs >= since);
  // --cpu-prof writes one profile per thread; keep those of threads that ran project code (not tsx's loader).
  return profiles.map((f) => summarizeProfile(f, REPO_ROOT)).filter((p) => p.projectByTotal.length > 0);
}

/**
 * Chain signatures (Shadebox only, anvil has no equivalent), on its own `shadebox node --memory --mpc`:
 * request_signature to EXECUTED, one at a time, then from several agents at once.
 */
async function benchShadeboxChainsig(
  options: BenchOptions,
  results: ServerResults,
): Promise<ProfileSummary[]> {
  if (!options.phases.has('chainsig')) return [];
  const profileStart = Date.now();
  const d = CHAINSIG_DEFAULTS;
  progress(
    `Shadebox: --mpc node, request_signature to EXECUTED: ${d.warmup} + ${d.requests} one at a time, then ${d.agents} agents x (${d.warmupPerAgent} + ${d.requestsPerAgent})`,
  );
  results.chainSignatures = await attempt('Shadebox chain signatures', () =>
    measureChainSignatures(options.launcher, d, options.profileDir),
  );
  // The same against NEAR's production signer, beside it (SHADEBOX_BENCH_SIGNER_WASM, default signer 3.13.0
  // from the shared corpus, when present).
  const signerWasm =
    process.env.SHADEBOX_BENCH_SIGNER_WASM ??
    join(REPO_ROOT, '..', 'shared', 'corpus', 'mpc', 'signer-3_13_0.wasm');
  if (existsSync(signerWasm)) {
    progress(`Shadebox: --mpc --signer-wasm ${signerWasm}, the same requests`);
    results.chainSignaturesProduction = await attempt('Shadebox chain signatures (production signer)', () =>
      measureChainSignatures(options.launcher, d, options.profileDir, signerWasm),
    );
  }
  return collectProfiles(options.profileDir, profileStart);
}

/**
 * The agent API of `shadebox up` (Shadebox only): spawn to agent-ready, then on one more stack (profiled with
 * --profile) getAccountId requests/s and request_signature latency through /call.
 */
async function benchShadeboxAgent(options: BenchOptions, results: ServerResults): Promise<ProfileSummary[]> {
  if (!options.phases.has('agent')) return [];
  const profileStart = Date.now();
  results.agent = await attempt('Shadebox agent API', () =>
    measureAgent(
      options.launcher,
      {
        concurrency: options.concurrency,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
        cpuProfileDir: options.profileDir,
      },
      AGENT_DEFAULTS,
      progress,
    ),
  );
  return collectProfiles(options.profileDir, profileStart);
}

/**
 * The opt-in Shadebox-only metrics, each on its own archival node with an LMDB home (anvil has no
 * equivalent): historical reads, store growth per 10,000 transfers, restart with 100,000 blocks.
 */
async function benchShadeboxArchival(options: BenchOptions, results: ServerResults): Promise<void> {
  if (options.phases.has('history')) {
    progress(
      `Shadebox: archival chain of > ${HISTORY_DEFAULTS.depth} blocks, then view_account at head − ${HISTORY_DEFAULTS.depth} vs head`,
    );
    results.history = await attempt('Shadebox historical reads', () =>
      measureHistoricalReads(options.launcher, {
        ...HISTORY_DEFAULTS,
        concurrency: options.concurrency,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
      }),
    );
  }
  if (options.phases.has('store-size')) {
    progress('Shadebox: archival store size before and after 10,000 transfers');
    results.storeSize = await attempt('Shadebox store size', () =>
      measureStoreSize(options.launcher, {
        transfers: 10_000,
        signers: options.concurrency,
        timeoutMs: 300_000,
      }),
    );
  }
  if (options.phases.has('sandbox')) {
    if (await ensureFreshBundle())
      progress('near-sandbox: the bundles were older than the build: bundled again');
    progress('Shadebox: near-sandbox init + run to the first GET /status x10');
    results.nearSandboxStart = await attempt('near-sandbox start', () => measureNearSandboxStart(10));
  }
  if (options.phases.has('install')) {
    progress('Shadebox: npm install in a fresh clone of HEAD');
    results.npmInstall = await attempt('npm install on a fresh clone', () => measureNpmInstall());
  }
  if (options.phases.has('restart')) {
    progress('Shadebox: restart of an archival home with 100,000 blocks (built first when missing)');
    results.restart = await attempt('Shadebox restart', () =>
      measureRestart(options.launcher, { blocks: 100_000, runs: 3, progress }),
    );
  }
}

async function benchAnvil(options: BenchOptions, path: string, results: ServerResults): Promise<void> {
  const load = {
    concurrency: options.concurrency,
    warmupMs: options.warmupMs,
    durationMs: options.durationMs,
  };
  if (options.phases.has('cold')) {
    progress(`anvil: cold start x${options.coldStartRuns}`);
    results.coldStart = await attempt('anvil cold start', () =>
      measureAnvilColdStart(path, options.concurrency, options.coldStartRuns),
    );
  }
  if (!serverPhases(options)) return;
  const server = await startAnvil({ path, accounts: options.concurrency, quietRequests: true });
  progress(`anvil: server pid ${server.pid} at ${server.rpcUrl}`);
  try {
    results.memoryIdle = await attempt('anvil idle memory', () =>
      idleMemory(server.rpcUrl, server.pid, 'eth_chainId'),
    );
    if (options.phases.has('read')) {
      progress(`anvil: eth_getBalance at ${options.concurrency} connections`);
      results.read = await attempt('anvil reads', async () => {
        const client = new PooledRpcClient(server.rpcUrl, 1);
        const [address] = await client.call<string[]>('eth_accounts', []);
        await client.close();
        return measureReadThroughput(server.rpcUrl, server.pid, getBalanceBody(address), load);
      });
    }
    if (options.phases.has('transfers')) {
      progress('anvil: eth_sendTransaction + receipt');
      results.transfers = await attempt('anvil transfers', () =>
        measureAnvilTransfers(server.rpcUrl, server.pid, load),
      );
    }
    if (options.phases.has('contracts')) {
      progress('anvil: storage contract deployed, eth_sendTransaction + receipt, then eth_call');
      const contracts = await attempt('anvil contracts', () =>
        measureAnvilContracts(server.rpcUrl, server.pid, load),
      );
      if ('error' in contracts) results.contractCalls = results.viewCalls = contracts;
      else ({ calls: results.contractCalls, views: results.viewCalls } = contracts);
    }
    results.memoryAfterRun = readMemory(server.pid) ?? { error: `cannot read /proc/${server.pid}/status` };
  } finally {
    await server.stop();
  }
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
  const anvil = options.anvil ? locateAnvil() : ({ ok: false, reason: 'disabled with --no-anvil' } as const);
  if (anvil.ok) progress(`anvil ${anvil.version} at ${anvil.path} (${anvil.how})`);
  else progress(`anvil unavailable: ${anvil.reason}`);

  const loadAverageAtStart = loadavg()[0];
  const staleBuilds = options.launcher === 'cli' ? findStaleBuilds() : [];
  if (staleBuilds.length > 0) progress(`warning: dist/ older than src/ in ${staleBuilds.join(', ')}`);
  let noopNodeServer: BenchReport['noopNodeServer'];
  if (options.phases.has('read')) {
    progress('baseline: the same reads against a no-op Node HTTP server');
    noopNodeServer = await attempt('no-op server baseline', () =>
      measureNoopNodeServer({
        concurrency: options.concurrency,
        warmupMs: Math.min(options.warmupMs, 500),
        durationMs: Math.min(options.durationMs, 3000),
      }),
    );
  }

  const shadebox: ServerResults = {};
  const anvilResults: ServerResults = {};
  const profiles: ProfileSummary[] = [];

  /** Builds, writes and prints the report of what was measured (all of it, or what the deadline left). */
  const finish = (abortedAtDeadline: boolean) => {
    const cpu = cpus();
    // Read before this run writes its own report into the folder.
    const previousRatios = readPreviousRatios(options.outDir, VIEW_WORKLOAD);
    const ratios = computeRatios(shadebox, anvilResults);
    const ratioChanges = compareRatios(ratios, previousRatios, TARGETS.ratioNoise, fullServerRun(shadebox));
    const report: BenchReport = {
      startedAt: started.toISOString(),
      elapsedMs: Math.round(performance.now() - t0),
      machine: {
        cpus: cpu.length,
        cpuModel: cpu[0]?.model ?? 'unknown',
        totalMemoryBytes: totalmem(),
        node: process.versions.node,
        platform: `${process.platform}-${process.arch}`,
        loadAverageAtStart,
      },
      settings: {
        concurrency: options.concurrency,
        warmupMs: options.warmupMs,
        durationMs: options.durationMs,
        coldStartRuns: options.coldStartRuns,
        shadeboxLauncher: LAUNCHER_DESCRIPTIONS[options.launcher],
        staleBuilds,
        loadGenerator: LOAD_GENERATOR,
        serverEnvironment: serverEnvironment(),
      },
      anvil: anvil.ok
        ? {
            available: true,
            version: anvil.version,
            path: relative(REPO_ROOT, anvil.path),
            locatedBy: anvil.how,
          }
        : { available: false, reason: anvil.reason },
      noopNodeServer,
      shadebox,
      anvilResults,
      ...(abortedAtDeadline ? { abortedAtDeadlineMs: options.deadlineMs } : {}),
      ratios,
      previousRatios,
      ratioChanges,
      targets: {
        ...TARGETS,
        met: { ...targetsMet(shadebox), ...issue17TargetsMet(shadebox, anvilResults, ratios, ratioChanges) },
      },
      profiles,
    };
    const paths = writeReport(options.outDir, report);
    console.log(formatTable(report));
    for (const p of profiles) console.log(`\n${formatProfileSummary(p)}`);
    console.log(
      `\nJSON: ${relative(process.cwd(), paths.latest)} (and ${relative(process.cwd(), paths.stamped)})`,
    );
  };

  const deadline = setTimeout(() => {
    console.error(`bench: still running after ${options.deadlineMs / 1000} s, aborting`);
    killAllChildren();
    // What was measured so far still makes a report (the metrics not reached show "not run").
    finish(true);
    process.exit(1);
  }, options.deadlineMs);

  // The metrics measured on both sides first (Shadebox, then anvil, each alone), then the Shadebox-only
  // ones, so that a run stopped by its deadline still holds the comparisons.
  try {
    profiles.push(...(await benchShadebox(options, shadebox)));
  } catch (error) {
    progress(`Shadebox server failed: ${(error as Error).message}`);
    shadebox.read ??= { error: (error as Error).message };
  }
  if (anvil.ok) {
    try {
      await benchAnvil(options, anvil.path, anvilResults);
    } catch (error) {
      progress(`anvil server failed: ${(error as Error).message}`);
      anvilResults.read ??= { error: (error as Error).message };
    }
  }
  try {
    profiles.push(...(await benchShadeboxChainsig(options, shadebox)));
    profiles.push(...(await benchShadeboxAgent(options, shadebox)));
    await benchShadeboxArchival(options, shadebox);
  } catch (error) {
    progress(`Shadebox-only phases failed: ${(error as Error).message}`);
  }

  finish(false);
  clearTimeout(deadline);
  const failed = [
    shadebox.coldStart,
    shadebox.read,
    shadebox.transfers,
    shadebox.contractCalls,
    shadebox.viewCalls,
    shadebox.chainSignatures,
    ok(shadebox.chainSignatures)?.sequential,
    ok(shadebox.chainSignatures)?.concurrent,
    shadebox.chainSignaturesProduction,
    ok(shadebox.chainSignaturesProduction)?.sequential,
    ok(shadebox.chainSignaturesProduction)?.concurrent,
    shadebox.agent,
    ok(shadebox.agent)?.up,
    ok(shadebox.agent)?.getAccountId,
    ok(shadebox.agent)?.requestSignature,
    shadebox.history,
    shadebox.storeSize,
    shadebox.restart,
    shadebox.nearSandboxStart,
    shadebox.npmInstall,
  ].some((r) => r && 'error' in r);
  return failed ? 1 : 0;
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
