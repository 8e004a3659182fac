/** The agent API's configuration in `shadebox up`: `--host` and `--agent-port` win over the variables. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadAgentApiConfig } from '@shadebox/agent-api';
import { KeyPair } from '@shadebox/primitives';
import { stackAgentConfig } from './stack-services.js';

const stack = {
  accountId: 'test.near',
  secretKey: KeyPair.fromRandom('ed25519').toString(),
  agentContractId: 'agent.test.near',
  rpcUrl: 'http://127.0.0.1:3030',
};

describe('stackAgentConfig', () => {
  it('listens on 127.0.0.1 by default, on AGENT_API_HOST when set, on --host over both', () => {
    assert.equal(stackAgentConfig(loadAgentApiConfig, {}, stack).host, '127.0.0.1');
    assert.equal(stackAgentConfig(loadAgentApiConfig, { AGENT_API_HOST: '0.0.0.0' }, stack).host, '0.0.0.0');
    const both = stackAgentConfig(
      loadAgentApiConfig,
      { AGENT_API_HOST: '0.0.0.0' },
      { ...stack, host: '::1' },
    );
    assert.equal(both.host, '::1');
  });

  it('--agent-port wins over AGENT_API_PORT', () => {
    const config = stackAgentConfig(
      loadAgentApiConfig,
      { AGENT_API_PORT: '4000' },
      { ...stack, agentPort: 0 },
    );
    assert.equal(config.port, 0);
  });
});
