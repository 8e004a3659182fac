/**
 * Chain signatures end to end: `shadebox node --memory --mpc` (a real CLI process) deploys the signer and
 * the agent contract and runs the MPC responder; an agent registers and gets ECDSA and EdDSA signatures
 * through `request_signature`, each verified under the key NEAR's derivation gives for (agent contract,
 * path). Refusals carry NEAR's messages; identical requests are all answered; without a responder a request
 * times out. Under `v1.signer`, chainsig.js (plain node child process) derives from NEAR's mainnet keys instead
 * of asking the node (the caveat docs/chain-signatures.md gives; test/chainsig-js.test.ts covers the default).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  derivedPublicKey,
  evmAddress,
  najToEd25519PublicKey,
  najToSecp256k1PublicKey,
  recoverEcdsaPublicKey,
  verifyEddsaResponse,
} from '@shadebox/mpc';
import { silentLogger, startNode } from '@shadebox/node';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import {
  type Account,
  actions,
  JsonRpcProvider,
  KeyPairSigner,
  type KeyPair as NearKeyPair,
} from 'near-api-js';
import { startChainSignatures } from '../packages/cli/src/chain-signatures/service.js';
import type { Json } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { newKey } from './support/test-node.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../packages/cli/bin/shadebox.js', import.meta.url));
const CODEHASH = 'a'.repeat(64);
/** NEAR's mainnet MPC root keys, which chainsig.js@1.1.16 uses for `v1.signer`. */
const MAINNET = {
  secp256k1:
    'secp256k1:3tFRbMqmoa6AAALMrEFAYCEoHcqKxeW38YptwowBVBtXK1vo36HDbUWuR6EZmoK4JcH6HDkNMGGqP1ouV7VZUWya',
  ed25519: 'ed25519:G9hwngxWNKdmqMCmU1Yt6LPhFpayJeKFxyAV1HqMNLtF',
};

interface Stack {
  process: ChildProcess;
  ready: Json;
  provider: JsonRpcProvider;
  account(accountId: string, key: NearKeyPair | string): Account;
}

async function startStack(): Promise<Stack> {
  const child = spawn(process.execPath, [CLI, 'node', '--memory', '--mpc', '--rpc-port', '0', '--json'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`shadebox exited ${code}: ${stderr}`)));
  });
  const ready = JSON.parse(line);
  const { Account } = await import('near-api-js');
  const provider = new JsonRpcProvider({ url: ready.rpcUrl });
  return {
    process: child,
    ready,
    provider,
    account: (accountId, key) =>
      new Account(
        accountId,
        provider,
        typeof key === 'string' ? KeyPairSigner.fromSecretKey(key as never) : new KeyPairSigner(key),
      ),
  };
}

function stopStack(stack: Stack | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!stack || stack.process.exitCode !== null) return resolve();
    stack.process.once('exit', () => resolve());
    stack.process.kill('SIGTERM');
  });
}

/** Sends a function call and returns the FINAL-executed result without throwing on failure. */
function call(
  account: Account,
  receiverId: string,
  methodName: string,
  args: Json,
  gas = 100n * TGAS,
  deposit = 0n,
) {
  return account.signAndSendTransaction({
    receiverId,
    actions: [actions.functionCall(methodName, Buffer.from(JSON.stringify(args)), gas, deposit)],
    throwOnFailure: false,
    waitUntil: 'EXECUTED',
  }) as Promise<Json>;
}

function resultOf(r: Json): Json {
  assert.ok(r.status.SuccessValue !== undefined, `transaction failed: ${JSON.stringify(r.status)}`);
  const text = Buffer.from(r.status.SuccessValue, 'base64').toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/** The panic message a failed transaction ended with (from any of its receipts). */
function panicOf(r: Json): string {
  const text = JSON.stringify(r.status);
  const m = /Smart contract panicked: ([^"]*)/.exec(text);
  assert.ok(m, `expected a panic, got ${text}`);
  return m[1];
}

describe('chain signatures through shadebox node --mpc', () => {
  let stack: Stack;
  let root: Account;
  let agent: Account;
  let signerId: string;
  let agentContract: string;
  let rootKeys: { secp256k1: string; ed25519: string };

  before(async () => {
    stack = await startStack();
    signerId = stack.ready.mpcContractId;
    agentContract = stack.ready.agentContractId;
    root = stack.account(stack.ready.accounts[0].accountId, stack.ready.accounts[0].secretKey);
    const view = async (domain_id: number) =>
      (await stack.provider.callFunction({
        contractId: signerId,
        method: 'public_key',
        args: { domain_id },
      })) as string;
    rootKeys = { secp256k1: await view(0), ed25519: await view(1) };
    const key = newKey();
    await root.createSubAccount({
      accountOrPrefix: 'agent1',
      publicKey: key.getPublicKey(),
      nearToTransfer: 10n * NEAR,
    });
    agent = stack.account(`agent1.${root.accountId}`, key);
  });
  after(async () => {
    await stopStack(stack);
  });

  it('the ready line names the contracts', () => {
    assert.equal(signerId, 'signer.test.near');
    assert.equal(agentContract, 'agent.test.near');
    assert.match(rootKeys.secp256k1, /^secp256k1:/);
    assert.match(rootKeys.ed25519, /^ed25519:/);
  });

  it('an unregistered agent cannot request signatures', async () => {
    const r = await call(agent, agentContract, 'request_signature', {
      path: 'p',
      payload: '11'.repeat(32),
      key_type: 'Ecdsa',
    });
    assert.equal(panicOf(r), 'no worker found');
  });

  it('a registered agent gets ECDSA and EdDSA signatures that verify under the derived keys', async () => {
    resultOf(await call(root, agentContract, 'approve_codehash', { codehash: CODEHASH }));
    assert.equal(resultOf(await call(agent, agentContract, 'register_agent', { codehash: CODEHASH })), true);
    assert.deepEqual(
      await stack.provider.callFunction({
        contractId: agentContract,
        method: 'get_agent',
        args: { account_id: agent.accountId },
      }),
      { codehash: CODEHASH },
    );

    const payload = Buffer.alloc(32, 7);
    const ecdsa = resultOf(
      await call(agent, agentContract, 'request_signature', {
        path: 'ethereum-1',
        payload: payload.toString('hex'),
        key_type: 'Ecdsa',
      }),
    );
    assert.equal(ecdsa.scheme, 'Secp256k1');
    assert.match(ecdsa.big_r.affine_point, /^0[23][0-9a-f]{64}$/);
    // The agent contract is the signer's predecessor: keys derive from its account id.
    const derived = najToSecp256k1PublicKey(
      derivedPublicKey(rootKeys.secp256k1, agentContract, 'ethereum-1', 0),
    );
    assert.deepEqual(recoverEcdsaPublicKey(ecdsa, payload), derived);
    const viewed = await stack.provider.callFunction({
      contractId: signerId,
      method: 'derived_public_key',
      args: { path: 'ethereum-1', predecessor: agentContract, domain_id: 0 },
    });
    assert.equal(viewed, derivedPublicKey(rootKeys.secp256k1, agentContract, 'ethereum-1', 0));

    // chainsig.js's toRSV and viem's recoverAddress (plain node) recover the derived EVM address.
    const oracle = `
      import { utils } from 'chainsig.js';
      import { recoverAddress } from 'viem';
      const [payload, response] = process.argv.slice(1);
      const rsv = utils.cryptography.toRSV(JSON.parse(response));
      const signature = '0x' + rsv.r + rsv.s + rsv.v.toString(16).padStart(2, '0');
      process.stdout.write(await recoverAddress({ hash: '0x' + payload, signature }));`;
    const { stdout: recovered } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', oracle, payload.toString('hex'), JSON.stringify(ecdsa)],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    assert.equal(recovered, evmAddress(derived));

    const message = Buffer.from('a Solana transaction message of any length');
    const eddsa = resultOf(
      await call(agent, agentContract, 'request_signature', {
        path: 'solana-1',
        payload: message.toString('hex'),
        key_type: 'Eddsa',
      }),
    );
    assert.equal(eddsa.scheme, 'Ed25519');
    const edKey = najToEd25519PublicKey(derivedPublicKey(rootKeys.ed25519, agentContract, 'solana-1', 1));
    assert.ok(verifyEddsaResponse(eddsa, message, edKey));
  });

  it('a removed codehash stops its agents', async () => {
    resultOf(await call(root, agentContract, 'approve_codehash', { codehash: 'b'.repeat(64) }));
    const key = newKey();
    await root.createSubAccount({
      accountOrPrefix: 'agent2',
      publicKey: key.getPublicKey(),
      nearToTransfer: 5n * NEAR,
    });
    const agent2 = stack.account(`agent2.${root.accountId}`, key);
    resultOf(await call(agent2, agentContract, 'register_agent', { codehash: 'b'.repeat(64) }));
    resultOf(await call(root, agentContract, 'remove_codehash', { codehash: 'b'.repeat(64) }));
    const r = await call(agent2, agentContract, 'request_signature', {
      path: 'p',
      payload: '22'.repeat(32),
      key_type: 'Ecdsa',
    });
    assert.match(panicOf(r), /no longer approved/);
  });

  it('sign refuses a missing deposit and too little gas with NEAR messages', async () => {
    const request = { request: { path: 'x', payload_v2: { Ecdsa: '33'.repeat(32) }, domain_id: 0 } };
    assert.equal(
      panicOf(await call(root, signerId, 'sign', request, 100n * TGAS, 0n)),
      'Attached deposit is lower than required. Attached: 0, required: 1',
    );
    assert.equal(
      panicOf(await call(root, signerId, 'sign', request, 10n * TGAS, 1n)),
      'Provided gas is lower than required. Provided: 10000000000000, required: 15000000000000',
    );
  });

  it('identical requests are all answered with the same signature', async () => {
    const request = { request: { path: 'dup', payload_v2: { Ecdsa: '44'.repeat(32) }, domain_id: 0 } };
    // A second key of the same account, so both transactions are in flight at once.
    const key = newKey();
    await root.addFullAccessKey(key.getPublicKey());
    const [a, b] = await Promise.all([
      call(root, signerId, 'sign', request, 50n * TGAS, 1n),
      call(stack.account(root.accountId, key), signerId, 'sign', request, 50n * TGAS, 1n),
    ]);
    assert.deepEqual(resultOf(a), resultOf(b));
  });
});

describe('chain signatures without a responder, under v1.signer', () => {
  let node: Awaited<ReturnType<typeof startNode>>;
  let signerId: string;
  let root: Account;

  before(async () => {
    node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
    const [r] = node.accounts;
    const cs = await startChainSignatures({
      rpcUrl: node.rpcUrl,
      home: null,
      root: { accountId: r.accountId, secretKey: r.secretKey },
      log: silentLogger,
      deployOnly: true,
      mpcContractId: 'v1.signer',
    });
    signerId = cs.mpcContractId;
    const { Account } = await import('near-api-js');
    root = new Account(
      r.accountId,
      new JsonRpcProvider({ url: node.rpcUrl }),
      KeyPairSigner.fromSecretKey(r.secretKey as never),
    );
  });
  after(async () => {
    await node?.stop();
  });

  it('a request nobody answers fails after 200 blocks with "Request has timed out."', async () => {
    const request = { request: { path: 'late', payload_v2: { Ecdsa: '55'.repeat(32) }, domain_id: 0 } };
    const pending = call(root, signerId, 'sign', request, 50n * TGAS, 1n);
    // Let the sign receipt run and park its yield, then move 205 blocks ahead.
    for (let i = 0; i < 50; i++) {
      const listed = await rpc(node.rpcUrl, 'query', {
        request_type: 'call_function',
        finality: 'optimistic',
        account_id: signerId,
        method_name: 'pending_requests',
        args_base64: Buffer.from('{}').toString('base64'),
      });
      if (JSON.parse(Buffer.from(listed.result).toString()).length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await rpc(node.rpcUrl, 'sandbox_fast_forward', { delta_height: 205 });
    assert.equal(panicOf(await pending), 'Request has timed out.');
  });

  it("chainsig.js derives v1.signer's keys from NEAR's mainnet root keys, not the node's", async () => {
    const script = `
      import { contracts } from 'chainsig.js';
      const [rpcUrl, contractId] = process.argv.slice(1);
      const c = new contracts.ChainSignatureContract({ networkId: 'testnet', contractId, fallbackRpcUrls: [rpcUrl] });
      const secp = await c.getDerivedPublicKey({ path: 'ethereum-1', predecessor: 'someone.test.near', IsEd25519: false });
      const ed = await c.getDerivedPublicKey({ path: 'solana-1', predecessor: 'someone.test.near', IsEd25519: true });
      process.stdout.write(JSON.stringify({ secp, ed }));`;
    // Asynchronously: the node answering chainsig.js runs in this process.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script, node.rpcUrl, signerId],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    const out = JSON.parse(stdout);
    const view = async (args: Json): Promise<string> => {
      const r = await rpc(node.rpcUrl, 'query', {
        request_type: 'call_function',
        finality: 'optimistic',
        account_id: signerId,
        method_name: 'derived_public_key',
        args_base64: Buffer.from(JSON.stringify(args)).toString('base64'),
      });
      return JSON.parse(Buffer.from(r.result).toString());
    };
    // chainsig.js hands secp256k1 keys back as uncompressed SEC1 hex and ed25519 keys as NAJ.
    const secp = await view({ path: 'ethereum-1', predecessor: 'someone.test.near', domain_id: 0 });
    const ed = await view({ path: 'solana-1', predecessor: 'someone.test.near', domain_id: 1 });
    assert.notEqual(out.secp, `04${Buffer.from(najToSecp256k1PublicKey(secp)).toString('hex')}`);
    assert.notEqual(out.ed, ed);
    // What it returns is NEAR's mainnet derivation (chainsig.js's own root keys for v1.signer).
    assert.equal(
      out.secp,
      `04${Buffer.from(najToSecp256k1PublicKey(derivedPublicKey(MAINNET.secp256k1, 'someone.test.near', 'ethereum-1', 0))).toString('hex')}`,
    );
    assert.equal(out.ed, derivedPublicKey(MAINNET.ed25519, 'someone.test.near', 'solana-1', 1));
  });
});
