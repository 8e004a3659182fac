/**
 * The benchmark's result: one JSON document (written to bench/results/latest.json and a timestamped copy)
 * and the side-by-side table printed on stdout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from './load.js';
import type { AgentResult } from './metrics/agent.js';
import type { ChainsigResult } from './metrics/chainsig.js';
import type { ColdStartResult } from './metrics/cold-start.js';
import type { ContractResults } from './metrics/contracts.js';
import { cpuUse } from './metrics/cpu.js';
import type { HistoryResult } from './metrics/history.js';
import type { MemoryReading } from './metrics/memory.js';
import type { NearSandboxStartResult } from './metrics/near-sandbox-start.js';
import type { NpmInstallResult } from './metrics/npm-install.js';
import type { RestartResult } from './metrics/restart.js';
import type { StoreSizeResult } from './metrics/store-size.js';
import type { TransferResult } from './metrics/transfers.js';
import {
  fullServerRun,
  type PreviousRatio,
  type RatioChange,
  type RatioName,
  type Ratios,
} from './previous-ratios.js';
import type { ProfileSummary } from './profile-summary.js';

/** What one server achieved; a metric that could not be measured holds its error instead. */
export interface ServerResults {
  coldStart?: ColdStartResult | { error: string };
  /** Shadebox only, with the `cli` launcher: cold start of the same CLI running from sources (tsx). */
  coldStartFromSource?: ColdStartResult | { error: string };
  read?: LoadResult | { error: string };
  transfers?: TransferResult | { error: string };
  /** Contract calls to final: near-hello `setValue` | a storage contract's store (`contracts` phase). */
  contractCalls?: ContractResults['calls'];
  /** View calls: a storage read keyed by the request, over distinct requests (`contracts` phase). */
  viewCalls?: ContractResults['views'];
  /**
   * Shadebox only (`chainsig` phase, its own `--mpc` node): request_signature to EXECUTED, one at a time and
   * from several agents at once.
   */
  chainSignatures?: ChainsigResult | { error: string };
  /** The same against NEAR's production signer build (`--signer-wasm`), when the corpus has it. */
  chainSignaturesProduction?: ChainsigResult | { error: string };
  /**
   * Shadebox only (`agent` phase, `shadebox up` stacks): spawn to agent-ready, agent API getAccountId
   * requests/s, request_signature through /call one at a time.
   */
  agent?: AgentResult | { error: string };
  /** After the read, transfer and contract runs, same process. */
  memoryAfterRun?: MemoryReading | { error: string };
  /** The same process idle before any load: `afterMs` after its first answer (2 s). */
  memoryIdle?: (MemoryReading & { afterMs: number }) | { error: string };
  /** Shadebox only (opt-in `install` phase): `npm install` in a fresh clone of HEAD. */
  npmInstall?: NpmInstallResult | { error: string };
  /** Shadebox only (opt-in, archival LMDB home): view_account at head − 10,000 against the head. */
  history?: HistoryResult | { error: string };
  /** Shadebox only (opt-in, archival LMDB home): store growth over 10,000 transfers. */
  storeSize?: StoreSizeResult | { error: string };
  /** Shadebox only (opt-in, archival LMDB home of 100,000 blocks): restart to ready. */
  restart?: RestartResult | { error: string };
  /** Shadebox only (opt-in `sandbox` phase): `near-sandbox` init + run to the first answered GET /status. */
  nearSandboxStart?: NearSandboxStartResult | { error: string };
}

export const TARGETS = {
  readPerSecond: 15_000,
  transfersPerSecond: 500,
  contractCallsPerSecond: 300,
  viewCallsPerSecond: 5000,
  /** Median ms from spawn to the ready line (an earlier target; issue 17's is `coldStartFirstAnswerMs`). */
  coldStartMs: 1000,
  /** Issue 17: median ms from spawn to the first answered JSON-RPC request (the built package). */
  coldStartFirstAnswerMs: 200,
  /** Median ms of `near-sandbox` init + run to the first answered GET /status (issue 17; was 500). */
  nearSandboxStartMs: 200,
  /** Issue 17: view calls/s over anvil's eth_call on the same workload, with p99 no worse than anvil's. */
  viewCallsRatio: 1,
  /** Issue 17: RSS of the idle node (the larger of just started and 2 s after start), bytes. */
  rssIdleBytes: 50 * 1024 * 1024,
  /** Issue 17: RSS of the node after the read, transfer and contract runs, bytes. */
  rssAfterRunBytes: 150 * 1024 * 1024,
  /** Issue 17: `npm install` on a fresh clone (opt-in `install` phase), ms. */
  npmInstallMs: 30_000,
  /** Issue 17: a ratio that moved the wrong way by more than this share since the previous run is flagged. */
  ratioNoise: 0.1,
  /** Median ms of one request_signature to EXECUTED, sequential on an idle automine chain. */
  chainSignatureMedianMs: 100,
  /** Historical view_account req/s over head req/s. */
  historicalReadRatio: 0.8,
  /** Median ms from spawning `shadebox up --memory` to its agent-ready line. */
  agentUpMs: 1500,
  /** Agent API `POST /getAccountId` req/s at the read concurrency (32 keep-alive connections). */
  agentGetAccountIdPerSecond: 10_000,
  /** Median ms of one request_signature through the agent API's /call, one at a time. */
  agentSignatureMedianMs: 100,
} as const;

export interface BenchReport {
  startedAt: string;
  elapsedMs: number;
  machine: {
    cpus: number;
    cpuModel: string;
    totalMemoryBytes: number;
    node: string;
    platform: string;
    /** 1-minute load average when the run started: above ~0.5, other work shared the cores. */
    loadAverageAtStart: number;
  };
  settings: {
    concurrency: number;
    warmupMs: number;
    durationMs: number;
    coldStartRuns: number;
    shadeboxLauncher: string;
    /** Packages whose dist/ is older than src/ when the run started (the built CLI ran older code). */
    staleBuilds: string[];
    loadGenerator: string;
    /** `SHADEBOX_*` variables set for the run (the servers inherit them, e.g. `SHADEBOX_VIEW_SPIN_US=0`), but
     * the benchmark's own `SHADEBOX_BENCH_*`; absent in reports older than 2026-11-28. */
    serverEnvironment?: string[];
  };
  anvil: { available: boolean; version?: string; path?: string; locatedBy?: string; reason?: string };
  /** The read load against a Node HTTP server that does nothing (bench/echo-server.ts): the node:http ceiling. */
  noopNodeServer?: LoadResult | { error: string };
  shadebox: ServerResults;
  anvilResults: ServerResults;
  /** Set when the run was stopped by its deadline (ms): the report holds what was measured until then. */
  abortedAtDeadlineMs?: number;
  /** Shadebox / anvil, per metric (undefined when either side is missing). */
  ratios: Ratios;
  /** The newest earlier value of each ratio (bench-*.json in the result folder), before this run. */
  previousRatios: Partial<Record<RatioName, PreviousRatio>>;
  /** Each ratio against its previous value; `worse` when it moved the wrong way by more than the noise. */
  ratioChanges: Partial<Record<RatioName, RatioChange>>;
  targets: typeof TARGETS & { met: TargetsMet };
  profiles: ProfileSummary[];
}

export interface TargetsMet {
  readPerSecond?: boolean;
  transfersPerSecond?: boolean;
  contractCallsPerSecond?: boolean;
  viewCallsPerSecond?: boolean;
  coldStartMs?: boolean;
  coldStartFirstAnswerMs?: boolean;
  nearSandboxStartMs?: boolean;
  viewCallsRatio?: boolean;
  viewP99NoWorseThanAnvil?: boolean;
  rssIdleBytes?: boolean;
  rssAfterRunBytes?: boolean;
  npmInstallMs?: boolean;
  /** No ratio moved the wrong way by more than the noise since the previous run. */
  ratiosKept?: boolean;
  chainSignatureMedianMs?: boolean;
  historicalReadRatio?: boolean;
  agentUpMs?: boolean;
  agentGetAccountIdPerSecond?: boolean;
  agentSignatureMedianMs?: boolean;
}

type Maybe<T> = T | { error: string } | undefined;

export function ok<T extends object>(value: Maybe<T>): T | undefined {
  return value && !('error' in value) ? value : undefined;
}

const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b !== 0 && Number.isFinite(a) && Number.isFinite(b)
    ? a / b
    : undefined;

export function computeRatios(s: ServerResults, a: ServerResults): Ratios {
  return {
    readPerSecond: ratio(ok(s.read)?.perSecond, ok(a.read)?.perSecond),
    transfersPerSecond: ratio(ok(s.transfers)?.perSecond, ok(a.transfers)?.perSecond),
    contractCallsPerSecond: ratio(ok(s.contractCalls)?.perSecond, ok(a.contractCalls)?.perSecond),
    viewCallsPerSecond: ratio(ok(s.viewCalls)?.perSecond, ok(a.viewCalls)?.perSecond),
    viewP99Ms: ratio(ok(s.viewCalls)?.latency.p99Ms, ok(a.viewCalls)?.latency.p99Ms),
    coldStartMs: ratio(ok(s.coldStart)?.medianMs, ok(a.coldStart)?.medianMs),
    coldStartFirstAnswerMs: ratio(ok(s.coldStart)?.medianFirstAnswerMs, ok(a.coldStart)?.medianFirstAnswerMs),
    rssIdleBytes: ratio(idleRss(s), idleRss(a)),
    rssAfterRunBytes: ratio(ok(s.memoryAfterRun)?.rssBytes, ok(a.memoryAfterRun)?.rssBytes),
  };
}

/** The idle RSS judged by the target: the larger of the just-started median and the 2-s-idle reading. */
export function idleRss(s: ServerResults): number | undefined {
  const readings = [ok(s.coldStart)?.idleRssBytes, ok(s.memoryIdle)?.rssBytes].filter(
    (v): v is number => v !== undefined && Number.isFinite(v),
  );
  return readings.length > 0 ? Math.max(...readings) : undefined;
}

const atMost = (v: number | undefined, limit: number) => (v === undefined ? undefined : v <= limit);

/** The issue-17 targets judged against anvil and the previous run (see `TARGETS`). */
export function issue17TargetsMet(
  s: ServerResults,
  a: ServerResults,
  ratios: Ratios,
  changes: BenchReport['ratioChanges'],
): TargetsMet {
  const viewP99 = ok(s.viewCalls)?.latency.p99Ms;
  const anvilViewP99 = ok(a.viewCalls)?.latency.p99Ms;
  const compared = Object.values(changes);
  // RSS "after the full benchmark" only when the read, transfer and contract runs all ran on the process.
  const fullRun = fullServerRun(s);
  return {
    coldStartFirstAnswerMs: atMost(ok(s.coldStart)?.medianFirstAnswerMs, TARGETS.coldStartFirstAnswerMs),
    nearSandboxStartMs: atMost(ok(s.nearSandboxStart)?.medianMs, TARGETS.nearSandboxStartMs),
    viewCallsRatio:
      ratios.viewCallsPerSecond === undefined
        ? undefined
        : ratios.viewCallsPerSecond >= TARGETS.viewCallsRatio,
    viewP99NoWorseThanAnvil:
      viewP99 === undefined || anvilViewP99 === undefined ? undefined : viewP99 <= anvilViewP99,
    rssIdleBytes: atMost(idleRss(s), TARGETS.rssIdleBytes),
    rssAfterRunBytes: fullRun ? atMost(ok(s.memoryAfterRun)?.rssBytes, TARGETS.rssAfterRunBytes) : undefined,
    npmInstallMs: atMost(ok(s.npmInstall)?.installMs, TARGETS.npmInstallMs),
    ratiosKept: compared.length === 0 ? undefined : compared.every((c) => !c?.worse),
  };
}

export function targetsMet(s: ServerResults): TargetsMet {
  const read = ok(s.read)?.perSecond;
  const transfers = ok(s.transfers)?.perSecond;
  const calls = ok(s.contractCalls)?.perSecond;
  const views = ok(s.viewCalls)?.perSecond;
  const cold = ok(s.coldStart)?.medianMs;
  const history = ok(s.history)?.ratio;
  const signMedian = ok(ok(s.chainSignatures)?.sequential)?.medianMs;
  const agent = ok(s.agent);
  const agentUp = ok(agent?.up)?.medianMs;
  const agentIds = ok(agent?.getAccountId)?.perSecond;
  const agentSign = ok(agent?.requestSignature)?.medianMs;
  return {
    readPerSecond: read === undefined ? undefined : read >= TARGETS.readPerSecond,
    transfersPerSecond: transfers === undefined ? undefined : transfers >= TARGETS.transfersPerSecond,
    contractCallsPerSecond: calls === undefined ? undefined : calls >= TARGETS.contractCallsPerSecond,
    viewCallsPerSecond: views === undefined ? undefined : views >= TARGETS.viewCallsPerSecond,
    coldStartMs: cold === undefined ? undefined : cold <= TARGETS.coldStartMs,
    chainSignatureMedianMs:
      signMedian === undefined ? undefined : signMedian <= TARGETS.chainSignatureMedianMs,
    historicalReadRatio: history === undefined ? undefined : history >= TARGETS.historicalReadRatio,
    agentUpMs: agentUp === undefined ? undefined : agentUp <= TARGETS.agentUpMs,
    agentGetAccountIdPerSecond:
      agentIds === undefined ? undefined : agentIds >= TARGETS.agentGetAccountIdPerSecond,
    agentSignatureMedianMs: agentSign === undefined ? undefined : agentSign <= TARGETS.agentSignatureMedianMs,
  };
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n >= 100 ? `${Math.round(n)} ms` : `${n.toFixed(1)} ms`);
const seconds = (n: number) => `${(n / 1000).toFixed(1)} s`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function cell<T extends object>(value: Maybe<T>, show: (v: T) => string, anvilMissing = ''): string {
  if (value === undefined) return anvilMissing || 'not run';
  if ('error' in value) return `failed (${value.error.split('\n')[0].slice(0, 60)})`;
  return show(value);
}

const verdict = (met: boolean | undefined) => (met === undefined ? '' : met ? ' (met)' : ' (MISSED)');

export function formatTable(report: BenchReport): string {
  const s = report.shadebox;
  const a = report.anvilResults;
  const missing = report.anvil.available ? '' : 'anvil unavailable';
  const fmtRatio = (name: RatioName) => ratioCell(report, name);
  const lat = (v: LoadResult) => `${ms(v.latency.p50Ms)} / ${ms(v.latency.p99Ms)}`;
  const blocks = (v: TransferResult) =>
    `${int(v.blocksPerSecond)} blocks/s, ${v.transfersPerBlock.toFixed(1)} tx/block`;
  const cpu = (v: LoadResult) => {
    const use = cpuUse(v.deltas, v.completed, v.durationMs);
    return `${int(use.perOperationUs)} µs, ${Math.round(use.coreShare * 100)}% of a core`;
  };
  const errs = (v: LoadResult) => (v.errors > 0 ? ` (${v.errors} errors)` : '');
  const rows: string[][] = [
    ['metric', 'Shadebox', 'anvil', 'Shadebox/anvil (previous run)', 'target (Shadebox)'],
    [
      'reads/s: view_account | eth_getBalance',
      cell(s.read, (v) => `${int(v.perSecond)} req/s${errs(v)}`),
      cell(a.read, (v) => `${int(v.perSecond)} req/s${errs(v)}`, missing),
      fmtRatio('readPerSecond'),
      `>= ${int(TARGETS.readPerSecond)} req/s${verdict(report.targets.met.readPerSecond)}`,
    ],
    ['  read latency p50 / p99', cell(s.read, lat), cell(a.read, lat, missing), '', ''],
    ['  server CPU per read, busy', cell(s.read, cpu), cell(a.read, cpu, missing), '', ''],
    [
      'transfers/s to final',
      cell(s.transfers, (v) => `${int(v.perSecond)} tx/s${errs(v)}`),
      cell(a.transfers, (v) => `${int(v.perSecond)} tx/s${errs(v)}`, missing),
      fmtRatio('transfersPerSecond'),
      `>= ${int(TARGETS.transfersPerSecond)} tx/s${verdict(report.targets.met.transfersPerSecond)}`,
    ],
    ['  transfer latency p50 / p99', cell(s.transfers, lat), cell(a.transfers, lat, missing), '', ''],
    ['  server CPU per transfer, busy', cell(s.transfers, cpu), cell(a.transfers, cpu, missing), '', ''],
    [
      '  blocks/s, transfers per block',
      cell(s.transfers, blocks),
      cell(a.transfers, blocks, missing),
      '',
      '',
    ],
    ...contractRows(report, cell, lat, cpu, blocks, errs, fmtRatio, missing),
    ...chainsigRows(report),
    ...agentRows(report, lat, cpu, errs),
    [
      `cold start to first answered request (median of ${report.settings.coldStartRuns})`,
      cell(s.coldStart, (v) => ms(v.medianFirstAnswerMs)),
      cell(a.coldStart, (v) => ms(v.medianFirstAnswerMs), missing),
      fmtRatio('coldStartFirstAnswerMs'),
      `<= ${int(TARGETS.coldStartFirstAnswerMs)} ms${verdict(report.targets.met.coldStartFirstAnswerMs)}`,
    ],
    [
      '  to ready line (median)',
      cell(s.coldStart, (v) => ms(v.medianMs)),
      cell(a.coldStart, (v) => ms(v.medianMs), missing),
      fmtRatio('coldStartMs'),
      `<= ${int(TARGETS.coldStartMs)} ms${verdict(report.targets.met.coldStartMs)}`,
    ],
    [
      '  from sources via tsx: first answer | ready line (median)',
      cell(s.coldStartFromSource, (v) => `${ms(v.medianFirstAnswerMs)} | ${ms(v.medianMs)}`),
      '',
      '',
      '',
    ],
    [
      'RSS after the run: read, transfers, contracts (peak)',
      cell(s.memoryAfterRun, (v) => `${mib(v.rssBytes)} (${mib(v.peakRssBytes)})`),
      cell(a.memoryAfterRun, (v) => `${mib(v.rssBytes)} (${mib(v.peakRssBytes)})`, missing),
      fmtRatio('rssAfterRunBytes'),
      `<= ${mib(TARGETS.rssAfterRunBytes)}${verdict(report.targets.met.rssAfterRunBytes)}`,
    ],
    [
      'RSS idle: just started (median) | 2 s after start',
      idleCell(s),
      idleCell(a, missing),
      fmtRatio('rssIdleBytes'),
      `<= ${mib(TARGETS.rssIdleBytes)} (the larger)${verdict(report.targets.met.rssIdleBytes)}`,
    ],
    ...archivalRows(s, cpu, lat, report.targets.met),
    [
      '  no-op node:http server, same load',
      cell(report.noopNodeServer, (v) => `${int(v.perSecond)} req/s, server ${cpu(v)}`),
      '',
      '',
      '',
    ],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) =>
    r
      .map((v, c) => v.padEnd(widths[c]))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const m = report.machine;
  const st = report.settings;
  return [
    `Shadebox vs anvil${report.anvil.version ? ` ${report.anvil.version}` : ''} — ${m.cpus} cores (${m.cpuModel}), Node ${m.node}`,
    ...(report.abortedAtDeadlineMs !== undefined
      ? [
          `warning: stopped by its deadline after ${report.abortedAtDeadlineMs / 1000} s — metrics not reached show "not run" (--deadline)`,
        ]
      : []),
    ...(m.loadAverageAtStart > 0.5
      ? [
          `warning: load average ${m.loadAverageAtStart.toFixed(2)} at start — other processes shared the cores`,
        ]
      : []),
    ...(st.staleBuilds.length > 0
      ? [`warning: built packages older than their sources: ${st.staleBuilds.join(', ')} (npm run build)`]
      : []),
    ...(st.serverEnvironment?.length
      ? [`server environment: ${st.serverEnvironment.join(' ')} (not the defaults)`]
      : []),
    `${st.concurrency} concurrent connections/signers, ${st.warmupMs / 1000} s warmup + ${st.durationMs / 1000} s measured per throughput metric; launcher: ${st.shadeboxLauncher}`,
    '',
    line(rows[0]),
    rule,
    ...rows.slice(1).map(line),
    '',
    'ratio = Shadebox / anvil: above 1 is better for rates, below 1 is better for times and memory.',
    `(previous run) = the same ratio in the newest earlier report that has it (bench-*.json in the result folder); WORSE = it moved the wrong way by more than ${Math.round(TARGETS.ratioNoise * 100)}%.`,
    `load generator: ${st.loadGenerator}`,
    '',
    ...issue17Summary(report),
    ...(report.anvil.available ? [] : [`anvil unavailable: ${report.anvil.reason ?? ''}`]),
  ].join('\n');
}

/** Rows of the `contracts` phase; none when it did not run. */
function contractRows(
  report: BenchReport,
  cellOf: typeof cell,
  lat: (v: LoadResult) => string,
  cpu: (v: LoadResult) => string,
  blocks: (v: TransferResult) => string,
  errs: (v: LoadResult) => string,
  fmtRatio: (name: RatioName) => string,
  missing: string,
): string[][] {
  const s = report.shadebox;
  const a = report.anvilResults;
  const rows: string[][] = [];
  if (s.contractCalls || a.contractCalls) {
    rows.push(
      [
        'contract calls/s to final: setValue | SSTORE',
        cellOf(s.contractCalls, (v) => `${int(v.perSecond)} calls/s${errs(v)}`),
        cellOf(a.contractCalls, (v) => `${int(v.perSecond)} calls/s${errs(v)}`, missing),
        fmtRatio('contractCallsPerSecond'),
        `>= ${int(TARGETS.contractCallsPerSecond)} calls/s${verdict(report.targets.met.contractCallsPerSecond)}`,
      ],
      [
        '  call latency p50 / p99',
        cellOf(s.contractCalls, lat),
        cellOf(a.contractCalls, lat, missing),
        '',
        '',
      ],
      [
        '  server CPU per call, busy',
        cellOf(s.contractCalls, cpu),
        cellOf(a.contractCalls, cpu, missing),
        '',
        '',
      ],
      [
        '  blocks/s, calls per block',
        cellOf(s.contractCalls, blocks),
        cellOf(a.contractCalls, blocks, missing),
        '',
        '',
      ],
    );
  }
  if (s.viewCalls || a.viewCalls) {
    rows.push(
      [
        'view calls/s: call_function kv get | eth_call SLOAD',
        cellOf(s.viewCalls, (v) => `${int(v.perSecond)} req/s${errs(v)}`),
        cellOf(a.viewCalls, (v) => `${int(v.perSecond)} req/s${errs(v)}`, missing),
        fmtRatio('viewCallsPerSecond'),
        `>= ${TARGETS.viewCallsRatio.toFixed(1)}x anvil${verdict(report.targets.met.viewCallsRatio)}; >= ${int(TARGETS.viewCallsPerSecond)} req/s${verdict(report.targets.met.viewCallsPerSecond)}`,
      ],
      [
        '  view latency p50 / p99',
        cellOf(s.viewCalls, lat),
        cellOf(a.viewCalls, lat, missing),
        fmtRatio('viewP99Ms'),
        `p99 <= anvil's${verdict(report.targets.met.viewP99NoWorseThanAnvil)}`,
      ],
      [
        '  distinct requests, each checked',
        cellOf(s.viewCalls, (v) => `${int(v.distinctRequests)} (setup ${ms(v.setupMs)})`),
        cellOf(a.viewCalls, (v) => `${int(v.distinctRequests)} (setup ${ms(v.setupMs)})`, missing),
        '',
        '',
      ],
      ['  server CPU per view, busy', cellOf(s.viewCalls, cpu), cellOf(a.viewCalls, cpu, missing), '', ''],
    );
  }
  return rows;
}

/** Rows of the `chainsig` phase (Shadebox only: anvil "—"); none when it did not run. */
function chainsigRows(report: BenchReport): string[][] {
  return [
    ...chainsigRowsOf(report, report.shadebox.chainSignatures, 'built-in signer', true),
    ...chainsigRowsOf(report, report.shadebox.chainSignaturesProduction, 'production signer', false),
  ];
}

function chainsigRowsOf(
  report: BenchReport,
  c: ChainsigResult | { error: string } | undefined,
  label: string,
  withTarget: boolean,
): string[][] {
  if (!c) return [];
  const sub = <T extends object>(
    pick: (v: ChainsigResult) => T | { error: string },
    show: (v: T) => string,
  ) => cell(c, (v) => cell(pick(v), show));
  const name = 'error' in c ? label : `${label} (${c.signer})`;
  return [
    [
      `chain signature to EXECUTED, ${name}, 1 at a time: median / p90 / p99 / max`,
      sub(
        (v) => v.sequential,
        (v) =>
          `${ms(v.medianMs)} / ${ms(v.latency.p90Ms)} / ${ms(v.latency.p99Ms)} / ${ms(v.latency.maxMs)} (n=${v.requests})`,
      ),
      '—',
      '',
      withTarget
        ? `<= ${TARGETS.chainSignatureMedianMs} ms median${verdict(report.targets.met.chainSignatureMedianMs)}`
        : `<= ${TARGETS.chainSignatureMedianMs} ms median`,
    ],
    [
      '  8 agents at once (each sequential): rate, p50 / p99',
      sub(
        (v) => v.concurrent,
        (v) =>
          `${v.perSecond.toFixed(1)} req/s, ${ms(v.latency.p50Ms)} / ${ms(v.latency.p99Ms)} (n=${v.requests})`,
      ),
      '—',
      '',
      '',
    ],
  ];
}

/** Rows of the `agent` phase (Shadebox only: anvil "—"); none when it did not run. */
function agentRows(
  report: BenchReport,
  lat: (v: LoadResult) => string,
  cpu: (v: LoadResult) => string,
  errs: (v: LoadResult) => string,
): string[][] {
  const g = report.shadebox.agent;
  if (!g) return [];
  const met = report.targets.met;
  const sub = <T extends object>(pick: (v: AgentResult) => T | { error: string }, show: (v: T) => string) =>
    cell(g, (v) => cell(pick(v), show));
  return [
    [
      `shadebox up to agent-ready (median of ${ok(ok(g)?.up)?.runs ?? 3})`,
      sub(
        (v) => v.up,
        (v) => `${ms(v.medianMs)} (ready line ${ms(v.medianReadyMs)})`,
      ),
      '—',
      '',
      `<= ${int(TARGETS.agentUpMs)} ms${verdict(met.agentUpMs)}`,
    ],
    [
      'agent API getAccountId/s',
      sub(
        (v) => v.getAccountId,
        (v) => `${int(v.perSecond)} req/s${errs(v)}`,
      ),
      '—',
      '',
      `>= ${int(TARGETS.agentGetAccountIdPerSecond)} req/s${verdict(met.agentGetAccountIdPerSecond)}`,
    ],
    ['  getAccountId latency p50 / p99', sub((v) => v.getAccountId, lat), '—', '', ''],
    ['  server CPU per getAccountId, busy', sub((v) => v.getAccountId, cpu), '—', '', ''],
    [
      'agent API /call request_signature, 1 at a time: median / p99',
      sub(
        (v) => v.requestSignature,
        (v) => `${ms(v.medianMs)} / ${ms(v.latency.p99Ms)} (n=${v.requests})`,
      ),
      '—',
      '',
      `<= ${TARGETS.agentSignatureMedianMs} ms median${verdict(met.agentSignatureMedianMs)}`,
    ],
  ];
}

/** Rows of the opt-in Shadebox-only metrics (archival LMDB home); none when none of them ran. anvil: "-". */
function archivalRows(
  s: ServerResults,
  cpu: (v: LoadResult) => string,
  lat: (v: LoadResult) => string,
  met: TargetsMet,
): string[][] {
  const rows: string[][] = [];
  if (s.history) {
    const h = ok(s.history);
    rows.push(
      [
        'archival view_account at head − 10,000 / head',
        cell(
          s.history,
          (v) =>
            `${int(v.historical.perSecond)} / ${int(v.head.perSecond)} req/s, ratio ${v.ratio.toFixed(2)}`,
        ),
        '-',
        '',
        `ratio >= ${TARGETS.historicalReadRatio}${verdict(h && h.ratio >= TARGETS.historicalReadRatio)}`,
      ],
      [
        '  latency p50 / p99 historical | head',
        cell(s.history, (v) => `${lat(v.historical)} | ${lat(v.head)}`),
        '-',
        '',
        '',
      ],
      [
        '  server CPU per read historical | head',
        cell(s.history, (v) => `${cpu(v.historical)} | ${cpu(v.head)}`),
        '-',
        '',
        '',
      ],
    );
  }
  if (s.storeSize) {
    rows.push(
      [
        'archival store growth per 10,000 transfers',
        cell(
          s.storeSize,
          (v) =>
            `${mib(v.bytesPer10kTransfers)} (${kib(v.bytesPerTransfer)}/transfer, ${int(v.blocks)} blocks)`,
        ),
        '-',
        '',
        '',
      ],
      [
        '  LMDB used after / files after',
        cell(s.storeSize, (v) => `${mib(v.after.lmdbUsedBytes)} / ${mib(v.after.fileBytes)}`),
        '-',
        '',
        '',
      ],
    );
  }
  if (s.nearSandboxStart) {
    rows.push([
      'near-sandbox init + run to GET /status (median)',
      cell(s.nearSandboxStart, (v) => `${ms(v.medianMs)} (init ${ms(v.medianInitMs)}, ${v.runs} runs)`),
      '-',
      '',
      `<= ${TARGETS.nearSandboxStartMs} ms${verdict(met.nearSandboxStartMs)}`,
    ]);
  }
  if (s.restart) {
    rows.push([
      'archival restart, ready | first answer (median)',
      cell(
        s.restart,
        (v) =>
          `${ms(v.medianReadyMs)} | ${ms(v.medianFirstAnswerMs)} (${int(v.height)} blocks, ${mib(v.size.lmdbUsedBytes)})`,
      ),
      '-',
      '',
      '',
    ]);
  }
  if (s.npmInstall) {
    rows.push([
      'npm install on a fresh clone of HEAD',
      cell(
        s.npmInstall,
        (v) =>
          `${seconds(v.installMs)} (clone ${seconds(v.cloneMs)}; npm cache ${v.cacheState}, +${mib(v.cacheBytesAfter - v.cacheBytesBefore)} after${v.testClientsMs === undefined ? '' : `; then the first npm test's test clients ${seconds(v.testClientsMs)}`})`,
      ),
      '-',
      '',
      `< ${int(TARGETS.npmInstallMs / 1000)} s${verdict(met.npmInstallMs)}`,
    ]);
  }
  return rows;
}

/** The ratio cell: current ratio, then the previous run's with WORSE when it moved the wrong way. */
function ratioCell(report: BenchReport, name: RatioName): string {
  const r = report.ratios[name];
  const now = r === undefined ? '-' : `${r.toFixed(2)}x`;
  const change = report.ratioChanges[name];
  const before = report.previousRatios[name];
  if (!before) return now;
  return `${now} (${before.ratio.toFixed(2)}x${change?.worse ? ' WORSE' : ''})`;
}

function idleCell(r: ServerResults, missing = ''): string {
  const justStarted = ok(r.coldStart)?.idleRssBytes;
  const settled = ok(r.memoryIdle)?.rssBytes;
  if (justStarted === undefined && settled === undefined) return missing || 'not run';
  const show = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '-' : mib(v));
  return `${show(justStarted)} | ${show(settled)}`;
}

/** Issue 17's targets, one line each: measured value, target, met or MISSED (or not measured). */
function issue17Summary(report: BenchReport): string[] {
  const s = report.shadebox;
  const a = report.anvilResults;
  const met = report.targets.met;
  const v = ok(s.viewCalls);
  const av = ok(a.viewCalls);
  const worse = Object.entries(report.ratioChanges)
    .filter(([, c]) => c?.worse)
    .map(
      ([name, c]) =>
        `${name} ${c?.previous.toFixed(2)}x -> ${c?.current.toFixed(2)}x (previous run ${c?.previousStartedAt.slice(0, 16)}, load ${c?.previousLoadAverage?.toFixed(1) ?? '?'})`,
    );
  const state = (m: boolean | undefined) => (m === undefined ? 'not measured' : m ? 'met' : 'MISSED');
  const fmt = (n: number | undefined, f: (n: number) => string) => (n === undefined ? '-' : f(n));
  const r = report.ratios;
  return [
    'issue 17 targets:',
    `  view calls/s >= 1.0x anvil's eth_call (same workload): ${fmt(r.viewCallsPerSecond, (x) => `${x.toFixed(2)}x`)} (${fmt(v?.perSecond, int)} vs ${fmt(av?.perSecond, int)} req/s): ${state(met.viewCallsRatio)}`,
    `  view p99 no worse than anvil's: ${fmt(v?.latency.p99Ms, ms)} vs ${fmt(av?.latency.p99Ms, ms)}: ${state(met.viewP99NoWorseThanAnvil)}`,
    `  cold start to the first answered request <= ${TARGETS.coldStartFirstAnswerMs} ms (median of ${report.settings.coldStartRuns}): ${fmt(ok(s.coldStart)?.medianFirstAnswerMs, ms)} (anvil ${fmt(ok(a.coldStart)?.medianFirstAnswerMs, ms)}): ${state(met.coldStartFirstAnswerMs)}`,
    `  near-sandbox init + run to GET /status <= ${TARGETS.nearSandboxStartMs} ms (median): ${fmt(ok(s.nearSandboxStart)?.medianMs, ms)}: ${state(met.nearSandboxStartMs)}`,
    `  RSS idle <= ${mib(TARGETS.rssIdleBytes)}: ${fmt(idleRss(s), mib)} (anvil ${fmt(idleRss(a), mib)}): ${state(met.rssIdleBytes)}`,
    `  RSS after the full benchmark <= ${mib(TARGETS.rssAfterRunBytes)}: ${fmt(ok(s.memoryAfterRun)?.rssBytes, mib)} (anvil ${fmt(ok(a.memoryAfterRun)?.rssBytes, mib)}): ${state(met.rssAfterRunBytes)}`,
    `  every ratio kept (within ${Math.round(TARGETS.ratioNoise * 100)}% of the previous run; this run's load ${report.machine.loadAverageAtStart.toFixed(1)}): ${Object.keys(report.ratioChanges).length} compared${worse.length > 0 ? `, worse: ${worse.join('; ')}` : ''}: ${state(met.ratiosKept)}`,
    `  npm install on a fresh clone < ${TARGETS.npmInstallMs / 1000} s (--only install): ${fmt(ok(s.npmInstall)?.installMs, seconds)}: ${state(met.npmInstallMs)}`,
  ];
}

/** Writes latest.json and bench-<timestamp>.json into `dir`; returns both paths. */
export function writeReport(dir: string, report: BenchReport): { latest: string; stamped: string } {
  mkdirSync(dir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const latest = join(dir, 'latest.json');
  const stamped = join(dir, `bench-${stamp}.json`);
  writeFileSync(latest, json);
  writeFileSync(stamped, json);
  return { latest, stamped };
}

/** The `SHADEBOX_*` variables of `env` that change what a server does: not the benchmark's `SHADEBOX_BENCH_*`,
 * nor `SHADEBOX_FROM_SOURCE`, which the launcher sets itself (bench/shadebox-node.ts). */
export function serverEnvironment(env: NodeJS.ProcessEnv = process.env): string[] {
  const passedOn = (name: string) =>
    name.startsWith('SHADEBOX_') && !name.startsWith('SHADEBOX_BENCH_') && name !== 'SHADEBOX_FROM_SOURCE';
  return Object.keys(env)
    .filter(passedOn)
    .sort()
    .map((name) => `${name}=${env[name]}`);
}
