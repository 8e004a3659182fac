/**
 * `npm install` on a fresh clone (opt-in `install` phase, Shadebox only): the repository's HEAD commit is
 * cloned into a new temp directory (`git clone --no-checkout`, then `git checkout <commit>`: what is
 * committed, not the worktree's uncommitted changes), and `npm install` is timed there from spawn to exit.
 * Its `prepare` script builds the TypeScript, the contracts, the explorer and the near-sandbox bundle, so the
 * time includes them; the run then checks that the CLI, the node's build and the contracts are there. npm's
 * cache is left as it is and reported (its folder and size): a warm cache makes the install faster.
 * Then what the clone's first `npm test` adds is timed apart: the test clients (`node scripts/test-clients.mjs`,
 * an `npm ci` in test-clients/), not part of `npm install`. The temp directory is removed afterwards.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../shadebox-node.js';

export interface NpmInstallResult {
  commit: string;
  /** The worktree had uncommitted changes when the run started (the clone does not hold them). */
  worktreeDirty: boolean;
  npmVersion: string;
  /** npm's cache folder, its size before the install (bytes) and a short description for the table. */
  cacheDir: string;
  cacheBytesBefore: number;
  /** Its size after the install: growth means npm downloaded packages the cache did not hold. */
  cacheBytesAfter: number;
  cacheState: string;
  cloneMs: number;
  /** Spawn of `npm install` to its exit, ms. */
  installMs: number;
  /** Then `node scripts/test-clients.mjs` (what the first `npm test` installs), spawn to exit, ms. */
  testClientsMs?: number;
}

/** Files a finished install must have built. */
const BUILT = [
  'packages/cli/bin/shadebox.js',
  'packages/node/dist/index.js',
  'packages/contracts/build/signer.wasm',
  'packages/contracts/build/agent.wasm',
];

function git(args: string[], cwd = REPO_ROOT): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr.trim()}`);
  return run.stdout.trim();
}

/** The environment of a user's shell: without what `npm run bench` put in it (npm_* variables). */
function plainEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('npm_') || key === 'INIT_CWD' || key === 'NODE_OPTIONS') delete env[key];
  }
  delete env.SHADEBOX_FROM_SOURCE;
  return env;
}

function du(path: string): number {
  const run = spawnSync('du', ['-sb', path], { encoding: 'utf8', timeout: 60_000 });
  return run.status === 0 ? Number(run.stdout.split('\t')[0]) : Number.NaN;
}

function runTimed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<{ ms: number; code: number | null; tail: string }>((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-2000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - t0, code, tail });
    });
  });
}

export async function measureNpmInstall(timeoutMs = 600_000): Promise<NpmInstallResult> {
  const commit = git(['rev-parse', 'HEAD']);
  const worktreeDirty = git(['status', '--porcelain', '--untracked-files=no']).length > 0;
  const env = plainEnv();
  const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8', env }).stdout.trim();
  const cacheDir = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', env }).stdout.trim();
  const cacheBytesBefore = existsSync(cacheDir) ? du(cacheDir) : 0;
  const cacheState =
    cacheBytesBefore > 0 ? `${(cacheBytesBefore / 1024 / 1024).toFixed(0)} MiB in ${cacheDir}` : 'empty';

  const dir = await mkdtemp(join(tmpdir(), 'bench-install-'));
  try {
    const repo = join(dir, 'shadebox');
    const c0 = performance.now();
    git(['clone', '--quiet', '--no-hardlinks', '--no-checkout', REPO_ROOT, repo], dir);
    git(['checkout', '--quiet', commit], repo);
    const cloneMs = performance.now() - c0;
    const install = await runTimed('npm', ['install'], repo, env, timeoutMs);
    if (install.code !== 0) {
      throw new Error(`npm install exited with ${install.code}: ${install.tail.slice(-500)}`);
    }
    const missing = BUILT.filter((f) => !existsSync(join(repo, f)));
    if (missing.length > 0) throw new Error(`npm install did not build ${missing.join(', ')}`);
    const cacheBytesAfter = existsSync(cacheDir) ? du(cacheDir) : 0;
    const clients = await runTimed(process.execPath, ['scripts/test-clients.mjs'], repo, env, timeoutMs);
    if (clients.code !== 0) {
      throw new Error(`scripts/test-clients.mjs exited with ${clients.code}: ${clients.tail.slice(-500)}`);
    }
    const round = (ms: number) => Math.round(ms);
    return {
      commit,
      worktreeDirty,
      npmVersion,
      cacheDir,
      cacheBytesBefore,
      cacheBytesAfter,
      cacheState,
      cloneMs: round(cloneMs),
      installMs: round(install.ms),
      testClientsMs: round(clients.ms),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
