/**
 * Command-line options of `npm run bench -- [options]`.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cliAvailable, LAUNCHERS, type Launcher, REPO_ROOT } from './shadebox-node.js';

/** The deadline without --deadline. */
const DEFAULT_DEADLINE_S = 420;

export const PHASES = ['cold', 'read', 'transfers', 'contracts', 'ft', 'hello', 'sandbox', 'agent'] as const;
export type Phase = (typeof PHASES)[number];
/** The phases measured on a running server (one Shadebox, then one anvil). */
export const SERVER_PHASES: readonly Phase[] = ['read', 'transfers', 'contracts', 'ft', 'hello'];

export interface BenchOptions {
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  coldStartRuns: number;
  phases: Set<Phase>;
  anvil: boolean;
  launcher: Launcher;
  /** Directory for the CPU profile of the Shadebox server, when profiling. */
  profileDir: string | undefined;
  outDir: string;
  /** The whole run is aborted (children killed) after this long. */
  deadlineMs: number;
}

export const USAGE = `usage: npm run bench -- [options]
  --duration <s>      measured window of each throughput metric (default 5)
  --warmup <s>        warmup before each window (default 1)
  --concurrency <n>   connections for reads and views, signers for transfers and contract calls (default 32)
  --cold-runs <n>     cold starts of each server and of node -e 0, the median is reported (default 10)
  --only <list>       comma-separated subset of ${PHASES.join(',')} (default: all)
  --no-anvil          measure Shadebox alone
  --launcher <l>      how the Shadebox server is started: cli (shadebox node --json, built dist/; the default
                      when packages/cli exists), cli-source (the same from sources via tsx) or script
                      (bench/shadebox-server.ts via tsx)
  --profile           run the Shadebox server under node --cpu-prof and print its hottest functions in each
                      view window; also the agent phase's measured shadebox up stack
  --out <dir>         where the JSON goes (default bench/results)
  --deadline <s>      abort the whole run after this long (default ${DEFAULT_DEADLINE_S})`;

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '32' },
      'cold-runs': { type: 'string', default: '10' },
      only: { type: 'string' },
      'no-anvil': { type: 'boolean', default: false },
      launcher: { type: 'string' },
      profile: { type: 'boolean', default: false },
      out: { type: 'string', default: join(REPO_ROOT, 'bench', 'results') },
      deadline: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const num = (name: string, text: string, min: number) => {
    const n = Number(text);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number >= ${min}`);
    return n;
  };
  const phases = new Set<Phase>(
    (values.only ?? PHASES.join(',')).split(',').map((p) => {
      if (!PHASES.includes(p as Phase)) throw new Error(`--only: unknown phase ${p}`);
      return p as Phase;
    }),
  );
  const launcher = (values.launcher ?? (cliAvailable() ? 'cli' : 'script')) as Launcher;
  if (!LAUNCHERS.includes(launcher)) throw new Error(`--launcher must be one of ${LAUNCHERS.join(', ')}`);
  if (launcher !== 'script' && !cliAvailable()) {
    throw new Error(`--launcher ${launcher}: packages/cli/bin/shadebox.js not found`);
  }
  if (launcher === 'script' && (phases.has('agent') || phases.has('sandbox'))) {
    // shadebox up and near-sandbox are the CLI's: left out of a default run, an error when asked for.
    if (values.only !== undefined) throw new Error('agent and sandbox need the CLI: use --launcher cli');
    phases.delete('agent');
    phases.delete('sandbox');
  }
  const deadline = values.deadline ?? String(DEFAULT_DEADLINE_S);
  const outDir = values.out;
  return {
    concurrency: Math.floor(num('concurrency', values.concurrency, 1)),
    warmupMs: num('warmup', values.warmup, 0) * 1000,
    durationMs: num('duration', values.duration, 0.5) * 1000,
    coldStartRuns: Math.floor(num('cold-runs', values['cold-runs'], 1)),
    phases,
    anvil: !values['no-anvil'],
    launcher,
    profileDir: values.profile ? join(outDir, 'profiles') : undefined,
    outDir,
    deadlineMs: num('deadline', deadline, 10) * 1000,
  };
}
