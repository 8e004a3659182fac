/**
 * The command line in process (`runCli` with its output captured, nothing spawned): help texts, version, and
 * the usage errors (exit 2, one line on stderr naming the flag, nothing done). cli.e2e.test.ts checks the
 * same through the real executable.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCliInProcess as runCli, tempDir } from '../test-support/cli-in-process.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('shadebox help and version', () => {
  it('--help lists the commands', async () => {
    const { code, stdout, stderr } = await runCli(['--help']);
    assert.equal(code, 0);
    assert.equal(stderr, '');
    assert.match(stdout, /^Usage: shadebox <command>/);
    for (const command of ['up', 'node', 'node init', '--version'])
      assert.ok(stdout.includes(command), command);
  });

  it('help <command> shows that command', async () => {
    const { code, stdout } = await runCli(['help', 'up']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: shadebox up/);
  });

  it('node --help documents every flag', async () => {
    const { code, stdout, stderr } = await runCli(['node', '--help']);
    assert.equal(code, 0);
    assert.equal(stderr, '');
    assert.match(stdout, /^Usage: shadebox node \[options\]/);
    for (const flag of [
      '--home DIR',
      '--memory',
      '--host H',
      '--rpc-port P',
      '--block-time MS',
      '--manual',
      '--num-shards N',
      '--json',
      './.shadebox/node',
      'SHADEBOX_LOG',
    ]) {
      assert.ok(stdout.includes(flag), flag);
    }
  });

  it('node init --help names the four files', async () => {
    const { code, stdout } = await runCli(['node', 'init', '--help']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: shadebox node init/);
    for (const text of [
      'genesis.json',
      'config.json',
      'validator_key.json',
      'node_key.json',
      '--force',
      '--chain-id',
    ])
      assert.ok(stdout.includes(text), text);
  });

  it('up --help describes the stack and its flags', async () => {
    const { code, stdout } = await runCli(['up', '-h']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: shadebox up/);
    assert.match(stdout, /agent API on port 3140/);
    for (const text of [
      '--reset',
      '--memory',
      '--rpc-port P',
      '3030',
      './.shadebox',
      '--agent-port P',
      'agent-ready',
    ])
      assert.ok(stdout.includes(text), text);
  });

  it('--version prints the package version', async () => {
    const { code, stdout } = await runCli(['--version']);
    assert.equal(code, 0);
    assert.equal(stdout, `shadebox ${VERSION}\n`);
  });

  it('no command: help on stderr, exit 2', async () => {
    const { code, stdout, stderr } = await runCli([]);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /^Usage: shadebox/);
  });
});

describe('shadebox usage errors', () => {
  const cases: Array<{ args: string[]; names: string[] }> = [
    { args: ['node', '--rpc-port', 'abc'], names: ['--rpc-port', 'abc'] },
    { args: ['node', '--rpc-port', '65536'], names: ['--rpc-port'] },
    { args: ['node', '--rpc-port'], names: ['--rpc-port'] },
    { args: ['node', '--block-time', '-5'], names: ['--block-time', '-5'] },
    { args: ['node', '--block-time', '1.5'], names: ['--block-time'] },
    { args: ['node', '--manual', '--block-time', '100'], names: ['--block-time', '--manual'] },
    { args: ['node', '--home', 'somewhere', '--memory'], names: ['--home', '--memory'] },
    { args: ['node', '--frobnicate'], names: ['--frobnicate'] },
    { args: ['node', '--json=yes'], names: ['--json'] },
    { args: ['node', '--num-shards', '0'], names: ['--num-shards'] },
    { args: ['node', '--host', ''], names: ['--host'] },
    { args: ['node', 'stray'], names: ['stray'] },
    { args: ['node', 'init', '--chain-id', 'no spaces'], names: ['--chain-id'] },
    { args: ['node', 'init', '--memory'], names: ['--memory'] },
    { args: ['up', '--rpc-port', '-1'], names: ['--rpc-port'] },
    { args: ['up', '--memory', '--reset'], names: ['--memory', '--reset'] },
    { args: ['up', '--block-time', '0'], names: ['--block-time'] },
    { args: ['up', '--manual', '--block-time', '100'], names: ['--block-time', '--manual'] },
    { args: ['up', '--num-shards', '65'], names: ['--num-shards'] },
    { args: ['up', '--accounts', '1001'], names: ['--accounts'] },
    { args: ['node', '--accounts', 'ten'], names: ['--accounts'] },
    { args: ['node', '--seed', ''], names: ['--seed'] },
    { args: ['launch'], names: ['launch'] },
    { args: ['--verbose'], names: ['--verbose'] },
  ];
  for (const { args, names } of cases) {
    it(`${args.join(' ')} -> exit 2 naming ${names.join(', ')}`, async () => {
      const cwd = await tempDir();
      const { code, stdout, stderr } = await runCli(args, { cwd });
      assert.equal(code, 2, stderr);
      assert.equal(stdout, '');
      const lines = stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0]!, /^shadebox( node( init)?| up)?: error: /);
      for (const name of names) assert.ok(lines[0]!.includes(name), `${lines[0]} names ${name}`);
      assert.equal(existsSync(join(cwd, '.shadebox')), false, 'a usage error does nothing');
    });
  }

  it('an invalid SHADEBOX_LOG is a usage error', async () => {
    const { code, stderr } = await runCli(['node', '--memory'], { env: { SHADEBOX_LOG: 'loud' } });
    assert.equal(code, 2);
    assert.match(stderr, /SHADEBOX_LOG/);
  });
});

describe('shadebox node --mpc flags', () => {
  it('--mpc-contract-id needs --mpc and a valid account id', async () => {
    const a = await runCli(['node', '--memory', '--mpc-contract-id', 'signer.test.near']);
    assert.equal(a.code, 2);
    assert.match(a.stderr, /--mpc-contract-id needs --mpc/);
    const b = await runCli(['node', '--memory', '--mpc', '--mpc-contract-id', 'Not Valid']);
    assert.equal(b.code, 2);
    assert.match(b.stderr, /not a valid NEAR account id/);
  });

  it('--yield-block-time takes positive milliseconds, and is automine only', async () => {
    for (const command of ['node', 'up']) {
      const bad = await runCli([command, '--memory', '--yield-block-time', '0']);
      assert.equal(bad.code, 2, `${command}: ${bad.stderr}`);
      assert.match(bad.stderr, /--yield-block-time/);
    }
    const both = await runCli(['node', '--memory', '--manual', '--yield-block-time', '5']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--manual and --yield-block-time cannot be used together/);
  });

  it('up takes --mpc-contract-id, a valid account id', async () => {
    const c = await runCli(['up', '--memory', '--mpc-contract-id', 'Not Valid']);
    assert.equal(c.code, 2);
    assert.match(c.stderr, /invalid value 'Not Valid' for --mpc-contract-id: not a valid NEAR account id/);
  });
});
