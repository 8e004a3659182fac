// The node:test example of packages/testing/README.md and docs/agent-testing.md, as written there.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { useStack } from '@shadebox/testing';
import { createPublicClient, http, keccak256, recoverAddress, toHex } from 'viem';

describe('my agent', () => {
  // One stack for the suite; before each test both chains go back to where they were at its start.
  const stack = useStack({ before, after, beforeEach });

  it('signs for its derived EVM address', async () => {
    const { agent, agentAddresses } = stack();
    const hash = keccak256(toHex('hello'));
    const signature = await agent.requestSignature({ path: 'ethereum-1', payload: hash });
    assert.equal(signature.scheme, 'Secp256k1');
    const r = `0x${signature.big_r.affine_point.slice(2)}` as const;
    const s = `0x${signature.s.scalar}` as const;
    const signer = await recoverAddress({ hash, signature: { r, s, yParity: signature.recovery_id } });
    assert.equal(signer, agentAddresses.evm.address);
  });

  it('finds that address funded on the local EVM chain', async () => {
    const { evm, agentAddresses } = stack();
    assert.ok(evm, 'the stack runs a local EVM chain');
    const client = createPublicClient({ transport: http(evm.rpcUrl) });
    const address = agentAddresses.evm.address as `0x${string}`;
    assert.equal(await client.getBalance({ address }), 100n * 10n ** 18n);
  });

  it('undoes what it did with snapshot and revert', async () => {
    const { agent, snapshot, revert } = stack();
    const id = await snapshot();
    const { balance } = await agent.agentBalance();
    await agent.requestSignature({ path: 'ethereum-1', payload: 'cd'.repeat(32) }); // pays for the gas
    assert.notEqual((await agent.agentBalance()).balance, balance);
    await revert(id);
    assert.equal((await agent.agentBalance()).balance, balance);
  });
});
