/**
 * The benchmark's result: one JSON document (bench/results/latest.json and a timestamped copy), the table
 * printed side by side and each target of issue 37 (and the ratios kept from before) met or MISSED.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult, ViewResult } from './load.js';
import type { AgentResult } from './metrics/agent.js';
import type { ColdStartResult } from './metrics/cold-start.js';
import type { IdleMemory } from './metrics/memory.js';
import type { NearSandboxStartResult } from './metrics/near-sandbox.js';
import type { WriteResult } from './metrics/transfers.js';
import { cpuUse, type MemoryReading } from './proc.js';
import type { ProfileSummary } from './profile-summary.js';

export type Outcome<T> = (T & { loadAverage?: number }) | { error: string };
/** One metric on both servers; a side not measured is absent. */
export interface Sides<T> {
  shadebox?: Outcome<T>;
  anvil?: Outcome<T>;
}

export interface Results {
  cold?: ColdStartResult;
  read?: Sides<LoadResult>;
  transfers?: Sides<WriteResult>;
  calls?: Sides<WriteResult>;
  viewsKv?: Sides<ViewResult>;
  viewsFt?: Sides<ViewResult>;
  viewsHello?: Sides<ViewResult>;
  memoryIdle?: Sides<IdleMemory> & { bareNode?: Outcome<IdleMemory> };
  /** After every load phase that ran on the server (`fullRun`: all of them did). */
  memoryAfter?: Sides<MemoryReading> & { fullRun: boolean };
  sandbox?: Outcome<NearSandboxStartResult>;
  agent?: Outcome<AgentResult>;
}

export interface Target {
  name: string;
  /** What was measured, with what it is compared to. */
  measured: string;
  /** Undefined: not measured in this run. */
  met: boolean | undefined;
}

export interface BenchReport {
  startedAt: string;
  elapsedMs: number;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    loadAverageAtStart: number;
    loadAverageAtEnd: number;
  };
  settings: {
    concurrency: number;
    warmupMs: number;
    durationMs: number;
    coldRuns: number;
    launcher: string;
    anvil: string;
    /** Packages whose dist/ is older than src/ (the built CLI ran older code). */
    staleBuilds: string[];
    /** `SHADEBOX_*` variables the servers inherited (not the benchmark's own `SHADEBOX_BENCH_*`). */
    serverEnvironment: string[];
  };
  abortedAtDeadlineMs?: number;
  results: Results;
  targets: Target[];
  profiles: ProfileSummary[];
}

export const ok = <T extends object>(
  v: Outcome<T> | undefined,
): (T & { loadAverage?: number }) | undefined => (v && !('error' in v) ? v : undefined);

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n >= 100 ? `${Math.round(n)} ms` : `${n.toFixed(1)} ms`);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 && Number.isFinite(a) ? a / b : undefined;
const x = (r: number | undefined) => (r === undefined ? '-' : `${r.toFixed(2)}x`);
const num = (v: number | undefined, f: (n: number) => string) =>
  v === undefined || !Number.isFinite(v) ? '-' : f(v);

/** The targets: issue 37's, then the ratios kept from before (writes >= 3x anvil, the WAT view >= 1x). */
export function judgeTargets(r: Results): Target[] {
  const targets: Target[] = [];
  const atLeast = (name: string, v: number | undefined, limit: number, measured: string) =>
    targets.push({ name, measured, met: v === undefined ? undefined : v >= limit });
  const atMost = (name: string, v: number | undefined, limit: number, measured: string) =>
    targets.push({ name, measured, met: v === undefined ? undefined : v <= limit });
  const view = (name: string, s: Sides<ViewResult> | undefined, least: number) => {
    const [a, b] = [ok(s?.shadebox), ok(s?.anvil)];
    const rate = ratio(a?.perSecond, b?.perSecond);
    atLeast(
      `${name} >= ${least}x anvil`,
      rate,
      least,
      `${x(rate)} (${num(a?.perSecond, int)} vs ${num(b?.perSecond, int)} req/s)`,
    );
    const p99 = ratio(a?.latency.p99Ms, b?.latency.p99Ms);
    atMost(`${name} p99 <= anvil's`, p99, 1, `${num(a?.latency.p99Ms, ms)} vs ${num(b?.latency.p99Ms, ms)}`);
  };
  view('ft_balance_of | ERC-20 balanceOf', r.viewsFt, 1.25);
  view('near-hello getValueByKey | SLOAD eth_call', r.viewsHello, 1.25);
  const cold = ok(r.cold?.shadebox)?.medianMs;
  const bare = r.cold?.bareNode.medianMs;
  const overCold = cold !== undefined && bare !== undefined ? cold - bare : undefined;
  atMost(
    'cold start to first answer <= node -e 0 + 10 ms',
    overCold,
    10,
    `${num(cold, ms)} vs ${num(bare, ms)} (+${num(overCold, ms)})`,
  );
  const sb = ok(r.sandbox);
  const overSandbox = sb ? sb.medianMs - sb.medianTwoBareNodesMs : undefined;
  atMost(
    'near-sandbox init + run to /status <= 2 node -e 0 + 25 ms',
    overSandbox,
    25,
    `${num(sb?.medianMs, ms)} vs ${num(sb?.medianTwoBareNodesMs, ms)} (+${num(overSandbox, ms)})`,
  );
  const idle = ok(r.memoryIdle?.shadebox)?.rssBytes;
  const bareIdle = ok(r.memoryIdle?.bareNode)?.rssBytes;
  const overIdle = idle !== undefined && bareIdle !== undefined ? idle - bareIdle : undefined;
  atMost(
    'RSS idle <= bare idle Node + 8 MiB',
    overIdle,
    8 * 2 ** 20,
    `${num(idle, mib)} vs ${num(bareIdle, mib)} (+${num(overIdle, mib)})`,
  );
  const after = r.memoryAfter?.fullRun ? ok(r.memoryAfter.shadebox)?.rssBytes : undefined;
  const anvilAfter = r.memoryAfter?.fullRun ? ok(r.memoryAfter.anvil)?.rssBytes : undefined;
  atMost(
    "RSS after the full benchmark <= anvil's",
    ratio(after, anvilAfter),
    1,
    `${num(after, mib)} vs ${num(anvilAfter, mib)}`,
  );
  const agent = ok(r.agent);
  const one = ok(agent?.sequential);
  atMost(
    'request_signature via the agent API, p50 one at a time <= 10 ms',
    one?.medianMs,
    10,
    num(one?.medianMs, ms),
  );
  const many = ok(agent?.concurrent);
  atLeast(
    'request_signature via the agent API, 8 agents >= 200 req/s',
    many?.perSecond,
    200,
    num(many?.perSecond, (n) => `${n.toFixed(1)} req/s`),
  );
  for (const [name, s] of [
    ['transfers/s to final', r.transfers],
    ['contract calls/s to final', r.calls],
  ] as const) {
    const v = ratio(ok(s?.shadebox)?.perSecond, ok(s?.anvil)?.perSecond);
    atLeast(`kept: ${name} >= 3x anvil`, v, 3, x(v));
  }
  view('kept: WAT kv get | SLOAD (32,768 keys)', r.viewsKv, 1);
  return targets;
}

/** The rows of a throughput metric: rate with the ratio, latency, server CPU, load average. */
function loadRows(
  title: string,
  unit: string,
  s: Sides<LoadResult> | undefined,
  extra?: (v: LoadResult) => string,
): string[][] {
  if (!s) return [];
  const cell = <T extends object>(v: Outcome<T> | undefined, show: (v: T) => string) =>
    v === undefined ? '' : 'error' in v ? `failed: ${v.error.split('\n')[0].slice(0, 70)}` : show(v);
  const rate = (v: LoadResult) => `${int(v.perSecond)} ${unit}${v.errors > 0 ? ` (${v.errors} errors)` : ''}`;
  const lat = (v: LoadResult) => `${ms(v.latency.p50Ms)} / ${ms(v.latency.p99Ms)}`;
  const cpu = (v: LoadResult) => {
    const use = cpuUse(v.deltas, v.completed, v.durationMs);
    return `${int(use.perOperationUs)} µs, ${Math.round(use.coreShare * 100)}% of a core`;
  };
  const load = (v: { loadAverage?: number }) => num(v.loadAverage, (n) => n.toFixed(2));
  const [a, b] = [ok(s.shadebox), ok(s.anvil)];
  const rows = [
    [title, cell(s.shadebox, rate), cell(s.anvil, rate), x(ratio(a?.perSecond, b?.perSecond))],
    ['  p50 / p99', cell(s.shadebox, lat), cell(s.anvil, lat), x(ratio(a?.latency.p99Ms, b?.latency.p99Ms))],
    ['  server CPU per request', cell(s.shadebox, cpu), cell(s.anvil, cpu), ''],
    ['  load average at start', cell(s.shadebox, load), cell(s.anvil, load), ''],
  ];
  if (extra) rows.push([`  ${extra[0]}`, cell(s.shadebox, extra[1]), cell(s.anvil, extra[1]), '']);
  return rows;
}

export function formatTable(report: BenchReport): string {
  const r = report.results;
  const blocks: [string, (v: LoadResult) => string] = [
    'blocks made',
    (v) => {
      const w = v as WriteResult;
      return `${int(w.blocksPerSecond)} blocks/s, ${w.perBlock.toFixed(1)} per block`;
    },
  ];
  const distinct: [string, (v: LoadResult) => string] = [
    'distinct requests, setup',
    (v) => `${int((v as ViewResult).distinctRequests)}, ${ms((v as ViewResult).setupMs ?? Number.NaN)}`,
  ];
  const rows: string[][] = [
    ['metric', 'Shadebox', 'anvil', 'Shadebox/anvil'],
    ...loadRows('reads: view_account | eth_getBalance', 'req/s', r.read),
    ...loadRows('transfers to final', 'tx/s', r.transfers, blocks),
    ...loadRows('contract calls to final: setValue | SSTORE', 'calls/s', r.calls, blocks),
    ...loadRows('views: WAT kv get | SLOAD', 'req/s', r.viewsKv, distinct),
    ...loadRows('views: NEP-141 ft_balance_of | ERC-20 balanceOf', 'req/s', r.viewsFt, distinct),
    ...loadRows('views: near-hello getValueByKey | SLOAD', 'req/s', r.viewsHello, distinct),
  ];
  if (r.cold) {
    const c = r.cold;
    const start = (v: ColdStartResult['shadebox'] | undefined) =>
      v === undefined
        ? ''
        : 'error' in v
          ? `failed: ${v.error.slice(0, 70)}`
          : `${ms(v.medianMs)} (RSS ${mib(v.rssBytes)})`;
    rows.push(
      [
        `cold start to first answer (median of ${c.bareNode.runs})`,
        start(c.shadebox),
        start(c.anvil),
        x(ratio(ok(c.shadebox)?.medianMs, ok(c.anvil)?.medianMs)),
      ],
      ['  node -e 0, same rounds', ms(c.bareNode.medianMs), '', ''],
    );
  }
  if (r.memoryIdle) {
    const m = r.memoryIdle;
    const show = (v: Outcome<IdleMemory> | undefined) =>
      v === undefined ? '' : 'error' in v ? 'failed' : mib(v.rssBytes);
    rows.push(
      [
        'RSS idle (2 s after the first answer)',
        show(m.shadebox),
        show(m.anvil),
        x(ratio(ok(m.shadebox)?.rssBytes, ok(m.anvil)?.rssBytes)),
      ],
      ['  bare Node idle 2 s', show(m.bareNode), '', ''],
    );
  }
  if (r.memoryAfter) {
    const m = r.memoryAfter;
    const show = (v: Outcome<MemoryReading> | undefined) =>
      v === undefined ? '' : 'error' in v ? 'failed' : `${mib(v.rssBytes)} (peak ${mib(v.peakRssBytes)})`;
    rows.push([
      `RSS after the load phases${m.fullRun ? '' : ' (not all ran)'}`,
      show(m.shadebox),
      show(m.anvil),
      x(ratio(ok(m.shadebox)?.rssBytes, ok(m.anvil)?.rssBytes)),
    ]);
  }
  if (r.sandbox) {
    const v = ok(r.sandbox);
    rows.push([
      'near-sandbox init + run to GET /status (median)',
      v
        ? `${ms(v.medianMs)} (init ${ms(v.medianInitMs)}; 2 x node -e 0 ${ms(v.medianTwoBareNodesMs)})`
        : 'failed',
      '-',
      '',
    ]);
  }
  if (r.agent) {
    const g = ok(r.agent);
    const sub = <T extends object>(v: Outcome<T> | undefined, show: (v: T) => string) =>
      v === undefined ? 'failed' : 'error' in v ? `failed: ${v.error.slice(0, 70)}` : show(v);
    rows.push(
      ['shadebox up to agent-ready (median of 3)', sub(g?.up, (v) => ms(v.medianMs)), '-', ''],
      [
        'agent API getAccountId',
        sub(g?.getAccountId, (v) => `${int(v.perSecond)} req/s, p99 ${ms(v.latency.p99Ms)}`),
        '-',
        '',
      ],
      [
        'agent API request_signature, 1 at a time: p50 / p99',
        sub(g?.sequential, (v) => `${ms(v.medianMs)} / ${ms(v.latency.p99Ms)} (n=${v.requests})`),
        '-',
        '',
      ],
      [
        '  8 agents at once: rate, p50 / p99',
        sub(
          g?.concurrent,
          (v) =>
            `${v.perSecond.toFixed(1)} req/s, ${ms(v.latency.p50Ms)} / ${ms(v.latency.p99Ms)} (n=${v.requests})`,
        ),
        '-',
        '',
      ],
    );
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const line = (row: string[]) =>
    row
      .map((v, c) => v.padEnd(widths[c]))
      .join('  ')
      .trimEnd();
  const m = report.machine;
  const st = report.settings;
  const state = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? 'met' : 'MISSED');
  return [
    `Shadebox vs anvil ${st.anvil} — ${m.cpus} cores (${m.cpuModel}), Node ${m.node}, load average ${m.loadAverageAtStart.toFixed(2)} at start, ${m.loadAverageAtEnd.toFixed(2)} at end`,
    ...(report.abortedAtDeadlineMs !== undefined
      ? [
          `warning: stopped by its deadline (${report.abortedAtDeadlineMs / 1000} s): what was not reached is missing`,
        ]
      : []),
    ...(st.staleBuilds.length > 0
      ? [`warning: built packages older than their sources: ${st.staleBuilds.join(', ')} (npm run build)`]
      : []),
    ...(st.serverEnvironment.length > 0 ? [`server environment: ${st.serverEnvironment.join(' ')}`] : []),
    `${st.concurrency} connections/signers, ${st.warmupMs / 1000} s warmup + ${st.durationMs / 1000} s measured per throughput metric; launcher: ${st.launcher}`,
    '',
    line(rows[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
    '',
    'targets (issue 37; then the ratios kept):',
    ...report.targets.map((t) => `  ${t.name}: ${t.measured}: ${state(t.met)}`),
  ].join('\n');
}

/** Writes latest.json and bench-<timestamp>.json into `dir`; returns both paths. */
export function writeReport(dir: string, report: BenchReport): { latest: string; stamped: string } {
  mkdirSync(dir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const latest = join(dir, 'latest.json');
  const stamped = join(dir, `bench-${report.startedAt.replace(/[:.]/g, '-')}.json`);
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
