/**
 * End to end: `EXPERIMENTAL_indexer_block` followed block by block over 1,000 blocks of mixed traffic on two
 * shards (transfers within and across shards, account creation, transfers to missing accounts, contract calls
 * that call a contract on the other shard and call back, with deposits refunded when the callee fails, local
 * calls, missing methods), as an indexer would: each block by hash, alone. Every transaction, receipt and
 * outcome is rebuilt from the messages only, and each rebuilt answer must equal what `tx`,
 * `EXPERIMENTAL_tx_status` and `EXPERIMENTAL_receipt` answer, for every one of them.
 *
 * Blocks are produced on demand (`sandbox_produce_blocks`), a few transactions handed over before each.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Action,
  base58Decode,
  base64Encode,
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  ONE_NEAR as NEAR,
  signTransaction,
  TGAS,
} from '@shadebox/primitives';
import type { Json } from './support/raw-rpc.js';
import { keyNonce, rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { sendTx } from './support/transactions.js';
import { testRandom } from './test-random.js';
import { wat } from './vm-wat-helpers.js';

const BLOCKS = 1000;
const USERS = 6;

/**
 * `note`: logs, writes a key, returns "ok". `boom`: traps. `relay_note` / `relay_boom`: the input is an account
 * id; calls its `note` (or `boom`) with 1 yoctoNEAR attached, then `done` on itself with the result.
 */
const CONTRACT = `
(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "current_account_id" (func $current (param i64)))
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_then" (func $then (param i64 i64 i64) (result i64)))
  (import "env" "promise_batch_action_function_call_weight"
    (func $call (param i64 i64 i64 i64 i64 i64 i64 i64)))
  (import "env" "promise_return" (func $return (param i64)))
  (import "env" "promise_results_count" (func $results (result i64)))
  (import "env" "storage_write" (func $write (param i64 i64 i64 i64 i64) (result i64)))
  (import "env" "log_utf8" (func $log (param i64 i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory (export "memory") 1)
  (data (i32.const 16) "\\01")
  (data (i32.const 64) "note")
  (data (i32.const 80) "boom")
  (data (i32.const 96) "done")
  (data (i32.const 112) "ok")
  (func (export "note")
    (call $log (i64.const 4) (i64.const 64))
    (drop (call $write (i64.const 4) (i64.const 64) (i64.const 2) (i64.const 112) (i64.const 0)))
    (call $value_return (i64.const 2) (i64.const 112)))
  (func (export "boom") unreachable)
  (func (export "done")
    (drop (call $results))
    (call $log (i64.const 4) (i64.const 96)))
  (func $relay (param $method i64)
    (local $len i64) (local $p i64) (local $q i64) (local $self i64)
    (call $input (i64.const 0))
    (local.set $len (call $register_len (i64.const 0)))
    (call $read_register (i64.const 0) (i64.const 1024))
    (local.set $p (call $create (local.get $len) (i64.const 1024)))
    (call $call (local.get $p) (i64.const 4) (local.get $method) (i64.const 0) (i64.const 0)
      (i64.const 16) (i64.const 10000000000000) (i64.const 0))
    (call $current (i64.const 1))
    (local.set $self (call $register_len (i64.const 1)))
    (call $read_register (i64.const 1) (i64.const 2048))
    (local.set $q (call $then (local.get $p) (local.get $self) (i64.const 2048)))
    (call $call (local.get $q) (i64.const 4) (i64.const 96) (i64.const 0) (i64.const 0)
      (i64.const 0) (i64.const 10000000000000) (i64.const 0))
    (call $return (local.get $q)))
  (func (export "relay_note") (call $relay (i64.const 64)))
  (func (export "relay_boom") (call $relay (i64.const 80))))
`;

interface User {
  id: string;
  key: KeyPair;
  nonce: bigint;
  shard: number;
}

describe('EXPERIMENTAL_indexer_block over 1,000 blocks of mixed traffic on 2 shards', () => {
  let t: TestNode;
  const users: User[] = [];

  before(async () => {
    // Archival: a memory node's history budget would collect the first blocks before the answers are compared.
    t = await startTestNode({ numShards: 2, production: 'manual', enableIndexerRpc: true, archive: true });
    // Blocks on demand while setting up too.
    const send = (fields: Parameters<typeof sendTx>[1]) => {
      const pending = sendTx(t.url, fields);
      const timer = setInterval(() => t.node.producer.produce(1), 5);
      return pending.finally(() => clearInterval(timer));
    };
    const code = await wat(CONTRACT);
    for (let i = 0; users.length < USERS; i++) {
      const id = `u${i}.${t.rootId}`;
      const shard = t.node.chain.shardOf(id);
      // Half the users on each shard.
      if (users.filter((u) => u.shard === shard).length >= USERS / 2) continue;
      const key = KeyPair.fromRandom();
      await send({
        signerId: t.rootId,
        key: t.rootSigner.key,
        receiverId: id,
        actions: [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit: 1000n * NEAR },
          {
            type: 'AddKey',
            publicKey: key.publicKey,
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
          { type: 'DeployContract', code },
        ],
      });
      users.push({ id, key, nonce: await keyNonce(t.url, id, key.publicKeyString), shard });
    }
  });
  after(async () => {
    await t?.stop();
  });

  it('every transaction, receipt and outcome rebuilt from the messages alone equals the RPC answers', async (ctx) => {
    const rng = testRandom('test/indexer-block.test.ts');
    const pick = <T>(items: readonly T[]): T => items[rng.int(items.length)];
    const fn = (methodName: string, args: Uint8Array, deposit = 0n): Action => ({
      type: 'FunctionCall',
      methodName,
      args,
      gas: 60n * TGAS,
      deposit,
    });
    const utf8 = (text: string) => new TextEncoder().encode(text);
    let created = 0;
    /** One transaction of a random kind, signed by a random user. */
    const randomTx = (): { signer: User; receiverId: string; actions: Action[] } => {
      const signer = pick(users);
      const other = pick(users.filter((u) => u !== signer));
      switch (rng.int(9)) {
        case 0:
          return {
            signer,
            receiverId: other.id,
            actions: [{ type: 'Transfer', deposit: NEAR + BigInt(rng.int(1000)) }],
          };
        case 1:
          // A missing receiver: the action fails, the deposit is refunded.
          return {
            signer,
            receiverId: `missing${rng.int(1e6)}.${t.rootId}`,
            actions: [{ type: 'Transfer', deposit: NEAR }],
          };
        case 2: {
          const key = KeyPair.fromRandom();
          return {
            signer,
            receiverId: `s${created++}.${signer.id}`,
            actions: [
              { type: 'CreateAccount' },
              { type: 'Transfer', deposit: NEAR },
              {
                type: 'AddKey',
                publicKey: key.publicKey,
                accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
              },
            ],
          };
        }
        case 3:
          return { signer, receiverId: other.id, actions: [fn('relay_note', utf8(pick(users).id))] };
        case 4:
          // The callee fails: its deposit comes back, the callback still runs.
          return { signer, receiverId: other.id, actions: [fn('relay_boom', utf8(pick(users).id))] };
        case 5:
          return { signer, receiverId: other.id, actions: [fn('boom', new Uint8Array(), 3n)] };
        case 6:
          // Local: signer = receiver, its receipt runs in the same chunk.
          return { signer, receiverId: signer.id, actions: [fn('note', new Uint8Array())] };
        case 7:
          return { signer, receiverId: signer.id, actions: [fn('relay_note', utf8(other.id))] };
        default:
          return { signer, receiverId: other.id, actions: [fn('no_such_method', new Uint8Array())] };
      }
    };

    const sent: Array<{ hash: string; signer: string }> = [];
    const txs = new Map<string, { transaction: Json; outcome: Json }>();
    const receipts = new Map<string, Json>();
    const outcomes = new Map<string, Json>();
    let prev = (await rpc(t.url, 'block', { finality: 'optimistic' })).header;
    let localReceipts = 0;
    let crossShard = 0;

    /** Produces one block, reads its message, and files what it holds. */
    const follow = async () => {
      const { block_hash } = await rpc(t.url, 'sandbox_produce_blocks', { count: 1 });
      const m = await rpc(t.url, 'EXPERIMENTAL_indexer_block', { block_hash });
      assert.equal(m.block.header.hash, block_hash);
      assert.equal(m.block.header.prev_hash, prev.hash);
      assert.deepEqual(m.tracked_shards, [0, 1]);
      assert.deepEqual(
        m.shards.map((s: Json) => s.shard_id),
        [0, 1],
      );
      for (const shard of m.shards) {
        const chunk = shard.chunk;
        assert.deepEqual(chunk.header, m.block.chunks[shard.shard_id]);
        for (const { transaction, outcome } of chunk.transactions) {
          assert.equal(outcome.receipt, null);
          assert.equal(outcome.execution_outcome.id, transaction.hash);
          assert.equal(outcome.execution_outcome.block_hash, block_hash);
          assert.ok(!txs.has(transaction.hash));
          txs.set(transaction.hash, { transaction, outcome: outcome.execution_outcome });
        }
        for (const r of [...chunk.receipts, ...chunk.local_receipts]) receipts.set(r.receipt_id, r);
        localReceipts += chunk.local_receipts.length;
        assert.deepEqual(chunk.instant_receipts, []);
        for (const { execution_outcome, receipt } of shard.receipt_execution_outcomes) {
          assert.equal(execution_outcome.id, receipt.receipt_id);
          assert.equal(execution_outcome.block_hash, block_hash);
          assert.ok(!outcomes.has(receipt.receipt_id));
          outcomes.set(receipt.receipt_id, execution_outcome);
          receipts.set(receipt.receipt_id, receipt);
          if (t.node.chain.shardOf(receipt.predecessor_id) !== shard.shard_id) crossShard++;
        }
        // Each shard's state changes are of its own accounts.
        for (const change of shard.state_changes)
          assert.equal(t.node.chain.shardOf(change.change.account_id), shard.shard_id);
      }
      prev = m.block.header;
    };

    for (let i = 0; i < BLOCKS; i++) {
      const count = rng.int(4);
      for (let k = 0; k < count; k++) {
        const { signer, receiverId, actions } = randomTx();
        signer.nonce += 1n;
        const signed = signTransaction(
          createTransaction({
            signerId: signer.id,
            publicKey: signer.key.publicKey,
            nonce: signer.nonce,
            receiverId,
            blockHash: base58Decode(prev.hash),
            actions,
          }),
          signer.key,
        );
        const hash = await rpc(t.url, 'broadcast_tx_async', [base64Encode(encodeSignedTransaction(signed))]);
        sent.push({ hash, signer: signer.id });
      }
      await follow();
    }
    // Until everything has executed and is final: receipts in flight, refunds, then two blocks for finality.
    for (let i = 0; i < 8; i++) await follow();

    // Every transaction handed over was included, once.
    assert.equal(txs.size, sent.length);
    assert.ok(localReceipts > 0, 'local receipts seen');
    assert.ok(crossShard > 0, 'receipts across shards seen');

    const rebuild = (txHash: string) => {
      const tx = txs.get(txHash)!;
      const trail: Json[] = [tx.outcome];
      const visit = (o: Json) => {
        for (const id of o.outcome.receipt_ids) {
          const child = outcomes.get(id);
          assert.ok(child, `outcome of receipt ${id} of ${txHash} in the messages`);
          trail.push(child);
          visit(child);
        }
      };
      visit(tx.outcome);
      // nearcore's FinalExecutionStatus: follow SuccessReceiptId from the transaction.
      let lookingFor = txHash;
      let status: Json;
      for (const o of trail) {
        if (o.id !== lookingFor) continue;
        if (o.outcome.status.SuccessReceiptId !== undefined) lookingFor = o.outcome.status.SuccessReceiptId;
        else {
          status = o.outcome.status;
          break;
        }
      }
      return {
        status,
        transaction: tx.transaction,
        transaction_outcome: tx.outcome,
        receipts_outcome: trail.slice(1),
      };
    };

    let failures = 0;
    for (const { hash, signer } of sent) {
      const rebuilt = rebuild(hash);
      if (rebuilt.status.Failure !== undefined) failures++;
      const params = { tx_hash: hash, sender_account_id: signer, wait_until: 'FINAL' };
      const { final_execution_status, ...answer } = await rpc(t.url, 'tx', params);
      assert.equal(final_execution_status, 'FINAL');
      assert.deepEqual(answer, rebuilt, `tx ${hash}`);
      const experimental = await rpc(t.url, 'EXPERIMENTAL_tx_status', params);
      // `receipts`: those of the outcomes, but a local transaction's own receipt (tx-status.ts says why).
      const own = rebuilt.transaction_outcome.outcome.receipt_ids[0];
      const local = rebuilt.transaction.signer_id === rebuilt.transaction.receiver_id;
      const expected = rebuilt.receipts_outcome
        .map((o: Json) => o.id)
        .filter((id: string) => !(local && id === own))
        .map((id: string) => receipts.get(id));
      assert.deepEqual(experimental.receipts, expected, `receipts of ${hash}`);
    }
    assert.ok(failures > 0, 'failed transactions seen');
    ctx.diagnostic(
      `${BLOCKS + 8} blocks, ${txs.size} transactions (${failures} failed), ${outcomes.size} receipt outcomes, ` +
        `${receipts.size} receipts (${localReceipts} local, ${crossShard} executed across shards)`,
    );
    for (const [id, receipt] of receipts) {
      assert.deepEqual(
        await rpc(t.url, 'EXPERIMENTAL_receipt', { receipt_id: id }),
        receipt,
        `receipt ${id}`,
      );
    }
  });
});
