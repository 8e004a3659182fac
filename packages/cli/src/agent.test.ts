/** `shadebox agent` in process: a missing setting stops it at start, naming the setting, before it listens. */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { testRandom } from '../../../test/test-random.js';
import { runCliInProcess as runCli } from '../test-support/cli-in-process.js';

const rng = testRandom('packages/cli/src/agent.test.ts');

describe('shadebox agent', () => {
  it('a missing setting: exit 1 naming it', async () => {
    const exit = await runCli(['agent'], {
      env: { CHAIN_ACCOUNT_ID: undefined, NEAR_ACCOUNT_ID: undefined, AGENT_CONTRACT_ID: undefined },
    });
    assert.equal(exit.code, 1, exit.stderr);
    assert.match(exit.stderr, /^shadebox agent: error: .*CHAIN_ACCOUNT_ID/m);
  });

  it('every missing or invalid setting at once: one line naming them all, then one line each', async () => {
    const exit = await runCli(['agent'], {
      env: {
        CHAIN_ACCOUNT_ID: undefined,
        NEAR_ACCOUNT_ID: undefined,
        CHAIN_ACCOUNT_SECRET_KEY: undefined,
        NEAR_SEED_PHRASE: undefined,
        AGENT_CONTRACT_ID: 'agent.test.near',
        NEAR_RPC_URL: 'ftp://x',
        AGENT_CODEHASH: 'c'.repeat(64),
        TEE_MODE: 'local',
        AGENT_API_PORT: '99999',
      },
    });
    assert.equal(exit.code, 1, exit.stderr);
    const [first, ...rest] = exit.stderr.trimEnd().split('\n');
    assert.match(
      first,
      /^shadebox agent: error: 4 settings are missing or invalid: CHAIN_ACCOUNT_ID, CHAIN_ACCOUNT_SECRET_KEY, NEAR_RPC_URL, AGENT_API_PORT \(see docs\/agent-api\.md#configuration-environment\)$/,
    );
    assert.deepEqual(
      rest.map((line) => line.split(':')[0]),
      ['  CHAIN_ACCOUNT_ID', '  CHAIN_ACCOUNT_SECRET_KEY', '  NEAR_RPC_URL', '  AGENT_API_PORT'],
    );
    assert.match(rest[0], /set it to the NEAR account that funds the agent/);
  });

  it('a busy port names AGENT_API_PORT and --agent-port', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const exit = await runCli(['agent'], {
        env: {
          CHAIN_ACCOUNT_ID: 'test.near',
          CHAIN_ACCOUNT_SECRET_KEY: rng.keyPair().toString(),
          AGENT_CONTRACT_ID: 'agent.test.near',
          NEAR_RPC_URL: 'http://127.0.0.1:9',
          AGENT_CODEHASH: 'c'.repeat(64),
          TEE_MODE: 'local',
          AGENT_API_HOST: '127.0.0.1',
          AGENT_API_PORT: String(port),
          SHADEBOX_LOG: 'silent',
        },
      });
      assert.equal(exit.code, 1, exit.stderr);
      assert.match(
        exit.stderr,
        new RegExp(
          `^shadebox agent: error: the agent API cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use.*AGENT_API_PORT \\(shadebox up: --agent-port\\).*0 for a free one`,
          'm',
        ),
      );
    } finally {
      busy.close();
    }
  });
});
