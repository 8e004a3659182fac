/**
 * The inspection commands (`tx`, `block`, `account`, `view`, `call`) against a running node with chain
 * signatures (`shadebox node --mpc`, a real process): what they print, readable and `--json`, their exit codes,
 * the RPC address and keys taken from the home.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatNearAmount } from '@shadebox/primitives';
import { runCliInProcess } from '../test-support/cli-in-process.js';
import { CliProcess, rpc, runCli, tempDir } from '../test-support/cli-process.js';

let node: CliProcess;
let home: string;
let rpcUrl: string;
let validator: { account_id: string; public_key: string; secret_key: string };

/** Runs an inspection command in process against the node, reading the home for its RPC and keys. */
function inspect(args: string[]) {
  return runCliInProcess([...args, '--home', home]);
}

before(async () => {
  home = join(await tempDir(), 'node');
  node = new CliProcess(['node', '--home', home, '--mpc', '--rpc-port', '0', '--json']);
  const ready = JSON.parse(await node.firstLine());
  rpcUrl = ready.rpcUrl;
  // The node was started on a free port; the home's config.json names it, as it does a fixed one.
  const configPath = join(home, 'config.json');
  const config = JSON.parse(await readFile(configPath, 'utf8'));
  config.rpc.addr = new URL(rpcUrl).host;
  await writeFile(configPath, JSON.stringify(config, null, 2));
  validator = JSON.parse(await readFile(join(home, 'validator_key.json'), 'utf8'));
});

after(async () => {
  await node?.stop();
});

describe('shadebox account', () => {
  it('prints the balance in NEAR, storage, contract and keys; --json the RPC views', async () => {
    const view = await rpc<{ amount: string; code_hash: string }>(rpcUrl, 'query', {
      request_type: 'view_account',
      finality: 'optimistic',
      account_id: 'agent.test.near',
    });
    const run = await inspect(['account', 'agent.test.near']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Account +agent\.test\.near$/m);
    assert.match(
      run.stdout,
      new RegExp(`^Balance +${formatNearAmount(BigInt(view.amount)).replace('.', '\\.')} NEAR$`, 'm'),
    );
    assert.match(run.stdout, /^Storage +\d+ bytes \(locks [\d.]+ NEAR\)$/m);
    assert.match(run.stdout, new RegExp(`^Contract +code hash ${view.code_hash}$`, 'm'));
    assert.match(run.stdout, /^Keys \(1\) +ed25519:\S+ +nonce \d+ +FullAccess$/m);

    const json = await inspect(['account', 'test.near', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout);
    assert.equal(parsed.account.code_hash, '11111111111111111111111111111111');
    assert.deepEqual(
      parsed.keys.map((k: { public_key: string }) => k.public_key),
      [validator.public_key],
    );
  });

  it('an unknown account exits 1 naming it', async () => {
    const run = await inspect(['account', 'nobody.test.near']);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^shadebox account: error: account nobody\.test\.near does not exist on http/);
  });
});

describe('shadebox view', () => {
  it('prints the result (text as it is, JSON pretty); --json with the block', async () => {
    const run = await inspect(['view', 'agent.test.near', 'get_mpc_contract_id']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'signer.test.near\n');
    const json = await inspect(['view', 'agent.test.near', 'get_approved_codehashes', '{}', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout);
    assert.ok(Array.isArray(parsed.result));
    assert.ok(Number.isInteger(parsed.block_height));
    assert.deepEqual(parsed.logs, []);
  });

  it('a missing method exits 1 with the contract error; bad ARGS_JSON exits 2', async () => {
    const run = await inspect(['view', 'agent.test.near', 'no_such_method']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^shadebox view: error: .*MethodNotFound/);
    const bad = await inspect(['view', 'agent.test.near', 'get_agents', '{nope']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^shadebox view: error: invalid ARGS_JSON '\{nope'/);
  });
});

describe('shadebox call, tx and block', () => {
  it('call signs as test.near with the home key; tx and block show it', async () => {
    const codehash = 'ab'.repeat(32);
    const call = await inspect(['call', 'agent.test.near', 'approve_codehash', JSON.stringify({ codehash })]);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /^From → to +test\.near → agent\.test\.near$/m);
    assert.match(call.stdout, /^Status +succeeded$/m);
    assert.match(
      call.stdout,
      /^Actions +FunctionCall approve_codehash \{"codehash":"(ab)+"\} {2}30 Tgas, deposit 0 NEAR$/m,
    );
    assert.match(call.stdout, /^Receipts$/m);
    assert.match(call.stdout, /^ {2}\S+ {2}test\.near → agent\.test\.near$/m);
    // The refund of unused gas, a child of the call's receipt.
    assert.match(call.stdout, /^ {4}\S+ {2}system → test\.near$/m);
    const hash = /^Transaction +(\S+)$/m.exec(call.stdout)![1]!;
    const height = Number(/^Block +(\d+) \(/m.exec(call.stdout)![1]);

    const approved = await inspect(['view', 'agent.test.near', 'get_approved_codehashes']);
    assert.ok(JSON.parse(approved.stdout).includes(codehash), approved.stdout);

    const tx = await inspect(['tx', hash]);
    assert.equal(tx.code, 0, tx.stderr);
    assert.match(tx.stdout, new RegExp(`^Transaction +${hash}$`, 'm'));
    assert.match(tx.stdout, /^Status +succeeded$/m);
    assert.match(tx.stdout, new RegExp(`^Block +${height} \\(`, 'm'));
    assert.match(tx.stdout, /^Gas burnt +[\d.]+ Tgas$/m);
    assert.match(tx.stdout, /^Tokens burnt +0\.\d+ NEAR$/m);
    const txJson = JSON.parse((await inspect(['tx', hash, '--sender', 'test.near', '--json'])).stdout);
    assert.equal(txJson.transaction.hash, hash);
    assert.ok(Array.isArray(txJson.receipts), 'EXPERIMENTAL_tx_status has the receipts');

    const blk = await inspect(['block', String(height)]);
    assert.equal(blk.code, 0, blk.stderr);
    assert.match(blk.stdout, new RegExp(`^Block +${height}$`, 'm'));
    assert.match(blk.stdout, new RegExp(`^ {2}tx ${hash} {2}test\\.near → agent\\.test\\.near$`, 'm'));
    assert.match(blk.stdout, /^ {6}FunctionCall approve_codehash /m);
    const blkJson = JSON.parse((await inspect(['block', String(height), '--json'])).stdout);
    assert.equal(blkJson.block.header.height, height);
    assert.equal(blkJson.chunks[0].transactions[0].hash, hash);
    const latest = await inspect(['block', '--finality', 'final']);
    assert.match(latest.stdout, /^Block +\d+$/m);
  });

  it('a failing call exits 1 and says why in a sentence; --as and --key pick the signer', async () => {
    // agent.test.near's key is in the home (mpc_accounts.json); it is not the contract's owner.
    const run = await inspect([
      'call',
      'agent.test.near',
      'approve_codehash',
      '{"codehash":"cd"}',
      '--as',
      'agent.test.near',
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^From → to +agent\.test\.near → agent\.test\.near$/m);
    assert.match(
      run.stdout,
      /^Status +failed: action 0 failed: FunctionCallError: ExecutionError: Smart contract panicked: Only the owner can call approve_codehash$/m,
    );
    const withKey = await runCliInProcess([
      'call',
      'agent.test.near',
      'remove_codehash',
      JSON.stringify({ codehash: 'ab'.repeat(32) }),
      '--key',
      validator.secret_key,
      '--as',
      'test.near',
      '--deposit',
      '0.000000000000000000000001',
      '--gas',
      '50',
      '--rpc',
      rpcUrl,
      '--json',
    ]);
    assert.equal(withKey.code, 0, withKey.stderr);
    const outcome = JSON.parse(withKey.stdout);
    assert.deepEqual(outcome.transaction.actions[0].FunctionCall.deposit, '1');
    assert.equal(outcome.transaction.actions[0].FunctionCall.gas, 50_000_000_000_000);
    const noKey = await inspect(['call', 'agent.test.near', 'get_agents', '--as', 'someone.test.near']);
    assert.equal(noKey.code, 1);
    assert.match(noKey.stderr, /no key of someone\.test\.near in /);
  });

  it('the executable: an unknown transaction exits 1; no node there exits 1 with a hint', async () => {
    const unknown = await runCli(['tx', '11111111111111111111111111111111', '--rpc', rpcUrl]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /transaction 11111111111111111111111111111111 is not known to http/);
    const closed = await runCli(['block', '--rpc', 'http://127.0.0.1:9', '--json']);
    assert.equal(closed.code, 1);
    assert.equal(closed.stdout, '');
    assert.match(closed.stderr, /no answer from http:\/\/127\.0\.0\.1:9 .*'shadebox up', or pass --rpc URL/);
  });
});
