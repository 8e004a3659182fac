/**
 * startStack against the real `shadebox` CLI: the stack's ready data, a signature through its agent client
 * (recovered with viem to the agent's derived EVM address), snapshot → transfer → revert on NEAR (and on the
 * EVM chain when the stack runs one), a signature after the revert, and a stop that leaves no process and no
 * temporary home.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type EcdsaSignatureResponse, toRsvHex } from '@shadebox/client';
import { Account, JsonRpcProvider } from 'near-api-js';
import { createWalletClient, http, keccak256, publicActions, recoverAddress, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type Stack, startStack, UnknownSnapshotError } from './index.js';

const NEAR = 10n ** 24n;
/** anvil's first default account (the same on every anvil). */
const ANVIL_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('startStack', () => {
  let stack: Stack;
  let provider: JsonRpcProvider;

  before(async () => {
    stack = await startStack({ accounts: 2, seed: 'testing-e2e' });
    provider = new JsonRpcProvider({ url: stack.rpcUrl });
  });

  after(async () => {
    await stack?.stop();
  });

  const balance = async (accountId: string) => (await provider.viewAccount({ accountId })).amount;
  const transfer = (amount: bigint) => {
    const [from, to] = stack.devAccounts;
    return new Account(from.accountId, provider, from.secretKey).transfer({
      receiverId: to.accountId,
      amount,
    });
  };
  /** An Ecdsa signature of keccak256(text) for path ethereum-1, recovered to an address. */
  const signedBy = async (text: string) => {
    const hash = keccak256(toHex(text));
    const sig = (await stack.agent.requestSignature({
      path: 'ethereum-1',
      payload: hash,
      keyType: 'Ecdsa',
    })) as EcdsaSignatureResponse;
    return recoverAddress({ hash, signature: toRsvHex(sig) });
  };

  it('gives the stack: endpoints, keyed accounts, contracts, the registered agent', async () => {
    assert.match(stack.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(stack.archivalRpcUrl, undefined);
    assert.equal(stack.accounts[0].accountId, 'test.near');
    assert.match(stack.accounts[0].secretKey, /^ed25519:/);
    assert.deepEqual(
      stack.devAccounts.map((a) => a.accountId),
      ['dev-0.test.near', 'dev-1.test.near'],
    );
    assert.equal(stack.agentContractId, 'agent.test.near');
    assert.equal(stack.mpcContractId, 'signer.test.near');
    assert.deepEqual(await stack.agent.agentAccountId(), { accountId: stack.agentAccountId });
    assert.equal(stack.agentAddresses.predecessor, 'agent.test.near');
    assert.match(stack.agentAddresses.evm.address, /^0x[0-9a-fA-F]{40}$/);
    assert.ok(stack.home !== null && existsSync(stack.home));
    assert.equal((await stack.rpc<{ chain_id: string }>('status')).chain_id, stack.chainId);
    if (stack.evm !== null) {
      assert.match(stack.evm.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+/);
      assert.equal(typeof stack.evm.chainId, 'number');
      assert.deepEqual(stack.evm.funded[0], {
        path: 'ethereum-1',
        address: stack.agentAddresses.evm.address,
      });
    }
  });

  it('signs through the agent client for the derived EVM address', async () => {
    assert.equal(
      (await signedBy('before any snapshot')).toLowerCase(),
      stack.agentAddresses.evm.address.toLowerCase(),
    );
  });

  it('reverts a transfer, again and again to the same snapshot, and signs after each revert', async () => {
    const receiver = stack.devAccounts[1].accountId;
    const start = await balance(receiver);
    const id = await stack.snapshot();

    await transfer(5n * NEAR);
    assert.equal(await balance(receiver), start + 5n * NEAR);
    await stack.revert(id);
    assert.equal(await balance(receiver), start, 'the transfer is undone');
    assert.equal(
      (await signedBy('after a revert')).toLowerCase(),
      stack.agentAddresses.evm.address.toLowerCase(),
      'the agent API and the MPC responder keep working after a revert',
    );

    await transfer(7n * NEAR);
    assert.equal(await balance(receiver), start + 7n * NEAR);
    await stack.revert(id);
    assert.equal(await balance(receiver), start, 'the same snapshot once more');
    assert.equal(
      (await signedBy('after the second revert')).toLowerCase(),
      stack.agentAddresses.evm.address.toLowerCase(),
    );
  });

  it('forgets the snapshots taken after the one reverted to', async () => {
    const first = await stack.snapshot();
    const second = await stack.snapshot();
    await stack.revert(first);
    await assert.rejects(stack.revert(second), UnknownSnapshotError);
    await assert.rejects(stack.revert('no such id'), UnknownSnapshotError);
  });

  it('reverts the EVM chain with the NEAR one', async (t) => {
    if (stack.evm === null) {
      t.skip('this shadebox runs no EVM chain (anvil not installed, or a CLI without --evm)');
      return;
    }
    const wallet = createWalletClient({
      account: privateKeyToAccount(ANVIL_KEY),
      transport: http(stack.evm.rpcUrl),
    }).extend(publicActions);
    const to = stack.agentAddresses.evm.address as `0x${string}`;
    const start = await wallet.getBalance({ address: to });
    const id = await stack.snapshot();
    const hash = await wallet.sendTransaction({ to, value: 10n ** 18n, chain: null });
    assert.equal((await wallet.waitForTransactionReceipt({ hash })).status, 'success');
    assert.equal(await wallet.getBalance({ address: to }), start + 10n ** 18n);
    await stack.revert(id);
    assert.equal(await wallet.getBalance({ address: to }), start);
    // anvil consumed its snapshot: the harness took it again, so the same id works twice.
    await wallet.sendTransaction({ to, value: 1n, chain: null });
    await stack.revert(id);
    assert.equal(await wallet.getBalance({ address: to }), start);
  });
});

describe('stop', () => {
  it('ends the process and removes the temporary home; a second stop is harmless', async () => {
    const stack = await startStack({ args: ['--quiet'] });
    const { pid, home } = stack;
    assert.ok(alive(pid));
    const exit = await stack.stop();
    assert.equal(exit.code, 0, stack.logs);
    assert.equal(alive(pid), false);
    assert.equal(existsSync(home!), false);
    assert.deepEqual(await stack.stop(), exit);
  });
});
