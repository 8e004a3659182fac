/**
 * End to end: a node with a home directory (LMDB) is stopped and started again on the same home. The chain
 * continues from its head; balances, blocks and transaction statuses survive; new transactions work.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ONE_NEAR as NEAR } from '@shadebox/primitives';
import { actions, baseEncode } from 'near-api-js';
import { checkConservation } from './support/conservation.js';
import type { Json } from './support/raw-rpc.js';
import { balanceOf, block, rpc, viewAccessKey, viewAccount } from './support/rpc-calls.js';
import { checkSingleReceiptTx } from './support/single-receipt-tx.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { base64Of, refOf, type TxRef, txHashOf, txStatus } from './support/transactions.js';

describe('restart on the same home', () => {
  let dir: string;
  let t: TestNode | undefined;
  const txs: TxRef[] = [];
  const aliceKey = newKey();

  after(async () => {
    await t?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the chain, the state and the transaction statuses across a restart', async () => {
    dir = await mkdtemp(join(tmpdir(), 'shadebox-restart-'));
    t = await startTestNode({ memory: false, home: dir });
    const rootKey = t.node.accounts[0].secretKey;

    const created = await t.root.createSubAccount({
      accountOrPrefix: 'alice',
      publicKey: aliceKey.getPublicKey(),
      nearToTransfer: 40n * NEAR,
    });
    txs.push(refOf(created));
    const alice = t.account('alice.test.near', aliceKey);
    const sent = await alice.transfer({ receiverId: t.rootId, amount: 3n * NEAR });
    txs.push(refOf(sent));
    const statuses: Json[] = [];
    for (const ref of txs) statuses.push(await txStatus(t.url, ref, 'FINAL'));
    const tip = await block(t.url, { finality: 'optimistic' });
    const final = await block(t.url, { finality: 'final' });
    const accountsBefore = {
      root: await viewAccount(t.url, t.rootId),
      alice: await viewAccount(t.url, 'alice.test.near'),
    };
    const keyBefore = await viewAccessKey(t.url, 'alice.test.near', aliceKey.getPublicKey().toString());
    // automine has stopped: everything is final and nothing is pending
    assert.equal(tip.header.height, final.header.height + 2);
    await t.stop();
    t = undefined;

    t = await startTestNode({ memory: false, home: dir });
    assert.equal(t.node.accounts[0].secretKey, rootKey, 'the validator key comes from the home');
    const again = await block(t.url, { finality: 'optimistic' });
    assert.equal(again.header.height, tip.header.height, 'the head is where it was');
    assert.equal(again.header.hash, tip.header.hash);
    assert.deepEqual(await block(t.url, { block_id: final.header.height }), final);
    assert.deepEqual(await viewAccount(t.url, t.rootId), accountsBefore.root);
    assert.deepEqual(await viewAccount(t.url, 'alice.test.near'), accountsBefore.alice);
    assert.deepEqual(
      await viewAccessKey(t.url, 'alice.test.near', aliceKey.getPublicKey().toString()),
      keyBefore,
    );
    for (let i = 0; i < txs.length; i++) {
      assert.deepEqual(await txStatus(t.url, txs[i], 'NONE'), statuses[i], 'the status survives');
      const plain = await rpc(t.url, 'tx', { tx_hash: txs[i].hash, sender_account_id: txs[i].signer });
      assert.equal(plain.final_execution_status, 'FINAL');
    }

    // The chain continues from the old head; nonces continue from the stored keys.
    const aliceAgain = t.account('alice.test.near', aliceKey);
    const b0 = await balanceOf(t.url, 'alice.test.near');
    const next = await aliceAgain.signAndSendTransaction({
      receiverId: t.rootId,
      actions: [actions.transfer(NEAR)],
      waitUntil: 'FINAL',
    });
    txs.push(refOf(next));
    const status = await txStatus(t.url, refOf(next));
    const costs = await checkSingleReceiptTx(t, status);
    assert.equal(costs.txHeight, tip.header.height + 1);
    const first = await block(t.url, { block_id: tip.header.height + 1 });
    assert.equal(first.header.prev_hash, tip.header.hash);
    assert.ok(status.transaction.nonce > keyBefore.nonce);
    assert.equal(await balanceOf(t.url, 'alice.test.near'), b0 - NEAR - costs.fee);
    await checkConservation(t, [t.rootId, 'alice.test.near'], txs);
    await t.stop();
    t = undefined;
  });

  it('finalises after a restart, in automine, the work the last blocks left unfinal', async () => {
    const home = await mkdtemp(join(tmpdir(), 'shadebox-restart-'));
    let node: TestNode | undefined = await startTestNode({
      memory: false,
      home,
      production: { kind: 'manual' as const },
    });
    try {
      const signed = await node.root.createSignedTransaction({
        receiverId: 'carol.test.near',
        actions: [actions.createAccount(), actions.transfer(2n * NEAR)],
      });
      const ref = { hash: baseEncode(txHashOf(signed)), signer: node.rootId };
      await rpc(node.url, 'send_tx', { signed_tx_base64: base64Of(signed), wait_until: 'NONE' });
      node.node.producer.produce(3); // included, executed, refunded: nothing left but finality
      assert.equal((await txStatus(node.url, ref, 'NONE')).final_execution_status, 'EXECUTED');
      const height = node.node.chain.head.height;
      await node.stop();

      // Nobody waits on it and nothing is pending: automine must still make the blocks that finalise it.
      node = await startTestNode({ memory: false, home });
      const deadline = Date.now() + 5_000;
      let level = '';
      while (Date.now() < deadline) {
        level = (await txStatus(node.url, ref, 'NONE')).final_execution_status as string;
        if (level === 'FINAL') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(level, 'FINAL');
      assert.equal(node.node.chain.head.height, height + 2, 'exactly the two blocks finality needs');
    } finally {
      await node?.stop();
      await rm(home, { recursive: true, force: true });
    }
  });

  it('executes after a restart the receipts a block left in flight', async () => {
    const home = await mkdtemp(join(tmpdir(), 'shadebox-restart-'));
    const manual = { memory: false, home, production: { kind: 'manual' as const } };
    let node: TestNode | undefined = await startTestNode(manual);
    try {
      const signed = await node.root.createSignedTransaction({
        receiverId: 'bob.test.near',
        actions: [actions.createAccount(), actions.transfer(5n * NEAR)],
      });
      const ref = { hash: baseEncode(txHashOf(signed)), signer: node.rootId };
      await rpc(node.url, 'send_tx', { signed_tx_base64: base64Of(signed), wait_until: 'NONE' });
      node.node.producer.produce(1);
      assert.equal((await txStatus(node.url, ref, 'NONE')).final_execution_status, 'INCLUDED');
      const height = node.node.chain.head.height;
      await node.stop();

      node = await startTestNode(manual);
      assert.equal(node.node.chain.head.height, height);
      assert.equal(node.node.chain.pendingReceiptCount, 1, 'the receipt for bob is still to execute');
      const included = await txStatus(node.url, ref, 'NONE');
      assert.equal(included.final_execution_status, 'INCLUDED');
      node.node.producer.produce(4);
      const status = await txStatus(node.url, ref, 'NONE');
      assert.equal(status.final_execution_status, 'FINAL');
      await checkSingleReceiptTx(node, status, { creates: true });
      assert.equal(await balanceOf(node.url, 'bob.test.near'), 5n * NEAR);
      await checkConservation(node, [node.rootId, 'bob.test.near'], [ref]);
    } finally {
      await node?.stop();
      await rm(home, { recursive: true, force: true });
    }
  });
});
