/**
 * `EXPERIMENTAL_receipt_to_tx` against a real in-memory chain of 2 shards: a contract that calls itself hop by
 * hop (any depth) with a callback waiting for the last hop's data, so the walk meets action, data, refund and
 * postponed receipts; the receipt-to-transaction entries written with each block (chain/receipt-origins.ts),
 * the hint fallback when entries are missing, nearcore's hint and limit errors, and what garbage collection
 * leaves (a regular node forgets, an archival view keeps).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  base58Decode,
  base58Encode,
  createTransaction,
  encodeSignedTransaction,
  parsePublicKey,
  sha256,
  signTransaction,
} from '@shadebox/primitives';
import { Col, heightKey } from '../../chain/columns.js';
import { GarbageCollector } from '../../chain/garbage-collector.js';
import { writeReceiptOrigins } from '../../chain/receipt-origins.js';
import { WriteBatch } from '../../store/key-value-store.js';
import { wat } from '../../vm/prepare/test-helpers.js';
import { createInMemoryRpcContext } from '../in-memory-context.js';
import { handleJsonRpc } from '../jsonrpc.js';
import { loadJsonRpcTypes173 } from '../test-support/jsonrpc-types-1.7.3.js';
import { RECEIPT_TO_TX_LIMITS, receiptToTxWith } from './receipt-to-tx.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field.
type Json = any;

/** `start(n)`: calls `hop(n)` on itself, then `done` as its callback; `hop(n)` calls `hop(n-1)` until 0. */
const RELAY = wat(`(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "current_account_id" (func $current_account_id (param i64)))
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_then" (func $then (param i64 i64 i64) (result i64)))
  (import "env" "promise_batch_action_function_call_weight"
    (func $call (param i64 i64 i64 i64 i64 i64 i64 i64)))
  (memory 1)
  (export "memory" (memory 0))
  (data (i32.const 0) "hop")
  (data (i32.const 8) "done")
  (func $n (result i32)
    (i32.store (i32.const 64) (i32.const 0))
    (call $input (i64.const 0))
    (if (i64.eq (call $register_len (i64.const 0)) (i64.const 4))
      (then (call $read_register (i64.const 0) (i64.const 64))))
    (i32.load (i32.const 64)))
  (func $hop_to (param $n i32) (result i64) (local $p i64)
    (call $current_account_id (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 128))
    (local.set $p (call $create (call $register_len (i64.const 1)) (i64.const 128)))
    (i32.store (i32.const 96) (local.get $n))
    (call $call (local.get $p) (i64.const 3) (i64.const 0) (i64.const 4) (i64.const 96) (i64.const 16)
      (i64.const 0) (i64.const 1))
    (local.get $p))
  (func (export "hop") (local $n i32)
    (local.set $n (call $n))
    (if (i32.gt_u (local.get $n) (i32.const 0))
      (then (drop (call $hop_to (i32.sub (local.get $n) (i32.const 1)))))))
  (func (export "start") (local $q i64)
    (local.set $q (call $then (call $hop_to (call $n)) (call $register_len (i64.const 1)) (i64.const 128)))
    (call $call (local.get $q) (i64.const 4) (i64.const 8) (i64.const 0) (i64.const 0) (i64.const 16)
      (i64.const 10000000000000) (i64.const 0)))
  (func (export "done")))`);

const HOPS = 6;
const AMOUNT = '10000000000000000000000000';

describe('EXPERIMENTAL_receipt_to_tx', { timeout: 120_000 }, () => {
  const ctx = createInMemoryRpcContext({ blocks: 1, numShards: 2 });
  const chain = ctx.chain;
  const zod = loadJsonRpcTypes173();
  let txHash: string;
  /** Every receipt the transaction made, with the height it executed at (data receipts included). */
  const receipts: Array<{ id: string; height: number; data: boolean }> = [];
  let callbackId: string;

  async function call(method: string, params: unknown): Promise<Json> {
    const answer = await handleJsonRpc(ctx, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    return JSON.parse(answer.body);
  }
  async function validates(schemaName: string, value: unknown) {
    const schemas = await zod;
    if (!schemas) return;
    const parsed = schemas.schema(schemaName).safeParse(schemas.toCamel(value));
    assert.ok(parsed.success, `${schemaName}: ${JSON.stringify(parsed.error?.issues ?? [], null, 1)}`);
  }
  const toTx = (receipt_id: string, hints: object = {}) =>
    call('EXPERIMENTAL_receipt_to_tx', { receipt_id, ...hints });

  before(async () => {
    const patched = await call('sandbox_patch_state', {
      records: [
        { Account: { account_id: 'relay.test.near', account: { amount: AMOUNT, locked: '0' } } },
        { Contract: { account_id: 'relay.test.near', code: Buffer.from(RELAY).toString('base64') } },
      ],
    });
    assert.deepEqual(patched.result, {}, JSON.stringify(patched));
    ctx.producer.produce(1);
    const { accountId, key } = ctx.root;
    const ak = (
      await call('query', {
        request_type: 'view_access_key',
        finality: 'optimistic',
        account_id: accountId,
        public_key: key.publicKeyString,
      })
    ).result;
    const args = new Uint8Array(4);
    new DataView(args.buffer).setUint32(0, HOPS, true);
    const tx = createTransaction({
      signerId: accountId,
      publicKey: parsePublicKey(key.publicKeyString),
      nonce: BigInt(ak.nonce) + 1n,
      receiverId: 'relay.test.near',
      blockHash: base58Decode(chain.head.hash),
      actions: [{ type: 'FunctionCall', methodName: 'start', args, gas: 300_000_000_000_000n, deposit: 0n }],
    });
    const sent = await call('broadcast_tx_async', [
      Buffer.from(encodeSignedTransaction(signTransaction(tx, key))).toString('base64'),
    ]);
    txHash = sent.result;
    // The transaction's block, then the block running `start`: the callback is postponed, waiting for data.
    ctx.producer.produce(2);
    const started = chain.outcome(
      base58Decode(chain.outcome(base58Decode(txHash))!.view.outcome.receipt_ids[0]),
    );
    assert.ok(started, 'start ran');
    callbackId = started.view.outcome.receipt_ids.find(
      (id) => chain.outcome(base58Decode(id)) === undefined && isCallback(id),
    )!;
    assert.ok(callbackId, 'the callback is created and not executed yet');
  });

  function isCallback(id: string): boolean {
    const r = chain.receipt(base58Decode(id))?.view as Json;
    return r?.receipt?.Action?.actions?.[0]?.FunctionCall?.method_name === 'done';
  }

  test('a postponed receipt is mapped before it runs', async () => {
    const answer = await toTx(callbackId);
    assert.deepEqual(answer.result, { transaction_hash: txHash, sender_account_id: ctx.root.accountId });
  });

  test('every receipt of a deep chain, data and refunds included, walks up to the transaction', async () => {
    ctx.producer.produce(HOPS + 6);
    const status = await call('tx', {
      tx_hash: txHash,
      sender_account_id: ctx.root.accountId,
      wait_until: 'FINAL',
    });
    assert.ok(status.result, JSON.stringify(status));
    for (const o of status.result.receipts_outcome)
      receipts.push({ id: o.id, height: chain.outcome(base58Decode(o.id))!.height, data: false });
    const hops = status.result.receipts_outcome.filter(
      (o: Json) => o.outcome.executor_id === 'relay.test.near',
    );
    assert.ok(hops.length >= HOPS + 2, 'start, every hop and the callback ran');
    // Data receipts are in no outcome's receipt_ids: find them in the chunks.
    for (let h = chain.earliestHeight(); h <= chain.head.height; h++) {
      const block = chain.blockByHeight(h);
      for (const hash of block?.chunkHashes ?? []) {
        const chunk = chain.chunk(hash) as Json;
        if (chunk?.height !== h) continue;
        for (const r of chunk.view.receipts)
          if (r.receipt.Data && r.predecessor_id === 'relay.test.near')
            receipts.push({ id: r.receipt_id, height: h, data: true });
      }
    }
    assert.ok(
      receipts.some((r) => r.data),
      'the last hop sent its result to the callback',
    );
    for (const { id } of receipts) {
      const answer = await toTx(id);
      assert.deepEqual(
        answer.result,
        { transaction_hash: txHash, sender_account_id: ctx.root.accountId },
        id,
      );
      await validates('RpcReceiptToTxResponseSchema', answer.result);
    }
  });

  test('hints as nearcore checks them, and its error shapes', async () => {
    const id = receipts[0].id;
    const errorOf = async (params: object) => {
      const answer = await call('EXPERIMENTAL_receipt_to_tx', params);
      assert.ok(answer.error, JSON.stringify(answer));
      await validates('RpcReceiptToTxErrorSchema', answer.error.cause);
      return answer.error;
    };
    const shard = await errorOf({ receipt_id: id, shard_id: 0 });
    assert.deepEqual(shard.cause, {
      name: 'MALFORMED_HINT',
      info: { error_message: 'shard_id requires block_height' },
    });
    assert.deepEqual(shard.data, shard.cause, 'the legacy data is the error value itself');
    assert.equal(shard.name, 'HANDLER_ERROR');
    const window = await errorOf({ receipt_id: id, window: 3 });
    assert.deepEqual(window.cause.info, { error_message: 'window requires block_height' });
    const wide = await errorOf({ receipt_id: id, block_height: 5, window: 21 });
    assert.deepEqual(wide.cause, { name: 'WINDOW_TOO_LARGE', info: { requested: 21, maximum: 20 } });
    const unknown = base58Encode(sha256(new Uint8Array([7])));
    const missing = await errorOf({ receipt_id: unknown });
    assert.deepEqual(missing.cause, { name: 'UNKNOWN_RECEIPT', info: { receipt_id: unknown } });
    // With a hint, an id no block names is still unknown (every height of the window scanned).
    const scanned = await errorOf({ receipt_id: unknown, block_height: chain.head.height, window: 20 });
    assert.equal(scanned.cause.name, 'UNKNOWN_RECEIPT');
    // A hint is not needed when the entry is there, whatever it says.
    assert.ok((await toTx(id, { block_height: 1, shard_id: 1, window: 0 })).result);
  });

  test('more than 1,000 hops is DEPTH_EXCEEDED, reported for the receipt asked about', () => {
    const ids = Array.from({ length: 1002 }, (_, i) => sha256(new TextEncoder().encode(`hop ${i}`)));
    const batch = new WriteBatch();
    writeReceiptOrigins(batch, chain.head.height, [
      ids.map((receiptId, i) => ({
        receiptId,
        receiverId: 'relay.test.near',
        origin:
          i === ids.length - 1
            ? { kind: 'transaction' as const, txHash: base58Decode(txHash), senderId: 'test.near' }
            : {
                kind: 'receipt' as const,
                parentReceiptId: ids[i + 1],
                parentPredecessorId: 'relay.test.near',
              },
      })),
    ]);
    chain.store.commit(batch);
    const walk = (i: number) =>
      receiptToTxWith(chain, { receipt_id: base58Encode(ids[i]) }, RECEIPT_TO_TX_LIMITS) as Json;
    assert.throws(
      () => walk(0),
      (e: Json) => {
        assert.deepEqual(e.toJSON().cause, {
          name: 'DEPTH_EXCEEDED',
          info: { receipt_id: base58Encode(ids[0]), limit: 1000 },
        });
        return true;
      },
    );
    // The limit counts the entries read: 1,000 of them (999 parents, then the transaction) is within it.
    assert.throws(() => walk(1), /DEPTH_EXCEEDED/);
    assert.equal(walk(2).transaction_hash, txHash);
  });

  test('missing entries: UNKNOWN_RECEIPT without a hint, found by scanning outcomes around one', async () => {
    // As a store written before the entries were kept: drop every entry of the transaction's blocks.
    const batch = new WriteBatch();
    for (const { key } of chain.store.range(Col.ReceiptToTx)) batch.delete(Col.ReceiptToTx, key);
    chain.store.commit(batch);
    const deepest = receipts
      .filter((r) => !r.data)
      .sort((a, b) => b.height - a.height)
      .find(
        (r) =>
          !isCallback(r.id) &&
          (chain.receipt(base58Decode(r.id))?.view as Json)?.predecessor_id === 'relay.test.near',
      )!;
    assert.equal((await toTx(deepest.id)).error.cause.name, 'UNKNOWN_RECEIPT');
    // The hint: the block the receipt ran in; its parent ran a block before, each ancestor one more.
    const found = await toTx(deepest.id, { block_height: deepest.height });
    assert.deepEqual(found.result, { transaction_hash: txHash, sender_account_id: ctx.root.accountId });
    const onShard = await toTx(deepest.id, {
      block_height: deepest.height,
      shard_id: chain.shardOf('relay.test.near'),
    });
    assert.deepEqual(onShard.result, found.result);
    // Too narrow a window misses the parent.
    const narrow = await toTx(deepest.id, { block_height: deepest.height + 3, window: 0 });
    assert.equal(narrow.error.cause.name, 'UNKNOWN_RECEIPT');
    // The outcome budget is one for all scans of a request.
    assert.throws(
      () =>
        receiptToTxWith(
          chain,
          { receipt_id: deepest.id, block_height: deepest.height },
          { ...RECEIPT_TO_TX_LIMITS, maxOutcomesPerRequest: 1 },
        ),
      (e: Json) => {
        assert.deepEqual(e.toJSON().cause, { name: 'BUDGET_EXCEEDED', info: { scanned: 1, limit: 1 } });
        return true;
      },
    );
  });
});

describe('EXPERIMENTAL_receipt_to_tx and garbage collection', { timeout: 120_000 }, () => {
  test('a regular node forgets the entries with their blocks; an archival view keeps them', async () => {
    const ctx = createInMemoryRpcContext({ blocks: 1, epochLength: 5 });
    const { accountId, key } = ctx.root;
    const body = (method: string, params: unknown) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    const ak = JSON.parse(
      (
        await handleJsonRpc(
          ctx,
          body('query', {
            request_type: 'view_access_key',
            finality: 'optimistic',
            account_id: accountId,
            public_key: key.publicKeyString,
          }),
        )
      ).body,
    ).result;
    const tx = createTransaction({
      signerId: accountId,
      publicKey: parsePublicKey(key.publicKeyString),
      nonce: BigInt(ak.nonce) + 1n,
      receiverId: 'someone.test.near',
      blockHash: base58Decode(ctx.chain.head.hash),
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    const hash = JSON.parse(
      (
        await handleJsonRpc(
          ctx,
          body('broadcast_tx_async', [
            Buffer.from(encodeSignedTransaction(signTransaction(tx, key))).toString('base64'),
          ]),
        )
      ).body,
    ).result;
    ctx.producer.produce(3);
    const receiptId = ctx.chain.outcome(base58Decode(hash))!.view.outcome.receipt_ids[0];
    const origin = ctx.chain.receiptOrigin(base58Decode(receiptId))!;
    assert.equal(origin.parent, hash);
    const archival = ctx.chain.archivalView();
    ctx.producer.produce(25);
    const ask = async () =>
      JSON.parse(
        (await handleJsonRpc(ctx, body('EXPERIMENTAL_receipt_to_tx', { receipt_id: receiptId }))).body,
      );
    // The regular endpoint of a node with an archival one: the GC rules hide the collected entries.
    new GarbageCollector(ctx.chain, { numEpochsToKeep: 3, mode: 'view' }).collectAll();
    assert.ok(ctx.chain.earliestHeight() > origin.height, 'the transaction’s blocks are collected');
    assert.equal((await ask()).error.cause.name, 'UNKNOWN_RECEIPT');
    assert.equal(archival.receiptOrigin(base58Decode(receiptId))?.parent, hash);
    // A regular node deletes them with the block that wrote them, and the height's list.
    ctx.chain.setEarliestHeight(ctx.chain.genesisHeight);
    assert.equal((await ask()).result.transaction_hash, hash);
    new GarbageCollector(ctx.chain, { numEpochsToKeep: 3, mode: 'delete' }).collectAll();
    assert.equal((await ask()).error.cause.name, 'UNKNOWN_RECEIPT');
    assert.equal(ctx.chain.store.get(Col.ReceiptToTx, base58Decode(receiptId)), undefined);
    assert.equal(ctx.chain.store.get(Col.ReceiptToTxByHeight, heightKey(origin.height)), undefined);
  });
});
