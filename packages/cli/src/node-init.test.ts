/**
 * `shadebox node init` in process (`runCli` with its output captured; without --mpc it starts no node): the four
 * files, their modes, refusing to overwrite, --force.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCliInProcess as runCli, tempDir } from '../test-support/cli-in-process.js';

const FILES = ['genesis.json', 'config.json', 'validator_key.json', 'node_key.json'];

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
}

describe('shadebox node init', () => {
  it('writes the four files, key files with mode 0600', async () => {
    const home = join(await tempDir(), 'home');
    const { code, stdout, stderr } = await runCli(['node', 'init', '--home', home]);
    assert.equal(code, 0, stderr);
    for (const file of FILES) {
      assert.ok(existsSync(join(home, file)), file);
      assert.ok(stdout.includes(join(home, file)), `the output names ${file}`);
    }
    for (const file of ['validator_key.json', 'node_key.json']) {
      assert.equal((await stat(join(home, file))).mode & 0o777, 0o600, file);
    }
    const genesis = await readJson(join(home, 'genesis.json'));
    assert.equal(genesis.chain_id, 'localnet');
    assert.equal(genesis.protocol_version, 86);
    const validatorKey = await readJson(join(home, 'validator_key.json'));
    assert.equal(validatorKey.account_id, 'test.near');
    assert.match(String(validatorKey.secret_key), /^ed25519:/);
  });

  it('takes --chain-id and --num-shards', async () => {
    const home = join(await tempDir(), 'home');
    const { code, stderr } = await runCli([
      'node',
      'init',
      '--home',
      home,
      '--chain-id',
      'mynet',
      '--num-shards',
      '3',
    ]);
    assert.equal(code, 0, stderr);
    const genesis = await readJson(join(home, 'genesis.json'));
    assert.equal(genesis.chain_id, 'mynet');
    assert.deepEqual((genesis.shard_layout as { V0: { num_shards: number } }).V0.num_shards, 3);
  });

  it('takes --protocol-version: 87 is written into the genesis, 88 is refused with exit 2', async () => {
    const home = join(await tempDir(), 'home');
    const { code, stdout, stderr } = await runCli([
      'node',
      'init',
      '--home',
      home,
      '--protocol-version',
      '87',
    ]);
    assert.equal(code, 0, stderr);
    assert.equal((await readJson(join(home, 'genesis.json'))).protocol_version, 87);
    assert.match(stdout, /protocol version 87/);
    const other = join(await tempDir(), 'home');
    const refused = await runCli(['node', 'init', '--home', other, '--protocol-version', '88']);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /invalid value '88' for --protocol-version: protocol version 88 is not supported: this node runs protocol versions 83 to 87/,
    );
    assert.equal(existsSync(join(other, 'genesis.json')), false);
  });

  it('takes --eth-wallet-contract: the wallet is copied into the home and named in config.json', async () => {
    const dir = await tempDir();
    const wallet = join(dir, 'wallet.wasm');
    await writeFile(wallet, Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    const home = join(dir, 'home');
    const { code, stdout, stderr } = await runCli([
      'node',
      'init',
      '--home',
      home,
      '--eth-wallet-contract',
      wallet,
    ]);
    assert.equal(code, 0, stderr);
    assert.deepEqual(await readFile(join(home, 'eth_wallet_contract.wasm')), await readFile(wallet));
    const config = await readJson(join(home, 'config.json'));
    assert.equal(
      (config.shadebox as Record<string, unknown>).eth_wallet_contract,
      'eth_wallet_contract.wasm',
    );
    assert.ok(stdout.includes(join(home, 'eth_wallet_contract.wasm')));
    const missing = await runCli([
      'node',
      'init',
      '--home',
      join(dir, 'other'),
      '--eth-wallet-contract',
      'nope.wasm',
    ]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--eth-wallet-contract: cannot read 'nope.wasm'/);
  });

  it('defaults to ./.shadebox/node', async () => {
    const cwd = await tempDir();
    const { code, stderr } = await runCli(['node', 'init'], { cwd });
    assert.equal(code, 0, stderr);
    for (const file of FILES) assert.ok(existsSync(join(cwd, '.shadebox', 'node', file)), file);
  });

  it('refuses an existing home (exit 1, files untouched); --force overwrites it and drops its chain data', async () => {
    const home = join(await tempDir(), 'home');
    assert.equal((await runCli(['node', 'init', '--home', home])).code, 0);
    const before = await readFile(join(home, 'validator_key.json'), 'utf8');

    const refused = await runCli(['node', 'init', '--home', home]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.equal(refused.stderr.trimEnd().split('\n').length, 1, refused.stderr);
    assert.match(refused.stderr, /already holds a node home/);
    assert.match(refused.stderr, /--force/);
    assert.equal(await readFile(join(home, 'validator_key.json'), 'utf8'), before);

    await mkdir(join(home, 'data'));
    await writeFile(join(home, 'data', 'data.mdb'), 'old chain');
    const forced = await runCli(['node', 'init', '--home', home, '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.notEqual(await readFile(join(home, 'validator_key.json'), 'utf8'), before);
    assert.equal(existsSync(join(home, 'data')), false, 'the old chain data is deleted');
  });
});
