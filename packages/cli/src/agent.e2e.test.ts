/**
 * `shadebox agent` through real processes: against the JSON-RPC of a running `shadebox up` it boots its own
 * agent account (the original tool's variable names), serves the API and stops cleanly on SIGINT without
 * printing any secret. A busy agent port makes a second `shadebox up` exit 1 naming AGENT_API_PORT and
 * --agent-port. The funding key given as CHAIN_ACCOUNT_SECRET_KEY_FILE stays out of the process's environment. A missing setting is tested in process (agent.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CliProcess, runCli } from '../test-support/cli-process.js';
import type { ReadyEvent } from './print-ready.js';
import { LOCAL_AGENT_CODEHASH } from './stack-services.js';

describe('shadebox agent', () => {
  let stack: CliProcess;
  let ready: ReadyEvent & { agentApiUrl: string; agentContractId: string };

  before(async () => {
    stack = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0', '--json']);
    ready = JSON.parse(await stack.firstLine());
  });
  after(async () => {
    await stack?.stop('SIGTERM');
  });

  it('runs alone against a NEAR RPC with the original names, registers, serves, SIGINT exits 0', async () => {
    const funder = ready.accounts[0]!;
    const agent = new CliProcess(['agent', '--json'], {
      env: {
        NEAR_ACCOUNT_ID: funder.accountId,
        CHAIN_ACCOUNT_SECRET_KEY: funder.secretKey,
        NEXT_PUBLIC_contractId: ready.agentContractId,
        NEAR_RPC_JSON: JSON.stringify({ nearRpcProviders: [{ connectionInfo: { url: ready.rpcUrl } }] }),
        API_CODEHASH: LOCAL_AGENT_CODEHASH,
        SHADE_AGENT_PORT: '0',
        TEE_MODE: 'local',
      },
    });
    const listening = JSON.parse(await agent.firstLine());
    assert.equal(listening.event, 'ready');
    assert.match(listening.agentApiUrl, /^http:\/\/127\.0\.0\.1:\d+\/api\/agent$/);
    assert.notEqual(listening.agentApiUrl, ready.agentApiUrl);
    await agent.stdoutIncludes('"agent-ready"');
    const { agentAccountId } = JSON.parse(agent.stdout.split('\n')[1]!);
    assert.match(agentAccountId, /^[0-9a-f]{64}$/);
    const id = await fetch(`${listening.agentApiUrl}/getAccountId`, { method: 'POST' }).then((r) => r.json());
    assert.deepEqual(id, { accountId: agentAccountId });
    const record = await fetch(`${listening.agentApiUrl}/view`, {
      method: 'POST',
      body: JSON.stringify({ methodName: 'get_agent', args: { account_id: agentAccountId } }),
    }).then((r) => r.json());
    assert.deepEqual(record, { codehash: LOCAL_AGENT_CODEHASH });
    const exit = await agent.stop('SIGINT');
    assert.equal(exit.code, 0, exit.stderr);
    assert.ok(!`${exit.stdout}${exit.stderr}`.includes(funder.secretKey.slice(8)), 'no secret in the output');
  });

  it('takes the funding key from CHAIN_ACCOUNT_SECRET_KEY_FILE, which leaves it out of the environment', async () => {
    const funder = ready.accounts[0]!;
    const dir = mkdtempSync(join(tmpdir(), 'agent-secret-'));
    const secretFile = join(dir, 'funding_key');
    writeFileSync(secretFile, `${funder.secretKey}\n`, { mode: 0o600 });
    try {
      const agent = new CliProcess(['agent', '--json'], {
        env: {
          CHAIN_ACCOUNT_ID: funder.accountId,
          CHAIN_ACCOUNT_SECRET_KEY_FILE: secretFile,
          AGENT_CONTRACT_ID: ready.agentContractId,
          NEAR_RPC_URL: ready.rpcUrl,
          AGENT_CODEHASH: LOCAL_AGENT_CODEHASH,
          AGENT_API_PORT: '0',
          AGENT_KEY_POOL_SIZE: '1',
          TEE_MODE: 'local',
        },
      });
      await agent.stdoutIncludes('"agent-ready"');
      if (process.platform === 'linux') {
        const environ = readFileSync(`/proc/${agent.child.pid}/environ`, 'latin1');
        assert.ok(environ.includes('CHAIN_ACCOUNT_SECRET_KEY_FILE='), 'the environment names the file');
        assert.equal(environ.includes(funder.secretKey.slice(8)), false, 'and does not hold the key');
      }
      const exit = await agent.stop('SIGINT');
      assert.equal(exit.code, 0, exit.stderr);
      assert.ok(
        !`${exit.stdout}${exit.stderr}`.includes(funder.secretKey.slice(8)),
        'no secret in the output',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a second stack on the first one's agent port exits 1 naming AGENT_API_PORT and --agent-port", async () => {
    const port = new URL(ready.agentApiUrl).port;
    const exit = await runCli(['up', '--memory', '--rpc-port', '0', '--agent-port', port]);
    assert.equal(exit.code, 1, exit.stderr);
    assert.match(
      exit.stderr,
      new RegExp(
        `^shadebox up: error: the agent API cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use.*AGENT_API_PORT \\(shadebox up: --agent-port\\)`,
        'm',
      ),
    );
  });
});
