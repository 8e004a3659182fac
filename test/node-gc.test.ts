/**
 * Garbage collection of a regular node (chain/garbage-collector.ts): with 5-block epochs and
 * gc_num_epochs_to_keep 3, old blocks, chunks, transactions and state versions go, with nearcore's errors and
 * HTTP statuses; recent ones are served; the store shrinks; the earliest height survives a restart. An archival
 * endpoint beside the regular one (and an archival node) still answer historical queries.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Chain } from '@shadebox/node';
import { base58Decode, base58Encode, ONE_NEAR as NEAR, transactionHash } from '@shadebox/primitives';
import { postRpc } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { buildTx } from './support/transactions.js';

const EPOCH = 5;
const KEEP = 3;
const MANUAL = { kind: 'manual' } as const;
const GC_TEXT = (h: number) =>
  `The data for block #${h} is garbage collected on this node, use an archival node to fetch historical data`;

/** Column numbers (chain/columns.ts). */
const Col = { State: 1, Block: 2, Chunk: 4, Transaction: 5, Outcome: 6, Receipt: 7, StateChanges: 10 };

function count(chain: Chain, column: number): number {
  let n = 0;
  for (const { value } of chain.store.range(column as never)) {
    // A collected block leaves a small header stub: count full records only.
    if (column === Col.Block && new TextDecoder().decode(value).includes('"collected":true')) continue;
    n++;
  }
  return n;
}

function counts(chain: Chain): Record<string, number> {
  return Object.fromEntries(Object.entries(Col).map(([name, col]) => [name, count(chain, col)]));
}

/** Sends transfers from the genesis account (one with a new account, so receipts cross blocks), each in its own
 * block, and returns the hash, block height and root balance after each. */
async function transfers(t: TestNode, n: number) {
  const out: Array<{ hash: string; height: number; balance: string }> = [];
  for (let i = 0; i < n; i++) {
    const tx = await buildTx(t.url, {
      signerId: t.rootId,
      key: t.rootSigner.key,
      receiverId: i === 0 ? `a${i}.${t.rootId}` : t.rootId,
      actions:
        i === 0
          ? [{ type: 'CreateAccount' }, { type: 'Transfer', deposit: NEAR }]
          : [{ type: 'Transfer', deposit: BigInt(i) }],
    });
    const hash = (await rpc(t.url, 'send_tx', {
      signed_tx_base64: tx.base64,
      wait_until: 'NONE',
    })) as unknown;
    assert.ok(hash !== undefined);
    const [included] = t.node.producer.produce(1);
    t.node.producer.produce(2);
    const account = await rpc(t.url, 'query', {
      request_type: 'view_account',
      block_id: included.height,
      account_id: t.rootId,
    });
    out.push({
      hash: base58Encode(transactionHash(tx.transaction)),
      height: included.height,
      balance: account.amount,
    });
  }
  return out;
}

async function assertCollected(url: string, chain: Chain, old: { hash: string; height: number }) {
  const oldHash = (chain.store.get(3 as never, heightKey(old.height)) as Uint8Array | undefined)!;
  const blockHash = base58Encode(oldHash);
  for (const ref of [{ block_id: old.height }, { block_id: blockHash }]) {
    const q = await postRpc(url, 'query', { request_type: 'view_account', account_id: 'test.near', ...ref });
    assert.equal(q.status, 200);
    assert.deepEqual(q.json.error, {
      name: 'HANDLER_ERROR',
      cause: { name: 'GARBAGE_COLLECTED_BLOCK', info: { block_height: old.height, block_hash: blockHash } },
      code: -32000,
      message: 'Server error',
      data: GC_TEXT(old.height),
    });
  }
  const b = await postRpc(url, 'block', { block_id: old.height });
  assert.equal(b.status, 422);
  assert.equal(b.json.error.cause.name, 'UNKNOWN_BLOCK');
  assert.deepEqual(b.json.error.cause.info, {});
  const byHash = await postRpc(url, 'block', { block_id: blockHash });
  assert.equal(byHash.status, 200);
  assert.equal(byHash.json.error.cause.name, 'UNKNOWN_BLOCK');
  const c = await postRpc(url, 'chunk', { block_id: old.height, shard_id: 0 });
  assert.equal(c.status, 422);
  assert.equal(c.json.error.cause.name, 'UNKNOWN_BLOCK');
  const tx = await postRpc(url, 'tx', {
    tx_hash: old.hash,
    sender_account_id: 'test.near',
    wait_until: 'NONE',
  });
  assert.equal(tx.status, 200);
  assert.equal(tx.json.error.cause.name, 'UNKNOWN_TRANSACTION');
}

function heightKey(height: number): Uint8Array {
  const key = new Uint8Array(8);
  new DataView(key.buffer).setBigUint64(0, BigInt(height));
  return key;
}

describe('garbage collection on a regular node', () => {
  let dir: string | undefined;
  let t: TestNode | undefined;
  after(async () => {
    await t?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('frees old blocks, chunks, transactions and state, answers as nearcore, and survives a restart', async () => {
    dir = await mkdtemp(join(tmpdir(), 'shadebox-gc-'));
    const options = {
      memory: false,
      home: dir,
      epochLength: EPOCH,
      gcNumEpochsToKeep: KEEP,
      production: MANUAL,
    };
    t = await startTestNode(options);
    const chain = t.node.chain;
    const sent = await transfers(t, 6);
    const before = counts(chain);
    // Collection already runs while the chain is young (the first heights are in collected epochs).
    assert.ok(chain.earliestHeight() <= sent.at(-1)!.height);

    t.node.producer.produce(60);
    const head = chain.head.height;
    // nearcore's gc_stop_height: the first height of the epoch KEEP - 1 epochs before the head's.
    const headEpoch = Math.floor((head - chain.genesisHeight - 1) / EPOCH);
    const stop = chain.genesisHeight + 1 + (headEpoch - (KEEP - 1)) * EPOCH;
    assert.equal(chain.earliestHeight(), stop);
    const after = counts(chain);
    // Only the kept heights remain (genesis is never collected); everything the transfers wrote is gone.
    const kept = head - chain.earliestHeight() + 1;
    assert.equal(after.Block, kept + 1);
    assert.equal(after.Chunk, kept + 1);
    assert.equal(after.StateChanges, kept);
    assert.deepEqual([after.Transaction, after.Outcome, after.Receipt], [0, 0, 0]);
    assert.ok(before.Transaction > 0 && before.Outcome > 0 && before.Receipt > 0);
    // Old state versions are pruned: one version per key is left of the many the transfers wrote.
    assert.ok(after.State < before.State, `State: ${before.State} -> ${after.State}`);

    for (const old of sent) await assertCollected(t.url, chain, old);

    // Recent heights are served.
    const earliest = chain.earliestHeight();
    const atEarliest = await rpc(t.url, 'query', {
      request_type: 'view_account',
      block_id: earliest,
      account_id: 'test.near',
    });
    assert.equal(atEarliest.block_height, earliest);
    assert.equal((await rpc(t.url, 'block', { block_id: earliest })).header.height, earliest);
    await rpc(t.url, 'chunk', { block_id: earliest, shard_id: 0 });
    const below = await postRpc(t.url, 'block', { block_id: earliest - 1 });
    assert.equal(below.status, 422);
    const status = await rpc(t.url, 'status', []);
    assert.equal(status.sync_info.earliest_block_height, earliest);
    assert.equal(
      status.sync_info.earliest_block_hash,
      (await rpc(t.url, 'block', { block_id: earliest })).header.hash,
    );
    const earliestBlock = await rpc(t.url, 'block', { sync_checkpoint: 'earliest_available' });
    assert.equal(earliestBlock.header.height, earliest);

    // A restart keeps the earliest height and the GC answers; collection continues.
    const settled = await rpc(t.url, 'query', {
      request_type: 'view_account',
      finality: 'optimistic',
      account_id: 'test.near',
    });
    await t.stop();
    t = await startTestNode(options);
    assert.equal(t.node.chain.earliestHeight(), earliest);
    await assertCollected(t.url, t.node.chain, sent[0]);
    t.node.producer.produce(3 * EPOCH);
    assert.ok(t.node.chain.earliestHeight() > earliest);
    const balance = await rpc(t.url, 'query', {
      request_type: 'view_account',
      finality: 'final',
      account_id: 'test.near',
    });
    assert.equal(balance.amount, settled.amount);
  });
});

describe('archival', () => {
  const nodes: TestNode[] = [];
  after(async () => {
    for (const t of nodes) await t.stop();
  });

  it('an archival endpoint beside the regular one serves the history the regular one answers as collected', async () => {
    const t = await startTestNode({
      epochLength: EPOCH,
      gcNumEpochsToKeep: KEEP,
      production: MANUAL,
      archivalRpcPort: 0,
    });
    nodes.push(t);
    const archival = t.node.archivalRpcUrl!;
    assert.match(archival, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(archival, t.url);
    const sent = await transfers(t, 3);
    t.node.producer.produce(40);

    for (const old of sent) await assertCollected(t.url, t.node.chain, old);
    for (const old of sent) {
      const view = await rpc(archival, 'query', {
        request_type: 'view_account',
        block_id: old.height,
        account_id: 'test.near',
      });
      assert.equal(view.amount, old.balance);
      assert.equal((await rpc(archival, 'block', { block_id: old.height })).header.height, old.height);
      await rpc(archival, 'chunk', { block_id: old.height, shard_id: 0 });
      const tx = await rpc(archival, 'tx', {
        tx_hash: old.hash,
        sender_account_id: 'test.near',
        wait_until: 'NONE',
      });
      assert.equal(tx.transaction.hash, old.hash);
    }
    const regular = await rpc(t.url, 'status', []);
    const full = await rpc(archival, 'status', []);
    assert.ok(regular.sync_info.earliest_block_height > t.node.chain.genesisHeight);
    assert.equal(full.sync_info.earliest_block_height, t.node.chain.genesisHeight);
    assert.equal(full.sync_info.latest_block_height, regular.sync_info.latest_block_height);
  });

  it('an archival node keeps everything', async () => {
    const t = await startTestNode({
      epochLength: EPOCH,
      gcNumEpochsToKeep: KEEP,
      production: MANUAL,
      archive: true,
    });
    nodes.push(t);
    assert.equal(t.node.archivalRpcUrl, undefined);
    const sent = await transfers(t, 2);
    t.node.producer.produce(40);
    assert.equal(t.node.chain.earliestHeight(), t.node.chain.genesisHeight);
    for (const old of sent) {
      const view = await rpc(t.url, 'query', {
        request_type: 'view_account',
        block_id: old.height,
        account_id: 'test.near',
      });
      assert.equal(view.amount, old.balance);
      assert.equal((await rpc(t.url, 'block', { block_id: old.height })).header.height, old.height);
    }
  });
});

describe('history budget', () => {
  const nodes: TestNode[] = [];
  after(async () => {
    for (const t of nodes) await t.stop();
  });

  it('collects the oldest heights inside the kept epochs once they wrote more than the budget, with nearcore answers', async () => {
    // 1,000 epochs of 20 blocks keep everything here: only the budget collects.
    const budget = 64 * 1024;
    const t = await startTestNode({
      production: MANUAL,
      epochLength: 20,
      gcNumEpochsToKeep: 1000,
      historyBudgetBytes: budget,
    });
    nodes.push(t);
    const chain = t.node.chain;
    const written = new Map<number, number>();
    chain.on('block', (block: { height: number }) => written.set(block.height, chain.lastBlockBytes));
    const sent = await transfers(t, 3);
    t.node.producer.produce(200);
    const head = chain.head.height;
    // The lowest height from which the blocks made since the start wrote at most the budget, but never above
    // the start of the head's epoch or transaction_validity_period below the head.
    let bytes = 0;
    let lowest = head + 1;
    while (written.has(lowest - 1) && bytes + written.get(lowest - 1)! <= budget)
      bytes += written.get(--lowest)!;
    const expected = Math.min(
      lowest,
      chain.epochOf(head).startHeight,
      head - chain.genesis.transaction_validity_period,
    );
    assert.ok(expected > chain.genesisHeight + 1, `the budget collects (${expected})`);
    assert.equal(chain.earliestHeight(), expected);
    for (const old of sent) await assertCollected(t.url, chain, old);
    assert.equal((await rpc(t.url, 'block', { block_id: expected })).header.height, expected);
    const below = await postRpc(t.url, 'block', { block_id: expected - 1 });
    assert.equal(below.json.error.cause.name, 'UNKNOWN_BLOCK');
    assert.equal((await rpc(t.url, 'status', [])).sync_info.earliest_block_height, expected);
  });

  it("never collects the head's epoch or the last transaction_validity_period heights: a transaction on the oldest kept base is accepted", async () => {
    const t = await startTestNode({
      production: MANUAL,
      epochLength: 200,
      gcNumEpochsToKeep: 1000,
      historyBudgetBytes: 1,
    });
    nodes.push(t);
    const chain = t.node.chain;
    const validity = chain.genesis.transaction_validity_period;
    // Early in the second epoch the validity period bounds, late in it the epoch's start.
    t.node.producer.produce(250);
    assert.ok(chain.epochOf(chain.head.height).startHeight > chain.head.height - validity);
    assert.equal(chain.earliestHeight(), chain.head.height - validity);
    t.node.producer.produce(140);
    const start = chain.epochOf(chain.head.height).startHeight;
    assert.ok(start < chain.head.height - validity);
    assert.equal(chain.earliestHeight(), start);
    // A transaction whose base block is the earliest kept one is valid (nearcore: within the validity period).
    const base = await rpc(t.url, 'block', { block_id: chain.earliestHeight() });
    const tx = await buildTx(t.url, {
      signerId: t.rootId,
      key: t.rootSigner.key,
      receiverId: t.rootId,
      actions: [{ type: 'Transfer', deposit: 1n }],
      blockHash: base58Decode(base.header.hash),
    });
    const sent = await rpc(t.url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: 'NONE' });
    assert.ok(sent !== undefined);
  });

  it('prunes state versions once the horizon has moved 64 heights past the last pruning, not at every block', async () => {
    // The budget's horizon moves at nearly every block (each writes the bandwidth scheduler's state and its trie
    // path); a pass is due every 64 heights whether or not collection has caught up with the horizon.
    const t = await startTestNode({
      production: MANUAL,
      epochLength: 100,
      gcNumEpochsToKeep: 1000,
      historyBudgetBytes: 1024 * 1024,
    });
    nodes.push(t);
    const chain = t.node.chain;
    // Each pruning pass reads the whole state column: note the horizon each pass prunes below.
    const passes: number[] = [];
    const state = chain.state;
    const prune = state.prune.bind(state);
    state.prune = (batch, keepFromHeight, options) => {
      passes.push(keepFromHeight);
      return prune(batch, keepFromHeight, options);
    };
    await transfers(t, 100);
    const moved = chain.earliestHeight() - chain.genesisHeight;
    assert.ok(moved > 100, `the budget moved the horizon ${moved} heights`);
    // A pass ran when the collector started (before the spy): the next ones come 64 heights apart. Before this
    // cadence there were 11 passes here, one at each height where the horizon stood still.
    const spaced = (what: string) => {
      let last = chain.genesisHeight;
      for (const height of passes) {
        assert.ok(height - last >= 64, `${what}: passes at ${passes.join(', ')}`);
        last = height;
      }
    };
    spaced('after the transfers');
    assert.ok(passes.length >= 1 && passes.length <= Math.ceil(moved / 64), `passes at ${passes.join(', ')}`);
    // Once the horizon is past the transfers, their old versions of the accounts' state go.
    const withTransfers = count(chain, Col.State);
    t.node.producer.produce(300);
    assert.ok(chain.earliestHeight() > 310, `horizon ${chain.earliestHeight()}`);
    spaced('after the empty blocks');
    assert.ok(
      count(chain, Col.State) < withTransfers,
      `State: ${withTransfers} -> ${count(chain, Col.State)}`,
    );
  });

  it('names epochs by the hash of a block the budget collected (its height index entry stays)', async () => {
    // Epochs longer than the validity period, and a cache of one block: the epoch id of the head's epoch is the
    // hash of the last block of the epoch before the previous one, collected here.
    const t = await startTestNode({
      production: MANUAL,
      epochLength: 200,
      gcNumEpochsToKeep: 1000,
      historyBudgetBytes: 1,
      cacheLimits: {
        blocks: { entries: 1, bytes: 1 << 20 },
        records: { entries: 8192, bytes: 2 << 20 },
      },
    });
    nodes.push(t);
    const chain = t.node.chain;
    t.node.producer.produce(450);
    const named = chain.genesisHeight + 200; // the last height of the first epoch
    assert.ok(chain.earliestHeight() > named, `${named} is collected (earliest ${chain.earliestHeight()})`);
    const indexed = base58Encode(chain.store.get(3 as never, heightKey(named))!);
    const head = await rpc(t.url, 'block', { finality: 'optimistic' });
    assert.equal(chain.epochOf(head.header.height).epochHeight, 3);
    assert.equal(head.header.epoch_id, indexed);
    t.node.producer.produce(1);
    assert.equal((await rpc(t.url, 'block', { finality: 'optimistic' })).header.epoch_id, indexed);
  });
});
