/**
 * A home belongs to one process, through real processes: while `shadebox node` runs on a stack's node home, a
 * second node, `shadebox node init --force` and `shadebox up --reset` are refused with a message naming the
 * running process, and nothing of the home is touched; a clean stop releases it.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CliProcess, rpc, runCli, tempDir } from '../test-support/cli-process.js';
import type { ReadyEvent } from './print-ready.js';

describe('one process per home', () => {
  it('a second node, init --force and up --reset are refused while a node runs; a clean stop releases the home', {
    timeout: 180_000,
  }, async () => {
    const stack = join(await tempDir(), 'stack');
    const home = join(stack, 'node');
    const first = new CliProcess(['node', '--home', home, '--rpc-port', '0', '--json']);
    const ready = JSON.parse(await first.firstLine()) as ReadyEvent;
    const pid = first.child.pid!;
    const genesis = await readFile(join(home, 'genesis.json'), 'utf8');
    const holder = new RegExp(
      `is in use by process ${pid} \\(shadebox node --home ${home} .*\\) since \\d{4}-`,
    );

    const second = await runCli(['node', '--home', home, '--rpc-port', '0', '--json']);
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, /^shadebox node: error: /);
    assert.match(second.stderr, holder);
    assert.match(second.stderr, new RegExp(`stop it first \\(Ctrl-C in its terminal, or kill ${pid}\\)`));
    assert.equal(second.stdout, '');

    const init = await runCli(['node', 'init', '--home', home, '--force']);
    assert.equal(init.code, 1, init.stderr);
    assert.match(init.stderr, holder);

    const reset = await runCli(['up', '--home', stack, '--reset', '--rpc-port', '0', '--agent-port', '0']);
    assert.equal(reset.code, 1, reset.stderr);
    assert.match(reset.stderr, /refusing to delete .* for --reset: its node is running: process \d+/);
    assert.match(reset.stderr, new RegExp(`process ${pid} `));

    // The running node's home and chain are untouched and it still answers.
    assert.equal(await readFile(join(home, 'genesis.json'), 'utf8'), genesis);
    assert.ok(existsSync(join(home, 'data')));
    await rpc(ready.rpcUrl, 'status');

    const exit = await first.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(existsSync(join(home, 'shadebox.lock')), false);
    const again = await runCli(['node', 'init', '--home', home, '--force']);
    assert.equal(again.code, 0, again.stderr);
  });
});
