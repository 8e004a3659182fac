/**
 * `EXPERIMENTAL_indexer_block` in process: the gate (`rpc.enable_indexer_rpc`), the params nearcore parses
 * (`{block_hash}` only), its errors, and the message of blocks without transactions. test/indexer-block.test.ts
 * follows a chain of real traffic with it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { base58Encode, sha256 } from '@shadebox/primitives';
import { createInMemoryRpcContext } from '../in-memory-context.js';
import { IndexerRequests } from '../indexer-requests.js';
import { handleJsonRpc } from '../jsonrpc.js';
import type { RpcContext } from '../rpc-context.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field.
async function call(ctx: RpcContext, params: unknown): Promise<{ status: number; json: any }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'EXPERIMENTAL_indexer_block', params });
  const answer = await handleJsonRpc(ctx, body);
  return { status: answer.status, json: JSON.parse(answer.body) };
}

function served(maxConcurrent = 1) {
  const ctx = createInMemoryRpcContext({ blocks: 3 });
  ctx.indexerRequests = new IndexerRequests(maxConcurrent);
  return ctx;
}

describe('EXPERIMENTAL_indexer_block', () => {
  test('off by default: the method is unknown', async () => {
    const ctx = createInMemoryRpcContext({ blocks: 1 });
    const { status, json } = await call(ctx, { block_hash: ctx.chain.head.hash });
    assert.equal(status, 400);
    assert.deepEqual(json.error, {
      name: 'REQUEST_VALIDATION_ERROR',
      cause: { name: 'METHOD_NOT_FOUND', info: { method_name: 'EXPERIMENTAL_indexer_block' } },
      code: -32601,
      message: 'Method not found',
      data: 'EXPERIMENTAL_indexer_block',
    });
  });

  test('params: block_hash only, as nearcore parses them', async () => {
    const ctx = served();
    const hash = ctx.chain.head.hash;
    const refused = async (params: unknown, message: string) => {
      const { status, json } = await call(ctx, params);
      assert.equal(json.error?.cause?.name, 'PARSE_ERROR', JSON.stringify(json));
      assert.equal(json.error.data, `Failed parsing args: ${message}`);
      assert.equal(status, 400);
    };
    await refused({ finality: 'optimistic' }, 'unknown field `finality`, expected `block_hash`');
    await refused({ block_id: 1 }, 'unknown field `block_id`, expected `block_hash`');
    await refused({ block_hash: hash, finality: 'final' }, 'unknown field `finality`, expected `block_hash`');
    await refused({ block_hash: hash, extra: true }, 'unknown field `extra`, expected `block_hash`');
    await refused({}, 'missing field `block_hash`');
    await refused(null, 'invalid type: null, expected struct RpcIndexerBlockRequest');
    await refused({ block_hash: 'invalid' }, "provided string contained invalid character 'l' at byte 4");
    // A one-element array is the struct by position.
    assert.equal((await call(ctx, [hash])).json.result.block.header.hash, hash);
  });

  test('an unknown block is DATA_UNAVAILABLE, the error object as cause and data', async () => {
    const ctx = served();
    const unknown = base58Encode(sha256(new Uint8Array([1])));
    const { status, json } = await call(ctx, { block_hash: unknown });
    const cause = {
      name: 'DATA_UNAVAILABLE',
      info: {
        error_message: `Block either has never been observed on the node or has been garbage collected: BLOCK: ${unknown}`,
      },
    };
    assert.equal(status, 200);
    assert.deepEqual(json.error, {
      name: 'HANDLER_ERROR',
      cause,
      code: -32000,
      message: 'Server error',
      data: cause,
    });
  });

  test('no free permit is BUSY (a unit variant: no info)', async () => {
    const ctx = served(0);
    const { json } = await call(ctx, { block_hash: ctx.chain.head.hash });
    assert.deepEqual(json.error.cause, { name: 'BUSY' });
    assert.deepEqual(json.error.data, { name: 'BUSY' });
  });

  test('genesis and empty blocks: every shard, new chunks, nothing executed', async () => {
    const ctx = served();
    for (const record of [ctx.chain.genesisBlock, ctx.chain.head]) {
      const { json } = await call(ctx, { block_hash: record.hash });
      const block = JSON.parse(record.viewJson);
      const result = json.result;
      assert.deepEqual(Object.keys(result), ['block', 'shards', 'tracked_shards']);
      assert.deepEqual(result.block, block);
      assert.deepEqual(result.tracked_shards, [0]);
      assert.equal(result.shards.length, 1);
      const [shard] = result.shards;
      assert.deepEqual(Object.keys(shard), [
        'chunk',
        'receipt_execution_outcomes',
        'shard_id',
        'state_changes',
      ]);
      assert.equal(shard.shard_id, 0);
      assert.deepEqual(shard.receipt_execution_outcomes, []);
      assert.deepEqual(shard.chunk.header, block.chunks[0]);
      assert.equal(shard.chunk.author, block.author);
      assert.deepEqual(shard.chunk.transactions, []);
      assert.deepEqual(shard.chunk.local_receipts, []);
      assert.deepEqual(shard.chunk.instant_receipts, []);
    }
  });
});
