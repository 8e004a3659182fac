/**
 * `changes` / `EXPERIMENTAL_changes` (typed change queries), the block-level form (`changes` without
 * `changes_type`, `EXPERIMENTAL_changes_in_block`, `block_effects`), their finality forms and errors, each
 * change checked against the transaction or receipt that caused it: account creation, a transfer, key
 * additions and a deletion, a contract deployment, an account deletion and a failed receipt with its refund.
 *
 * Answers are read raw (exact bodies where it matters) and through `@near-js/jsonrpc-client`, whose response
 * validation is on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  blockEffects,
  changes as clientChanges,
  experimentalChanges,
  experimentalChangesInBlock,
  NearRpcClient,
} from '@near-js/jsonrpc-client';
import {
  base58Encode,
  base64Encode,
  encodePublicKey,
  functionCallAccessKey,
  type KeyPair,
  ONE_NEAR as NEAR,
  parsePublicKey,
  sha256,
} from '@shadebox/primitives';
import { postRpc, sortedJson } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { createAccount, sendTx } from './support/transactions.js';
import { testRandom } from './test-random.js';

const rng = testRandom('test/rpc-changes.test.ts');

/** The smallest valid Wasm module: magic and version. */
const EMPTY_WASM = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

// biome-ignore lint/suspicious/noExplicitAny: RPC results are read field by field
type Json = any;

interface Executed {
  txHash: string;
  /** Block that included the transaction (its `transaction_processing` changes). */
  txBlock: string;
  /** The receipts in execution order: id, block, produced receipts and status. */
  receipts: Array<{ id: string; block: string; receiptIds: string[]; status: Json }>;
}

function executed(result: Json): Executed {
  return {
    txHash: result.transaction.hash,
    txBlock: result.transaction_outcome.block_hash,
    receipts: result.receipts_outcome.map((o: Json) => ({
      id: o.id,
      block: o.block_hash,
      receiptIds: o.outcome.receipt_ids,
      status: o.outcome.status,
    })),
  };
}

describe('changes', { timeout: 120_000 }, () => {
  let t: TestNode;
  let client: NearRpcClient;
  let alice: { accountId: string; key: KeyPair };
  let bob: { accountId: string; key: KeyPair };
  let carol: { accountId: string; key: KeyPair };
  const fcKey = rng.keyPair();
  const extraKey = rng.keyPair();
  const ex: Record<string, Executed> = {};

  const typed = (blockId: string | number, request: Record<string, unknown>) =>
    rpc(t.url, 'changes', { block_id: blockId, ...request });
  const viewAccountAt = (blockId: string, accountId: string) =>
    rpc(t.url, 'query', { request_type: 'view_account', block_id: blockId, account_id: accountId });

  before(async () => {
    t = await startTestNode();
    client = new NearRpcClient({ endpoint: t.url, retries: 0, timeout: 20_000 });
    const root = t.rootSigner;

    const a = await createAccount(t.url, root, 'alice.test.near', 100n * NEAR);
    alice = a;
    ex.createAlice = executed(a.result);
    const b = await createAccount(t.url, root, 'bob.test.near', 10n * NEAR);
    bob = b;
    const c = await createAccount(t.url, root, 'carol.test.near', NEAR);
    carol = c;

    ex.transfer = executed(
      await sendTx(t.url, {
        signerId: root.accountId,
        key: root.key,
        receiverId: alice.accountId,
        actions: [{ type: 'Transfer', deposit: 5n * NEAR }],
      }),
    );
    ex.addKeys = executed(
      await sendTx(t.url, {
        signerId: alice.accountId,
        key: alice.key,
        receiverId: alice.accountId,
        actions: [
          {
            type: 'AddKey',
            publicKey: fcKey.publicKey,
            accessKey: functionCallAccessKey('bob.test.near', ['hello'], NEAR),
          },
          {
            type: 'AddKey',
            publicKey: extraKey.publicKey,
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
        ],
      }),
    );
    ex.deleteKey = executed(
      await sendTx(t.url, {
        signerId: alice.accountId,
        key: alice.key,
        receiverId: alice.accountId,
        actions: [{ type: 'DeleteKey', publicKey: extraKey.publicKey }],
      }),
    );
    ex.deploy = executed(
      await sendTx(t.url, {
        signerId: bob.accountId,
        key: bob.key,
        receiverId: bob.accountId,
        actions: [{ type: 'DeployContract', code: EMPTY_WASM }],
      }),
    );
    ex.deleteCarol = executed(
      await sendTx(t.url, {
        signerId: carol.accountId,
        key: carol.key,
        receiverId: carol.accountId,
        actions: [{ type: 'DeleteAccount', beneficiaryId: bob.accountId }],
      }),
    );
    // A transfer to an account that does not exist: the receipt fails, the deposit comes back in a refund.
    ex.failed = executed(
      await sendTx(t.url, {
        signerId: alice.accountId,
        key: alice.key,
        receiverId: 'nobody.test.near',
        actions: [{ type: 'Transfer', deposit: 2n * NEAR }],
      }),
    );
  });

  after(async () => {
    await t?.stop();
  });

  test('account creation: the receipt creates the account and its key; the transaction charges the signer', async () => {
    const { txHash, txBlock, receipts } = ex.createAlice;
    const created = receipts[0];

    const acc = await typed(created.block, {
      changes_type: 'account_changes',
      account_ids: [alice.accountId],
    });
    assert.equal(acc.block_hash, created.block);
    const view = await viewAccountAt(created.block, alice.accountId);
    const { block_hash: _h, block_height: _n, ...accountView } = view;
    assert.deepEqual(acc.changes, [
      {
        cause: { type: 'receipt_processing', receipt_hash: created.id },
        type: 'account_update',
        change: { account_id: alice.accountId, ...accountView },
      },
    ]);
    assert.equal(accountView.amount, (100n * NEAR).toString());

    const keys = await typed(created.block, {
      changes_type: 'all_access_key_changes',
      account_ids: [alice.accountId],
    });
    assert.deepEqual(keys.changes, [
      {
        cause: { type: 'receipt_processing', receipt_hash: created.id },
        type: 'access_key_update',
        change: {
          account_id: alice.accountId,
          public_key: alice.key.publicKeyString,
          access_key: { nonce: keys.changes[0].change.access_key.nonce, permission: 'FullAccess' },
        },
      },
    ]);

    // The signer: balance charged and key nonce bumped by the transaction, with its hash as the cause.
    const signer = await typed(txBlock, {
      changes_type: 'account_changes',
      account_ids: [t.rootId],
    });
    assert.ok(signer.changes.length >= 1);
    assert.deepEqual(signer.changes[0].cause, { type: 'transaction_processing', tx_hash: txHash });
    assert.equal(signer.changes[0].type, 'account_update');
    const signerKey = await typed(txBlock, {
      changes_type: 'single_access_key_changes',
      keys: [{ account_id: t.rootId, public_key: t.rootSigner.key.publicKeyString }],
    });
    assert.equal(signerKey.changes.length, 1);
    assert.deepEqual(signerKey.changes[0].cause, { type: 'transaction_processing', tx_hash: txHash });
    const nonce = await rpc(t.url, 'query', {
      request_type: 'view_access_key',
      block_id: txBlock,
      account_id: t.rootId,
      public_key: t.rootSigner.key.publicKeyString,
    });
    assert.equal(signerKey.changes[0].change.access_key.nonce, nonce.nonce);
  });

  test('a transfer credits the receiver in the receipt block', async () => {
    const r = ex.transfer.receipts[0];
    const before = await viewAccountAt(ex.transfer.txBlock, alice.accountId);
    const acc = await typed(r.block, { changes_type: 'account_changes', account_ids: [alice.accountId] });
    assert.equal(acc.changes.length, 1);
    assert.deepEqual(acc.changes[0].cause, { type: 'receipt_processing', receipt_hash: r.id });
    assert.equal(BigInt(acc.changes[0].change.amount), BigInt(before.amount) + 5n * NEAR);
  });

  test('a key change by a self-transaction: several changes of one key in one block, in order', async () => {
    const { txHash, txBlock, receipts } = ex.addKeys;
    // Signer = receiver: the receipt runs in the block that included the transaction.
    assert.equal(receipts[0].block, txBlock);
    const acc = await typed(txBlock, { changes_type: 'account_changes', account_ids: [alice.accountId] });
    assert.deepEqual(
      acc.changes.map((c: Json) => c.cause),
      [
        { type: 'transaction_processing', tx_hash: txHash },
        { type: 'receipt_processing', receipt_hash: receipts[0].id },
      ],
    );
    assert.ok(acc.changes[1].change.storage_usage > acc.changes[0].change.storage_usage, 'keys cost storage');

    const all = await typed(txBlock, {
      changes_type: 'all_access_key_changes',
      account_ids: [alice.accountId],
    });
    const byKey = (pk: string) => all.changes.filter((c: Json) => c.change.public_key === pk);
    assert.deepEqual(
      byKey(alice.key.publicKeyString).map((c: Json) => c.cause.type),
      ['transaction_processing'],
    );
    assert.deepEqual(byKey(fcKey.publicKeyString), [
      {
        cause: { type: 'receipt_processing', receipt_hash: receipts[0].id },
        type: 'access_key_update',
        change: {
          account_id: alice.accountId,
          public_key: fcKey.publicKeyString,
          access_key: {
            nonce: byKey(fcKey.publicKeyString)[0].change.access_key.nonce,
            permission: {
              FunctionCall: {
                allowance: NEAR.toString(),
                method_names: ['hello'],
                receiver_id: 'bob.test.near',
              },
            },
          },
        },
      },
    ]);
    assert.equal(byKey(extraKey.publicKeyString)[0].change.access_key.permission, 'FullAccess');
    assert.equal(all.changes.length, 3);

    // Within one account, the rows come in key order (the borsh public keys), as nearcore's store iterates.
    const order = all.changes.map((c: Json) => c.change.public_key);
    const expected = [...new Set(order as string[])].sort((x, y) => Buffer.compare(keyBytes(x), keyBytes(y)));
    assert.deepEqual([...new Set(order)], expected);

    const single = await typed(txBlock, {
      changes_type: 'single_access_key_changes',
      keys: [
        { account_id: alice.accountId, public_key: extraKey.publicKeyString },
        { account_id: alice.accountId, public_key: fcKey.publicKeyString },
      ],
    });
    // Request order, not key order.
    assert.deepEqual(
      single.changes.map((c: Json) => c.change.public_key),
      [extraKey.publicKeyString, fcKey.publicKeyString],
    );
  });

  test('a key deletion', async () => {
    const r = ex.deleteKey.receipts[0];
    const single = await typed(r.block, {
      changes_type: 'single_access_key_changes',
      keys: [{ account_id: alice.accountId, public_key: extraKey.publicKeyString }],
    });
    assert.deepEqual(single.changes, [
      {
        cause: { type: 'receipt_processing', receipt_hash: r.id },
        type: 'access_key_deletion',
        change: { account_id: alice.accountId, public_key: extraKey.publicKeyString },
      },
    ]);
  });

  test('a contract deployment: contract_code_update, and the account code_hash', async () => {
    const r = ex.deploy.receipts[0];
    const code = await typed(r.block, {
      changes_type: 'contract_code_changes',
      account_ids: [bob.accountId],
    });
    assert.deepEqual(code.changes, [
      {
        cause: { type: 'receipt_processing', receipt_hash: r.id },
        type: 'contract_code_update',
        change: { account_id: bob.accountId, code_base64: base64Encode(EMPTY_WASM) },
      },
    ]);
    const acc = await typed(r.block, { changes_type: 'account_changes', account_ids: [bob.accountId] });
    assert.equal(acc.changes.at(-1).change.code_hash, base58Encode(sha256(EMPTY_WASM)));
    // No contract code change for an account without one.
    const none = await typed(r.block, {
      changes_type: 'contract_code_changes',
      account_ids: [alice.accountId],
    });
    assert.deepEqual(none.changes, []);
  });

  test('an account deletion: account_deletion and access_key_deletion; the beneficiary is paid later', async () => {
    const [deletion, payout] = ex.deleteCarol.receipts;
    const acc = await typed(deletion.block, {
      changes_type: 'account_changes',
      account_ids: [carol.accountId],
    });
    const cause = { type: 'receipt_processing', receipt_hash: deletion.id };
    assert.deepEqual(acc.changes.at(-1), {
      cause,
      type: 'account_deletion',
      change: { account_id: carol.accountId },
    });
    const keys = await typed(deletion.block, {
      changes_type: 'all_access_key_changes',
      account_ids: [carol.accountId],
    });
    assert.deepEqual(keys.changes.at(-1), {
      cause,
      type: 'access_key_deletion',
      change: { account_id: carol.accountId, public_key: carol.key.publicKeyString },
    });
    assert.ok(payout, 'the balance goes to the beneficiary in a receipt');
    const paid = await typed(payout.block, { changes_type: 'account_changes', account_ids: [bob.accountId] });
    assert.deepEqual(paid.changes.at(-1).cause, { type: 'receipt_processing', receipt_hash: payout.id });
  });

  test('a failed receipt changes nothing of its receiver; its refund credits the signer', async () => {
    const [failed, refund] = ex.failed.receipts;
    assert.ok(failed.status.Failure, JSON.stringify(failed.status));
    const receiver = await typed(failed.block, {
      changes_type: 'account_changes',
      account_ids: ['nobody.test.near'],
    });
    assert.deepEqual(receiver.changes, []);
    const kinds = await rpc(t.url, 'EXPERIMENTAL_changes_in_block', { block_id: failed.block });
    assert.ok(!kinds.changes.some((k: Json) => k.account_id === 'nobody.test.near'));

    // The refunds (deposit, then gas) are the receipts the failed one produced.
    assert.ok(refund, 'a refund receipt');
    assert.ok(failed.receiptIds.includes(refund.id));
    const refunds = ex.failed.receipts.filter((r) => failed.receiptIds.includes(r.id));
    const last = refunds.at(-1)!;
    const credited = await typed(last.block, {
      changes_type: 'account_changes',
      account_ids: [alice.accountId],
    });
    const change = credited.changes.at(-1);
    assert.deepEqual(change.cause, { type: 'receipt_processing', receipt_hash: last.id });
    const before = await viewAccountAt(ex.failed.txBlock, alice.accountId);
    assert.ok(BigInt(change.change.amount) >= BigInt(before.amount) + 2n * NEAR);
  });

  test('requests name several accounts: request order, every change of each', async () => {
    const block = ex.createAlice.receipts[0].block;
    const both = await typed(block, {
      changes_type: 'account_changes',
      account_ids: ['zzz.test.near', alice.accountId, t.rootId, alice.accountId],
    });
    const aliceOnly = await typed(block, { changes_type: 'account_changes', account_ids: [alice.accountId] });
    const rootOnly = await typed(block, {
      changes_type: 'account_changes',
      account_ids: [t.rootId],
    });
    // A duplicate account id repeats its changes, as nearcore's per-account loop does.
    assert.deepEqual(both.changes, [...aliceOnly.changes, ...rootOnly.changes, ...aliceOnly.changes]);
  });

  test('data_changes: no contract data without Wasm execution; the prefix must be base64', async () => {
    const block = ex.deploy.receipts[0].block;
    for (const key_prefix_base64 of ['', 'c3RhdGU=']) {
      const r = await typed(block, {
        changes_type: 'data_changes',
        account_ids: [bob.accountId],
        key_prefix_base64,
      });
      assert.deepEqual(r, { block_hash: block, changes: [] });
    }
    const bad = await postRpc(t.url, 'changes', {
      block_id: block,
      changes_type: 'data_changes',
      account_ids: [bob.accountId],
      key_prefix_base64: '!!',
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.cause.name, 'PARSE_ERROR');
  });

  test('block-level form: changes without changes_type, EXPERIMENTAL_changes_in_block, block_effects', async () => {
    const { txBlock, receipts } = ex.addKeys;
    const expected = {
      block_hash: txBlock,
      changes: [
        // Key order: account (column 0), then access keys (column 2) one per key, by account then key.
        { type: 'account_touched', account_id: alice.accountId },
        ...[alice.key, fcKey, extraKey]
          .map((k) => k.publicKeyString)
          .sort((x, y) => Buffer.compare(keyBytes(x), keyBytes(y)))
          .map(() => ({ type: 'access_key_touched', account_id: alice.accountId })),
      ],
    };
    assert.equal(receipts[0].block, txBlock);
    for (const method of ['changes', 'EXPERIMENTAL_changes_in_block', 'block_effects']) {
      const r = await postRpc(t.url, method, { block_id: txBlock });
      assert.equal(r.status, 200);
      assert.equal(r.text, `{"jsonrpc":"2.0","result":${sortedJson(expected)},"id":"dontcare"}`, method);
    }

    // Every typed change of a block has its touched entry, and nothing else is listed.
    const created = ex.createAlice.receipts[0].block;
    const kinds = await rpc(t.url, 'block_effects', { block_id: created });
    const touched = new Set(kinds.changes.map((k: Json) => `${k.type}:${k.account_id}`));
    const accounts = [...new Set(kinds.changes.map((k: Json) => k.account_id as string))];
    const fromTyped = new Set<string>();
    for (const [changes_type, kind] of [
      ['account_changes', 'account_touched'],
      ['all_access_key_changes', 'access_key_touched'],
      ['contract_code_changes', 'contract_code_touched'],
    ]) {
      const r = await typed(created, { changes_type, account_ids: accounts });
      for (const c of r.changes) fromTyped.add(`${kind}:${c.change.account_id}`);
    }
    assert.deepEqual(fromTyped, touched);
    assert.ok(touched.has(`account_touched:${alice.accountId}`));
    assert.ok(touched.has(`access_key_touched:${alice.accountId}`));
  });

  test('finality and sync_checkpoint forms', async () => {
    for (const finality of ['optimistic', 'near-final', 'final']) {
      const head = await rpc(t.url, 'block', { finality });
      const typedAnswer = await rpc(t.url, 'changes', {
        finality,
        changes_type: 'account_changes',
        account_ids: [alice.accountId],
      });
      assert.equal(typedAnswer.block_hash, head.header.hash, finality);
      const kinds = await rpc(t.url, 'EXPERIMENTAL_changes_in_block', { finality });
      assert.equal(kinds.block_hash, head.header.hash, finality);
      const blockLevel = await rpc(t.url, 'changes', { finality });
      assert.deepEqual(blockLevel, kinds);
    }
    // Genesis records no changes (its state is not applied as a chunk).
    const genesis = await rpc(t.url, 'block', { sync_checkpoint: 'genesis' });
    assert.deepEqual(await rpc(t.url, 'block_effects', { sync_checkpoint: 'genesis' }), {
      block_hash: genesis.header.hash,
      changes: [],
    });
    assert.deepEqual(await rpc(t.url, 'block_effects', { block_id: 0 }), {
      block_hash: genesis.header.hash,
      changes: [],
    });
  });

  test('an exact body: cause, type and change with sorted keys', async () => {
    const r = ex.deleteKey.receipts[0];
    const answer = await postRpc(
      t.url,
      'EXPERIMENTAL_changes',
      {
        block_id: r.block,
        changes_type: 'single_access_key_changes',
        keys: [{ account_id: alice.accountId, public_key: extraKey.publicKeyString }],
      },
      7,
    );
    assert.equal(answer.status, 200);
    assert.match(answer.contentType, /^application\/json/);
    assert.equal(
      answer.text,
      '{"jsonrpc":"2.0","result":{"block_hash":"' +
        r.block +
        '","changes":[{"cause":{"receipt_hash":"' +
        r.id +
        '","type":"receipt_processing"},"change":{"account_id":"alice.test.near","public_key":"' +
        extraKey.publicKeyString +
        '"},"type":"access_key_deletion"}]},"id":7}',
    );
  });

  test('TOO_MANY_INPUTS: more than 1000 accounts or keys, HTTP 200, the cap and the count', async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => `a${i}.test.near`);
    for (const [method, params, count] of [
      ['changes', { finality: 'final', changes_type: 'account_changes', account_ids: ids }, 1001],
      [
        'EXPERIMENTAL_changes',
        {
          finality: 'final',
          changes_type: 'single_access_key_changes',
          keys: Array.from({ length: 1002 }, () => ({
            account_id: alice.accountId,
            public_key: alice.key.publicKeyString,
          })),
        },
        1002,
      ],
    ] as const) {
      const r = await postRpc(t.url, method, params);
      assert.equal(r.status, 200);
      const error = { info: { count, limit: 1000 }, name: 'TOO_MANY_INPUTS' };
      assert.equal(
        r.text,
        `{"jsonrpc":"2.0","error":{"name":"HANDLER_ERROR","cause":${JSON.stringify(error)},"code":-32000,` +
          `"message":"Server error","data":${JSON.stringify(error)}},"id":"dontcare"}`,
      );
    }
    // The cap itself is allowed.
    const ok = await rpc(t.url, 'changes', {
      finality: 'final',
      changes_type: 'all_access_key_changes',
      account_ids: ids.slice(0, 1000),
    });
    assert.deepEqual(ok.changes, []);
  });

  test('UNKNOWN_BLOCK: info {} and the error object as data', async () => {
    const error = '{"info":{},"name":"UNKNOWN_BLOCK"}';
    const body = `{"jsonrpc":"2.0","error":{"name":"HANDLER_ERROR","cause":${error},"code":-32000,"message":"Server error","data":${error}},"id":"dontcare"}`;
    for (const [method, params] of [
      ['changes', { block_id: 1_000_000, changes_type: 'account_changes', account_ids: [alice.accountId] }],
      [
        'EXPERIMENTAL_changes',
        {
          block_id: '11111111111111111111111111111112',
          changes_type: 'contract_code_changes',
          account_ids: [],
        },
      ],
      ['changes', { block_id: 1_000_000 }],
      ['EXPERIMENTAL_changes_in_block', { block_id: 1_000_000 }],
      ['block_effects', { block_id: '11111111111111111111111111111112' }],
    ] as const) {
      const r = await postRpc(t.url, method, params);
      // A height above the head: HTTP 200 (422 is only for a numeric block_id below the head).
      assert.equal(r.status, 200, method);
      assert.equal(r.text, body, method);
    }
  });

  test('malformed params: PARSE_ERROR, HTTP 400', async () => {
    const cases: Array<[string, unknown, string]> = [
      [
        'changes',
        { changes_type: 'account_changes', account_ids: [] },
        'no variant of enum BlockReference found in flattened data',
      ],
      ['EXPERIMENTAL_changes', { finality: 'final' }, 'missing field `changes_type`'],
      ['changes', { finality: 'final', changes_type: 'account_changes' }, 'missing field `account_ids`'],
      [
        'changes',
        { finality: 'final', changes_type: 'data_changes', account_ids: [] },
        'missing field `key_prefix_base64`',
      ],
      [
        'changes',
        { finality: 'final', changes_type: 'nope', account_ids: [] },
        'unknown variant `nope`, expected one of `account_changes`, `single_access_key_changes`, `all_access_key_changes`, `contract_code_changes`, `data_changes`',
      ],
      [
        'changes',
        { finality: 'final', changes_type: 'account_changes', account_ids: ['Bad!'] },
        'invalid value: "Bad!", the Account ID contains an invalid character \'B\' at index 0',
      ],
      [
        'changes',
        { finality: 'final', changes_type: 'account_changes', account_ids: 'alice' },
        'invalid type: string "alice", expected a sequence',
      ],
      ['block_effects', [1], 'invalid type: sequence, expected struct RpcStateChangesInBlockRequest'],
    ];
    for (const [method, params, message] of cases) {
      const r = await postRpc(t.url, method, params);
      assert.equal(r.status, 400, `${method} ${JSON.stringify(params)}`);
      assert.equal(r.json.error.cause.name, 'PARSE_ERROR');
      assert.equal(r.json.error.data, `Failed parsing args: ${message}`);
    }
  });

  test('through @near-js/jsonrpc-client with response validation', async () => {
    const created = ex.createAlice.receipts[0].block;
    const acc = await clientChanges(client, {
      blockId: created,
      changesType: 'account_changes',
      accountIds: [alice.accountId, t.rootId],
    });
    assert.equal(acc.blockHash, created);
    assert.ok(acc.changes.length >= 1);
    const keys = await experimentalChanges(client, {
      blockId: ex.addKeys.txBlock,
      changesType: 'all_access_key_changes',
      accountIds: [alice.accountId],
    });
    assert.equal(keys.changes.length, 3);
    const single = await clientChanges(client, {
      blockId: ex.deleteKey.receipts[0].block,
      changesType: 'single_access_key_changes',
      keys: [{ accountId: alice.accountId, publicKey: extraKey.publicKeyString }],
    });
    assert.equal(single.changes[0].type, 'access_key_deletion');
    const code = await clientChanges(client, {
      blockId: ex.deploy.receipts[0].block,
      changesType: 'contract_code_changes',
      accountIds: [bob.accountId],
    });
    assert.equal(code.changes[0].type, 'contract_code_update');
    const deleted = await clientChanges(client, {
      blockId: ex.deleteCarol.receipts[0].block,
      changesType: 'account_changes',
      accountIds: [carol.accountId],
    });
    assert.equal(deleted.changes.at(-1)?.type, 'account_deletion');
    const data = await clientChanges(client, {
      finality: 'final',
      changesType: 'data_changes',
      accountIds: [bob.accountId],
      keyPrefixBase64: '',
    });
    assert.deepEqual(data.changes, []);
    for (const finality of ['optimistic', 'final'] as const) {
      await clientChanges(client, {
        finality,
        changesType: 'account_changes',
        accountIds: [alice.accountId],
      });
    }
    await clientChanges(client, {
      syncCheckpoint: 'genesis',
      changesType: 'account_changes',
      accountIds: [],
    });

    const inBlock = await experimentalChangesInBlock(client, { blockId: created });
    const effects = await blockEffects(client, { blockId: created });
    assert.deepEqual(inBlock, effects);
    assert.ok(effects.changes.some((c) => c.type === 'account_touched' && c.accountId === alice.accountId));
    await blockEffects(client, { finality: 'final' });
    await experimentalChangesInBlock(client, { syncCheckpoint: 'genesis' });
  });
});

/** The borsh form of a public key (key type, then the key bytes): the order nearcore's store keeps. */
function keyBytes(publicKey: string): Buffer {
  return Buffer.from(encodePublicKey(parsePublicKey(publicKey)));
}
