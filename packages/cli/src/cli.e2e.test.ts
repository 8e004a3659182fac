/**
 * The command line through real processes: the exit codes and streams of the executable (usage errors exit 2
 * with help on stderr), and the bin launcher, built or from source. The parser, the help texts and every
 * usage error are tested in process in cli.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
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
