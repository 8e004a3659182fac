/** The cost `/call` admits is exactly what a real node takes from the signer when it includes the call. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { broadcastTxAsync, KeyPool, outcomeResult, RpcClient, viewAccount } from '@shadebox/near-client';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import { fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import { callCost, fetchCallPricing, fetchGasPrice } from './call-cost.js';

describe('callCost against a node', () => {
  let node: RunningNode;
  let rpc: RpcClient;

  before(async () => {
    node = await startNode({ memory: true, rpcPort: 0, production: { kind: 'manual' }, log: silentLogger });
    rpc = new RpcClient(node.rpcUrl, 20_000);
  });
  after(() => node?.stop());

  it('equals the balance the node deducts at inclusion', async () => {
    const [account] = node.accounts;
    const root = new KeyPool(rpc, account.accountId, [KeyPair.fromString(account.secretKey)]);
    const key = KeyPair.fromRandom();
    const pump = setInterval(() => node.producer.produce(1), 20);
    try {
      outcomeResult(
        await root.send('coster.test.near', [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit: ONE_NEAR },
          { type: 'AddKey', publicKey: key.publicKey, accessKey: fullAccessKey() },
        ]),
      );
      node.producer.produce(3);
    } finally {
      clearInterval(pump);
    }
    const args = Buffer.from(JSON.stringify({ path: 'p', payload: 'ab'.repeat(32), key_type: 'Ecdsa' }));
    const pool = new KeyPool(rpc, 'coster.test.near', [key]);
    const signed = await pool.sign(account.accountId, [
      { type: 'FunctionCall', methodName: 'request_signature', args, gas: 100n * TGAS, deposit: 0n },
    ]);
    const [pricing, gasPrice] = await Promise.all([fetchCallPricing(rpc), fetchGasPrice(rpc)]);
    const cost = callCost(
      pricing,
      {
        signerId: 'coster.test.near',
        receiverId: account.accountId,
        methodName: 'request_signature',
        argsLength: args.length,
        gas: 100n * TGAS,
        deposit: 0n,
      },
      gasPrice,
    );
    const before = (await viewAccount(rpc, 'coster.test.near'))!;
    await broadcastTxAsync(rpc, signed.bytes);
    const [block] = node.producer.produce(1);
    assert.equal(BigInt(block.gasPrice), gasPrice, 'the including block has the price read');
    const after = (await viewAccount(rpc, 'coster.test.near', { blockId: block.height }))!;
    assert.equal(after.blockHeight, before.blockHeight + 1);
    assert.equal(before.amount - after.amount, cost);
  });
});
