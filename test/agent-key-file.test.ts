/**
 * AGENT_KEY_FILE end to end: the agent API booted twice with the same file against one chain keeps one agent
 * account; the second boot sends nothing (no funding transfer, no keys added, no registration: the account's
 * balance and keys are what the first boot left), and a malformed file stops the configuration naming it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadAgentApiConfig, startAgentApi } from '@shadebox/agent-api';
import { outcomeResult, viewAccessKeyList, viewAccount, viewFunction } from '@shadebox/near-client';
import { type Chain, captureLogs, fnCall, ready, startChain } from './agent-stack-helpers.js';

const CODEHASH = 'd'.repeat(64);
const POOL = 3;

describe('AGENT_KEY_FILE keeps one agent account across boots', () => {
  let chain: Chain;
  const dir = mkdtempSync(join(tmpdir(), 'shadebox-agent-key-file-'));
  const keyFile = join(dir, 'agent-key.json');

  before(async () => {
    chain = await startChain();
    outcomeResult(
      await chain.owner.send('agent.test.near', [fnCall('approve_codehash', { codehash: CODEHASH })]),
    );
  });
  after(async () => {
    await chain?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const boot = async () => {
    const config = loadAgentApiConfig({
      CHAIN_ACCOUNT_ID: chain.root.accountId,
      CHAIN_ACCOUNT_SECRET_KEY: chain.root.secretKey,
      AGENT_CONTRACT_ID: 'agent.test.near',
      NEAR_RPC_URL: chain.node.rpcUrl,
      AGENT_CODEHASH: CODEHASH,
      AGENT_API_PORT: '0',
      TEE_MODE: 'local',
      AGENT_KEY_POOL_SIZE: String(POOL),
      AGENT_KEY_FILE: keyFile,
    });
    const logs = captureLogs();
    const api = await startAgentApi(config, { log: logs.log });
    try {
      return { accountId: await ready(api), lines: logs.lines };
    } finally {
      await api.stop();
    }
  };
  const messages = (lines: string[]) => lines.map((l) => JSON.parse(l).message as string);

  it('the second boot is the same account and sends no transaction', async () => {
    const first = await boot();
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.ok(messages(first.lines).includes('boot: agent key file created'));
    assert.ok(messages(first.lines).includes('boot: agent account funded'));
    const balance = (await viewAccount(chain.rpc, first.accountId))!.amount;
    const keys = await viewAccessKeyList(chain.rpc, first.accountId);
    assert.equal(keys.length, 1 + POOL);

    const second = await boot();
    assert.equal(second.accountId, first.accountId);
    const said = messages(second.lines);
    assert.ok(said.includes('boot: agent key file read'));
    for (const sent of ['boot: agent account funded', 'boot: key pool added', 'boot: register_agent sent']) {
      assert.ok(!said.includes(sent), `the second boot logged '${sent}'`);
    }
    // Nothing paid, nothing received: no transfer and no transaction of the agent's.
    assert.equal((await viewAccount(chain.rpc, first.accountId))!.amount, balance);
    assert.deepEqual(
      (await viewAccessKeyList(chain.rpc, first.accountId)).map((k) => k.publicKey).sort(),
      keys.map((k) => k.publicKey).sort(),
    );
    const agent = (await viewFunction(chain.rpc, 'agent.test.near', 'get_agent', {
      account_id: first.accountId,
    })) as { codehash: string };
    assert.equal(agent.codehash, CODEHASH);
    // The key never reaches the logs.
    const secret = JSON.parse(readFileSync(keyFile, 'utf8')).secret_key as string;
    assert.ok(![...first.lines, ...second.lines].some((l) => l.includes(secret.slice(8))));
  });

  it('a malformed file is refused before anything starts, naming the file', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"secret_key": "ed25519:not-a-key"}');
    assert.throws(
      () =>
        loadAgentApiConfig({
          CHAIN_ACCOUNT_ID: chain.root.accountId,
          CHAIN_ACCOUNT_SECRET_KEY: chain.root.secretKey,
          AGENT_CONTRACT_ID: 'agent.test.near',
          NEAR_RPC_URL: chain.node.rpcUrl,
          AGENT_CODEHASH: CODEHASH,
          TEE_MODE: 'local',
          AGENT_KEY_FILE: bad,
        }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message === `AGENT_KEY_FILE: ${bad}: "secret_key" is not a valid ed25519 secret key`,
    );
  });
});
