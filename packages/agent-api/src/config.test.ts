import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testRandom } from '../../../test/test-random.js';
import { ConfigError, loadAgentApiConfig } from './config.js';

const rng = testRandom('packages/agent-api/src/config.test.ts');

const KEY = rng.keyPair().toString();
const base = {
  CHAIN_ACCOUNT_ID: 'test.near',
  CHAIN_ACCOUNT_SECRET_KEY: KEY,
  AGENT_CONTRACT_ID: 'agent.test.near',
  NEAR_RPC_URL: 'http://127.0.0.1:3030',
  AGENT_CODEHASH: 'a'.repeat(64),
};
const noSocket = { exists: () => false };

function throwsNaming(env: Record<string, string | undefined>, variable: string) {
  assert.throws(
    () => loadAgentApiConfig(env, noSocket),
    (e: unknown) => e instanceof ConfigError && e.variable === variable && e.message.startsWith(variable),
  );
}

describe('loadAgentApiConfig', () => {
  it('reads the defaults', () => {
    const c = loadAgentApiConfig(base, noSocket);
    assert.equal(c.port, 3140);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.teeMode, 'local');
    assert.equal(c.keyPoolSize, 8);
    assert.equal(c.corsOrigin, undefined);
    assert.deepEqual(c.allowedContracts, []);
    assert.equal(c.fundingAmount, 3n * 10n ** 23n);
    assert.equal(c.fundingKey?.toString(), KEY);
    assert.equal(c.fundingKeyFile, undefined);
    assert.equal(c.rpcTimeoutMs, 10_000);
  });

  it('takes the original aliases, strips quotes and reads NEAR_RPC_JSON', () => {
    const c = loadAgentApiConfig(
      {
        NEAR_ACCOUNT_ID: '"test.near"',
        NEAR_SEED_PHRASE: `"${KEY}"`,
        NEXT_PUBLIC_contractId: '"ac-proxy.test.near"',
        NEAR_RPC_JSON: JSON.stringify({
          nearRpcProviders: [
            { connectionInfo: { url: 'http://a:1' } },
            { connectionInfo: { url: 'https://b' } },
          ],
        }),
        API_CODEHASH: 'b'.repeat(64),
        SHADE_AGENT_PORT: '4000',
      },
      noSocket,
    );
    assert.equal(c.fundingAccountId, 'test.near');
    assert.equal(c.agentContractId, 'ac-proxy.test.near');
    assert.deepEqual(c.rpcUrls, ['http://a:1', 'https://b']);
    assert.equal(c.codehash, 'b'.repeat(64));
    assert.equal(c.port, 4000);
  });

  it('splits NEAR_RPC_URL on commas and picks dstack when its socket exists', () => {
    const c = loadAgentApiConfig(
      { ...base, NEAR_RPC_URL: 'http://a:1, http://b:2', AGENT_CODEHASH: undefined },
      { exists: (p) => p === '/var/run/dstack.sock' },
    );
    assert.deepEqual(c.rpcUrls, ['http://a:1', 'http://b:2']);
    assert.equal(c.teeMode, 'dstack');
  });

  it('names the missing or invalid variable and never echoes a secret', () => {
    throwsNaming({ ...base, CHAIN_ACCOUNT_ID: undefined }, 'CHAIN_ACCOUNT_ID');
    throwsNaming({ ...base, CHAIN_ACCOUNT_ID: 'Not Valid' }, 'CHAIN_ACCOUNT_ID');
    throwsNaming({ ...base, CHAIN_ACCOUNT_SECRET_KEY: undefined }, 'CHAIN_ACCOUNT_SECRET_KEY');
    throwsNaming({ ...base, AGENT_CONTRACT_ID: undefined }, 'AGENT_CONTRACT_ID');
    throwsNaming({ ...base, NEAR_RPC_URL: undefined }, 'NEAR_RPC_URL');
    throwsNaming({ ...base, NEAR_RPC_URL: 'ftp://x' }, 'NEAR_RPC_URL');
    throwsNaming({ ...base, NEAR_RPC_URL: undefined, NEAR_RPC_JSON: '{' }, 'NEAR_RPC_JSON');
    throwsNaming({ ...base, AGENT_CODEHASH: undefined }, 'AGENT_CODEHASH');
    throwsNaming({ ...base, AGENT_API_PORT: '70000' }, 'AGENT_API_PORT');
    throwsNaming({ ...base, TEE_MODE: 'sgx' }, 'TEE_MODE');
    throwsNaming({ ...base, AGENT_KEY_POOL_SIZE: '-1' }, 'AGENT_KEY_POOL_SIZE');
    throwsNaming({ ...base, AGENT_API_CORS_ORIGIN: 'not a url' }, 'AGENT_API_CORS_ORIGIN');
    throwsNaming({ ...base, AGENT_API_ALLOW_CONTRACTS: 'a.near,B!' }, 'AGENT_API_ALLOW_CONTRACTS');
    throwsNaming({ ...base, AGENT_FUNDING_AMOUNT: 'lots' }, 'AGENT_FUNDING_AMOUNT');
    const bad = `ed25519:${'1'.repeat(40)}secretish`;
    try {
      loadAgentApiConfig({ ...base, CHAIN_ACCOUNT_SECRET_KEY: bad }, noSocket);
      assert.fail('expected a ConfigError');
    } catch (e) {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.variable, 'CHAIN_ACCOUNT_SECRET_KEY');
      assert.ok(!e.message.includes(bad));
    }
  });

  it('names every missing or invalid variable at once', () => {
    try {
      loadAgentApiConfig(
        { NEAR_ACCOUNT_ID: 'Bad Id', AGENT_API_PORT: 'x', TEE_MODE: 'sgx', AGENT_FUNDING_AMOUNT: '0' },
        noSocket,
      );
      assert.fail('expected a ConfigError');
    } catch (e) {
      assert.ok(e instanceof ConfigError);
      assert.deepEqual(
        e.problems.map((p) => p.variable),
        [
          'NEAR_ACCOUNT_ID',
          'CHAIN_ACCOUNT_SECRET_KEY',
          'AGENT_CONTRACT_ID',
          'NEAR_RPC_URL',
          'TEE_MODE',
          'AGENT_CODEHASH',
          'AGENT_API_PORT',
          'AGENT_FUNDING_AMOUNT',
        ],
      );
      assert.equal(e.variable, 'NEAR_ACCOUNT_ID');
      assert.deepEqual(e.details.problems, e.problems);
      for (const p of e.problems) assert.ok(e.message.includes(`${p.variable}: ${p.message}`));
      // A missing variable says what to set it to.
      assert.match(e.problems[1].message, /^required \(or NEAR_SEED_PHRASE\): set it to/);
    }
  });
});
