/** `shadebox up` honours the agent API's variables: the funding amount and the key pool of the agent account. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CliProcess, rpc } from '../test-support/cli-process.js';
import type { ReadyEvent } from './print-ready.js';

describe('shadebox up with agent variables', () => {
  it('funds the agent account to AGENT_FUNDING_AMOUNT and adds AGENT_KEY_POOL_SIZE keys', async () => {
    const cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0', '--json'], {
      env: { AGENT_FUNDING_AMOUNT: '1.25', AGENT_KEY_POOL_SIZE: '2' },
    });
    try {
      const ready = JSON.parse(await cli.firstLine()) as ReadyEvent;
      await cli.stdoutIncludes('"agent-ready"');
      const { agentAccountId } = JSON.parse(cli.stdout.split('\n')[1]) as { agentAccountId: string };
      const account = await rpc<{ amount: string }>(ready.rpcUrl, 'query', {
        request_type: 'view_account',
        finality: 'optimistic',
        account_id: agentAccountId,
      });
      // Funded to 1.25 NEAR; adding the keys and registering spent a little of it since.
      const amount = BigInt(account.amount);
      assert.ok(amount <= 1_250_000_000_000_000_000_000_000n, String(amount));
      assert.ok(amount > 1_200_000_000_000_000_000_000_000n, String(amount));
      const keys = await rpc<{ keys: unknown[] }>(ready.rpcUrl, 'query', {
        request_type: 'view_access_key_list',
        finality: 'optimistic',
        account_id: agentAccountId,
      });
      assert.equal(keys.keys.length, 3, 'the agent key and a pool of 2');
      const exit = await cli.stop('SIGTERM');
      assert.equal(exit.code, 0, exit.stderr);
    } finally {
      await cli.stop('SIGKILL').catch(() => undefined);
    }
  });
});
