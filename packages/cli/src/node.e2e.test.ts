/**
 * `shadebox node` through real processes: the --json ready line and a live RPC behind it, clean shutdown on
 * SIGTERM/SIGINT, the readable summary, restarts on the same home, a port in use.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CliProcess, rpc, tempDir } from '../test-support/cli-process.js';
import type { ReadyEvent } from './print-ready.js';

interface Status {
  chain_id: string;
  genesis_hash: string;
  sync_info: { latest_block_height: number; latest_block_hash: string };
}

/** Starts `shadebox node <args> --json` and returns the process and its parsed ready line. */
async function startJson(args: string[], cwd?: string): Promise<{ cli: CliProcess; ready: ReadyEvent }> {
  const cli = new CliProcess(['node', ...args, '--json'], { cwd });
  const line = await cli.firstLine();
  return { cli, ready: JSON.parse(line) as ReadyEvent };
}

function assertReadyShape(ready: ReadyEvent): void {
  assert.deepEqual(Object.keys(ready), [
    'event',
    'rpcUrl',
    'explorerUrl',
    'chainId',
    'home',
    'accounts',
    'devAccounts',
  ]);
  assert.equal(ready.event, 'ready');
  assert.equal(ready.explorerUrl, `${ready.rpcUrl}/explorer`);
  assert.deepEqual(
    ready.devAccounts.map((a) => a.accountId),
    Array.from({ length: 10 }, (_, i) => `dev-${i}.test.near`),
  );
  assert.match(ready.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.notEqual(ready.rpcUrl, 'http://127.0.0.1:0');
  assert.equal(ready.chainId, 'localnet');
  assert.equal(ready.accounts.length, 1);
  const [account] = ready.accounts;
  assert.deepEqual(Object.keys(account!), ['accountId', 'publicKey', 'secretKey']);
  assert.equal(account!.accountId, 'test.near');
  assert.match(account!.publicKey, /^ed25519:[1-9A-HJ-NP-Za-km-z]+$/);
  assert.match(account!.secretKey, /^ed25519:[1-9A-HJ-NP-Za-km-z]+$/);
}

describe('shadebox node', () => {
  it('--memory --rpc-port 0 --json: one ready line, a live RPC, SIGTERM exits 0', async () => {
    const { cli, ready } = await startJson(['--memory', '--rpc-port', '0']);
    assertReadyShape(ready);
    assert.equal(ready.home, null);

    const status = await rpc<Status>(ready.rpcUrl, 'status');
    assert.equal(status.chain_id, 'localnet');
    const health = await fetch(`${ready.rpcUrl}/health`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(health.status, 200);

    const exit = await cli.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(exit.stdout, `${JSON.stringify(ready)}\n`, 'exactly one line on stdout');
    await assert.rejects(fetch(ready.rpcUrl, { method: 'POST', signal: AbortSignal.timeout(5_000) }));
  });

  it('--archival-port 0: the ready line adds archivalRpcUrl, a second live endpoint of the same chain', async () => {
    const { cli, ready } = await startJson(['--memory', '--rpc-port', '0', '--archival-port', '0']);
    assert.deepEqual(Object.keys(ready), [
      'event',
      'rpcUrl',
      'archivalRpcUrl',
      'explorerUrl',
      'chainId',
      'home',
      'accounts',
      'devAccounts',
    ]);
    assert.match(ready.archivalRpcUrl!, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(ready.archivalRpcUrl, ready.rpcUrl);
    const regular = await rpc<Status>(ready.rpcUrl, 'status');
    const archival = await rpc<Status>(ready.archivalRpcUrl!, 'status');
    assert.equal(archival.genesis_hash, regular.genesis_hash);
    const exit = await cli.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
  });

  it('--home: a restart keeps the chain (height never goes back, same genesis, same test.near key)', {
    timeout: 120_000,
  }, async () => {
    const home = join(await tempDir(), 'home');
    const first = await startJson(['--home', home, '--rpc-port', '0', '--block-time', '20']);
    assertReadyShape(first.ready);
    assert.equal(first.ready.home, home);
    const target = 5 + (await genesisHeight(first.ready.rpcUrl));
    let status = await rpc<Status>(first.ready.rpcUrl, 'status');
    assert.match(status.genesis_hash, /^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    // No wall-clock bound: a node that stopped making blocks runs into the test's timeout.
    while (status.sync_info.latest_block_height < target) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await rpc<Status>(first.ready.rpcUrl, 'status');
    }
    const exit = await first.cli.stop('SIGINT');
    assert.equal(exit.code, 0, exit.stderr);
    const keyFile = JSON.parse(await readFile(join(home, 'validator_key.json'), 'utf8')) as {
      public_key: string;
    };
    assert.equal(first.ready.accounts[0]!.publicKey, keyFile.public_key);
    // The height when stopped: at least what was seen, maybe a few blocks more.
    const seen = status.sync_info.latest_block_height;

    const second = await startJson(['--home', home, '--rpc-port', '0']);
    const restarted = await rpc<Status>(second.ready.rpcUrl, 'status');
    assert.ok(
      restarted.sync_info.latest_block_height >= seen,
      `${restarted.sync_info.latest_block_height} >= ${seen}`,
    );
    assert.equal(restarted.genesis_hash, status.genesis_hash);
    assert.deepEqual(second.ready.accounts, first.ready.accounts);
    assert.equal((await second.cli.stop()).code, 0);
  });

  it('without --json: a readable summary; the secret key only for --memory', async () => {
    const memory = new CliProcess(['node', '--memory', '--rpc-port', '0']);
    await memory.stdoutIncludes('Press Ctrl+C to stop.');
    assert.match(memory.stdout, /RPC\s+http:\/\/127\.0\.0\.1:\d+/);
    assert.match(memory.stdout, /Chain id\s+localnet/);
    assert.match(memory.stdout, /Account\s+test\.near/);
    assert.match(memory.stdout, /Secret key\s+ed25519:/);
    const memoryExit = await memory.stop('SIGINT');
    assert.equal(memoryExit.code, 0, memoryExit.stderr);

    const home = join(await tempDir(), 'home');
    const onDisk = new CliProcess(['node', '--home', home, '--rpc-port', '0']);
    await onDisk.stdoutIncludes('Press Ctrl+C to stop.');
    assert.ok(onDisk.stdout.includes(`Home        ${home}`), onDisk.stdout);
    assert.ok(onDisk.stdout.includes(join(home, 'validator_key.json')), onDisk.stdout);
    assert.doesNotMatch(onDisk.stdout, /Secret key|secret/i);
    const diskExit = await onDisk.stop('SIGTERM');
    assert.equal(diskExit.code, 0, diskExit.stderr);
  });

  it('a port in use: a clear error, exit 1', async () => {
    const { cli, ready } = await startJson(['--memory', '--rpc-port', '0']);
    const port = new URL(ready.rpcUrl).port;
    const home = join(await tempDir(), 'home');
    const second = new CliProcess(['node', '--home', home, '--rpc-port', port, '--json']);
    const exit = await second.exit();
    assert.equal(exit.code, 1);
    assert.equal(exit.stdout, '');
    assert.match(exit.stderr, new RegExp(`127\\.0\\.0\\.1:${port}.*already in use`));
    assert.match(exit.stderr, /--rpc-port/);
    assert.equal((await cli.stop()).code, 0);
  });

  it('--gc-num-epochs-to-keep: at least 3, as nearcore; a --memory node takes it', async () => {
    const refused = await new CliProcess(['node', '--memory', '--gc-num-epochs-to-keep', '2']).exit();
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--gc-num-epochs-to-keep.*at least 3/);
    const { cli, ready } = await startJson(['--memory', '--rpc-port', '0', '--gc-num-epochs-to-keep', '3']);
    assert.equal((await rpc<Status>(ready.rpcUrl, 'status')).chain_id, 'localnet');
    assert.equal((await cli.stop()).code, 0);
  });

  it('--gc-history-budget-mb: a whole number of MiB; a --memory node takes it', async () => {
    const refused = await new CliProcess(['node', '--memory', '--gc-history-budget-mb', '-1']).exit();
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--gc-history-budget-mb/);
    const { cli, ready } = await startJson(['--memory', '--rpc-port', '0', '--gc-history-budget-mb', '0']);
    assert.equal((await rpc<Status>(ready.rpcUrl, 'status')).chain_id, 'localnet');
    assert.equal((await cli.stop()).code, 0);
  });

  it('--num-shards makes a multi-shard chain', async () => {
    const { cli, ready } = await startJson(['--memory', '--rpc-port', '0', '--num-shards', '2']);
    const genesis = await rpc<{ shard_layout: { V0: { num_shards: number } } }>(
      ready.rpcUrl,
      'EXPERIMENTAL_genesis_config',
    );
    assert.equal(genesis.shard_layout.V0.num_shards, 2);
    assert.equal((await cli.stop()).code, 0);
  });

  it('--protocol-version 87 makes a chain of protocol 87 (nearcore 2.14); 88 is refused with exit 2', async () => {
    const refused = await new CliProcess(['node', '--memory', '--protocol-version', '88']).exit();
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /invalid value '88' for --protocol-version: protocol version 88 is not supported: this node runs protocol versions 83 to 87/,
    );
    const { cli, ready } = await startJson(['--memory', '--rpc-port', '0', '--protocol-version', '87']);
    const status = await rpc<Status & { protocol_version: number }>(ready.rpcUrl, 'status');
    assert.equal(status.protocol_version, 87);
    const config = await rpc<{
      protocol_version: number;
      runtime_config: { transaction_costs: { burnt_gas_reward: number[] } };
    }>(ready.rpcUrl, 'EXPERIMENTAL_protocol_config', { finality: 'final' });
    assert.equal(config.protocol_version, 87);
    assert.deepEqual(config.runtime_config.transaction_costs.burnt_gas_reward, [0, 1]);
    assert.equal((await cli.stop()).code, 0);
  });
});

async function genesisHeight(rpcUrl: string): Promise<number> {
  const genesis = await rpc<{ genesis_height: number }>(rpcUrl, 'EXPERIMENTAL_genesis_config');
  return genesis.genesis_height;
}
