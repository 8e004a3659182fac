/**
 * End to end: the `sandbox_*` developer methods (docs/dev-controls.md) on a real node — patch state (balance,
 * access key used to sign, contract data read back), fast-forward across epochs, produce blocks in manual
 * mode, the next block's timestamp, snapshot / revert on an LMDB home (and after a restart), invalid params.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { base58Decode, ONE_NEAR as NEAR } from '@shadebox/primitives';
import { postRpc } from './support/raw-rpc.js';
import { rpc, viewAccountJson } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { buildTx, sendTx } from './support/transactions.js';
import { testRandom } from './test-random.js';

const rng = testRandom('test/rpc-sandbox.test.ts');

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Entries per store column but Meta (9): blocks, chunks, transactions, outcomes, receipts, state, ... */
function storeCounts(t: TestNode): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const column of [1, 2, 3, 4, 5, 6, 7, 8, 10]) {
    let n = 0;
    for (const _ of t.node.chain.store.range(column)) n++;
    counts[column] = n;
  }
  return counts;
}

async function head(url: string) {
  return (await rpc(url, 'block', { finality: 'optimistic' })).header;
}

async function errorOf(url: string, method: string, params: unknown) {
  const answer = await postRpc(url, method, params);
  assert.ok(answer.json?.error, `${method} should fail: ${answer.text}`);
  return { status: answer.status, error: answer.json.error };
}

describe('sandbox_patch_state', () => {
  let t: TestNode;
  after(() => t?.stop());

  test('patches a balance, adds an account with a key that signs, adds contract data', async () => {
    t = await startTestNode();
    const root = t.rootId;
    const before = await viewAccountJson(t.url, root);
    const h0 = (await head(t.url)).height;

    const patched = await rpc(t.url, 'sandbox_patch_state', {
      records: [
        { Account: { account_id: root, account: { amount: (12345n * NEAR).toString(), locked: '0' } } },
      ],
    });
    assert.deepEqual(patched, {});
    const after1 = await viewAccountJson(t.url, root);
    assert.equal(after1.amount, (12345n * NEAR).toString());
    assert.equal(after1.storage_usage, before.storage_usage, 'storage usage recomputed, unchanged');
    assert.ok(after1.block_height > h0, 'applied by a new block');

    // A new account with a full-access key, then a transaction signed with that key.
    const key = rng.keyPair();
    await rpc(t.url, 'sandbox_patch_state', {
      records: [
        {
          Account: {
            account_id: 'patched.test.near',
            account: { amount: (50n * NEAR).toString(), locked: '0' },
          },
        },
        {
          AccessKey: {
            account_id: 'patched.test.near',
            public_key: key.publicKeyString,
            access_key: { nonce: 0, permission: 'FullAccess' },
          },
        },
        { Data: { account_id: 'patched.test.near', data_key: b64('k'), value: b64('v') } },
      ],
    });
    const account = await viewAccountJson(t.url, 'patched.test.near');
    assert.equal(account.amount, (50n * NEAR).toString());
    // num_bytes_account 100 + key (33 + 9 + 40) + data (1 + 1 + 40), as genesis counts it.
    assert.equal(account.storage_usage, 224);

    const state = await rpc(t.url, 'query', {
      request_type: 'view_state',
      finality: 'optimistic',
      account_id: 'patched.test.near',
      prefix_base64: '',
    });
    assert.deepEqual(
      state.values.map((v: { key: string; value: string }) => [v.key, v.value]),
      [[b64('k'), b64('v')]],
    );

    const sent = await sendTx(t.url, {
      signerId: 'patched.test.near',
      key,
      receiverId: root,
      actions: [{ type: 'Transfer', deposit: NEAR }],
    });
    assert.deepEqual(sent.status, { SuccessValue: '' });
    const afterTx = await viewAccountJson(t.url, 'patched.test.near');
    assert.ok(BigInt(afterTx.amount) < 49n * NEAR);
  });

  test('a Contract record sets the code and its hash, and leaves the storage usage as it was (as nearcore)', async () => {
    const code = Buffer.from('not really wasm, but code bytes all the same');
    const before = await viewAccountJson(t.url, 'patched.test.near');
    await rpc(t.url, 'sandbox_patch_state', {
      records: [{ Contract: { account_id: 'patched.test.near', code: code.toString('base64') } }],
    });
    const view = await rpc(t.url, 'query', {
      request_type: 'view_code',
      finality: 'optimistic',
      account_id: 'patched.test.near',
    });
    assert.equal(view.code_base64, code.toString('base64'));
    const account = await viewAccountJson(t.url, 'patched.test.near');
    assert.equal(account.code_hash, view.hash);
    assert.equal(account.storage_usage, before.storage_usage);
    // An Account record with storage_usage is written as given; without it, the usage is counted again.
    await rpc(t.url, 'sandbox_patch_state', {
      records: [
        {
          Account: {
            account_id: 'patched.test.near',
            account: { amount: before.amount, locked: '0', code_hash: view.hash, storage_usage: 0 },
          },
        },
      ],
    });
    assert.equal((await viewAccountJson(t.url, 'patched.test.near')).storage_usage, 0);
    await rpc(t.url, 'sandbox_patch_state', {
      records: [
        { Account: { account_id: 'patched.test.near', account: { amount: before.amount, locked: '0' } } },
      ],
    });
    assert.equal(
      (await viewAccountJson(t.url, 'patched.test.near')).storage_usage,
      before.storage_usage + code.length,
    );
  });

  test("ignores fields beside records, as nearcore does (near-workspaces sends its builder's account_id)", async () => {
    const amount = (4242n * NEAR).toString();
    const patched = await rpc(t.url, 'sandbox_patch_state', {
      records: [
        { Account: { account_id: 'builder.test.near', account: { amount, locked: '0', storage_usage: 0 } } },
      ],
      account_id: 'builder.test.near',
    });
    assert.deepEqual(patched, {});
    for (const finality of ['optimistic', 'near-final', 'final']) {
      const view = await rpc(t.url, 'query', {
        request_type: 'view_account',
        finality,
        account_id: 'builder.test.near',
      });
      assert.equal(view.amount, amount, `visible at ${finality} once the call returned`);
    }
  });

  test('refuses malformed records with PARSE_ERROR and unknown accounts with a handler error', async () => {
    const bad = [
      { Account: { account_id: 'Bad Id!', account: { amount: '1', locked: '0' } } },
      {
        AccessKey: {
          account_id: 'test.near',
          public_key: 'ed25519:nope',
          access_key: { nonce: 0, permission: 'FullAccess' },
        },
      },
      { Data: { account_id: 'test.near', data_key: '***', value: b64('v') } },
      { Contract: { account_id: 'test.near', code: 'not base64!' } },
      { Account: { account_id: 'test.near', account: { amount: '-1', locked: '0' } } },
      { PostponedReceipt: {} },
    ];
    for (const record of bad) {
      const { status, error } = await errorOf(t.url, 'sandbox_patch_state', { records: [record] });
      assert.equal(status, 400, JSON.stringify(record));
      assert.equal(error.cause.name, 'PARSE_ERROR');
    }
    assert.equal((await errorOf(t.url, 'sandbox_patch_state', {})).error.cause.name, 'PARSE_ERROR');
    const unknown = await errorOf(t.url, 'sandbox_patch_state', {
      records: [{ Data: { account_id: 'nobody.test.near', data_key: b64('k'), value: b64('v') } }],
    });
    assert.equal(unknown.error.name, 'HANDLER_ERROR');
    assert.equal(unknown.error.cause.name, 'UNKNOWN_ACCOUNT');
  });
});

describe('sandbox_fast_forward as nearcore (heights skipped within epochs, finality, epochs, time)', () => {
  let t: TestNode;
  after(() => t?.stop());

  test('25 heights from genesis with 10-block epochs', async () => {
    t = await startTestNode({ production: { kind: 'manual' }, epochLength: 10 });
    const start = await head(t.url);
    assert.equal(start.height, 0);
    const unrelated = { delta_height: 25, unrelated: true }; // nearcore's request ignores other fields
    assert.deepEqual(await rpc(t.url, 'sandbox_fast_forward', unrelated), {});
    // nearcore: 1 (at an epoch start, one by one), skip to 3 before the epoch end (8), one by one across the
    // boundary (9, 10, 11), skip again (18), 19, 20, 21, then the rest in one skip: 21 + 4 + 1 = 26.
    const made = [1, 8, 9, 10, 11, 18, 19, 20, 21, 26];
    const end = await head(t.url);
    assert.equal(end.height, 26);
    for (let h = 1; h <= 26; h++) {
      const answer = await postRpc(t.url, 'block', { block_id: h });
      if (made.includes(h)) assert.equal(answer.json.result?.header.height, h, `block ${h}`);
      else assert.equal(answer.json.error?.cause.name, 'UNKNOWN_BLOCK', `height ${h} was skipped`);
    }
    const b26 = (await rpc(t.url, 'block', { block_id: 26 })).header;
    assert.equal(b26.prev_height, 21);
    // Doomslug by heights: 26 follows a gap, so it keeps 21's pointers (near-final 20, final 19).
    assert.equal((await rpc(t.url, 'block', { finality: 'near-final' })).header.height, 20);
    assert.equal((await rpc(t.url, 'block', { finality: 'final' })).header.height, 19);
    assert.equal(b26.last_final_block, (await rpc(t.url, 'block', { block_id: 19 })).header.hash);
    assert.equal(b26.block_ordinal, made.length + 1, 'ordinals count blocks, not heights');
    // Epochs advance as on a running chain: heights 21-30 are the third epoch.
    const b21 = (await rpc(t.url, 'block', { block_id: 21 })).header;
    assert.equal(b26.epoch_id, b21.epoch_id);
    assert.notEqual(b21.epoch_id, (await rpc(t.url, 'block', { block_id: 20 })).header.epoch_id);
    const validators = await rpc(t.url, 'validators', [null]);
    assert.equal(validators.epoch_height, 3);
    // 6 + 6 + 4 heights skipped, each 1.3 s ahead.
    const b1 = (await rpc(t.url, 'block', { block_id: 1 })).header;
    assert.ok(BigInt(b26.timestamp_nanosec) - BigInt(b1.timestamp_nanosec) >= 16n * 1_300_000_000n);
    // Two consecutive blocks later, the block after the gap is final.
    await rpc(t.url, 'sandbox_produce_blocks', { count: 2 });
    assert.equal((await rpc(t.url, 'block', { finality: 'final' })).header.height, 26);
  });
});

describe('sandbox_patch_state (interval mode)', () => {
  let t: TestNode;
  after(() => t?.stop());

  test('returns once the next block of the timer applied the patch', async () => {
    t = await startTestNode({ production: { kind: 'interval', blockTimeMs: 100 } });
    const amount = (777n * NEAR).toString();
    await rpc(t.url, 'sandbox_patch_state', {
      records: [{ Account: { account_id: t.rootId, account: { amount, locked: '0' } } }],
    });
    assert.equal((await viewAccountJson(t.url, t.rootId)).amount, amount);
  });
});

describe('sandbox_* on the archival endpoint', () => {
  let t: TestNode;
  after(() => t?.stop());

  test('acts on the same chain and shares snapshots with the regular endpoint', async () => {
    t = await startTestNode({ archivalRpcPort: 0 });
    const archival = t.node.archivalRpcUrl as string;
    const id = await rpc(t.url, 'sandbox_snapshot', null);
    const h = await head(t.url);
    await rpc(archival, 'sandbox_patch_state', {
      records: [{ Account: { account_id: t.rootId, account: { amount: '1000', locked: '0' } } }],
    });
    assert.equal((await viewAccountJson(t.url, t.rootId)).amount, '1000');
    assert.equal((await head(t.url)).height, h.height + 3, 'the patch block and the two that finalise it');
    await rpc(archival, 'sandbox_produce_blocks', { count: 2 });
    assert.equal((await head(t.url)).height, h.height + 5);
    await rpc(archival, 'sandbox_revert', { snapshot_id: id });
    assert.equal((await head(t.url)).hash, h.hash);
    assert.equal((await head(archival)).hash, h.hash);
    assert.notEqual((await viewAccountJson(archival, t.rootId)).amount, '1000');
  });
});

describe('sandbox_fast_forward, sandbox_produce_blocks, sandbox_set_next_block_timestamp (manual mode)', () => {
  let t: TestNode;
  after(() => t?.stop());

  test('produces blocks now, moves height, time and epochs', async () => {
    t = await startTestNode({ production: { kind: 'manual' }, epochLength: 5 });
    const h0 = await head(t.url);
    const produced = await rpc(t.url, 'sandbox_produce_blocks', { count: 3 });
    const h1 = await head(t.url);
    assert.equal(h1.height, h0.height + 3);
    assert.deepEqual(produced, { block_hash: h1.hash, block_height: h1.height });

    assert.deepEqual(await rpc(t.url, 'sandbox_fast_forward', { delta_height: 12 }), {});
    const h2 = await head(t.url);
    // From height 3 with 5-block epochs, nearcore skips one height in each of the next two epochs (7 and 12)
    // and ends on the last one by one block: 3 + 12.
    assert.equal(h1.height, 3);
    assert.equal(h2.height, h1.height + 12);
    assert.notEqual(h2.epoch_id, h1.epoch_id, 'the epoch moved');
    for (const skipped of [7, 12]) {
      const missing = await errorOf(t.url, 'block', { block_id: skipped });
      assert.equal(missing.error.cause.name, 'UNKNOWN_BLOCK', `height ${skipped} was skipped`);
    }
    assert.ok(
      BigInt(h2.timestamp_nanosec) - BigInt(h1.timestamp_nanosec) >= 2n * 1_300_000_000n,
      'timestamps move 1.3 s (nearcore: (600 ms + 2 s) / 2) per skipped height',
    );
    const status = await rpc(t.url, 'status', null);
    assert.equal(status.sync_info.latest_block_height, h2.height);
  });

  test('the next block gets exactly the timestamp set', async () => {
    const h = await head(t.url);
    const ts = BigInt(h.timestamp_nanosec) + 7_000_000_123n;
    assert.deepEqual(
      await rpc(t.url, 'sandbox_set_next_block_timestamp', { timestamp_nanosec: ts.toString() }),
      {},
    );
    await rpc(t.url, 'sandbox_produce_blocks', { count: 2 });
    const next = await rpc(t.url, 'block', { block_id: h.height + 1 });
    assert.equal(next.header.timestamp_nanosec, ts.toString());
    const after2 = await rpc(t.url, 'block', { block_id: h.height + 2 });
    assert.ok(BigInt(after2.header.timestamp_nanosec) > ts);

    const stale = await errorOf(t.url, 'sandbox_set_next_block_timestamp', {
      timestamp_nanosec: Number(h.timestamp_nanosec.slice(0, 10)),
    });
    assert.equal(stale.error.cause.name, 'INVALID_TIMESTAMP');
  });

  test('revert empties the pool', async () => {
    const id = await rpc(t.url, 'sandbox_snapshot', {});
    const h = await head(t.url);
    const tx = await buildTx(t.url, {
      signerId: t.rootId,
      key: t.rootSigner.key,
      receiverId: t.rootId,
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    const hash = await rpc(t.url, 'broadcast_tx_async', [tx.base64]);
    await rpc(t.url, 'sandbox_produce_blocks', { count: 1 });
    const included = await rpc(t.url, 'tx', {
      tx_hash: hash,
      sender_account_id: t.rootId,
      wait_until: 'NONE',
    });
    assert.ok(included.transaction_outcome, 'the transaction is on chain');
    await rpc(t.url, 'sandbox_revert', { snapshot_id: id });
    assert.equal((await head(t.url)).height, h.height);
    // Sent again, then reverted before any block: the pool is emptied.
    const id2 = await rpc(t.url, 'sandbox_snapshot', {});
    await rpc(t.url, 'broadcast_tx_async', [tx.base64]);
    await rpc(t.url, 'sandbox_revert', { snapshot_id: id2 });
    await rpc(t.url, 'sandbox_produce_blocks', { count: 2 });
    const lookup = await errorOf(t.url, 'tx', {
      tx_hash: hash,
      sender_account_id: t.rootId,
      wait_until: 'NONE',
    });
    assert.equal(lookup.error.cause.name, 'UNKNOWN_TRANSACTION');
  });

  test('invalid params', async () => {
    const cases: Array<[string, unknown]> = [
      ['sandbox_fast_forward', {}],
      ['sandbox_fast_forward', { delta_height: 'x' }],
      ['sandbox_fast_forward', { delta_height: -1 }],
      ['sandbox_produce_blocks', { count: 1.5 }],
      ['sandbox_produce_blocks', { count: 1, extra: true }],
      ['sandbox_set_next_block_timestamp', { timestamp_nanosec: 'soon' }],
      ['sandbox_set_next_block_timestamp', { timestamp_nanosec: '18446744073709551616' }],
      ['sandbox_revert', {}],
      ['sandbox_revert', { snapshot_id: [1] }],
      ['sandbox_snapshot', { x: 1 }],
    ];
    for (const [method, params] of cases) {
      const { status, error } = await errorOf(t.url, method, params);
      assert.equal(status, 400, `${method} ${JSON.stringify(params)}`);
      assert.equal(error.cause.name, 'PARSE_ERROR');
    }
    const tooMany = await errorOf(t.url, 'sandbox_fast_forward', { delta_height: 100_001 });
    assert.equal(tooMany.error.cause.name, 'TOO_MANY_BLOCKS');
    assert.deepEqual(tooMany.error.cause.info, { limit: 100_000, requested: 100_001 });
    const unknown = await errorOf(t.url, 'sandbox_revert', { snapshot_id: '999' });
    assert.equal(unknown.error.name, 'HANDLER_ERROR');
    assert.equal(unknown.error.cause.name, 'UNKNOWN_SNAPSHOT');
  });
});

describe('sandbox_snapshot / sandbox_revert (LMDB home)', () => {
  let t: TestNode | undefined;
  let dir: string;
  after(async () => {
    await t?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('reverts blocks, state and transactions; drops later snapshots; keeps producing; survives restart', async () => {
    dir = await mkdtemp(join(tmpdir(), 'shadebox-sandbox-'));
    t = await startTestNode({ memory: false, home: dir });
    const root = t.rootSigner;
    const bob = 'bob.test.near';
    await rpc(t.url, 'sandbox_patch_state', {
      records: [{ Account: { account_id: bob, account: { amount: (10n * NEAR).toString(), locked: '0' } } }],
    });

    const s1 = await rpc(t.url, 'sandbox_snapshot', null);
    assert.equal(typeof s1, 'string');
    const headAtS1 = await head(t.url);
    const rootAtS1 = await viewAccountJson(t.url, root.accountId);
    const bobAtS1 = await viewAccountJson(t.url, bob);
    const countsAtS1 = storeCounts(t);

    const tx1 = await sendTx(t.url, {
      signerId: root.accountId,
      key: root.key,
      receiverId: bob,
      actions: [{ type: 'Transfer', deposit: 3n * NEAR }],
    });
    const s2 = await rpc(t.url, 'sandbox_snapshot', []);
    assert.notEqual(s2, s1);
    const tx2 = await sendTx(t.url, {
      signerId: root.accountId,
      key: root.key,
      receiverId: bob,
      actions: [{ type: 'Transfer', deposit: 2n * NEAR }],
    });
    assert.equal((await viewAccountJson(t.url, bob)).amount, (15n * NEAR).toString());
    const reverted = await head(t.url);
    assert.ok(reverted.height > headAtS1.height);

    const answer = await rpc(t.url, 'sandbox_revert', { snapshot_id: s1 });
    assert.deepEqual(answer, { block_hash: headAtS1.hash, block_height: headAtS1.height });
    const h = await head(t.url);
    assert.equal(h.height, headAtS1.height);
    assert.equal(h.hash, headAtS1.hash);
    assert.deepEqual(await viewAccountJson(t.url, root.accountId), rootAtS1);
    assert.deepEqual(await viewAccountJson(t.url, bob), bobAtS1);
    assert.deepEqual(storeCounts(t), countsAtS1, 'nothing the reverted blocks wrote is left in the store');
    for (const tx of [tx1, tx2]) {
      const lookup = await errorOf(t.url, 'tx', {
        tx_hash: tx.transaction.hash,
        sender_account_id: root.accountId,
        wait_until: 'NONE', // an unknown transaction: UNKNOWN_TRANSACTION instead of waiting
      });
      assert.equal(lookup.error.cause.name, 'UNKNOWN_TRANSACTION');
    }
    const gone = await errorOf(t.url, 'block', { block_id: reverted.height });
    assert.equal(gone.error.cause.name, 'UNKNOWN_BLOCK');
    // Reverting to s1 deleted s1 and the later s2.
    for (const id of [s1, s2]) {
      assert.equal(
        (await errorOf(t.url, 'sandbox_revert', { snapshot_id: id })).error.cause.name,
        'UNKNOWN_SNAPSHOT',
      );
    }

    // A transaction referring to a reverted block is Expired.
    const stale = await buildTx(t.url, {
      signerId: root.accountId,
      key: root.key,
      receiverId: bob,
      actions: [{ type: 'Transfer', deposit: NEAR }],
      blockHash: base58Decode(reverted.hash),
    });
    const expired = await errorOf(t.url, 'send_tx', { signed_tx_base64: stale.base64, wait_until: 'FINAL' });
    assert.deepEqual(expired.error.data, { TxExecutionError: { InvalidTxError: 'Expired' } });

    // The chain continues from the reverted head, nonces from the reverted keys.
    const tx3 = await sendTx(t.url, {
      signerId: root.accountId,
      key: root.key,
      receiverId: bob,
      actions: [{ type: 'Transfer', deposit: NEAR }],
    });
    assert.equal(tx3.transaction.nonce, Number(tx1.transaction.nonce));
    const next = await rpc(t.url, 'block', { block_id: headAtS1.height + 1 });
    assert.equal(next.header.prev_hash, headAtS1.hash);
    assert.equal((await viewAccountJson(t.url, bob)).amount, (11n * NEAR).toString());
    const continued = await head(t.url);

    // The reverted chain is what the store holds.
    await t.stop();
    t = undefined;
    t = await startTestNode({ memory: false, home: dir });
    assert.equal((await head(t.url)).hash, continued.hash);
    assert.equal((await viewAccountJson(t.url, bob)).amount, (11n * NEAR).toString());
    const lookup = await errorOf(t.url, 'tx', {
      tx_hash: tx2.transaction.hash,
      sender_account_id: root.accountId,
      wait_until: 'NONE',
    });
    assert.equal(lookup.error.cause.name, 'UNKNOWN_TRANSACTION');
    const kept = await rpc(t.url, 'tx', {
      tx_hash: tx3.transaction.hash,
      sender_account_id: root.accountId,
    });
    assert.equal(kept.final_execution_status, 'FINAL');
  });
});

describe('sandbox_fast_forward of many heights reports its progress', () => {
  let t: TestNode;
  after(() => t?.stop());

  test('the producer is told heights done of the total, then done', async () => {
    t = await startTestNode({ production: { kind: 'manual' }, epochLength: 5 });
    const reports: Array<{ task: string; done: number; total: number }> = [];
    t.node.producer.onProgress = (progress) => reports.push(progress);
    t.node.producer.progressEveryMs = 0; // report at every turn (every 200 blocks at most)
    assert.deepEqual(await rpc(t.url, 'sandbox_fast_forward', { delta_height: 4000 }), {});
    assert.ok(reports.length >= 2, JSON.stringify(reports));
    assert.ok(reports.every((r) => r.task === 'fast-forward' && r.total === 4000));
    const done = reports.map((r) => r.done);
    assert.deepEqual(
      done,
      [...done].sort((a, b) => a - b),
      'never backwards',
    );
    assert.ok(done[0] > 0 && done[0] < 4000);
    assert.equal(done.at(-1), 4000);
  });
});
