/**
 * The ratios (Shadebox / anvil) of earlier runs, read from the result folder before this run writes its own,
 * and the comparison that flags a ratio that moved the wrong way by more than the noise.
 *
 * For each ratio the newest earlier report that has it is used (a `--only` run holds only some), and for the
 * view-call ratios only a report of the same view workload (the workload changed on 2026-11-24).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Which way is better, per ratio: rates higher, times and memory lower. */
export const RATIO_DIRECTIONS = {
  readPerSecond: 'higher',
  transfersPerSecond: 'higher',
  contractCallsPerSecond: 'higher',
  viewCallsPerSecond: 'higher',
  viewP99Ms: 'lower',
  coldStartMs: 'lower',
  coldStartFirstAnswerMs: 'lower',
  rssIdleBytes: 'lower',
  rssAfterRunBytes: 'lower',
} as const;

export type RatioName = keyof typeof RATIO_DIRECTIONS;
export type Ratios = Partial<Record<RatioName, number>>;

/** Ratios of the view workload compare only with runs of the same workload. */
const VIEW_RATIOS: readonly RatioName[] = ['viewCallsPerSecond', 'viewP99Ms'];
/** The RSS after the run compares only runs whose server ran the read, transfer and contract loads. */
const FULL_RUN_RATIOS: readonly RatioName[] = ['rssAfterRunBytes'];

/** Whether a report's server ran all three loads (reads, transfers, contracts). */
export function fullServerRun(shadebox: { read?: unknown; transfers?: unknown; contractCalls?: unknown }) {
  return (
    shadebox.read !== undefined && shadebox.transfers !== undefined && shadebox.contractCalls !== undefined
  );
}

export interface PreviousRatio {
  ratio: number;
  /** `startedAt` of the run it comes from, its file and its load average at start. */
  startedAt: string;
  file: string;
  loadAverageAtStart: number | undefined;
}

export interface RatioChange {
  previous: number;
  current: number;
  /** current / previous. */
  change: number;
  /** The ratio moved the wrong way by more than the noise. */
  worse: boolean;
  previousStartedAt: string;
  previousLoadAverage: number | undefined;
}

interface StoredReport {
  startedAt?: string;
  abortedAtDeadlineMs?: number;
  machine?: { loadAverageAtStart?: number };
  ratios?: Record<string, number | undefined>;
  shadebox?: {
    viewCalls?: { workload?: string };
    read?: unknown;
    transfers?: unknown;
    contractCalls?: unknown;
  };
}

/**
 * The newest earlier value of each ratio in `dir` (its `bench-<timestamp>.json` copies, newest first);
 * `viewWorkload` is the current run's view workload. Unreadable files are skipped.
 */
export function readPreviousRatios(
  dir: string,
  viewWorkload: string,
): Partial<Record<RatioName, PreviousRatio>> {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => /^bench-.*\.json$/.test(f))
      .sort()
      .reverse();
  } catch {
    return {};
  }
  const found: Partial<Record<RatioName, PreviousRatio>> = {};
  for (const file of files) {
    let report: StoredReport;
    try {
      report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as StoredReport;
    } catch {
      continue;
    }
    // A run stopped by its deadline measured under conditions that did not let it finish: not a reference.
    if (report.abortedAtDeadlineMs !== undefined) continue;
    for (const name of Object.keys(RATIO_DIRECTIONS) as RatioName[]) {
      const ratio = report.ratios?.[name];
      if (found[name] || typeof ratio !== 'number' || !Number.isFinite(ratio)) continue;
      if (VIEW_RATIOS.includes(name) && report.shadebox?.viewCalls?.workload !== viewWorkload) continue;
      if (FULL_RUN_RATIOS.includes(name) && !fullServerRun(report.shadebox ?? {})) continue;
      found[name] = {
        ratio,
        startedAt: report.startedAt ?? '',
        file,
        loadAverageAtStart: report.machine?.loadAverageAtStart,
      };
    }
  }
  return found;
}

/**
 * Compares each current ratio with its previous value; `noise` is the tolerated share (0.1 = 10 %).
 * `fullRun`: whether this run's server ran all three loads (else its RSS after the run is not compared).
 */
export function compareRatios(
  current: Ratios,
  previous: Partial<Record<RatioName, PreviousRatio>>,
  noise: number,
  fullRun: boolean,
): Partial<Record<RatioName, RatioChange>> {
  const changes: Partial<Record<RatioName, RatioChange>> = {};
  for (const name of Object.keys(RATIO_DIRECTIONS) as RatioName[]) {
    if (FULL_RUN_RATIOS.includes(name) && !fullRun) continue;
    const now = current[name];
    const before = previous[name];
    if (now === undefined || !Number.isFinite(now) || !before || before.ratio === 0) continue;
    const change = now / before.ratio;
    const worse = RATIO_DIRECTIONS[name] === 'higher' ? change < 1 - noise : change > 1 + noise;
    changes[name] = {
      previous: before.ratio,
      current: now,
      change,
      worse,
      previousStartedAt: before.startedAt,
      previousLoadAverage: before.loadAverageAtStart,
    };
  }
  return changes;
}
