/**
 * Starting the Shadebox node as a separate process, so the load generator never shares its event loop.
 *
 * Launchers, each printing one JSON ready line `{ event: 'ready', rpcUrl, accounts: [...] }`:
 * - `cli`: `shadebox node --memory --rpc-port 0 --json` (packages/cli/bin/shadebox.js), which runs the built
 *   packages (dist/) — what a user runs;
 * - `cli-source`: the same with SHADEBOX_FROM_SOURCE=1, the TypeScript sources compiled on the fly by tsx;
 * - `script`: bench/shadebox-server.ts (startNode from @shadebox/node, sources through tsx), for when the CLI
 *   is missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnTracked, type TrackedChild } from './processes.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_SCRIPT = join(REPO_ROOT, 'bench', 'shadebox-server.ts');
const CLI_BIN = join(REPO_ROOT, 'packages', 'cli', 'bin', 'shadebox.js');

export const LAUNCHERS = ['cli', 'cli-source', 'script'] as const;
export type Launcher = (typeof LAUNCHERS)[number];

export const LAUNCHER_DESCRIPTIONS: Record<Launcher, string> = {
  cli: 'shadebox node --memory --rpc-port 0 --json (built dist/)',
  'cli-source': 'shadebox node with SHADEBOX_FROM_SOURCE=1 (sources via tsx)',
  script: 'bench/shadebox-server.ts (sources via tsx)',
};

export interface ShadeboxAccount {
  accountId: string;
  secretKey: string;
}

export interface ShadeboxServer {
  rpcUrl: string;
  pid: number;
  /** The funded genesis account (test.near) when the ready line gives its key. */
  account: ShadeboxAccount | undefined;
  /** Spawn to ready line, ms. */
  readyMs: number;
  /** With `--mpc`: the signer contract (`signer.test.near`) and the agent contract named by the ready line. */
  mpcContractId: string | undefined;
  agentContractId: string | undefined;
  process: TrackedChild;
  stop(): Promise<void>;
}

export interface StartShadeboxOptions {
  launcher: Launcher;
  /** Write a V8 CPU profile of the server into this directory (node --cpu-prof). */
  cpuProfileDir?: string;
  timeoutMs?: number;
  /**
   * Run on an LMDB home in this directory (`--home DIR`, created on first start, kept afterwards) instead of
   * `--memory`. Not with the `script` launcher.
   */
  home?: string;
  /** `--archival`: keep all history (no garbage collection). */
  archival?: boolean;
  /** More `shadebox node` flags, placed before `--rpc-port 0 --json` (e.g. `['--mpc']`). Not with `script`. */
  extraArgs?: readonly string[];
  /**
   * The CLI command: `node` (the default) or `up` (the whole stack: node, chain-signature contracts, MPC
   * responder and agent API, in one process). Not with `script`.
   */
  subcommand?: 'node' | 'up';
}

export function cliAvailable(): boolean {
  return existsSync(CLI_BIN);
}

export function shadeboxCommand(options: StartShadeboxOptions): {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
} {
  const flags: string[] = [];
  if (options.cpuProfileDir) flags.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`);
  const env: NodeJS.ProcessEnv = { ...process.env, SHADEBOX_LOG: process.env.SHADEBOX_LOG ?? 'warn' };
  delete env.SHADEBOX_FROM_SOURCE;
  if (options.launcher === 'script') {
    if (options.home !== undefined || options.archival) {
      throw new Error('the script launcher runs in memory only: use --launcher cli or cli-source');
    }
    if ((options.subcommand ?? 'node') !== 'node') {
      throw new Error(
        `the script launcher cannot run shadebox ${options.subcommand}: use --launcher cli or cli-source`,
      );
    }
    if (options.extraArgs?.length) {
      throw new Error(
        `the script launcher takes no CLI flags (${options.extraArgs.join(' ')}): use --launcher cli or cli-source`,
      );
    }
    return {
      command: process.execPath,
      args: ['--conditions=source', '--import', 'tsx', ...flags, SERVER_SCRIPT],
      env,
    };
  }
  if (options.launcher === 'cli-source') env.SHADEBOX_FROM_SOURCE = '1';
  // By its path, as `npx shadebox` and node_modules/.bin run it (its first line is for sh: see
  // packages/cli/bin/shadebox.js), unless Node itself takes flags (--cpu-prof).
  const [command, ...before] = flags.length === 0 ? [CLI_BIN] : [process.execPath, ...flags, CLI_BIN];
  return {
    command,
    args: [
      ...before,
      options.subcommand ?? 'node',
      ...(options.home === undefined ? ['--memory'] : ['--home', options.home]),
      ...(options.archival ? ['--archival'] : []),
      ...(options.extraArgs ?? []),
      '--rpc-port',
      '0',
      '--json',
    ],
    env,
  };
}

export async function startShadebox(options: StartShadeboxOptions): Promise<ShadeboxServer> {
  const { command, args, env } = shadeboxCommand(options);
  const child = spawnTracked(command, args, { cwd: REPO_ROOT, env, keepStdinOpen: true });
  try {
    const { value, at } = await child.waitForLine(parseReadyLine, options.timeoutMs ?? 30_000);
    return {
      rpcUrl: value.rpcUrl,
      account: value.account,
      mpcContractId: value.mpcContractId,
      agentContractId: value.agentContractId,
      pid: child.pid,
      readyMs: at - child.spawnedAt,
      process: child,
      stop: () => child.stop(),
    };
  } catch (error) {
    await child.stop(500);
    throw error;
  }
}

/**
 * Accepts a JSON line that names an RPC URL (rpcUrl, rpc_url or url), with the genesis key and (with `--mpc`)
 * the chain-signature contracts when present.
 */
export function parseReadyLine(line: string):
  | {
      rpcUrl: string;
      account: ShadeboxAccount | undefined;
      mpcContractId: string | undefined;
      agentContractId: string | undefined;
    }
  | undefined {
  if (!line.startsWith('{')) return undefined;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const rpcUrl = [json.rpcUrl, json.rpc_url, json.url].find((v): v is string => typeof v === 'string');
  if (!rpcUrl) return undefined;
  const first = Array.isArray(json.accounts)
    ? (json.accounts[0] as Record<string, unknown> | undefined)
    : undefined;
  const accountId = first?.accountId ?? first?.account_id;
  const secretKey = first?.secretKey ?? first?.secret_key;
  const account =
    typeof accountId === 'string' && typeof secretKey === 'string' ? { accountId, secretKey } : undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    rpcUrl,
    account,
    mpcContractId: text(json.mpcContractId),
    agentContractId: text(json.agentContractId),
  };
}

/**
 * Packages whose built dist/ is older than their src/ (the `cli` launcher would measure old code), or
 * lacks one. Empty when every build is current.
 */
export function staleBuilds(): string[] {
  const stale: string[] = [];
  for (const pkg of ['primitives', 'node', 'cli']) {
    const dir = join(REPO_ROOT, 'packages', pkg);
    const src = newestMtime(join(dir, 'src'), (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const dist = newestMtime(join(dir, 'dist'), (f) => f.endsWith('.js'));
    if (dist === 0) stale.push(`${pkg} (no dist/)`);
    else if (src > dist) stale.push(`${pkg} (src/ newer than dist/ by ${Math.round((src - dist) / 1000)} s)`);
  }
  return stale;
}

function newestMtime(dir: string, accept: (file: string) => boolean): number {
  let newest = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!accept(entry)) continue;
    newest = Math.max(newest, statSync(join(dir, entry)).mtimeMs);
  }
  return newest;
}

/** The CLI's bundler (packages/cli/scripts/bundle-cli.mjs): both executables' bundles and their code caches. */
const BUNDLE_SCRIPT = join(REPO_ROOT, 'packages', 'cli', 'scripts', 'bundle-cli.mjs');

/**
 * What `npm install` leaves (the executables run their bundles): when a later `tsc -b` made a bundle stale, the
 * executable would run the unbundled build instead, which is not what a user runs (a slower start, more memory),
 * so the bundles are made again first. Returns whether it had to.
 */
export async function ensureFreshBundle(): Promise<boolean> {
  const { bundlesFresh } = (await import(pathToFileURL(BUNDLE_SCRIPT).href)) as {
    bundlesFresh: () => Promise<boolean>;
  };
  if (await bundlesFresh()) return false;
  execFileSync(process.execPath, [BUNDLE_SCRIPT], { stdio: 'inherit' });
  return true;
}
