/**
 * `shadebox derive` and `shadebox sign` in process: help, usage errors (exit 2), and where sign finds the agent
 * API (the home's stack.json: missing, stale, running); the stack record's write, read and remove.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCliInProcess, tempDir } from '../test-support/cli-in-process.js';
import { MAIN_HELP } from './cli.js';
import {
  readStackRecord,
  removeStackRecord,
  STACK_RECORD_FILE,
  type StackRecord,
  writeStackRecord,
} from './stack-record.js';

/** A pid no process has (above the kernel's pid_max). */
const NO_PROCESS = 2 ** 30;

const record = (pid: number, agentApiUrl: string): StackRecord => ({
  pid,
  rpcUrl: 'http://127.0.0.1:9',
  agentApiUrl,
  startedAt: new Date(0).toISOString(),
});

describe('shadebox derive', () => {
  it('is in the main help and has its own', async () => {
    assert.match(MAIN_HELP, /^ {2}derive P PATH --chain C$/m);
    const r = await runCliInProcess(['derive', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: shadebox derive PREDECESSOR PATH --chain evm\|bitcoin\|solana\|near/);
  });

  it('refuses a bad command line with exit 2', async () => {
    for (const [args, message] of [
      [['derive', 'agent.test.near'], /expected PREDECESSOR and PATH/],
      [['derive', 'agent.test.near', 'p'], /--chain is required/],
      [['derive', 'agent.test.near', 'p', '--chain', 'eth'], /invalid value 'eth' for --chain/],
      [['derive', 'Not An Account', 'p', '--chain', 'evm'], /invalid account id 'Not An Account'/],
      [['derive', 'a.near', 'p', 'extra', '--chain', 'evm'], /unexpected argument 'extra'/],
      [
        ['derive', 'a.near', 'p', '--chain', 'evm', '--rpc', 'ftp://x'],
        /invalid value 'ftp:\/\/x' for --rpc/,
      ],
      [['derive', 'a.near', 'p', '--chain', 'evm', '--mpc-contract-id', 'A'], /--mpc-contract-id/],
    ] as const) {
      const r = await runCliInProcess(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });
});

describe('shadebox sign', () => {
  it('is in the main help and has its own', async () => {
    assert.match(MAIN_HELP, /^ {2}sign PATH PAYLOAD$/m);
    const r = await runCliInProcess(['sign', '-h']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: shadebox sign PATH PAYLOAD \[--key-type Ecdsa\|Eddsa\]/);
  });

  it('refuses a bad command line with exit 2', async () => {
    for (const [args, message] of [
      [['sign', 'p'], /expected PATH and PAYLOAD/],
      [['sign', 'p', 'abc'], /invalid PAYLOAD 'abc'/],
      [['sign', 'p', '0x'], /invalid PAYLOAD '0x'/],
      [['sign', 'p', 'zz'], /invalid PAYLOAD 'zz'/],
      [['sign', 'p', 'ab', '--key-type', 'ecdsa'], /invalid value 'ecdsa' for --key-type/],
      [
        ['sign', 'p', 'ab', '--agent-api', 'localhost:3140'],
        /invalid value 'localhost:3140' for --agent-api/,
      ],
    ] as const) {
      const r = await runCliInProcess(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });

  it('without --agent-api: no record, a stale record and a broken one each say what to do (exit 1)', async () => {
    const cwd = await tempDir();
    const none = await runCliInProcess(['sign', 'p', 'ab'.repeat(32)], { cwd });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no running stack in .*\.shadebox \(no stack\.json\)/);
    assert.match(none.stderr, /'shadebox up --memory' has no home, so with it pass --agent-api/);

    const home = join(cwd, 'home');
    mkdirSync(home);
    writeStackRecord(home, record(NO_PROCESS, 'http://127.0.0.1:9/api/agent'));
    const stale = await runCliInProcess(['sign', 'p', 'ab'.repeat(32), '--home', 'home'], { cwd });
    assert.equal(stale.code, 1);
    assert.match(
      stale.stderr,
      new RegExp(`the stack recorded in .*stack\\.json \\(pid ${NO_PROCESS}\\) is not running`),
    );

    writeFileSync(join(home, STACK_RECORD_FILE), '{"pid":');
    const broken = await runCliInProcess(['sign', 'p', 'ab'.repeat(32), '--home', 'home'], { cwd });
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /stack\.json is not a stack record \(not JSON\); pass --agent-api URL/);
  });

  it('asks the agent API the record names, and says when it does not answer', async () => {
    const cwd = await tempDir();
    // This process runs: the record is live, and nothing listens on port 9.
    writeStackRecord(cwd, record(process.pid, 'http://127.0.0.1:9/api/agent'));
    const r = await runCliInProcess(['sign', 'p', `0x${'ab'.repeat(32)}`, '--home', '.'], { cwd });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      "shadebox sign: error: no answer from the agent API at http://127.0.0.1:9/api/agent; is the stack running? Start it with 'shadebox up', or pass --agent-api URL\n",
    );
    // --agent-api without a path gets the base path.
    const flag = await runCliInProcess(['sign', 'p', 'ab'.repeat(32), '--agent-api', 'http://127.0.0.1:9']);
    assert.match(flag.stderr, /at http:\/\/127\.0\.0\.1:9\/api\/agent;/);
  });
});

describe('the stack record', () => {
  it('is written, read with whether its process runs, and removed only by its own process', async () => {
    const home = await tempDir();
    assert.equal(readStackRecord(home), null);
    const mine = {
      ...record(process.pid, 'http://127.0.0.1:3140/api/agent'),
      evmRpcUrl: 'http://127.0.0.1:8545',
    };
    writeStackRecord(home, mine);
    assert.deepEqual(readStackRecord(home), {
      record: mine,
      running: true,
      path: join(home, STACK_RECORD_FILE),
    });
    removeStackRecord(home, process.pid + 1);
    assert.notEqual(readStackRecord(home), null, "another process's stop leaves it");
    removeStackRecord(home);
    assert.equal(readStackRecord(home), null);
    writeStackRecord(home, record(NO_PROCESS, ''));
    assert.equal(readStackRecord(home)?.running, false);
    writeFileSync(join(home, STACK_RECORD_FILE), '{"pid": 1}');
    assert.throws(
      () => readStackRecord(home),
      /is not a stack record \(expected pid, rpcUrl and agentApiUrl\)/,
    );
  });
});
