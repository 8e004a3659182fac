/**
 * examples/oracle-agent (the Shade Agent template's loop) against `shadebox up --memory` with its local EVM
 * chain: the example runs as a child process (tsx, `source` condition), deploys the price oracle from the agent's
 * derived address, signs `updatePrice` through the agent API, broadcasts it and reads the price back. This test
 * checks it independently on the EVM chain with viem: both transactions were mined with status success, from
 * the address derived here (@shadebox/mpc, from the signer's `public_key` view) and printed by `up`; the oracle
 * names that address its updater, emitted PriceUpdated with the price, and `getPrice` returns it; another
 * account cannot update it. A second run updates the same oracle (ORACLE_ADDRESS) with another price.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { locateAnvil } from '@shadebox/cli';
import { derivedPublicKey, evmAddress } from '@shadebox/mpc';
import {
  type Abi,
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  parseEventLogs,
} from 'viem';
import { CliProcess, REPO_ROOT, rpc } from '../packages/cli/test-support/cli-process.js';
import { testRandom } from './test-random.js';

const run = promisify(execFile);
const AGENT = fileURLToPath(new URL('../examples/oracle-agent/agent.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const { abi } = JSON.parse(
  readFileSync(new URL('../examples/oracle-agent/contract/PriceOracle.json', import.meta.url), 'utf8'),
) as { abi: Abi };
const rng = testRandom('test/oracle-agent.test.ts');

interface Output {
  ok: boolean;
  agent: Address;
  chainId: number;
  oracle: Address;
  deployTx?: Hex;
  updateTx: Hex;
  block: number;
  status: string;
  price: string;
  priceRead: string;
}

interface Ready {
  rpcUrl: string;
  agentApiUrl: string;
  agentAddresses: { evm: { path: string; address: string } };
  evm?: { rpcUrl: string; chainId: number };
}

const anvil = locateAnvil({ env: process.env });

describe('examples/oracle-agent on the stack’s EVM chain', {
  skip: anvil.found ? false : `anvil is not installed: ${anvil.reason}`,
}, () => {
  let cli: CliProcess;
  let ready: Ready;
  let evm: PublicClient;
  let expected: Address;

  before(async () => {
    cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0', '--evm', '--json']);
    ready = JSON.parse(await cli.firstLine());
    await cli.stdoutIncludes('"agent-ready"');
    assert.ok(ready.evm, 'the ready line names the EVM chain');
    evm = createPublicClient({ transport: http(ready.evm.rpcUrl) });

    // The agent's address, derived here independently of the example.
    const view = await rpc<{ result: number[] }>(ready.rpcUrl, 'query', {
      request_type: 'call_function',
      finality: 'final',
      account_id: 'signer.test.near',
      method_name: 'public_key',
      args_base64: Buffer.from(JSON.stringify({ domain_id: 0 })).toString('base64'),
    });
    const rootKey = JSON.parse(Buffer.from(view.result).toString()) as string;
    expected = getAddress(evmAddress(derivedPublicKey(rootKey, 'agent.test.near', 'ethereum-1', 0)));
    assert.equal(ready.agentAddresses.evm.address, expected, 'up prints the derived address');
  });

  after(async () => {
    await cli?.stop();
  });

  /** Runs the example against the stack; its one JSON line. */
  async function runAgent(extra: Record<string, string>): Promise<Output> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_OPTIONS: '',
      AGENT_API_URL: ready.agentApiUrl,
      NEAR_RPC_URL: ready.rpcUrl,
      EVM_RPC_URL: ready.evm!.rpcUrl,
    };
    for (const name of [
      'AGENT_CONTRACT_ID',
      'MPC_CONTRACT_ID',
      'DERIVATION_PATH',
      'ORACLE_ADDRESS',
      'API_PORT',
    ])
      delete env[name];
    const { stdout } = await run(process.execPath, ['--conditions=source', '--import', TSX, AGENT], {
      cwd: REPO_ROOT,
      env: { ...env, ...extra },
      // tsx, viem and the workspace load from source, then two signatures: tens of seconds on a loaded
      // machine. The bound only catches a hang.
      timeout: 300_000,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as Output;
  }

  /** The update's receipt checked on the chain: mined, from the derived address, to the oracle, its event. */
  async function checkUpdate(out: Output, oracle: Address, price: bigint): Promise<void> {
    const receipt = await evm.getTransactionReceipt({ hash: out.updateTx });
    assert.equal(receipt.status, 'success');
    assert.equal(getAddress(receipt.from), expected, 'sent from the derived address');
    assert.equal(getAddress(receipt.to!), oracle);
    assert.equal(Number(receipt.blockNumber), out.block);
    const events = parseEventLogs({ abi, logs: receipt.logs, eventName: 'PriceUpdated' });
    assert.equal(events.length, 1);
    assert.deepEqual(events[0]!.args, { price, updater: expected });
    assert.equal(await evm.readContract({ address: oracle, abi, functionName: 'getPrice' }), price);
  }

  let oracle: Address;

  it('deploys the oracle from the derived address and sets the price through a chain signature', async () => {
    const price = BigInt(100_000 + rng.int(900_000));
    const out = await runAgent({ ORACLE_PRICE: price.toString() });
    assert.equal(out.ok, true);
    assert.equal(out.agent, expected);
    assert.equal(out.chainId, ready.evm!.chainId);
    assert.equal(out.price, price.toString());
    assert.ok(out.deployTx, 'the oracle was deployed');

    const deploy = await evm.getTransactionReceipt({ hash: out.deployTx });
    assert.equal(deploy.status, 'success');
    assert.equal(getAddress(deploy.from), expected, 'deployed from the derived address');
    oracle = getAddress(deploy.contractAddress!);
    assert.equal(out.oracle, oracle);
    assert.equal(await evm.readContract({ address: oracle, abi, functionName: 'updater' }), expected);
    await checkUpdate(out, oracle, price);

    // Only the agent's address may update it.
    await assert.rejects(
      evm.simulateContract({
        address: oracle,
        abi,
        functionName: 'updatePrice',
        args: [1n],
        account: '0x000000000000000000000000000000000000dEaD',
      }),
      /NotUpdater/,
    );
  });

  it('updates the same oracle again (ORACLE_ADDRESS) with another price', async () => {
    assert.ok(oracle, 'the first test deployed it');
    const price = BigInt(100_000 + rng.int(900_000));
    const out = await runAgent({ ORACLE_ADDRESS: oracle, ORACLE_PRICE: price.toString() });
    assert.equal(out.ok, true);
    assert.equal(out.deployTx, undefined, 'nothing deployed');
    assert.equal(out.oracle, oracle);
    await checkUpdate(out, oracle, price);
  });
});
