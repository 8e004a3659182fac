/**
 * The inspection commands' command lines, in process and without a node: help, usage errors (exit 2), where
 * the RPC address and the signing key come from.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { KeyPair } from '@shadebox/primitives';
import { runCliInProcess, tempDir } from '../../test-support/cli-in-process.js';
import { DEFAULT_RPC_URL, nodeHomeFromFlag, rpcUrlOfHome } from './rpc-target.js';
import { signingKey } from './signing-key.js';

describe('inspection command lines', () => {
  for (const command of ['tx', 'block', 'account', 'view', 'call']) {
    it(`${command} --help prints its usage; 'help ${command}' too`, async () => {
      const run = await runCliInProcess([command, '--help']);
      assert.equal(run.code, 0);
      assert.match(run.stdout, new RegExp(`^Usage: shadebox ${command}`));
      assert.match(run.stdout, /--rpc URL/);
      assert.equal((await runCliInProcess(['help', command])).stdout, run.stdout);
    });
  }

  const usage: Array<[string[], RegExp]> = [
    [['tx'], /^shadebox tx: error: missing the transaction hash/],
    [['tx', 'not-a-hash'], /invalid transaction hash 'not-a-hash'/],
    [
      ['tx', '11111111111111111111111111111111', '--sender', 'Bad!'],
      /for --sender: not a valid NEAR account id/,
    ],
    [['block', 'x!'], /invalid block 'x!': expected a height or a base58 block hash/],
    [['block', '--finality', 'soon'], /invalid value 'soon' for --finality/],
    [['block', '5', '--finality', 'final'], /--finality and a block HEIGHT or HASH cannot be used together/],
    [['account'], /missing the account id/],
    [['account', 'a.near', 'b.near'], /unexpected argument 'b\.near'/],
    [['view', 'c.near'], /expected CONTRACT and METHOD/],
    [['view', 'c.near', 'm', '{'], /invalid ARGS_JSON '\{'/],
    [['call', 'c.near', 'm', '--gas', 'lots'], /invalid value 'lots' for --gas/],
    [['call', 'c.near', 'm', '--deposit', '-1'], /invalid value '-1' for --deposit/],
    [['call', 'c.near', 'm', '--wait', 'SOON'], /invalid value 'SOON' for --wait/],
    [['call', 'c.near', 'm', '--key', 'nope'], /invalid value for --key/],
    [
      ['account', 'a.near', '--rpc', 'localhost:3030'],
      /invalid value 'localhost:3030' for --rpc: expected an http/,
    ],
    [['account', 'a.near', '--bogus'], /unknown flag --bogus/],
  ];
  for (const [args, message] of usage) {
    it(`${args.join(' ')}: exit 2, one line`, async () => {
      const run = await runCliInProcess(args);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, message);
      assert.equal(run.stderr.split('\n').length, 2);
    });
  }

  it('the RPC address comes from the home config.json, a stack home or a node home', async () => {
    const cwd = await tempDir();
    assert.equal(rpcUrlOfHome(join(cwd, 'none')), undefined);
    const nodeHome = join(cwd, '.shadebox', 'node');
    await mkdir(nodeHome, { recursive: true });
    await writeFile(join(nodeHome, 'config.json'), JSON.stringify({ rpc: { addr: '0.0.0.0:4040' } }));
    assert.equal(nodeHomeFromFlag('t', cwd, undefined), nodeHome);
    assert.equal(nodeHomeFromFlag('t', cwd, '.shadebox'), nodeHome);
    assert.equal(nodeHomeFromFlag('t', cwd, '.shadebox/node'), nodeHome);
    assert.equal(rpcUrlOfHome(nodeHome), 'http://127.0.0.1:4040');
    assert.equal(DEFAULT_RPC_URL, 'http://127.0.0.1:3030');
  });

  it('the signing key: --key, validator_key.json, or named entries beside it', async () => {
    const cwd = await tempDir();
    const nodeHome = join(cwd, 'stack', 'node');
    await mkdir(nodeHome, { recursive: true });
    const validator = KeyPair.fromRandom('ed25519');
    const dev = KeyPair.fromRandom('ed25519');
    await writeFile(
      join(nodeHome, 'validator_key.json'),
      JSON.stringify({
        account_id: 'test.near',
        public_key: validator.publicKeyString,
        secret_key: validator.toString(),
      }),
    );
    // dev_accounts.json's shape: a list of key files.
    await writeFile(
      join(nodeHome, 'dev_accounts.json'),
      JSON.stringify([
        { account_id: 'dev-0.test.near', public_key: dev.publicKeyString, secret_key: dev.toString() },
      ]),
    );
    const other = KeyPair.fromRandom('ed25519');
    await writeFile(
      join(cwd, 'stack', 'accounts.json'),
      JSON.stringify({ accounts: [{ accountId: 'dev-1.test.near', secretKey: other.toString() }] }),
    );
    const own = signingKey('t', nodeHome, {});
    assert.equal(own.accountId, 'test.near');
    assert.equal(own.keyPair.publicKeyString, validator.publicKeyString);
    assert.equal(own.source, join(nodeHome, 'validator_key.json'));
    const fromDevAccounts = signingKey('t', nodeHome, { as: 'dev-0.test.near' });
    assert.equal(fromDevAccounts.keyPair.publicKeyString, dev.publicKeyString);
    const fromStackHome = signingKey('t', nodeHome, { as: 'dev-1.test.near' });
    assert.equal(fromStackHome.keyPair.publicKeyString, other.publicKeyString);
    assert.equal(fromStackHome.source, join(cwd, 'stack', 'accounts.json'));
    const given = signingKey('t', nodeHome, { as: 'x.near', key: dev.toString() });
    assert.deepEqual([given.accountId, given.source], ['x.near', '--key']);
    assert.throws(() => signingKey('t', nodeHome, { as: 'nobody.near' }), /no key of nobody\.near in /);
  });
});
