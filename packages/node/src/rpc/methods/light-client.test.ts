/**
 * The light-client methods in process, on a 2-shard chain with 6-block epochs, judged by the verifier written from
 * nearcore's light-client rules (rpc/test-support/light-client-verifier.ts): every transaction and receipt
 * outcome (cross-shard included) proves against a final head, tampered proofs are refused, and a light client
 * follows `next_light_client_block` across epoch boundaries from genesis, checking real ed25519 approvals.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  base58Decode,
  base58Encode,
  createTransaction,
  encodeSignedTransaction,
  parsePublicKey,
  sha256,
  signTransaction,
} from '@shadebox/primitives';
import { createInMemoryRpcContext } from '../in-memory-context.js';
import { handleJsonRpc } from '../jsonrpc.js';
import {
  blockHashOf,
  type ExecutionProof,
  LightClient,
  type LightClientBlockView,
  validateBlockProof,
  validateExecutionProof,
} from '../test-support/light-client-verifier.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field.
type Json = any;
const clone = <T>(v: T): T => structuredClone(v);

function setup() {
  const ctx = createInMemoryRpcContext({ epochLength: 6, numShards: 2, blocks: 1 });
  async function call(method: string, params: unknown): Promise<Json> {
    const answer = await handleJsonRpc(ctx, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    return JSON.parse(answer.body);
  }
  async function result(method: string, params: unknown): Promise<Json> {
    const json = await call(method, params);
    assert.ok('result' in json, `${method} ${JSON.stringify(params)}: ${JSON.stringify(json)}`);
    return json.result;
  }
  let nonce = 0n;
  /** Sends transactions from the genesis account (no waiting): CreateAccount + Transfer to `receivers`. */
  async function sendCreations(receivers: string[]) {
    const { accountId, key } = ctx.root;
    if (nonce === 0n) {
      const ak = await result('query', {
        request_type: 'view_access_key',
        finality: 'optimistic',
        account_id: accountId,
        public_key: key.publicKeyString,
      });
      nonce = BigInt(ak.nonce);
    }
    const hashes: string[] = [];
    for (const receiverId of receivers) {
      nonce += 1n;
      const tx = createTransaction({
        signerId: accountId,
        publicKey: parsePublicKey(key.publicKeyString),
        nonce,
        receiverId,
        blockHash: base58Decode(ctx.chain.head.hash),
        actions: [{ type: 'CreateAccount' }, { type: 'Transfer', deposit: 10n ** 24n }],
      });
      const signed = Buffer.from(encodeSignedTransaction(signTransaction(tx, key))).toString('base64');
      hashes.push(await result('broadcast_tx_async', [signed]));
    }
    return hashes;
  }
  const genesisBps = () =>
    ctx.chain.genesis.validators.map((v) => ({
      account_id: v.account_id,
      public_key: v.public_key,
      stake: v.amount,
    }));
  return { ctx, call, result, sendCreations, genesisBps };
}

describe('light client', { timeout: 120_000 }, () => {
  test('every transaction and receipt outcome proves against a final head; tampering is refused', async () => {
    const { ctx, call, result, sendCreations } = setup();
    // Receivers on both shards: the receipts of half of them cross from the signer's shard.
    const names = Array.from({ length: 12 }, (_, i) => `lc${i}.${ctx.root.accountId}`);
    const shards = new Set(names.map((n) => ctx.chain.shardOf(n)));
    assert.equal(shards.size, 2, 'receivers on both shards');
    assert.notEqual(ctx.chain.shardOf(ctx.root.accountId), undefined);
    const txHashes = [...(await sendCreations(names.slice(0, 6)))];
    ctx.producer.produce(2);
    txHashes.push(...(await sendCreations(names.slice(6))));
    ctx.producer.produce(10);
    const head = await result('block', { finality: 'final' });
    const trustedRoot = head.header.block_merkle_root;

    let proved = 0;
    let crossShard = 0;
    for (const hash of txHashes) {
      const status = await result('EXPERIMENTAL_tx_status', {
        tx_hash: hash,
        sender_account_id: ctx.root.accountId,
      });
      const ids: Array<Json> = [
        { type: 'transaction', transaction_hash: hash, sender_id: ctx.root.accountId },
        ...status.receipts_outcome.map((o: Json) => ({
          type: 'receipt',
          receipt_id: o.id,
          receiver_id: o.outcome.executor_id,
        })),
      ];
      for (const id of ids) {
        const proof: ExecutionProof = await result('EXPERIMENTAL_light_client_proof', {
          ...id,
          light_client_head: head.header.hash,
        });
        validateExecutionProof(proof, trustedRoot);
        assert.deepEqual(
          await result('light_client_proof', { ...id, light_client_head: head.header.hash }),
          proof,
        );
        proved++;
        if (
          id.type === 'receipt' &&
          ctx.chain.shardOf(id.receiver_id) !== ctx.chain.shardOf(ctx.root.accountId)
        )
          crossShard++;
      }
    }
    assert.ok(proved >= txHashes.length * 3, `proved ${proved}`);
    assert.ok(crossShard > 0, 'some receipts crossed shards');

    // Tampered proofs are refused.
    const id = { type: 'transaction', transaction_hash: txHashes[0], sender_id: ctx.root.accountId };
    const good: ExecutionProof = await result('light_client_proof', {
      ...id,
      light_client_head: head.header.hash,
    });
    const tamperings: Array<[string, (p: ExecutionProof) => void]> = [
      ['gas burnt', (p) => (p.outcome_proof.outcome.gas_burnt += 1)],
      [
        'tokens burnt',
        (p) =>
          (p.outcome_proof.outcome.tokens_burnt = `${BigInt(p.outcome_proof.outcome.tokens_burnt) + 1n}`),
      ],
      ['a log', (p) => p.outcome_proof.outcome.logs.push('forged')],
      ['the status', (p) => (p.outcome_proof.outcome.status = { SuccessValue: '' })],
      ['the id', (p) => (p.outcome_proof.id = txHashes[1])],
      [
        'the outcome path',
        (p) =>
          (p.outcome_proof.proof[0].direction =
            p.outcome_proof.proof[0].direction === 'Left' ? 'Right' : 'Left'),
      ],
      [
        'the outcome root path',
        (p) => (p.outcome_root_proof[0].hash = base58Encode(sha256(new Uint8Array([1])))),
      ],
      [
        'the inner rest hash',
        (p) => (p.block_header_lite.inner_rest_hash = base58Encode(sha256(new Uint8Array([2])))),
      ],
      ['the timestamp', (p) => (p.block_header_lite.inner_lite.timestamp_nanosec = '1')],
      ['the block path', (p) => p.block_proof.pop()],
    ];
    assert.ok(good.outcome_proof.proof.length > 0, 'the outcome shares its chunk with others');
    for (const [what, tamper] of tamperings) {
      const bad = clone(good);
      tamper(bad);
      assert.throws(() => validateExecutionProof(bad, trustedRoot), undefined, `tampered ${what} accepted`);
    }
    assert.throws(() => validateExecutionProof(good, head.header.prev_hash), 'a wrong trusted root');

    // Errors as nearcore shapes them.
    const unknown = base58Encode(sha256(new Uint8Array([9])));
    const missing = await call('light_client_proof', {
      ...id,
      transaction_hash: unknown,
      light_client_head: head.header.hash,
    });
    assert.deepEqual(missing.error.cause, {
      name: 'UNKNOWN_TRANSACTION_OR_RECEIPT',
      info: { transaction_or_receipt_id: unknown },
    });
    assert.equal(missing.error.data, `${unknown} does not exist`);
    const noHead = await call('light_client_proof', { ...id, light_client_head: unknown });
    assert.deepEqual(noHead.error.cause, { name: 'UNKNOWN_BLOCK', info: {} });
    assert.equal(noHead.error.data, `DB Not Found Error: BLOCK HEADER: ${unknown}`);
    const notFinal = await call('light_client_proof', { ...id, light_client_head: ctx.chain.head.hash });
    assert.equal(notFinal.error.name, 'INTERNAL_ERROR');
    const badType = await call('light_client_proof', { type: 'block', light_client_head: head.header.hash });
    assert.equal(badType.error.cause.name, 'PARSE_ERROR');
    assert.equal(
      badType.error.data,
      'Failed parsing args: unknown variant `block`, expected `transaction` or `receipt`',
    );
  });

  test('EXPERIMENTAL_light_client_block_proof: every final block proves against a later final head', async () => {
    const { ctx, result } = setup();
    ctx.producer.produce(20);
    const head = await result('block', { finality: 'final' });
    for (let height = ctx.chain.genesisHeight; height < head.header.height; height++) {
      const block = await result('block', { block_id: height });
      const proof = await result('EXPERIMENTAL_light_client_block_proof', {
        block_hash: block.header.hash,
        light_client_head: head.header.hash,
      });
      assert.equal(
        base58Encode(blockHashOf(proof.block_header_lite)),
        block.header.hash,
        'the lite view hashes to the block',
      );
      validateBlockProof(proof, head.header.block_merkle_root);
      if (proof.block_proof.length > 0) {
        const bad = clone(proof);
        bad.block_proof[0].hash = block.header.hash;
        assert.throws(() => validateBlockProof(bad, head.header.block_merkle_root));
      }
    }
    // The head itself: an empty path (its own root does not contain it), as nearcore answers.
    const self = await result('EXPERIMENTAL_light_client_block_proof', {
      block_hash: head.header.hash,
      light_client_head: head.header.hash,
    });
    assert.deepEqual(self.block_proof, []);
  });

  test('next_light_client_block: a light client follows the chain across epochs from genesis', async () => {
    const { ctx, call, result, genesisBps } = setup();
    const genesisHash = ctx.chain.genesisBlock.hash;
    ctx.producer.produce(3);
    const genesisLite = (
      await result('EXPERIMENTAL_light_client_block_proof', {
        block_hash: genesisHash,
        light_client_head: (await result('block', { finality: 'final' })).header.hash,
      })
    ).block_header_lite;
    const client = new LightClient(genesisLite, genesisBps());
    const epochsSeen = new Set<string>();
    let updates = 0;
    // Follow while the chain grows: a few blocks at a time, then catch up.
    for (let round = 0; round < 12; round++) {
      ctx.producer.produce(round % 3 === 0 ? 1 : 4);
      for (;;) {
        const next: LightClientBlockView | Record<string, never> = await result('next_light_client_block', {
          last_block_hash: base58Encode(blockHashOf(client.head)),
        });
        if (!('inner_lite' in next)) break;
        assert.ok(next.next_bps, 'next_bps is always served');
        client.validateAndUpdateHead(next);
        epochsSeen.add(next.inner_lite.epoch_id);
        updates++;
      }
    }
    assert.ok(epochsSeen.size >= 4, `epochs crossed: ${epochsSeen.size}`);
    assert.ok(client.head.inner_lite.height >= ctx.chain.finalHeight('final') - 6);

    // A client left at genesis while the chain ran epochs ahead catches up one epoch at a time.
    const late = new LightClient(genesisLite, genesisBps());
    let steps = 0;
    for (;;) {
      const next = await result('next_light_client_block', [base58Encode(blockHashOf(late.head))]);
      if (!('inner_lite' in next)) break;
      const before = late.head.inner_lite.epoch_id;
      late.validateAndUpdateHead(next);
      assert.ok([before, late.head.inner_lite.epoch_id].length === 2);
      steps++;
    }
    assert.ok(steps >= 4 && steps < updates + 2, `steps ${steps}`);
    assert.equal(late.head.inner_lite.height, client.head.inner_lite.height);

    // Up to date: {}.
    assert.deepEqual(
      await result('next_light_client_block', { last_block_hash: base58Encode(blockHashOf(client.head)) }),
      {},
    );

    // Tampered blocks are refused.
    const fresh = new LightClient(genesisLite, genesisBps());
    const first: LightClientBlockView = await result('next_light_client_block', {
      last_block_hash: genesisHash,
    });
    const tamperings: Array<[string, (b: LightClientBlockView) => void]> = [
      [
        'an approval',
        (b) => {
          const sig = base58Decode(b.approvals_after_next[0]!.slice(8));
          sig[5] ^= 1;
          b.approvals_after_next[0] = `ed25519:${base58Encode(sig)}`;
        },
      ],
      ['no approval', (b) => (b.approvals_after_next[0] = null)],
      ['the next block inner hash', (b) => (b.next_block_inner_hash = genesisHash)],
      ['the outcome root', (b) => (b.inner_lite.outcome_root = genesisHash)],
      ['next_bps', (b) => (b.next_bps![0].stake = '1')],
      ['the epoch', (b) => (b.inner_lite.epoch_id = genesisHash)],
    ];
    for (const [what, tamper] of tamperings) {
      const bad = clone(first);
      tamper(bad);
      assert.throws(
        () => new LightClient(genesisLite, genesisBps()).validateAndUpdateHead(bad),
        undefined,
        what,
      );
    }
    fresh.validateAndUpdateHead(first);
    assert.throws(() => fresh.validateAndUpdateHead(first), 'the same block twice');

    const unknown = base58Encode(sha256(new Uint8Array([3])));
    const error = (await call('next_light_client_block', { last_block_hash: unknown })).error;
    assert.deepEqual(error.cause, { name: 'UNKNOWN_BLOCK', info: {} });
    assert.deepEqual(error.data, { name: 'UNKNOWN_BLOCK', info: {} });
  });

  test('the SPICE proof methods: no chunk is certified without SPICE', async () => {
    const { ctx, call } = setup();
    ctx.producer.produce(4);
    const head = ctx.chain.head.hash;
    const chunkId = { block_hash: head, shard_id: 1 };
    for (const [method, params] of [
      ['EXPERIMENTAL_light_client_chunk_execution_proof', { chunk_id: chunkId, light_client_head: head }],
      [
        'EXPERIMENTAL_light_client_state_proof',
        { chunk_id: chunkId, target: { account: { account_id: 'x' } }, light_client_head: head },
      ],
    ] as const) {
      const { error } = await call(method, params);
      assert.equal(error.name, 'HANDLER_ERROR', method);
      assert.deepEqual(error.cause, { name: 'CHUNK_NOT_CERTIFIED', info: { chunk_id: chunkId } }, method);
    }
    const unknown = base58Encode(sha256(new Uint8Array([4])));
    const { error } = await call('EXPERIMENTAL_light_client_chunk_execution_proof', {
      chunk_id: { block_hash: unknown, shard_id: 0 },
      light_client_head: head,
    });
    assert.deepEqual(error.cause, { name: 'UNKNOWN_BLOCK', info: {} });
  });
});
