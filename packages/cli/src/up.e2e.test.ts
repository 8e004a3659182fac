/** `shadebox up` through real processes: the ready and agent-ready lines, the stack's services, its home layout, --reset. */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CliProcess, rpc, runCli, tempDir } from '../test-support/cli-process.js';
import type { ReadyEvent } from './print-ready.js';

async function startUp(args: string[], cwd?: string): Promise<{ cli: CliProcess; ready: ReadyEvent }> {
  const cli = new CliProcess(['up', '--agent-port', '0', ...args, '--json'], { cwd });
  return { cli, ready: JSON.parse(await cli.firstLine()) as ReadyEvent };
}

describe('shadebox up', () => {
  it('--memory --json: ready, then agent-ready; node, contracts and agent API live; SIGTERM exits 0', async () => {
    const { cli, ready } = await startUp(['--memory', '--rpc-port', '0']);
    assert.deepEqual(Object.keys(ready), [
      'event',
      'rpcUrl',
      'archivalRpcUrl',
      'explorerUrl',
      'agentApiUrl',
      'agentContractId',
      'agentContractOwner',
      'mpcContractId',
      'chainAccountId',
      'agentAddresses',
      'evm',
      'chainId',
      'home',
      'accounts',
      'devAccounts',
    ]);
    const r = ready as ReadyEvent & Record<string, string>;
    assert.equal(r.agentContractId, 'agent.test.near');
    assert.equal(r.mpcContractId, 'signer.test.near');
    assert.equal(r.chainAccountId, 'test.near');
    assert.equal(r.agentContractOwner, 'test.near');
    assert.match(r.agentApiUrl, /^http:\/\/127\.0\.0\.1:\d+\/api\/agent$/);
    await cli.stdoutIncludes('"agent-ready"');
    const agentReady = JSON.parse(cli.stdout.split('\n')[1]);
    assert.equal(agentReady.event, 'agent-ready');
    assert.match(agentReady.agentAccountId, /^[0-9a-f]{64}$/);
    const id = await fetch(`${r.agentApiUrl}/getAccountId`, { method: 'POST' }).then((x) => x.json());
    assert.deepEqual(id, { accountId: agentReady.agentAccountId });
    assert.notEqual(ready.archivalRpcUrl, ready.rpcUrl);
    const archival = await rpc<{ chain_id: string }>(ready.archivalRpcUrl!, 'status');
    assert.equal(archival.chain_id, ready.chainId);
    assert.equal(ready.event, 'ready');
    assert.equal(ready.home, null);
    assert.equal(ready.accounts[0]!.accountId, 'test.near');
    const status = await rpc<{ chain_id: string }>(ready.rpcUrl, 'status');
    assert.equal(status.chain_id, ready.chainId);
    const exit = await cli.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(exit.stdout.split('\n').length, 3, 'the ready and agent-ready lines, nothing else');
  });

  it('--mpc-contract-id v1.signer: the signer under that id, the agent contract pointed at it', async () => {
    const { cli, ready } = await startUp(['--memory', '--rpc-port', '0', '--mpc-contract-id', 'v1.signer']);
    const r = ready as ReadyEvent & Record<string, string>;
    assert.equal(r.mpcContractId, 'v1.signer');
    const view = await rpc<{ result: number[] }>(ready.rpcUrl, 'query', {
      request_type: 'call_function',
      finality: 'optimistic',
      account_id: 'agent.test.near',
      method_name: 'get_mpc_contract_id',
      args_base64: Buffer.from('{}').toString('base64'),
    });
    assert.equal(JSON.parse(Buffer.from(view.result).toString()), 'v1.signer');
    assert.equal((await cli.stop('SIGTERM')).code, 0);
  });

  it('keeps its chain in ./.shadebox/node, which --reset deletes first', async () => {
    const cwd = await tempDir();
    const first = await startUp(['--rpc-port', '0'], cwd);
    assert.equal(first.ready.home, join(cwd, '.shadebox', 'node'));
    assert.ok(existsSync(join(cwd, '.shadebox', 'node', 'genesis.json')));
    assert.equal((await first.cli.stop()).code, 0);

    const again = await startUp(['--rpc-port', '0'], cwd);
    assert.deepEqual(again.ready.accounts, first.ready.accounts, 'same chain without --reset');
    assert.equal((await again.cli.stop()).code, 0);

    const reset = await startUp(['--rpc-port', '0', '--reset'], cwd);
    assert.notEqual(reset.ready.accounts[0]!.publicKey, first.ready.accounts[0]!.publicKey, 'a new chain');
    assert.equal((await reset.cli.stop()).code, 0);
  });

  it('--reset refuses a directory holding files shadebox did not create', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'precious.txt'), 'keep me');
    const { code, stdout, stderr } = await runCli([
      'up',
      '--home',
      dir,
      '--reset',
      '--rpc-port',
      '0',
      '--agent-port',
      '0',
      '--json',
    ]);
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /refusing to delete/);
    assert.match(stderr, /precious\.txt/);
    assert.ok(existsSync(join(dir, 'precious.txt')));
  });

  it('without --json: a readable summary, then the agent account once registered', async () => {
    const cli = new CliProcess([
      'up',
      '--memory',
      '--rpc-port',
      '0',
      '--agent-port',
      '0',
      '--yield-block-time',
      '250',
    ]);
    await cli.stdoutIncludes('Press Ctrl+C to stop.');
    assert.match(
      cli.stdout,
      /Blocks\s+automine \(a block as soon as there is work; one every 250 ms while a yield waits\)/,
    );
    assert.match(cli.stdout, /RPC\s+http:\/\/127\.0\.0\.1:\d+/);
    assert.match(cli.stdout, /Agent API\s+http:\/\/127\.0\.0\.1:\d+\/api\/agent/);
    assert.match(cli.stdout, /Agent contract\s+agent\.test\.near/);
    assert.match(cli.stdout, /MPC contract\s+signer\.test\.near/);
    assert.match(cli.stdout, /EVM address\s+0x[0-9a-fA-F]{40} {2}\(path ethereum-1\)/);
    assert.match(cli.stdout, /Bitcoin address\s+tb1q[02-9ac-hj-np-z]{38} {2}\(testnet, path bitcoin-1\)/);
    assert.match(cli.stdout, /Solana address\s+[1-9A-HJ-NP-Za-km-z]{32,44} {2}\(path solana-1\)/);
    await cli.stdoutIncludes('registered in agent.test.near');
    assert.equal((await cli.stop('SIGINT')).code, 0);
  });
});
