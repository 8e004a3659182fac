/**
 * Every method the node serves, called through `@near-js/jsonrpc-client` with its zod response validation on
 * (the default export validates both the request and the response), after real activity: account creation,
 * transfers, key additions and deletions, a deployed contract, a failing function call, a meta transaction.
 *
 * The client converts result keys to camelCase before validating, so a wrong key name fails as surely as a
 * wrong type. Where the client's schema and nearcore disagree, nearcore wins; such cases are noted inline.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  block,
  blockEffects,
  broadcastTxAsync,
  broadcastTxCommit,
  changes,
  chunk,
  experimentalChanges,
  experimentalChangesInBlock,
  experimentalGenesisConfig,
  experimentalLightClientBlockProof,
  experimentalLightClientProof,
  experimentalProtocolConfig,
  experimentalReceipt,
  experimentalTxStatus,
  gasPrice,
  genesisConfig,
  health,
  lightClientProof,
  NearRpcClient,
  networkInfo,
  nextLightClientBlock,
  query,
  sendTx,
  status,
  tx,
  validators,
  viewAccessKey,
  viewAccount,
} from '@near-js/jsonrpc-client';
import {
  base58Encode,
  base64Encode,
  functionCallAccessKey,
  type KeyPair,
  ONE_NEAR as NEAR,
  signDelegateAction,
  TGAS,
  type Transaction,
  transactionHash,
} from '@shadebox/primitives';
import { METHODS } from '../packages/node/src/rpc/methods/index.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { buildTx, createAccount, sendTx as sendRawTx } from './support/transactions.js';
import { testRandom } from './test-random.js';

const rng = testRandom('test/rpc-client-validation.test.ts');

/** The smallest valid Wasm module: magic and version. */
const EMPTY_WASM = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

describe('@near-js/jsonrpc-client with response validation', { timeout: 120_000 }, () => {
  let t: TestNode;
  let client: NearRpcClient;
  let alice: { accountId: string; key: KeyPair };
  let bob: { accountId: string; key: KeyPair };
  let fcKey: KeyPair;
  /** Transactions of the activity, by what they did. */
  const txs: Record<string, { hash: string; signerId: string }> = {};

  before(async () => {
    t = await startTestNode();
    client = new NearRpcClient({ endpoint: t.url, retries: 0, timeout: 20_000 });
    const root = t.rootSigner;

    const a = await createAccount(t.url, root, 'alice.test.near', 100n * NEAR);
    alice = a;
    txs.createAccount = {
      hash: (a.result as { transaction: { hash: string } }).transaction.hash,
      signerId: root.accountId,
    };
    bob = await createAccount(t.url, root, 'bob.test.near', 10n * NEAR);

    const transfer = await sendRawTx(t.url, {
      signerId: root.accountId,
      key: root.key,
      receiverId: alice.accountId,
      actions: [{ type: 'Transfer', deposit: 5n * NEAR }],
    });
    txs.transfer = { hash: transfer.transaction.hash, signerId: root.accountId };

    // Key changes: a function-call key with an allowance, and a second full-access key deleted again.
    fcKey = rng.keyPair();
    const extra = rng.keyPair();
    const addKeys = await sendRawTx(t.url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [
        {
          type: 'AddKey',
          publicKey: fcKey.publicKey,
          accessKey: functionCallAccessKey('bob.test.near', ['hello', 'world'], NEAR),
        },
        {
          type: 'AddKey',
          publicKey: extra.publicKey,
          accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
        },
      ],
    });
    txs.addKeys = { hash: addKeys.transaction.hash, signerId: alice.accountId };
    const deleteKey = await sendRawTx(t.url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [{ type: 'DeleteKey', publicKey: extra.publicKey }],
    });
    txs.deleteKey = { hash: deleteKey.transaction.hash, signerId: alice.accountId };

    // A contract, and a call to it (fails: this build executes no Wasm, and the empty module exports nothing).
    const deploy = await sendRawTx(t.url, {
      signerId: bob.accountId,
      key: bob.key,
      receiverId: bob.accountId,
      actions: [{ type: 'DeployContract', code: EMPTY_WASM }],
    });
    txs.deploy = { hash: deploy.transaction.hash, signerId: bob.accountId };
    const fnCall = await sendRawTx(t.url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: bob.accountId,
      actions: [
        {
          type: 'FunctionCall',
          methodName: 'hello',
          args: new TextEncoder().encode('{}'),
          gas: 30n * TGAS,
          deposit: 1n,
        },
      ],
    });
    txs.functionCall = { hash: fnCall.transaction.hash, signerId: alice.accountId };

    // A meta transaction: alice signs a delegate action, bob relays it.
    const head = await rpc(t.url, 'block', { finality: 'optimistic' });
    const aliceNonce = BigInt(
      (
        await rpc(t.url, 'query', {
          request_type: 'view_access_key',
          finality: 'optimistic',
          account_id: alice.accountId,
          public_key: alice.key.publicKeyString,
        })
      ).nonce,
    );
    const signedDelegate = signDelegateAction(
      {
        senderId: alice.accountId,
        receiverId: bob.accountId,
        actions: [{ type: 'Transfer', deposit: NEAR }],
        nonce: aliceNonce + 1n,
        maxBlockHeight: BigInt(head.header.height + 100),
        publicKey: alice.key.publicKey,
      },
      alice.key,
    );
    const meta = await sendRawTx(t.url, {
      signerId: bob.accountId,
      key: bob.key,
      receiverId: alice.accountId,
      actions: [{ type: 'Delegate', signedDelegateAction: signedDelegate }],
    });
    txs.meta = { hash: meta.transaction.hash, signerId: bob.accountId };

    // A stake below the minimum (fails with InsufficientStake) and an account deletion.
    const stake = await sendRawTx(t.url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [{ type: 'Stake', stake: NEAR, publicKey: alice.key.publicKey }],
    });
    assert.ok(stake.status.Failure, JSON.stringify(stake.status));
    txs.stake = { hash: stake.transaction.hash, signerId: alice.accountId };
    const carol = await createAccount(t.url, root, 'carol.test.near', NEAR);
    const deleteAccount = await sendRawTx(t.url, {
      signerId: carol.accountId,
      key: carol.key,
      receiverId: carol.accountId,
      actions: [{ type: 'DeleteAccount', beneficiaryId: bob.accountId }],
    });
    txs.deleteAccount = { hash: deleteAccount.transaction.hash, signerId: carol.accountId };
  });

  after(async () => {
    await t?.stop();
  });

  test('every method the node serves is covered here', () => {
    const covered = [
      'status',
      'health',
      'network_info',
      'validators',
      'block',
      'chunk',
      'gas_price',
      'query',
      'send_tx',
      'broadcast_tx_async',
      'broadcast_tx_commit',
      'tx',
      'EXPERIMENTAL_tx_status',
      'EXPERIMENTAL_receipt',
      'EXPERIMENTAL_genesis_config',
      'genesis_config',
      'EXPERIMENTAL_protocol_config',
      'changes',
      'EXPERIMENTAL_changes',
      'EXPERIMENTAL_changes_in_block',
      'block_effects',
      'next_light_client_block',
      'light_client_proof',
      'EXPERIMENTAL_light_client_proof',
      'EXPERIMENTAL_light_client_block_proof',
    ];
    // The `sandbox_*` developer methods are not in @near-js/jsonrpc-client; test/rpc-sandbox.test.ts covers them.
    // Nor is `maintenance_windows` (either name) in the installed client: test/maintenance-windows.test.ts;
    // nor `EXPERIMENTAL_view_gas_key_nonces` (near-kit calls it): test/gas-keys.test.ts.
    const notInClient = new Set([
      'maintenance_windows',
      'EXPERIMENTAL_maintenance_windows',
      'EXPERIMENTAL_view_gas_key_nonces',
      // Not in the installed client (1.7.3) either: test/indexer-block.test.ts.
      'EXPERIMENTAL_indexer_block',
      // nearcore 2.14's names, not in the installed client (1.4.0): rpc/methods/rpc-2-14-surface.test.ts checks
      // them against @near-js/jsonrpc-types 1.7.3's schemas.
      'tx_status',
      'EXPERIMENTAL_view_account',
      'EXPERIMENTAL_view_code',
      'EXPERIMENTAL_view_state',
      'EXPERIMENTAL_view_access_key',
      'EXPERIMENTAL_view_access_key_list',
      'EXPERIMENTAL_call_function',
      'EXPERIMENTAL_receipt_to_tx',
      // 2.14's chunk-execution proof methods, not in the installed client: rpc/methods/light-client.test.ts.
      'EXPERIMENTAL_light_client_chunk_execution_proof',
      'EXPERIMENTAL_light_client_execution_outcome_proof',
      'EXPERIMENTAL_light_client_state_proof',
    ]);
    const served = Object.keys(METHODS).filter((m) => !m.startsWith('sandbox_') && !notInClient.has(m));
    assert.deepEqual(served.sort(), covered.sort());
  });

  test('errors reach the client as nearcore sends them (result.error included)', async () => {
    await assert.rejects(
      viewAccessKey(client, { accountId: alice.accountId, publicKey: rng.keyPair().publicKeyString }),
      (e: Error) => {
        assert.match(e.message, /^RPC Error: access key ed25519:\w+ does not exist while viewing$/);
        return true;
      },
    );
    await assert.rejects(
      block(client, { blockId: 1_000_000 }),
      (e: Error & { code?: number; data?: unknown }) => {
        assert.equal(e.code, -32000);
        assert.equal(e.data, 'DB Not Found Error: BLOCK HEIGHT: 1000000 \n Cause: Unknown');
        return true;
      },
    );
  });

  test('the light-client methods: next block, outcome proofs and block proofs', async () => {
    // The proofs are checked by rpc/methods/light-client.test.ts's verifier; here, the client's schemas.
    const genesis = await block(client, { blockId: 0 });
    const next = await nextLightClientBlock(client, { lastBlockHash: genesis.header.hash });
    assert.ok(next.innerLite.height > 0);
    const head = await block(client, { finality: 'final' });
    const proof = await lightClientProof(client, {
      type: 'transaction',
      transactionHash: txs.transfer.hash,
      senderId: txs.transfer.signerId,
      lightClientHead: head.header.hash,
    });
    assert.ok(proof.blockProof.length > 0);
    const same = await experimentalLightClientProof(client, {
      type: 'transaction',
      transactionHash: txs.transfer.hash,
      senderId: txs.transfer.signerId,
      lightClientHead: head.header.hash,
    });
    assert.deepEqual(same, proof);
    const blockProof = await experimentalLightClientBlockProof(client, {
      blockHash: genesis.header.hash,
      lightClientHead: head.header.hash,
    });
    assert.equal(blockProof.blockHeaderLite.innerLite.height, 0);
  });

  test('status, health, network_info', async () => {
    const s = await status(client);
    assert.equal(s.chainId, 'localnet');
    assert.equal(await health(client), null);
    const n = await networkInfo(client);
    assert.equal(n.numActivePeers, 0);
  });

  test('block by finality, height, hash and sync checkpoint', async () => {
    for (const finality of ['optimistic', 'near-final', 'final'] as const) {
      const b = await block(client, { finality });
      assert.ok(b.header.height > 0);
    }
    const byHeight = await block(client, { blockId: 1 });
    const byHash = await block(client, { blockId: byHeight.header.hash });
    assert.equal(byHash.header.height, 1);
    await block(client, { syncCheckpoint: 'genesis' });
    await block(client, { syncCheckpoint: 'earliest_available' });
  });

  test('chunk by id and by block + shard, for every block with activity', async () => {
    const head = await block(client, { finality: 'optimistic' });
    let withTransactions = 0;
    let withReceipts = 0;
    for (let h = 1; h <= head.header.height; h++) {
      const c = await chunk(client, { blockId: h, shardId: 0 });
      const same = await chunk(client, { chunkId: c.header.chunkHash });
      assert.equal(same.header.chunkHash, c.header.chunkHash);
      if (c.transactions.length > 0) withTransactions++;
      if (c.receipts.length > 0) withReceipts++;
    }
    assert.ok(withTransactions >= 8, `chunks with transactions: ${withTransactions}`);
    assert.ok(withReceipts >= 8, `chunks with receipts: ${withReceipts}`);
  });

  test('gas_price', async () => {
    const latest = await gasPrice(client, { blockId: null });
    assert.equal(latest.gasPrice, '100000000');
    await gasPrice(client, { blockId: 1 });
    await gasPrice(client, {});
  });

  test('validators', async () => {
    const v = await validators(client, 'latest');
    assert.equal(v.currentValidators[0].accountId, 'test.near');
    await validators(client, { blockId: 1 });
    const b = await block(client, { blockId: 1 });
    await validators(client, { epochId: b.header.epochId });
  });

  test('query: every request type, by finality and by block id', async () => {
    const head = await block(client, { finality: 'final' });
    for (const ref of [
      { finality: 'final' as const },
      { blockId: head.header.height },
      { blockId: head.header.hash },
    ]) {
      await query(client, { requestType: 'view_account', accountId: alice.accountId, ...ref });
      await query(client, { requestType: 'view_code', accountId: bob.accountId, ...ref });
      await query(client, {
        requestType: 'view_state',
        accountId: alice.accountId,
        prefixBase64: '',
        ...ref,
      });
      await query(client, {
        requestType: 'view_state',
        accountId: alice.accountId,
        prefixBase64: '',
        includeProof: true,
        ...ref,
      });
      await query(client, {
        requestType: 'view_access_key',
        accountId: alice.accountId,
        publicKey: fcKey.publicKeyString,
        ...ref,
      });
      await query(client, {
        requestType: 'view_access_key',
        accountId: alice.accountId,
        publicKey: alice.key.publicKeyString,
        ...ref,
      });
      const list = (await query(client, {
        requestType: 'view_access_key_list',
        accountId: alice.accountId,
        ...ref,
      })) as { keys: unknown[] };
      assert.equal(list.keys.length, 2);
    }
    const account = await viewAccount(client, { accountId: alice.accountId });
    assert.ok(BigInt(account.amount) > 100n * NEAR);
    await viewAccessKey(client, { accountId: alice.accountId, publicKey: fcKey.publicKeyString });
  });

  test('tx and EXPERIMENTAL_tx_status for every transaction of the activity', async () => {
    for (const [what, { hash, signerId }] of Object.entries(txs)) {
      for (const waitUntil of [
        'NONE',
        'INCLUDED',
        'EXECUTED_OPTIMISTIC',
        'INCLUDED_FINAL',
        'EXECUTED',
        'FINAL',
      ] as const) {
        const r = await tx(client, { txHash: hash, senderAccountId: signerId, waitUntil });
        assert.equal(r.finalExecutionStatus, 'FINAL', what);
        const e = await experimentalTxStatus(client, { txHash: hash, senderAccountId: signerId, waitUntil });
        assert.ok(Array.isArray((e as { receipts?: unknown[] }).receipts), what);
      }
    }
  });

  test('EXPERIMENTAL_receipt for every receipt of the activity', async () => {
    let count = 0;
    for (const { hash, signerId } of Object.values(txs)) {
      const e = await experimentalTxStatus(client, { txHash: hash, senderAccountId: signerId });
      for (const outcome of e.receiptsOutcome) {
        const r = await experimentalReceipt(client, { receiptId: outcome.id });
        assert.equal(r.receiptId, outcome.id);
        count++;
      }
    }
    assert.ok(count >= 10, `receipts: ${count}`);
  });

  test('EXPERIMENTAL_genesis_config, genesis_config, EXPERIMENTAL_protocol_config', async () => {
    const g = await experimentalGenesisConfig(client);
    assert.equal(g.chainId, 'localnet');
    await genesisConfig(client);
    for (const finality of ['optimistic', 'final'] as const)
      await experimentalProtocolConfig(client, { finality });
    await experimentalProtocolConfig(client, { blockId: 1 });
    await experimentalProtocolConfig(client, { syncCheckpoint: 'genesis' });
  });

  test('changes, EXPERIMENTAL_changes, EXPERIMENTAL_changes_in_block, block_effects (test/rpc-changes.test.ts)', async () => {
    const accountIds = [alice.accountId, bob.accountId, 'carol.test.near'];
    const head = await block(client, { finality: 'final' });
    let seen = 0;
    for (let h = 1; h <= head.header.height; h++) {
      for (const changesType of [
        'account_changes',
        'all_access_key_changes',
        'contract_code_changes',
      ] as const) {
        const r = await changes(client, { blockId: h, changesType, accountIds });
        seen += r.changes.length;
      }
      await experimentalChanges(client, {
        blockId: h,
        changesType: 'data_changes',
        accountIds,
        keyPrefixBase64: '',
      });
      await changes(client, {
        blockId: h,
        changesType: 'single_access_key_changes',
        keys: [{ accountId: alice.accountId, publicKey: fcKey.publicKeyString }],
      });
      const effects = await blockEffects(client, { blockId: h });
      assert.deepEqual(await experimentalChangesInBlock(client, { blockId: h }), effects);
    }
    assert.ok(seen >= 20, `changes seen: ${seen}`);
    await changes(client, { finality: 'final', changesType: 'account_changes', accountIds });
    await blockEffects(client, { finality: 'optimistic' });
    await experimentalChangesInBlock(client, { syncCheckpoint: 'genesis' });
  });

  test('send_tx at every wait_until level, broadcast_tx_async, broadcast_tx_commit', async () => {
    for (const waitUntil of ['EXECUTED_OPTIMISTIC', 'EXECUTED', 'FINAL'] as const) {
      const built = await buildTx(t.url, {
        signerId: bob.accountId,
        key: bob.key,
        receiverId: alice.accountId,
        actions: [{ type: 'Transfer', deposit: 1n }],
      });
      const r = await sendTx(client, { signedTxBase64: built.base64, waitUntil });
      assert.equal(r.finalExecutionStatus, waitUntil);
      await tx(client, { txHash: hashOf(built), senderAccountId: bob.accountId, waitUntil: 'FINAL' });
    }
    // Schema vs nearcore: while a transaction's receipts have not all executed, nearcore's view client has no
    // `FinalExecutionOutcome` (`get_final_transaction_result` fails), so `INCLUDED`/`INCLUDED_FINAL` (and `NONE`)
    // answer only `{"final_execution_status":"…"}`. The client's schema requires the outcome fields and rejects
    // nearcore's own answer. nearcore wins: these levels are checked raw, then the outcome through the client.
    for (const waitUntil of ['INCLUDED', 'INCLUDED_FINAL'] as const) {
      const built = await buildTx(t.url, {
        signerId: bob.accountId,
        key: bob.key,
        receiverId: alice.accountId,
        actions: [{ type: 'Transfer', deposit: 1n }],
      });
      const r = await rpc(t.url, 'send_tx', { signed_tx_base64: built.base64, wait_until: waitUntil });
      if (r.transaction === undefined) assert.deepEqual(Object.keys(r), ['final_execution_status']);
      else
        assert.deepEqual(Object.keys(r), [
          'final_execution_status',
          'receipts_outcome',
          'status',
          'transaction',
          'transaction_outcome',
        ]);
      const reached = ['INCLUDED', 'EXECUTED_OPTIMISTIC', 'INCLUDED_FINAL', 'EXECUTED', 'FINAL'];
      assert.ok(
        reached.indexOf(r.final_execution_status) >= reached.indexOf(waitUntil),
        r.final_execution_status,
      );
      await tx(client, { txHash: hashOf(built), senderAccountId: bob.accountId, waitUntil: 'FINAL' });
    }
    const none = await buildTx(t.url, {
      signerId: bob.accountId,
      key: bob.key,
      receiverId: alice.accountId,
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    await assert.rejects(
      sendTx(client, { signedTxBase64: none.base64, waitUntil: 'NONE' }),
      /Response validation failed/,
    );
    assert.deepEqual(await rpc(t.url, 'send_tx', { signed_tx_base64: none.base64, wait_until: 'NONE' }), {
      final_execution_status: 'NONE',
    });
    await tx(client, { txHash: hashOf(none), senderAccountId: bob.accountId, waitUntil: 'FINAL' });

    const asyncTx = await buildTx(t.url, {
      signerId: bob.accountId,
      key: bob.key,
      receiverId: alice.accountId,
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    const hash = await broadcastTxAsync(client, { signedTxBase64: asyncTx.base64 });
    assert.equal(hash, hashOf(asyncTx));
    await tx(client, { txHash: hash, senderAccountId: bob.accountId, waitUntil: 'FINAL' });
    const commitTx = await buildTx(t.url, {
      signerId: bob.accountId,
      key: bob.key,
      receiverId: alice.accountId,
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    const committed = await broadcastTxCommit(client, { signedTxBase64: commitTx.base64 });
    assert.equal(committed.transaction.hash, hashOf(commitTx));
  });

  test('legacy positional forms: query, block, chunk, gas_price, tx, broadcast_tx_*', async () => {
    const account = await rpc(t.url, 'query', [`account/${alice.accountId}`, '']);
    assert.equal(typeof account.amount, 'string');
    const keys = await rpc(t.url, 'query', [`access_key/${alice.accountId}`, '']);
    assert.equal(keys.keys.length, 2);
    const key = await rpc(t.url, 'query', [`access_key/${alice.accountId}/${alice.key.publicKeyString}`, '']);
    assert.equal(key.permission, 'FullAccess');
    const code = await rpc(t.url, 'query', [`code/${bob.accountId}`, '']);
    assert.equal(code.code_base64, base64Encode(EMPTY_WASM));
    const state = await rpc(t.url, 'query', [`contract/${alice.accountId}`, '']);
    assert.deepEqual(state.values, []);

    const b1 = await rpc(t.url, 'block', [1]);
    assert.equal(b1.header.height, 1);
    const byHash = await rpc(t.url, 'block', [b1.header.hash]);
    assert.equal(byHash.header.hash, b1.header.hash);
    const c = await rpc(t.url, 'chunk', [b1.chunks[0].chunk_hash]);
    assert.equal(c.header.chunk_hash, b1.chunks[0].chunk_hash);
    const c2 = await rpc(t.url, 'chunk', [[1, 0]]);
    assert.equal(c2.header.chunk_hash, b1.chunks[0].chunk_hash);
    const c3 = await rpc(t.url, 'chunk', [[b1.header.hash, 0]]);
    assert.equal(c3.header.chunk_hash, b1.chunks[0].chunk_hash);
    assert.deepEqual(await rpc(t.url, 'gas_price', [null]), { gas_price: '100000000' });
    assert.deepEqual(await rpc(t.url, 'gas_price', [1]), { gas_price: '100000000' });
    assert.deepEqual(await rpc(t.url, 'gas_price', [b1.header.hash]), { gas_price: '100000000' });

    const { hash, signerId } = txs.transfer;
    const legacy = await rpc(t.url, 'tx', [hash, signerId]);
    assert.equal(legacy.transaction.hash, hash);
    const exp = await rpc(t.url, 'EXPERIMENTAL_tx_status', [hash, signerId]);
    assert.ok(Array.isArray(exp.receipts));

    const built = await buildTx(t.url, {
      signerId: bob.accountId,
      key: bob.key,
      receiverId: alice.accountId,
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    const committed = await rpc(t.url, 'broadcast_tx_commit', [built.base64]);
    assert.equal(committed.transaction.hash, hashOf(built));
    // `tx` by the signed transaction itself, legacy and named.
    const bySigned = await rpc(t.url, 'tx', [built.base64]);
    assert.equal(bySigned.transaction.hash, hashOf(built));
    const bySignedNamed = await rpc(t.url, 'tx', { signed_tx_base64: built.base64, wait_until: 'INCLUDED' });
    assert.equal(bySignedNamed.transaction.hash, hashOf(built));
    // send_tx also takes `[base64]` (nearcore's RpcSendTransactionRequest::parse accepts a singleton).
    const next = await buildTx(t.url, {
      signerId: bob.accountId,
      key: bob.key,
      receiverId: alice.accountId,
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    const sent = await rpc(t.url, 'send_tx', [next.base64]);
    assert.equal(sent.transaction.hash, hashOf(next));
    assert.equal(sent.final_execution_status, 'EXECUTED_OPTIMISTIC');
  });
});

function hashOf(built: { transaction: Transaction }): string {
  return base58Encode(transactionHash(built.transaction));
}
