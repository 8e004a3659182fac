/**
 * End to end: a 4-shard chain. Transfers between accounts on different shards: the transaction goes into
 * the chunk of the signer's shard, its receipt executes in the receiver's shard one block later, every block
 * has one chunk per shard, and tokens are conserved.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR } from '@shadebox/primitives';
import type { Account } from 'near-api-js';
import { checkConservation } from './support/conservation.js';
import type { Json } from './support/raw-rpc.js';
import { receiptOutcome } from './support/receipts.js';
import { balanceOf, block, blockHeight, rpc } from './support/rpc-calls.js';
import { checkSingleReceiptTx } from './support/single-receipt-tx.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { refOf, type TxRef, txStatus } from './support/transactions.js';

const SHARDS = 4;

describe('four shards', () => {
  let t: TestNode;
  const txs: TxRef[] = [];
  /** One account per shard, by shard id. */
  const users: Array<{ id: string; account: Account }> = [];

  before(async () => {
    t = await startTestNode({ numShards: SHARDS });
    const byShard = new Map<number, string>();
    for (let i = 0; byShard.size < SHARDS; i++) {
      const id = `user${i}.test.near`;
      const shard = t.node.chain.shardOf(id);
      if (!byShard.has(shard)) byShard.set(shard, id);
    }
    for (let shard = 0; shard < SHARDS; shard++) {
      const id = byShard.get(shard)!;
      const key = newKey();
      const r = await t.root.createSubAccount({
        accountOrPrefix: id,
        publicKey: key.getPublicKey(),
        nearToTransfer: 100n * NEAR,
      });
      txs.push(refOf(r));
      await txStatus(t.url, refOf(r));
      users.push({ id, account: t.account(id, key) });
    }
  });
  after(async () => {
    await t?.stop();
  });

  it('every block carries one chunk per shard, in shard order', async () => {
    const b = await block(t.url, { finality: 'final' });
    assert.equal(b.chunks.length, SHARDS);
    assert.deepEqual(
      b.chunks.map((c: Json) => c.shard_id),
      [0, 1, 2, 3],
    );
    for (const c of b.chunks) {
      const chunk = await rpc(t.url, 'chunk', { chunk_id: c.chunk_hash });
      assert.equal(chunk.header.shard_id, c.shard_id);
      const byPosition = await rpc(t.url, 'chunk', { block_id: b.header.hash, shard_id: c.shard_id });
      assert.deepEqual(byPosition, chunk);
    }
    const genesis = await rpc(t.url, 'EXPERIMENTAL_genesis_config', null);
    assert.deepEqual(genesis.shard_layout, { V0: { num_shards: SHARDS, version: 0 } });
  });

  it('transfers across shards: the receipt runs in the receiver shard, balances to the yocto', async () => {
    const pairs: Array<[number, number]> = [
      [0, 1],
      [1, 3],
      [3, 2],
      [2, 0],
    ];
    for (const [from, to] of pairs) {
      const sender = users[from];
      const receiver = users[to];
      const s0 = await balanceOf(t.url, sender.id);
      const r0 = await balanceOf(t.url, receiver.id);
      const amount = 7n * NEAR + BigInt(from * 10 + to);
      const result = await sender.account.transfer({ receiverId: receiver.id, amount });
      txs.push(refOf(result));
      const status = await txStatus(t.url, refOf(result));
      const costs = await checkSingleReceiptTx(t, status);
      assert.equal(await balanceOf(t.url, sender.id), s0 - amount - costs.fee);
      assert.equal(await balanceOf(t.url, receiver.id), r0 + amount);

      // The transaction is in the chunk of the sender's shard, and only there.
      const txBlock = await block(t.url, { block_id: costs.txHeight });
      for (const c of txBlock.chunks) {
        const chunk = await rpc(t.url, 'chunk', { chunk_id: c.chunk_hash });
        const hashes = chunk.transactions.map((x: Json) => x.hash);
        assert.deepEqual(hashes, c.shard_id === from ? [status.transaction.hash] : []);
      }
      // The converted transaction's gas shows in the next block's chunk header of the sender's shard; the
      // receipt's in the chunk header of the receiver's shard the block after.
      const [r1] = status.transaction_outcome.outcome.receipt_ids;
      const receipt = receiptOutcome(status, r1);
      assert.equal(await blockHeight(t.url, receipt.block_hash), costs.txHeight + 1);
      const afterTx = await block(t.url, { block_id: costs.txHeight + 1 });
      const afterReceipt = await block(t.url, { block_id: costs.txHeight + 2 });
      assert.deepEqual(
        afterTx.chunks.map((c: Json) => BigInt(c.gas_used)),
        [0, 1, 2, 3].map((s) => (s === from ? BigInt(status.transaction_outcome.outcome.gas_burnt) : 0n)),
      );
      assert.deepEqual(
        afterTx.chunks.map((c: Json) => c.balance_burnt),
        [0, 1, 2, 3].map((s) => (s === from ? costs.txBurnt.toString() : '0')),
      );
      assert.deepEqual(
        afterReceipt.chunks.map((c: Json) => BigInt(c.gas_used)),
        [0, 1, 2, 3].map((s) => (s === to ? BigInt(receipt.outcome.gas_burnt) : 0n)),
      );
      assert.deepEqual(
        afterReceipt.chunks.map((c: Json) => c.balance_burnt),
        [0, 1, 2, 3].map((s) => (s === to ? costs.receiptBurnt.toString() : '0')),
      );
      // A chunk carries the receipts its shard's previous chunk sent out.
      const outgoing = await rpc(t.url, 'chunk', { block_id: costs.txHeight + 1, shard_id: from });
      assert.deepEqual(
        outgoing.receipts.map((r: Json) => r.receipt_id),
        [r1],
      );
      // The refund goes back to the sender's shard.
      const [refund] = receipt.outcome.receipt_ids;
      const refundOutcome = receiptOutcome(status, refund);
      assert.equal(refundOutcome.outcome.executor_id, sender.id);
      const fromReceiverShard = await rpc(t.url, 'chunk', { block_id: costs.txHeight + 2, shard_id: to });
      assert.deepEqual(
        fromReceiverShard.receipts.map((r: Json) => r.receipt_id),
        [refund],
      );
    }
  });

  it('conserves tokens across shards', async () => {
    await checkConservation(t, [t.rootId, ...users.map((u) => u.id)], txs);
  });
});
