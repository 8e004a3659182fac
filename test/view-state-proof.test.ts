/**
 * End to end: `view_state` with `include_proof` on a real node running a real contract of the corpus (the
 * near-examples fungible token, sdk 4.1.1: its STATE, metadata and balances). Every stored key and the whole
 * state are proven with the trie library's verifier against the root the NEXT block's chunk header carries as
 * `prev_state_root`, read over RPC; absent keys get the seek path, which proves them absent; the answer has the
 * shape of the real mainnet answer (../shared/reference/vectors); EXPERIMENTAL_view_state answers the same;
 * pagination with a proof stays refused. After garbage collection the regular endpoint proves at its earliest
 * height (the trie nodes of its window are kept) and answers older blocks as collected, while the archival
 * endpoint still proves them; a node that deletes what it collects proves its whole window too.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeRawNode, keyPath, proofStorage, proveKey, verifyPrefixProof } from '@shadebox/node/trie';
import { base58Decode, base64Decode, ONE_NEAR, sha256, TGAS, utf8Encode } from '@shadebox/primitives';
import { type Json, postRpc } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { type Signer, sendTx } from './support/transactions.js';

const FT = new URL('../../shared/corpus/misc/near-examples-FT__fungible_token.wasm', import.meta.url);
const VECTOR = new URL('../../shared/reference/vectors/mainnet-view-state-proof.json', import.meta.url);
const EPOCH = 5;
const KEEP = 3;

/** `09 ‖ account ‖ 2c ‖ prefix`: the trie key of an account's contract data (nearcore's TrieKey::ContractData). */
function dataKey(accountId: string, key: Uint8Array = new Uint8Array()): Uint8Array {
  return new Uint8Array([0x09, ...utf8Encode(accountId), 0x2c, ...key]);
}

/** The post-state root of block `height`'s chunk: what the next block's chunk header says it started from. */
async function postStateRoot(url: string, height: number, shardId: number): Promise<Uint8Array> {
  const next = await rpc(url, 'block', { block_id: height + 1 });
  assert.equal(next.header.prev_height, height, 'the next block follows without a skipped height');
  const chunk = await rpc(url, 'chunk', { block_id: height + 1, shard_id: shardId });
  assert.equal(chunk.header.prev_state_root, next.chunks[shardId].prev_state_root);
  return base58Decode(chunk.header.prev_state_root);
}

async function viewState(url: string, accountId: string, height: number, prefix: Uint8Array): Promise<Json> {
  return rpc(url, 'query', {
    request_type: 'view_state',
    block_id: height,
    account_id: accountId,
    prefix_base64: Buffer.from(prefix).toString('base64'),
    include_proof: true,
  });
}

/** Verifies a view_state answer against `root`: exactly its values under the prefix, with exactly its nodes in
 * nearcore's order; returns the decoded proof. */
function verify(root: Uint8Array, accountId: string, prefix: Uint8Array, view: Json): Uint8Array[] {
  const proof = (view.proof as string[]).map(base64Decode);
  assert.deepEqual(sha256(proof[0]), root, 'the first node is the root');
  const values = (view.values as Json[]).map(({ key, value }) => ({
    key: dataKey(accountId, base64Decode(key)),
    value: base64Decode(value),
  }));
  verifyPrefixProof(root, proof, dataKey(accountId, prefix), values, { exactNodes: true });
  return proof;
}

async function deployFt(t: TestNode, accountId: string): Promise<Signer> {
  const code = await readFile(FT);
  const root: Signer = t.rootSigner;
  const call = (methodName: string, args: object, deposit = 0n) => ({
    type: 'FunctionCall' as const,
    methodName,
    args: utf8Encode(JSON.stringify(args)),
    gas: 50n * TGAS,
    deposit,
  });
  const first = await sendTx(t.url, {
    signerId: root.accountId,
    key: root.key,
    receiverId: accountId,
    actions: [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: 50n * ONE_NEAR },
      { type: 'DeployContract', code },
      call('new_default_meta', { owner_id: root.accountId, total_supply: '1000000000' }),
    ],
  });
  assert.ok('SuccessValue' in first.status, JSON.stringify(first.status));
  for (const [method, args, deposit] of [
    ['storage_deposit', { account_id: `holder.${root.accountId}` }, ONE_NEAR / 100n],
    ['storage_deposit', { account_id: accountId }, ONE_NEAR / 100n],
    ['ft_transfer', { receiver_id: `holder.${root.accountId}`, amount: '1234' }, 1n],
    ['ft_transfer', { receiver_id: accountId, amount: '99' }, 1n],
  ] as const) {
    const result = await sendTx(t.url, {
      signerId: root.accountId,
      key: root.key,
      receiverId: accountId,
      actions: [call(method, args, deposit)],
    });
    assert.ok('SuccessValue' in result.status, `${method}: ${JSON.stringify(result.status)}`);
  }
  return root;
}

describe('view_state proofs of a real contract', () => {
  let t: TestNode;
  const ft = 'ft.test.near';
  let height: number;
  let shard: number;
  let root: Uint8Array;
  let whole: Json;

  before(async () => {
    t = await startTestNode({ epochLength: EPOCH, gcNumEpochsToKeep: KEEP, archivalRpcPort: 0 });
    await deployFt(t, ft);
    t.node.producer.produce(2);
    height = t.node.chain.head.height - 1;
    shard = t.node.chain.shardOf(ft);
    root = await postStateRoot(t.url, height, shard);
    whole = await viewState(t.url, ft, height, new Uint8Array());
  });
  after(() => t.stop());

  it('the whole state: every value proven against the next chunk’s prev_state_root, the nodes in order', () => {
    assert.ok(whole.values.length >= 4, `stored keys: ${whole.values.length}`);
    verify(root, ft, new Uint8Array(), whole);
    // The values are the contract's: STATE and the balances it wrote are there.
    const keys = (whole.values as Json[]).map(({ key }) => Buffer.from(base64Decode(key)).toString('latin1'));
    assert.ok(keys.includes('STATE'), keys.join(' '));
  });

  it('each stored key on its own: its proof is its lookup path, and proves its value', async () => {
    for (const { key, value } of whole.values as Json[]) {
      const keyBytes = base64Decode(key);
      const view = await viewState(t.url, ft, height, keyBytes);
      assert.deepEqual(view.values, [{ key, value }]);
      const proof = verify(root, ft, keyBytes, view);
      const ref = proveKey(root, proof, dataKey(ft, keyBytes));
      assert.ok(ref !== null);
      assert.deepEqual(ref.hash, sha256(base64Decode(value)));
      // No key extends this one: the proof is exactly the nodes a lookup of the key walks, root first.
      const { nodes } = keyPath(proofStorage(proof), root, dataKey(ft, keyBytes));
      assert.deepEqual(nodes, proof.map(sha256));
    }
  });

  it('absent keys and an account without data: no values, and a proof that there are none', async () => {
    const absent = [
      [ft, utf8Encode('no such key')],
      [ft, utf8Encode('STATF')],
      [ft, new Uint8Array([0xff, 0xff])],
      [t.rootId, new Uint8Array()],
    ] as const;
    for (const [accountId, prefix] of absent) {
      const view = await viewState(t.url, accountId, height, prefix);
      assert.deepEqual(view.values, []);
      const proof = verify(root, accountId, prefix, view);
      assert.equal(proveKey(root, proof, dataKey(accountId, prefix)), null);
    }
  });

  it('the answer has the shape of the mainnet answer; EXPERIMENTAL_view_state answers the same', async () => {
    const vector = JSON.parse(await readFile(VECTOR, 'utf8')) as Json;
    assert.deepEqual(Object.keys(whole).sort(), ['block_hash', 'block_height', 'proof', 'values']);
    assert.equal(whole.block_height, height);
    for (const item of whole.values as Json[]) {
      assert.deepEqual(Object.keys(item).sort(), Object.keys(vector.values[0]).sort());
    }
    for (const node of [...whole.proof, ...vector.proof] as string[]) {
      assert.match(node, /^[A-Za-z0-9+/]+={0,2}$/, 'standard base64 with padding');
      decodeRawNode(base64Decode(node));
    }
    const experimental = await rpc(t.url, 'EXPERIMENTAL_view_state', {
      block_id: height,
      account_id: ft,
      prefix_base64: '',
      include_proof: true,
    });
    assert.deepEqual(experimental, whole);
    // Without include_proof there is no proof field.
    const plain = await rpc(t.url, 'query', {
      request_type: 'view_state',
      block_id: height,
      account_id: ft,
      prefix_base64: '',
    });
    assert.deepEqual(plain, { values: whole.values, block_height: height, block_hash: whole.block_hash });
  });

  it('pagination with a proof stays refused as nearcore 2.14 refuses it', async () => {
    const paged = await postRpc(t.url, 'query', {
      request_type: 'view_state',
      block_id: height,
      account_id: ft,
      prefix_base64: '',
      include_proof: true,
      limit: 1,
    });
    assert.equal(paged.json.error.cause.name, 'INTERNAL_ERROR');
  });

  it('after GC: the regular endpoint proves its earliest height and refuses older; the archival one proves them', async () => {
    t.node.producer.produce(12 * EPOCH);
    const chain = t.node.chain;
    const earliest = chain.earliestHeight();
    assert.ok(earliest > height + 1, `earliest ${earliest}, proven height ${height}`);

    const old = await postRpc(t.url, 'query', {
      request_type: 'view_state',
      block_id: height,
      account_id: ft,
      prefix_base64: '',
      include_proof: true,
    });
    assert.equal(old.json.error.cause.name, 'GARBAGE_COLLECTED_BLOCK');

    const archival = t.node.archivalRpcUrl!;
    assert.deepEqual(await postStateRoot(archival, height, shard), root);
    const archived = await viewState(archival, ft, height, new Uint8Array());
    assert.deepEqual(archived, whole);
    verify(root, ft, new Uint8Array(), archived);

    const recentRoot = await postStateRoot(t.url, earliest, shard);
    const recent = await viewState(t.url, ft, earliest, new Uint8Array());
    verify(recentRoot, ft, new Uint8Array(), recent);
    assert.deepEqual(recent.values, whole.values, 'nothing changed the contract since');
  });
});

describe('view_state proofs on a node that deletes what it collects', () => {
  let dir: string;
  let t: TestNode;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shadebox-proof-gc-'));
  });
  after(async () => {
    await t?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('every height of its window is proven; the state changed across it', async () => {
    t = await startTestNode({ memory: false, home: dir, epochLength: EPOCH, gcNumEpochsToKeep: KEEP });
    const ft = 'ft.test.near';
    await deployFt(t, ft);
    const shard = t.node.chain.shardOf(ft);
    // More transfers while blocks go by and are collected: each changes the contract's balances.
    for (let i = 0; i < 4; i++) {
      t.node.producer.produce(3 * EPOCH);
      const result = await sendTx(t.url, {
        signerId: t.rootId,
        key: t.rootSigner.key,
        receiverId: ft,
        actions: [
          {
            type: 'FunctionCall',
            methodName: 'ft_transfer',
            args: utf8Encode(JSON.stringify({ receiver_id: `holder.${t.rootId}`, amount: String(i + 1) })),
            gas: 50n * TGAS,
            deposit: 1n,
          },
        ],
      });
      assert.ok('SuccessValue' in result.status, JSON.stringify(result.status));
    }
    t.node.producer.produce(2);
    const chain = t.node.chain;
    const earliest = chain.earliestHeight();
    assert.ok(earliest > chain.genesisHeight + EPOCH, `earliest ${earliest}`);
    const distinct = new Set<string>();
    for (let h = earliest; h < chain.head.height; h++) {
      const root = await postStateRoot(t.url, h, shard);
      distinct.add(Buffer.from(root).toString('hex'));
      verify(root, ft, new Uint8Array(), await viewState(t.url, ft, h, new Uint8Array()));
    }
    assert.ok(distinct.size > 1, 'the window spans state changes');
  });
});
