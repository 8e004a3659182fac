/**
 * Runs one of `../shared/peer-suites/run-<name>` (another project's own test suite, unchanged) with
 * `node_modules/.bin/near-sandbox` as its binary, and hands back what it printed. The install is kept between
 * runs in SUITE_WORK (default: a folder in the temp dir per suite, named after a hash of the runner and of the
 * folders it installs from, `suiteWork`), so only the first run of a given suite pays for it, and a changed
 * suite installs anew: the runners install once per work folder (their `.installed` marker) and never look again.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BINARY = join(REPO_ROOT, 'node_modules', '.bin', 'near-sandbox');

const PEER_SUITES = join(REPO_ROOT, '..', 'shared', 'peer-suites');
const runnerOf = (name: string) => join(PEER_SUITES, `run-${name}`);

/** Every file under `path` (a file or a folder), in a fixed order: its path relative to the suites, its bytes. */
function hashTree(hash: Hash, path: string, relative: string): void {
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) hashTree(hash, join(path, entry), `${relative}/${entry}`);
    return;
  }
  const bytes = readFileSync(path);
  hash.update(`${relative}\0${bytes.length}\0`);
  hash.update(bytes);
}

/**
 * The hash an install of suite `name` is kept under: its runner script (how it installs) and every folder beside
 * it the runner names as `$here/<folder>` (what it copies and installs: package.json, lock files, sources).
 * Files the runner copies afresh at every run (the Shade Agent Framework's scenario) are not folders: left out.
 */
export function suiteHash(name: string): string {
  const hash = createHash('sha256');
  const runner = readFileSync(runnerOf(name));
  hash.update(runner);
  const named = new Set([...runner.toString('utf8').matchAll(/\$here\/([\w.-]+)/g)].map((m) => m[1]!));
  for (const entry of [...named].sort()) {
    const path = join(PEER_SUITES, entry);
    if (existsSync(path) && statSync(path).isDirectory()) hashTree(hash, path, entry);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The work folder of suite `name`: SUITE_WORK when set (kept as given), else `shadebox-peer-<name>-<hash>` in the
 * temp dir. The installs of earlier versions of the suite (the same name, another hash) are removed.
 */
export function suiteWork(name: string): string {
  if (process.env.SUITE_WORK) return process.env.SUITE_WORK;
  const folder = `shadebox-peer-${name}-${suiteHash(name)}`;
  const stale = new RegExp(`^shadebox-peer-${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9a-f]{16}$`);
  for (const entry of readdirSync(tmpdir())) {
    if (entry !== folder && stale.test(entry))
      rmSync(join(tmpdir(), entry), { recursive: true, force: true });
  }
  return join(tmpdir(), folder);
}

/** The test's `skip`: a reason when `../shared/peer-suites` does not hold the suite's runner. */
export function peerSuiteSkip(name: string): string | false {
  const runner = runnerOf(name);
  return existsSync(runner)
    ? false
    : `../shared/peer-suites is absent (${runner} not found): ${name}'s suite cannot run`;
}

/** Runs the suite to its end: its exit code and its output (stdout and stderr, colour codes removed). */
export async function runPeerSuite(name: string): Promise<{ code: number | null; output: string }> {
  assert.ok(existsSync(BINARY), `${BINARY} is missing: run npm install`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SUITE_WORK: suiteWork(name),
  };
  delete env.NODE_OPTIONS;
  delete env.SHADEBOX_LOG;
  const child = spawn(runnerOf(name), [BINARY], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  // Some runners colour their output even into a pipe when the environment asks for colour.
  return { code, output: stripVTControlCharacters(output) };
}
