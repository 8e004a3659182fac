/**
 * A testnet twin through real processes: `shadebox up --chain-id testnet` presents itself as testnet and runs
 * testnet's protocol version (87), its `testnet` account's registrar creates `*.testnet` accounts for near-api-js 7's `Account.createAccount` and
 * refuses (with a refund) what NEAR testnet's refuses, and the agent registers and signs there;
 * `shadebox node --chain-id` makes a new chain with that id and leaves an existing home's alone.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  Account,
  actions,
  JsonRpcProvider,
  KeyPair,
  KeyPairSigner,
  type KeyPairString,
  nearToYocto,
} from 'near-api-js';
import { type Hex, recoverAddress } from 'viem';
import { extractSnippets } from '../../../test/support/doc-snippets.js';
import { CliProcess, REPO_ROOT, rpc, runCli, tempDir } from '../test-support/cli-process.js';
import type { ReadyEvent } from './print-ready.js';

type UpReady = ReadyEvent & {
  agentApiUrl: string;
  agentContractId: string;
  agentContractOwner: string;
  mpcContractId: string;
  chainAccountId: string;
  agentAddresses: { evm: { path: string; address: string } };
};

/** A final outcome as near-api-js returns it (the fields read here). */
interface Outcome {
  status: { SuccessValue?: string; Failure?: unknown };
  receipts_outcome: { outcome: { executor_id: string; status: { Failure?: unknown } } }[];
}

const successValue = (o: Outcome) => Buffer.from(o.status.SuccessValue ?? '', 'base64').toString();

describe('shadebox up --chain-id testnet (a testnet twin)', () => {
  let cli: CliProcess;
  let ready: UpReady;
  let provider: JsonRpcProvider;
  let dev0: Account;

  before(async () => {
    cli = new CliProcess([
      'up',
      '--chain-id',
      'testnet',
      '--memory',
      '--rpc-port',
      '0',
      '--agent-port',
      '0',
      '--no-evm',
      '--json',
    ]);
    ready = JSON.parse(await cli.firstLine()) as UpReady;
    provider = new JsonRpcProvider({ url: ready.rpcUrl });
    const d = ready.devAccounts[0]!;
    dev0 = new Account(d.accountId, provider, KeyPairSigner.fromSecretKey(d.secretKey as KeyPairString));
  });
  after(async () => {
    const exit = await cli.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
  });

  const balanceOf = async (accountId: string) =>
    BigInt(
      (
        await rpc<{ amount: string }>(ready.rpcUrl, 'query', {
          request_type: 'view_account',
          // What the transaction and its receipts (refunds included) left: the last block may not be final.
          finality: 'optimistic',
          account_id: accountId,
        })
      ).amount,
    );

  it("presents itself as testnet, runs testnet's protocol version, with testnet-style accounts, the agent contract owner listed with its key", async () => {
    assert.equal(ready.chainId, 'testnet');
    const status = await rpc<{ chain_id: string; protocol_version: number }>(ready.rpcUrl, 'status');
    assert.equal(status.chain_id, 'testnet');
    // Testnet's version (nearcore 2.14), without --protocol-version; mainnet-like chains keep 86.
    assert.equal(status.protocol_version, 87);
    const genesis = await rpc<{
      chain_id: string;
      protocol_version: number;
      transaction_validity_period: number;
    }>(ready.rpcUrl, 'EXPERIMENTAL_genesis_config');
    assert.equal(genesis.chain_id, 'testnet');
    assert.equal(genesis.protocol_version, 87);
    // Testnet's genesis value (a day of blocks there), where localnet has neard init's 100.
    assert.equal(genesis.transaction_validity_period, 86_400);
    // What ShadeClient.create checks (rpc.getNetworkId() === config.networkId).
    assert.equal(await provider.getNetworkId(), 'testnet');

    assert.equal(ready.chainAccountId, 'testnet');
    assert.equal(ready.mpcContractId, 'signer.testnet');
    assert.equal(ready.agentContractId, 'agent.testnet');
    assert.equal(ready.agentContractOwner, 'testnet');
    const owner = ready.accounts.find((a) => a.accountId === ready.agentContractOwner);
    assert.ok(owner, 'the owner is listed in accounts');
    const key = await rpc<{ permission: string }>(ready.rpcUrl, 'query', {
      request_type: 'view_access_key',
      finality: 'final',
      account_id: owner.accountId,
      public_key: owner.publicKey,
    });
    assert.equal(key.permission, 'FullAccess');
    assert.deepEqual(
      ready.devAccounts.map((a) => a.accountId),
      Array.from({ length: 10 }, (_, i) => `dev-${i}.testnet`),
    );
  });

  it("docs/cli.md's near-api-js snippet runs as written on the twin (its RPC URL aside)", async () => {
    const markdown = await readFile(join(REPO_ROOT, 'docs/cli.md'), 'utf8');
    const snippet = extractSnippets(markdown, 'docs/cli.md').find(
      (s) => s.language === 'js' && s.code.includes("newAccountId: 'alice.testnet'"),
    );
    assert.ok(snippet, 'the snippet of "A testnet twin"');
    const dir = await tempDir();
    await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
    await writeFile(join(dir, 'twin.mjs'), snippet.code.split('http://127.0.0.1:3030').join(ready.rpcUrl));
    const child = spawn(process.execPath, ['twin.mjs'], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'testnet\ntrue\n2000000000000000000000000n\n');
  });

  it('createAccount(carol.testnet) from a dev account goes through the registrar: key and balance', async () => {
    const carol = KeyPair.fromRandom('ed25519');
    const amount = nearToYocto('2');
    const outcome = (await dev0.createAccount({
      newAccountId: 'carol.testnet',
      publicKey: carol.getPublicKey(),
      nearToTransfer: amount,
    })) as unknown as Outcome;
    assert.equal(successValue(outcome), 'true');
    assert.equal(await balanceOf('carol.testnet'), amount);
    const keys = await rpc<{ keys: { public_key: string; access_key: { permission: string } }[] }>(
      ready.rpcUrl,
      'query',
      { request_type: 'view_access_key_list', finality: 'optimistic', account_id: 'carol.testnet' },
    );
    assert.deepEqual(
      keys.keys.map((k) => [k.public_key, k.access_key.permission]),
      [[carol.getPublicKey().toString(), 'FullAccess']],
    );
    // The key is carol's: she signs with it.
    const carolAccount = new Account('carol.testnet', provider, new KeyPairSigner(carol));
    await carolAccount.transfer({ receiverId: ready.devAccounts[1]!.accountId, amount: nearToYocto('0.5') });
    assert.ok((await balanceOf('carol.testnet')) < nearToYocto('1.5'));
  });

  it('a secp256k1 key, and no deposit: a zero-balance account (NEP-448), as on NEAR', async () => {
    const key = KeyPair.fromRandom('secp256k1').getPublicKey();
    const outcome = (await dev0.createAccount({
      newAccountId: 'dave.testnet',
      publicKey: key,
    })) as unknown as Outcome;
    assert.equal(successValue(outcome), 'true');
    assert.equal(await balanceOf('dave.testnet'), 0n);
    const view = await rpc<{ permission: string }>(ready.rpcUrl, 'query', {
      request_type: 'view_access_key',
      finality: 'optimistic',
      account_id: 'dave.testnet',
      public_key: key.toString(),
    });
    assert.equal(view.permission, 'FullAccess');
  });

  /** create_account sent as near-api-js sends it, for ids its createAccount does not route to `testnet`. */
  const registrarCall = (args: Record<string, string>, deposit: bigint) =>
    dev0.signAndSendTransaction({
      receiverId: 'testnet',
      actions: [actions.functionCall('create_account', args, 60_000_000_000_000n, deposit)],
    }) as unknown as Promise<Outcome>;

  it('an account that exists, or that is not a direct sub-account of testnet: false, and the deposit comes back', async () => {
    const key = KeyPair.fromRandom('ed25519').getPublicKey().toString();
    const deposit = nearToYocto('5');
    for (const [newAccountId, error] of [
      ['dev-1.testnet', 'AccountAlreadyExists'],
      ['bob.carol.testnet', 'CreateAccountNotAllowed'],
    ] as const) {
      const before = await balanceOf(dev0.accountId);
      const outcome = await registrarCall({ new_account_id: newAccountId, new_public_key: key }, deposit);
      assert.equal(successValue(outcome), 'false', newAccountId);
      const failed = outcome.receipts_outcome.find((r) => r.outcome.status.Failure !== undefined);
      assert.ok(failed, `a receipt failed for ${newAccountId}`);
      assert.equal(failed.outcome.executor_id, newAccountId);
      assert.match(JSON.stringify(failed.outcome.status.Failure), new RegExp(error));
      const spent = before - (await balanceOf(dev0.accountId));
      assert.ok(spent > 0n && spent < nearToYocto('0.01'), `only gas spent (${spent}) for ${newAccountId}`);
    }
    assert.equal(await balanceOf('bob.carol.testnet').catch(() => null), null);
  });

  it('an invalid account id or key, or a call of the callback: the call fails and nothing is kept', async () => {
    const key = KeyPair.fromRandom('ed25519').getPublicKey();
    const before = await balanceOf(dev0.accountId);
    await assert.rejects(
      dev0.createAccount({ newAccountId: 'Bob.testnet', publicKey: key, nearToTransfer: nearToYocto('1') }),
      /Invalid account id: Bob\.testnet/,
    );
    await assert.rejects(
      registrarCall({ new_account_id: 'bob.testnet', new_public_key: 'ed25519:notakey' }, nearToYocto('1')),
      /Invalid argument `new_public_key`/,
    );
    await assert.rejects(
      registrarCall({ new_account_id: 'bob.testnet' } as Record<string, string>, nearToYocto('1')),
      /Missing argument `new_public_key`/,
    );
    await assert.rejects(
      dev0.signAndSendTransaction({
        receiverId: 'testnet',
        actions: [
          actions.functionCall(
            'on_account_created',
            { predecessor_account_id: dev0.accountId, amount: nearToYocto('1000').toString() },
            30_000_000_000_000n,
            0n,
          ),
        ],
      }),
      /Callback can only be called from the contract/,
    );
    const spent = before - (await balanceOf(dev0.accountId));
    assert.ok(spent > 0n && spent < nearToYocto('0.05'), `only gas spent (${spent})`);
    assert.equal(await balanceOf('bob.testnet').catch(() => null), null);
  });

  it('the agent registers in agent.testnet and signs for the address the ready line derives', async () => {
    await cli.stdoutIncludes('"agent-ready"');
    const payload = Buffer.alloc(32, 7).toString('hex');
    const reply = await fetch(`${ready.agentApiUrl}/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        methodName: 'request_signature',
        args: { path: 'ethereum-1', payload, key_type: 'Ecdsa' },
      }),
    });
    const signature = (await reply.json()) as {
      scheme: string;
      big_r: { affine_point: string };
      s: { scalar: string };
      recovery_id: number;
    };
    assert.equal(signature.scheme, 'Secp256k1', JSON.stringify(signature));
    const address = await recoverAddress({
      hash: `0x${payload}`,
      signature: {
        r: `0x${signature.big_r.affine_point.slice(2)}` as Hex,
        s: `0x${signature.s.scalar}` as Hex,
        yParity: signature.recovery_id & 1,
      },
    });
    assert.equal(address, ready.agentAddresses.evm.address);
  });
});

describe('shadebox node --chain-id', () => {
  it('makes a new chain with that id; an existing home keeps its own (with a warning)', async () => {
    const home = join(await tempDir(), 'node');
    const first = new CliProcess([
      'node',
      '--home',
      home,
      '--chain-id',
      'testnet',
      '--rpc-port',
      '0',
      '--json',
    ]);
    const ready = JSON.parse(await first.firstLine()) as ReadyEvent;
    assert.equal(ready.chainId, 'testnet');
    assert.equal(ready.accounts[0]!.accountId, 'testnet');
    assert.equal(ready.devAccounts[0]!.accountId, 'dev-0.testnet');
    const registrar = await rpc<{ code_hash: string }>(ready.rpcUrl, 'query', {
      request_type: 'view_account',
      finality: 'final',
      account_id: 'testnet',
    });
    assert.notEqual(registrar.code_hash, '11111111111111111111111111111111', 'testnet holds the registrar');
    assert.equal((await rpc<{ protocol_version: number }>(ready.rpcUrl, 'status')).protocol_version, 87);
    assert.equal((await first.stop()).code, 0);

    const again = new CliProcess([
      'node',
      '--home',
      home,
      '--chain-id',
      'other',
      '--rpc-port',
      '0',
      '--json',
    ]);
    const readyAgain = JSON.parse(await again.firstLine()) as ReadyEvent;
    assert.equal(readyAgain.chainId, 'testnet');
    assert.equal((await rpc<{ chain_id: string }>(readyAgain.rpcUrl, 'status')).chain_id, 'testnet');
    const exit = await again.stop();
    assert.equal(exit.code, 0);
    assert.match(
      exit.stderr,
      /shadebox node: warning: --chain-id other ignored: the chain in .* already exists with chain id testnet/,
    );
  });

  it("a chain id other than testnet keeps test.near and mainnet's 86; node init --chain-id testnet deploys the registrar, at 87 unless --protocol-version", async () => {
    const { cli, ready } = await (async () => {
      const c = new CliProcess(['node', '--memory', '--chain-id', 'my-chain', '--rpc-port', '0', '--json']);
      return { cli: c, ready: JSON.parse(await c.firstLine()) as ReadyEvent };
    })();
    assert.equal(ready.chainId, 'my-chain');
    const myGenesis = await rpc<{ transaction_validity_period: number; protocol_version: number }>(
      ready.rpcUrl,
      'EXPERIMENTAL_genesis_config',
    );
    assert.equal(myGenesis.transaction_validity_period, 100);
    assert.equal(myGenesis.protocol_version, 86);
    assert.equal(ready.accounts[0]!.accountId, 'test.near');
    assert.equal(ready.devAccounts[0]!.accountId, 'dev-0.test.near');
    assert.equal((await cli.stop()).code, 0);

    const home = join(await tempDir(), 'node');
    const init = await runCli(['node', 'init', '--home', home, '--chain-id', 'testnet']);
    assert.equal(init.code, 0, init.stderr);
    const genesis = JSON.parse(await readFile(join(home, 'genesis.json'), 'utf8')) as {
      chain_id: string;
      protocol_version: number;
      validators: { account_id: string }[];
      records: Record<string, { account_id: string }>[];
    };
    assert.equal(genesis.chain_id, 'testnet');
    assert.equal(genesis.protocol_version, 87);
    assert.deepEqual(
      genesis.validators.map((v) => v.account_id),
      ['testnet'],
    );
    assert.deepEqual(
      genesis.records.filter((r) => 'Contract' in r).map((r) => r.Contract!.account_id),
      ['testnet'],
    );
    const home86 = join(await tempDir(), 'node');
    const init86 = await runCli([
      'node',
      'init',
      '--home',
      home86,
      '--chain-id',
      'testnet',
      '--protocol-version',
      '86',
    ]);
    assert.equal(init86.code, 0, init86.stderr);
    const genesis86 = JSON.parse(await readFile(join(home86, 'genesis.json'), 'utf8')) as {
      protocol_version: number;
    };
    assert.equal(genesis86.protocol_version, 86);
    const bad = await runCli(['node', '--memory', '--chain-id', 'no spaces']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid value 'no spaces' for --chain-id/);
  });
});
