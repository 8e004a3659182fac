/**
 * `shadebox up --agent-key-file FILE` on one home, started twice: the same agent account both times (the key
 * file created 0600 by the first), and the second start funds it with no transfer (its balance is what the
 * first run left).
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RpcClient, viewAccount } from '@shadebox/near-client';
import { CliProcess, tempDir } from '../test-support/cli-process.js';

async function runStack(cwd: string): Promise<{ agentAccountId: string; balance: bigint }> {
  const up = new CliProcess(
    [
      'up',
      '--home',
      'stack',
      '--rpc-port',
      '0',
      '--agent-port',
      '0',
      '--agent-key-file',
      'agent-key.json',
      '--json',
    ],
    { cwd },
  );
  try {
    const ready = JSON.parse(await up.firstLine()) as { rpcUrl: string };
    await up.stdoutIncludes('"agent-ready"');
    const line = up.stdout.split('\n').find((l) => l.includes('"agent-ready"'))!;
    const { agentAccountId } = JSON.parse(line) as { agentAccountId: string };
    const account = await viewAccount(new RpcClient(ready.rpcUrl, 10_000), agentAccountId);
    return { agentAccountId, balance: account!.amount };
  } finally {
    const exit = await up.stop('SIGINT');
    assert.equal(exit.code, 0, exit.stderr);
  }
}

describe('shadebox up --agent-key-file', () => {
  it('keeps one agent account across restarts of a home, funded once', async () => {
    const cwd = await tempDir('shadebox-agent-key-');
    const first = await runStack(cwd);
    const file = join(cwd, 'agent-key.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).account_id, first.agentAccountId);
    const second = await runStack(cwd);
    assert.equal(second.agentAccountId, first.agentAccountId);
    assert.equal(second.balance, first.balance, 'no funding transfer, no transaction of the agent');
  });
});
