/**
 * Command-line options of `npm run bench -- [options]`.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cliAvailable, LAUNCHERS, type Launcher, REPO_ROOT } from './shadebox-node.js';

export type Phase =
  | 'cold'
  | 'read'
  | 'transfers'
  | 'contracts'
  | 'chainsig'
  | 'agent'
  | 'history'
  | 'store-size'
  | 'restart'
  | 'sandbox'
  | 'install';
const PHASES: readonly Phase[] = [
  'cold',
  'read',
  'transfers',
  'contracts',
  'chainsig',
  'agent',
  'history',
  'store-size',
  'restart',
  'sandbox',
  'install',
];
/**
 * What runs without --only: the Shadebox-only archival metrics take minutes and are opt-in, as is `install`
 * (a clone and a whole `npm install`).
 */
const DEFAULT_PHASES: readonly Phase[] = [
  'cold',
  'read',
  'transfers',
  'contracts',
  'chainsig',
  'agent',
  'sandbox',
];
/** The deadline without --deadline: longer when an archival metric (minutes of block making) is asked for. */
const DEFAULT_DEADLINE_S = 200;
/** Added when `install` is listed: the clone, `npm install` (at most 600 s) and removing the clone. */
const INSTALL_S = 660;
const ARCHIVAL_DEADLINE_S = 900;
/** Added when the chainsig phase runs: it measures the production signer too (its own node and requests). */
const CHAINSIG_PRODUCTION_S = 180;

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
  --concurrency <n>   connections for reads and view calls, signers for transfers and contract calls
                      (default 32)
  --cold-runs <n>     cold starts per server, the median is reported (default 10; from sources at most 5)
  --only <list>       comma-separated subset of: cold,read,transfers,contracts,chainsig,agent,sandbox (the
                      default; sandbox: the near-sandbox executable, init + run to the first GET /status,
                      median of 10), the opt-in Shadebox-only archival metrics history,store-size,restart
                      (minutes each), and install (npm install in a fresh clone of HEAD, about a minute)
  --no-anvil          measure Shadebox alone
  --launcher <l>      how the Shadebox server is started: cli (shadebox node --json, built dist/; the default
                      when packages/cli exists), cli-source (the same from sources via tsx) or script
                      (bench/shadebox-server.ts via tsx)
  --profile           write a CPU profile of the Shadebox server (node --cpu-prof) and summarize it; also of
                      the agent phase's measured shadebox up stack
  --out <dir>         where the JSON goes (default bench/results)
  --deadline <s>      abort the whole run after this long (default 200; 900 with history, store-size or
                      restart; 180 more with chainsig, which measures NEAR's production signer too; 660 more
                      with install)`;

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
    (values.only ?? DEFAULT_PHASES.join(',')).split(',').map((p) => {
      if (!PHASES.includes(p as Phase)) throw new Error(`--only: unknown phase ${p}`);
      return p as Phase;
    }),
  );
  const launcher = (values.launcher ?? (cliAvailable() ? 'cli' : 'script')) as Launcher;
  if (!LAUNCHERS.includes(launcher)) throw new Error(`--launcher must be one of ${LAUNCHERS.join(', ')}`);
  if (launcher !== 'script' && !cliAvailable()) {
    throw new Error(`--launcher ${launcher}: packages/cli/bin/shadebox.js not found`);
  }
  const archivalMetric = ['history', 'store-size', 'restart'].some((p) => phases.has(p as Phase));
  if (phases.has('chainsig') && launcher === 'script') {
    // shadebox node --mpc is a CLI flag: without --only the phase is left out, asked for it is an error.
    if (values.only !== undefined) {
      throw new Error('chainsig needs shadebox node --mpc: use --launcher cli or cli-source');
    }
    phases.delete('chainsig');
  }
  if (phases.has('agent') && launcher === 'script') {
    // The same for shadebox up, a CLI command.
    if (values.only !== undefined)
      throw new Error('agent needs shadebox up: use --launcher cli or cli-source');
    phases.delete('agent');
  }
  if (archivalMetric && launcher === 'script') {
    throw new Error('history, store-size and restart need an LMDB home: use --launcher cli or cli-source');
  }
  const deadline =
    values.deadline ??
    String(
      (archivalMetric ? ARCHIVAL_DEADLINE_S : DEFAULT_DEADLINE_S) +
        (phases.has('chainsig') ? CHAINSIG_PRODUCTION_S : 0) +
        (phases.has('install') ? INSTALL_S : 0),
    );
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
