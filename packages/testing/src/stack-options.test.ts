import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAgentReadyLine, parseReadyLine } from './ready-lines.js';
import { stackEnvironment, upArguments } from './stack-options.js';

describe('upArguments', () => {
  it('always --json and --stop-with-stdin on free ports, with the temporary home', () => {
    assert.deepEqual(upArguments({}, '/tmp/h'), [
      'up',
      '--json',
      '--stop-with-stdin',
      '--rpc-port',
      '0',
      '--agent-port',
      '0',
      '--home',
      '/tmp/h',
    ]);
  });

  it('passes the options through, then the extra arguments', () => {
    const args = upArguments(
      {
        memory: true,
        seed: 's',
        accounts: 3,
        evm: false,
        agentContractWasm: 'build/agent.wasm',
        agentContractInit: { owner_id: '$OWNER' },
        numShards: 2,
        args: ['--quiet'],
      },
      '/tmp/h',
      '/project',
    );
    assert.deepEqual(args.slice(7), [
      '--memory',
      '--seed',
      's',
      '--accounts',
      '3',
      '--no-evm',
      '--agent-contract-wasm',
      '/project/build/agent.wasm',
      '--agent-contract-init',
      '{"owner_id":"$OWNER"}',
      '--num-shards',
      '2',
      '--quiet',
    ]);
    assert.ok(upArguments({ evm: true }, '/tmp/h').includes('--evm'));
  });
});

describe('stackEnvironment', () => {
  it("drops the runner's NODE_OPTIONS and adds the agent variables", () => {
    const env = stackEnvironment(
      { agentEnv: { AGENT_KEY_POOL_SIZE: '2' } },
      { PATH: '/bin', NODE_OPTIONS: '--import tsx' },
    );
    assert.deepEqual(env, { PATH: '/bin', AGENT_KEY_POOL_SIZE: '2' });
  });

  it('takes an explicit environment as given', () => {
    assert.deepEqual(stackEnvironment({ env: { NODE_OPTIONS: '--x', GONE: undefined } }), {
      NODE_OPTIONS: '--x',
    });
  });
});

describe('ready lines', () => {
  const ready = {
    event: 'ready',
    rpcUrl: 'http://127.0.0.1:1',
    explorerUrl: 'http://127.0.0.1:1/explorer',
    agentApiUrl: 'http://127.0.0.1:2/api/agent',
    agentContractId: 'agent.test.near',
    mpcContractId: 'signer.test.near',
    chainAccountId: 'test.near',
    agentAddresses: { predecessor: 'agent.test.near' },
    chainId: 'localnet',
    home: null,
    accounts: [],
    devAccounts: [],
  };

  it('reads the EVM endpoint, or null without one', () => {
    const evm = {
      rpcUrl: 'http://127.0.0.1:3',
      chainId: 31337,
      funded: [{ path: 'ethereum-1', address: '0x1' }],
    };
    assert.deepEqual(parseReadyLine(JSON.stringify({ ...ready, evm })).evm, evm);
    const { funded, ...bare } = evm;
    assert.deepEqual(parseReadyLine(JSON.stringify({ ...ready, evm: bare })).evm, { ...bare, funded: [] });
    assert.equal(parseReadyLine(JSON.stringify({ ...ready, evm: null })).evm, null);
    assert.equal(parseReadyLine(JSON.stringify(ready)).evm, null);
  });

  it('names what is missing or wrong', () => {
    assert.throws(() => parseReadyLine('not json'), /not a JSON object: not json/);
    assert.throws(() => parseReadyLine(JSON.stringify({ ...ready, agentApiUrl: 1 })), /no agentApiUrl/);
    assert.throws(() => parseReadyLine(JSON.stringify({ ...ready, evm: { rpcUrl: 'x' } })), /evm field/);
    assert.equal(parseAgentReadyLine('{"event":"agent-ready","agentAccountId":"ab"}'), 'ab');
    assert.throws(() => parseAgentReadyLine('{"event":"other"}'), /instead of agent-ready/);
  });
});
