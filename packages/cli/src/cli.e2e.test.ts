/**
 * The command line through real processes: the exit codes and streams of the executable (usage errors exit 2
 * with help on stderr), and the bin launcher, built or from source. The parser, the help texts and every
 * usage error are tested in process in cli.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli, tempDir } from '../test-support/cli-process.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('shadebox process exit codes', () => {
  it('no command: help on stderr, exit 2', async () => {
    const { code, stdout, stderr } = await runCli([]);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /^Usage: shadebox/);
  });

  it('an unknown flag: one line on stderr naming it, exit 2, nothing done', async () => {
    const cwd = await tempDir();
    const { code, stdout, stderr } = await runCli(['node', '--frobnicate'], { cwd });
    assert.equal(code, 2, stderr);
    assert.equal(stdout, '');
    const lines = stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0]!, /^shadebox node: error: .*--frobnicate/);
    assert.equal(existsSync(join(cwd, '.shadebox')), false, 'a usage error does nothing');
  });
});

describe('bin/shadebox.js', () => {
  it('runs the CLI (built, or from source when not built)', async () => {
    const { code, stdout } = await runCli(['--version'], { bin: true });
    assert.equal(code, 0);
    assert.equal(stdout, `shadebox ${VERSION}\n`);
  });

  it('runs from source with SHADEBOX_FROM_SOURCE=1, workspace packages included', async () => {
    const cwd = await tempDir();
    const { code, stdout, stderr } = await runCli(['node', 'init', '--home', join(cwd, 'home')], {
      bin: true,
      cwd,
      env: { SHADEBOX_FROM_SOURCE: '1' },
    });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Initialised node home/);
    assert.ok(existsSync(join(cwd, 'home', 'genesis.json')));
  });
});

/** The environment the `shadebox node` started by the executable's path runs with (read from /proc once it is ready). */
async function nodeEnvironmentByPath(env: NodeJS.ProcessEnv): Promise<string[]> {
  const bin = fileURLToPath(new URL('../bin/shadebox.js', import.meta.url));
  const child = spawn(bin, ['node', '--memory', '--rpc-port', '0', '--json'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`shadebox node exited (${code}) before it was ready`)));
    });
    return readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
  } finally {
    child.kill('SIGTERM');
  }
}

describe('bin/shadebox.js run by its path (sh)', { skip: process.platform !== 'linux' }, () => {
  it("fixes glibc malloc's thresholds, so that freed native memory goes back to the system", async () => {
    const env = { ...process.env };
    delete env.GLIBC_TUNABLES;
    const environment = await nodeEnvironmentByPath(env);
    const tunables = environment.find((line) => line.startsWith('GLIBC_TUNABLES='));
    // glibc may cut the variable at its first ':' in place as it reads it; the first tunable is always there.
    assert.match(tunables ?? '', /^GLIBC_TUNABLES=glibc\.malloc\.mmap_threshold=65536(:|$)/);
  });

  it('keeps GLIBC_TUNABLES when the user set it', async () => {
    const environment = await nodeEnvironmentByPath({
      ...process.env,
      GLIBC_TUNABLES: 'glibc.malloc.arena_max=4',
    });
    assert.ok(environment.includes('GLIBC_TUNABLES=glibc.malloc.arena_max=4'), environment.join(' '));
  });
});
