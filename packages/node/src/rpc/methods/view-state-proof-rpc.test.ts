/**
 * `view_state` with `include_proof` through the RPC of an in-memory chain with two shards: each account's proof
 * verifies against its own shard's root (the next block's chunk `prev_state_root`), not the other's; after
 * `sandbox_patch_state` the new block proves the new value and the old block still proves the old one; the
 * answer fits nearcore's RpcViewStateResponse schema (jsonrpc-types 1.7.3, when at hand).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { base58Decode, base64Decode } from '@shadebox/primitives';
import { contractDataPrefix } from '../../state/state-keys.js';
import { InvalidStateProofError, verifyPrefixProof } from '../../trie/index.js';
import { createInMemoryRpcContext } from '../in-memory-context.js';
import { handleJsonRpc } from '../jsonrpc.js';
import { loadJsonRpcTypes173 } from '../test-support/jsonrpc-types-1.7.3.js';

const AMOUNT = '10000000000000000000000000';
const b64 = (text: string) => Buffer.from(text).toString('base64');

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field.
type Json = any;

describe('view_state proofs over RPC (two shards, patch_state)', () => {
  const ctx = createInMemoryRpcContext({ blocks: 1, numShards: 2 });
  const zod = loadJsonRpcTypes173();

  async function result(method: string, params: unknown): Promise<Json> {
    const answer = await handleJsonRpc(ctx, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    const json = JSON.parse(answer.body);
    assert.ok('result' in json, `${method} ${JSON.stringify(params)}: ${answer.body}`);
    return json.result;
  }
  const rootAfter = async (height: number, shardId: number) =>
    base58Decode((await result('chunk', { block_id: height + 1, shard_id: shardId })).header.prev_state_root);
  const viewState = (accountId: string, height: number) =>
    result('query', {
      request_type: 'view_state',
      block_id: height,
      account_id: accountId,
      prefix_base64: '',
      include_proof: true,
    });
  function verify(root: Uint8Array, accountId: string, view: Json) {
    const base = contractDataPrefix(accountId);
    const values = view.values.map(({ key, value }: Json) => ({
      key: new Uint8Array([...base, ...base64Decode(key)]),
      value: base64Decode(value),
    }));
    return verifyPrefixProof(root, view.proof.map(base64Decode), base, values, { exactNodes: true });
  }

  // Accounts until both shards hold one.
  const accounts: string[] = [];
  for (let i = 0; new Set(accounts.map((a) => ctx.chain.shardOf(a))).size < 2; i++) {
    const id = `c${i}.test.near`;
    if (!accounts.some((a) => ctx.chain.shardOf(a) === ctx.chain.shardOf(id))) accounts.push(id);
  }

  async function patch(records: unknown[]) {
    assert.deepEqual(await result('sandbox_patch_state', { records }), {});
    ctx.producer.produce(2);
    return ctx.chain.head.height - 1;
  }

  test('each shard proves its own account against its own root; a patch moves the proof, the old one stays', async () => {
    const first = await patch(
      accounts.flatMap((id) => [
        { Account: { account_id: id, account: { amount: AMOUNT, locked: '0' } } },
        { Data: { account_id: id, data_key: b64('STATE'), value: b64(`state of ${id}`) } },
        { Data: { account_id: id, data_key: b64('k'), value: b64('v1') } },
      ]),
    );
    const [a, b] = accounts;
    const [shardA, shardB] = [ctx.chain.shardOf(a), ctx.chain.shardOf(b)];
    const [rootA, rootB] = [await rootAfter(first, shardA), await rootAfter(first, shardB)];
    const viewA = await viewState(a, first);
    assert.deepEqual(
      viewA.values.map((v: Json) => Buffer.from(v.key, 'base64').toString()),
      ['STATE', 'k'],
    );
    verify(rootA, a, viewA);
    verify(rootB, b, await viewState(b, first));
    // The other shard's root does not hold a's state.
    assert.throws(() => verify(rootB, a, viewA), InvalidStateProofError);
    const schemas = await zod;
    if (schemas) {
      const parsed = schemas.schema('RpcViewStateResponseSchema').safeParse(schemas.toCamel(viewA));
      assert.ok(parsed.success, JSON.stringify(parsed.error?.issues ?? []));
    }

    const second = await patch([{ Data: { account_id: a, data_key: b64('k'), value: b64('v2') } }]);
    const newRoot = await rootAfter(second, shardA);
    assert.notDeepEqual(newRoot, rootA);
    const after = await viewState(a, second);
    assert.equal(Buffer.from(after.values[1].value, 'base64').toString(), 'v2');
    verify(newRoot, a, after);
    const before = await viewState(a, first);
    assert.deepEqual(before, viewA);
    verify(rootA, a, before);
    // Shard b's root moved (every chunk rewrites the bandwidth scheduler's state), b's data did not.
    const viewB = await viewState(b, second);
    assert.deepEqual(viewB.values, (await viewState(b, first)).values);
    verify(await rootAfter(second, shardB), b, viewB);
  });
});
