/**
 * `shadebox up --agent-contract v2` through real processes: the built-in 2.0 agent contract initialised as
 * `shade deploy` does in local mode (no TEE, seven days, owned by test.near, signing through the stack's
 * signer, the mock measurements and the default PPID approved); the agent API whitelisted and registered in
 * it, valid; a signature through the agent API that recovers to the address derived for the agent contract;
 * `shadebox whitelist` (the owner's key from the home, a refusal for another account signing with its own key;
 * on a testnet twin without a home, `agent.testnet` found from the chain id); `--whitelist-all` (an implicit
 * account funded by transfer gets whitelisted, then registers as ShadeClient does); the flags' refusals.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KeyPool, outcomeResult, RpcClient, viewFunction } from '@shadebox/near-client';
import { KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import { CliProcess, runCli, tempDir } from '../test-support/cli-process.js';
import { assertSignatureRecoversToDerived } from '../test-support/signature-recovery.js';
import type { ReadyEvent } from './print-ready.js';

type Ready = ReadyEvent & {
  agentApiUrl: string;
  agentContractId: string;
  mpcContractId: string;
  accounts: Array<{ accountId: string; secretKey: string }>;
  devAccounts: Array<{ accountId: string; secretKey: string }>;
};

const Z48 = '0'.repeat(96);
const MOCK_MEASUREMENTS = {
  rtmrs: { mrtd: Z48, rtmr0: Z48, rtmr1: Z48, rtmr2: Z48 },
  key_provider_event_digest: Z48,
  app_compose_hash_payload: '0'.repeat(64),
};
const DEFAULT_PPID = '0'.repeat(32);

/** Polls `check` until it answers something other than undefined (no timed assertion: the test's own timeout). */
async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('shadebox up --agent-contract v2', () => {
  let cli: CliProcess;
  let ready: Ready;
  let home: string;
  let rpc: RpcClient;
  let agentAccountId: string;
  const view = (method: string, args: unknown = {}) => viewFunction(rpc, ready.agentContractId, method, args);

  before(async () => {
    home = await tempDir();
    cli = new CliProcess([
      'up',
      '--home',
      home,
      '--rpc-port',
      '0',
      '--agent-port',
      '0',
      '--no-evm',
      '--agent-contract',
      'v2',
      '--whitelist-all',
      '--json',
    ]);
    ready = JSON.parse(await cli.firstLine()) as Ready;
    rpc = new RpcClient([ready.rpcUrl], 30_000);
    await cli.stdoutIncludes('"agent-ready"');
    agentAccountId = JSON.parse(cli.stdout.split('\n')[1]!).agentAccountId;
  });

  after(async () => {
    await cli?.stop();
  });

  it('deploys the 2.0 contract initialised and approved for local mode', async () => {
    assert.deepEqual(await view('get_contract_info'), {
      requires_tee: false,
      attestation_expiration_time_ms: '604800000',
      owner_id: 'test.near',
      mpc_contract_id: ready.mpcContractId,
    });
    assert.deepEqual(await view('get_approved_measurements'), [MOCK_MEASUREMENTS]);
    assert.deepEqual(await view('get_approved_ppids'), [DEFAULT_PPID]);
  });

  it('the agent API is whitelisted and registered, valid', async () => {
    assert.ok((await view('get_whitelisted_agents_for_local')) as string[], 'a whitelist');
    assert.ok(((await view('get_whitelisted_agents_for_local')) as string[]).includes(agentAccountId));
    const agent = (await view('get_agent', { account_id: agentAccountId })) as {
      validity: unknown;
      measurements: unknown;
      ppid: string;
    };
    assert.equal(agent.validity, 'Valid');
    assert.deepEqual(agent.measurements, MOCK_MEASUREMENTS);
    assert.equal(agent.ppid, DEFAULT_PPID);
  });

  it('a signature through the agent API recovers to the address derived for the agent contract', async () => {
    await assertSignatureRecoversToDerived(ready, `0x${'5e'.repeat(32)}`);
  });

  it('shadebox whitelist: the owner (its key from the home) whitelists and removes; another account is refused', async () => {
    const id = 'ab'.repeat(32);
    const added = await runCli(['whitelist', id, '--home', home, '--rpc', ready.rpcUrl]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(
      added.stdout,
      new RegExp(`${id} whitelisted in ${ready.agentContractId} \\(by test\\.near\\)`),
    );
    assert.ok(((await view('get_whitelisted_agents_for_local')) as string[]).includes(id));
    const again = await runCli(['whitelist', id, '--home', home, '--rpc', ready.rpcUrl, '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).whitelisted, true);
    const removed = await runCli(['whitelist', id, '--remove', '--home', home, '--rpc', ready.rpcUrl]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.ok(!((await view('get_whitelisted_agents_for_local')) as string[]).includes(id));
    const notThere = await runCli(['whitelist', id, '--remove', '--home', home, '--rpc', ready.rpcUrl]);
    assert.equal(notThere.code, 1);
    assert.match(notThere.stderr, /Agent not in whitelist for local/);
    // A real account signing with its own key: the transaction goes through and the contract refuses it.
    const other = ready.devAccounts[0]!;
    const refused = await runCli([
      'whitelist',
      id,
      '--home',
      home,
      '--rpc',
      ready.rpcUrl,
      '--as',
      other.accountId,
      '--key',
      other.secretKey,
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^shadebox whitelist: error: .*Caller is not the owner/);
    assert.ok(!((await view('get_whitelisted_agents_for_local')) as string[]).includes(id));
    const bad = await runCli(['whitelist', 'Not An Account', '--home', home]);
    assert.equal(bad.code, 2);
  });

  it('--whitelist-all: an implicit account funded by transfer is whitelisted, then registers as ShadeClient does', async () => {
    const root = ready.accounts[0]!;
    const key = KeyPair.fromRandom();
    const id = Buffer.from(key.publicKey.data).toString('hex');
    const sponsor = new KeyPool(rpc, root.accountId, [KeyPair.fromString(root.secretKey)]);
    outcomeResult(await sponsor.send(id, [{ type: 'Transfer', deposit: ONE_NEAR }]));
    await until(async () =>
      ((await view('get_whitelisted_agents_for_local')) as string[]).includes(id) ? true : undefined,
    );
    const { LOCAL_DSTACK_ATTESTATION, REGISTER_DEPOSIT } = await import('@shadebox/agent-api');
    const agent = new KeyPool(rpc, id, [key]);
    const result = outcomeResult(
      await agent.send(ready.agentContractId, [
        {
          type: 'FunctionCall',
          methodName: 'register_agent',
          args: new TextEncoder().encode(JSON.stringify({ attestation: LOCAL_DSTACK_ATTESTATION })),
          gas: 100n * TGAS,
          deposit: REGISTER_DEPOSIT,
        },
      ]),
    );
    assert.equal(result, true);
    assert.equal(((await view('get_agent', { account_id: id })) as { validity: unknown }).validity, 'Valid');
  });
});

describe('shadebox whitelist on a testnet twin, without a home', () => {
  let cli: CliProcess;
  let ready: Ready;

  before(async () => {
    cli = new CliProcess([
      'up',
      '--memory',
      '--chain-id',
      'testnet',
      '--rpc-port',
      '0',
      '--agent-port',
      '0',
      '--no-evm',
      '--agent-contract',
      'v2',
      '--json',
    ]);
    ready = JSON.parse(await cli.firstLine()) as Ready;
  });

  after(async () => {
    await cli?.stop();
  });

  it("finds agent.testnet from the chain's id (status.chain_id) and its owner from get_contract_info", async () => {
    const id = 'cd'.repeat(32);
    // An empty folder: no stack record, no node home, no mpc_accounts.json to name the contract.
    const empty = await tempDir();
    const owner = ready.accounts.find((a) => a.accountId === 'testnet');
    assert.ok(owner, "the twin's genesis account testnet, with its key");
    const added = await runCli(['whitelist', id, '--rpc', ready.rpcUrl, '--key', owner.secretKey], {
      cwd: empty,
    });
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.stdout, `${id} whitelisted in agent.testnet (by testnet); it can register now\n`);
    const rpc = new RpcClient([ready.rpcUrl], 30_000);
    const list = (await viewFunction(
      rpc,
      'agent.testnet',
      'get_whitelisted_agents_for_local',
      {},
    )) as string[];
    assert.ok(list.includes(id));
  });
});

describe('shadebox up --agent-contract: refusals', () => {
  it('an unknown value, with --agent-contract-wasm, and --whitelist-all without a 2.0 contract: usage errors', async () => {
    const dir = await tempDir();
    const unknown = await runCli(['up', '--home', dir, '--agent-contract', 'v3']);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /invalid value 'v3' for --agent-contract: expected v1 \(the default\) or v2/,
    );
    const both = await runCli([
      'up',
      '--home',
      dir,
      '--agent-contract',
      'v2',
      '--agent-contract-wasm',
      'x.wasm',
    ]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--agent-contract cannot be used with --agent-contract-wasm/);
    const all = await runCli(['up', '--home', dir, '--whitelist-all']);
    assert.equal(all.code, 2);
    assert.match(all.stderr, /--whitelist-all needs a 2\.0 agent contract/);
  });
});
