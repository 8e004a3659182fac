/**
 * Runs one of `../shared/peer-suites/run-<name>` (another project's own test suite, unchanged) with
 * `node_modules/.bin/near-sandbox` as its binary, and hands back what it printed. The install is kept between
 * runs in SUITE_WORK (default: a fixed folder in the temp dir per suite), so only the first run pays for it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BINARY = join(REPO_ROOT, 'node_modules', '.bin', 'near-sandbox');

const runnerOf = (name: string) => join(REPO_ROOT, '..', 'shared', 'peer-suites', `run-${name}`);

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
    SUITE_WORK: process.env.SUITE_WORK ?? join(tmpdir(), `shadebox-peer-${name}`),
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
