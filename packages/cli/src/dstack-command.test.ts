/** `shadebox dstack` and `up --tee dstack`: the command lines they refuse before starting anything. */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCliInProcess as runCli, tempDir } from '../test-support/cli-in-process.js';

describe('shadebox dstack: usage', () => {
  it('names what is missing or wrong (exit 2)', async () => {
    const cwd = await tempDir();
    writeFileSync(join(cwd, 'compose.yaml'), 'services: {}\n');
    const cases: Array<[string[], RegExp]> = [
      [['dstack', '--compose', 'compose.yaml'], /missing --socket PATH/],
      [['dstack', '--socket', 's.sock'], /missing --compose FILE/],
      [
        ['dstack', '--socket', 's.sock', '--compose', 'nope.yaml'],
        /cannot read --compose \/.*nope\.yaml \(ENOENT\)/,
      ],
      [
        ['dstack', '--socket', 's.sock', '--compose', 'compose.yaml', '--mrtd', 'abcd'],
        /invalid value 'abcd' for --mrtd: expected 48 bytes in hex/,
      ],
      [
        ['dstack', '--socket', 's.sock', '--compose', 'compose.yaml', '--ppid', '00'.repeat(17)],
        /for --ppid: expected 16 bytes in hex/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, { cwd });
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, message);
      assert.match(r.stderr, /see 'shadebox dstack --help'/);
    }
    assert.ok(!existsSync(join(cwd, 's.sock')));
  });

  it('--help says it is simulated', async () => {
    const r = await runCli(['dstack', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /SIMULATED dstack guest agent/);
    assert.match(r.stdout, /not a TEE/);
    assert.match((await runCli(['--help'])).stdout, /dstack --socket PATH --compose FILE/);
  });
});

describe('shadebox up --tee: usage', () => {
  it('refuses what dstack mode cannot run with (exit 2, nothing started)', async () => {
    const cwd = await tempDir();
    const cases: Array<[string[], RegExp]> = [
      [['--tee', 'sgx'], /invalid value 'sgx' for --tee: expected local or dstack/],
      [['--dstack-compose', 'c.yaml'], /--dstack-compose needs --tee dstack/],
      [['--tee', 'local', '--dstack-socket', 's'], /--dstack-socket needs --tee dstack/],
      [['--tee', 'dstack', '--agent-key-file', 'k.json'], /drop --agent-key-file/],
      [
        ['--tee', 'dstack', '--agent-contract', 'v2', '--whitelist-all'],
        /--whitelist-all needs a 2\.0 agent contract in local mode: with --tee dstack it requires a TEE/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['up', '--rpc-port', '0', ...args], { cwd });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    assert.ok(!existsSync(join(cwd, '.shadebox')), 'no home was created');
    assert.match((await runCli(['up', '--help'])).stdout, /--tee local\|dstack/);
  });
});
