/**
 * End to end: ML-DSA-65 (NEP-645, key type 2) through a real node — an account with an ML-DSA-65 key, views of
 * it (the full key in `view_access_key`, its `ml-dsa-65-hash:` handle in `view_access_key_list`), transactions
 * and meta transactions (Delegate and DelegateV2) signed with it, the verification gas (`ml_dsa_65_verification_cost`) burnt at
 * conversion, a bad signature refused, and DeleteKey.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  base58Encode,
  KeyPair,
  mlDsa65PublicKeyHash,
  ONE_NEAR as NEAR,
  signDelegateAction,
  signDelegateActionV2,
} from '@shadebox/primitives';
import { rpcRaw } from './support/raw-rpc.js';
import { block, rpc, viewAccessKey, viewAccount } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { buildTx, createAccount, sendTx } from './support/transactions.js';

const PQ = 'pq.test.near';
const ED = 'ed.test.near';

describe('ML-DSA-65 keys and signatures (NEP-645) through a real node', () => {
  let t: TestNode;
  const pqKey = KeyPair.fromMlDsa65Seed(new Uint8Array(32).fill(42));
  const handle = `ml-dsa-65-hash:${base58Encode(mlDsa65PublicKeyHash(pqKey.publicKey.data))}`;
  let ed: { accountId: string; key: KeyPair };

  before(async () => {
    t = await startTestNode();
    ed = await createAccount(t.url, t.rootSigner, ED, 10n * NEAR);
  });
  after(async () => {
    await t?.stop();
  });

  it('creates an account whose key is ML-DSA-65 and stores it as its 33-byte handle', async () => {
    const result = await sendTx(t.url, {
      signerId: t.rootId,
      key: t.rootSigner.key,
      receiverId: PQ,
      actions: [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 10n * NEAR },
        {
          type: 'AddKey',
          publicKey: pqKey.publicKey,
          accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
        },
      ],
    });
    assert.deepEqual(result.status, { SuccessValue: '' });
    const storage = t.cfg.storageUsage;
    const account = await viewAccount(t.url, PQ);
    // Key: 1 + 32 bytes of digest (not 1 + 1952); access key: nonce 8 + permission tag 1.
    assert.equal(
      BigInt(account?.storageUsage ?? 0),
      storage.numBytesAccount + 33n + 9n + storage.numExtraBytesRecord,
    );
  });

  it('answers view_access_key for the full key and lists the key by its ml-dsa-65-hash: handle', async () => {
    const view = await viewAccessKey(t.url, PQ, pqKey.publicKeyString);
    assert.ok(view, 'the key exists');
    assert.equal(view.permission, 'FullAccess');
    assert.ok(view.nonce > 0, 'a new key starts at height * 1e6');
    const list = await rpc(t.url, 'query', {
      request_type: 'view_access_key_list',
      account_id: PQ,
      finality: 'final',
    });
    assert.deepEqual(
      list.keys.map((k: { public_key: string }) => k.public_key),
      [handle],
    );
  });

  it('accepts a transaction signed with the ML-DSA-65 key and burns 100 Ggas more at conversion', async () => {
    const price = t.cfg.mlDsa65VerificationCost;
    assert.equal(price, 100_000_000_000n);
    const pq = await sendTx(t.url, {
      signerId: PQ,
      key: pqKey,
      receiverId: t.rootId,
      actions: [{ type: 'Transfer', deposit: NEAR }],
    });
    const classical = await sendTx(t.url, {
      signerId: ED,
      key: ed.key,
      receiverId: t.rootId,
      actions: [{ type: 'Transfer', deposit: NEAR }],
    });
    assert.deepEqual(pq.status, { SuccessValue: '' });
    assert.equal(pq.transaction.public_key, pqKey.publicKeyString);
    assert.ok(pq.transaction.signature.startsWith('ml-dsa-65:'));
    const pqBurnt = BigInt(pq.transaction_outcome.outcome.gas_burnt);
    const edBurnt = BigInt(classical.transaction_outcome.outcome.gas_burnt);
    assert.equal(pqBurnt, edBurnt + price);
    // The receipt gets the same gas either way: only conversion pays for the verification.
    assert.equal(
      BigInt(pq.receipts_outcome[0].outcome.gas_burnt),
      BigInt(classical.receipts_outcome[0].outcome.gas_burnt),
    );
    const view = await viewAccessKey(t.url, PQ, pqKey.publicKeyString, { finality: 'optimistic' });
    assert.equal(BigInt(view.nonce), BigInt(pq.transaction.nonce));
  });

  it('refuses a transaction whose ML-DSA-65 signature does not verify', async () => {
    const tx = await buildTx(t.url, {
      signerId: PQ,
      key: pqKey,
      receiverId: t.rootId,
      actions: [{ type: 'Transfer', deposit: 1n }],
      signWith: KeyPair.fromMlDsa65Seed(new Uint8Array(32).fill(1)),
    });
    const { error } = await rpcRaw(t.url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: 'FINAL' });
    assert.deepEqual(error.data, { TxExecutionError: { InvalidTxError: 'InvalidSignature' } });
  });

  it('relays a meta transaction signed with the ML-DSA-65 key, charging its verification to the relayer', async () => {
    const head = await block(t.url, { finality: 'optimistic' });
    const key = await viewAccessKey(t.url, PQ, pqKey.publicKeyString, { finality: 'optimistic' });
    const signedDelegateAction = signDelegateAction(
      {
        senderId: PQ,
        receiverId: ED,
        actions: [{ type: 'Transfer', deposit: NEAR }],
        nonce: BigInt(key.nonce) + 1n,
        maxBlockHeight: BigInt(head.header.height + 100),
        publicKey: pqKey.publicKey,
      },
      pqKey,
    );
    assert.equal(signedDelegateAction.signature.data.length, 3309);
    const relayed = await sendTx(t.url, {
      signerId: ED,
      key: ed.key,
      receiverId: PQ,
      actions: [{ type: 'Delegate', signedDelegateAction }],
    });
    assert.deepEqual(relayed.status, { SuccessValue: '' });
    const fees = t.cfg.fees;
    const sendNotSir = fees.new_action_receipt.sendNotSir + fees.delegate.sendNotSir;
    const innerSend = fees.transfer.sendNotSir;
    assert.equal(
      BigInt(relayed.transaction_outcome.outcome.gas_burnt),
      sendNotSir + innerSend + t.cfg.mlDsa65VerificationCost,
    );
    // The Delegate receipt on the sender, then the inner Transfer on its receiver (and the refunds).
    const [delegated, inner] = relayed.receipts_outcome;
    assert.equal(delegated.outcome.executor_id, PQ);
    assert.equal(inner.outcome.executor_id, ED);
    assert.deepEqual(inner.outcome.status, { SuccessValue: '' });
    const used = await viewAccessKey(t.url, PQ, pqKey.publicKeyString, { finality: 'final' });
    assert.equal(BigInt(used.nonce), BigInt(key.nonce) + 1n, 'the delegate nonce is used');
  });

  it('relays a DelegateV2 signed with the ML-DSA-65 key; a gas-key nonce on a plain key fails', async () => {
    const head = await block(t.url, { finality: 'optimistic' });
    const key = await viewAccessKey(t.url, PQ, pqKey.publicKeyString, { finality: 'optimistic' });
    const fields = {
      senderId: PQ,
      receiverId: ED,
      actions: [{ type: 'Transfer' as const, deposit: NEAR }],
      maxBlockHeight: BigInt(head.header.height + 100),
      publicKey: pqKey.publicKey,
    };
    const signed = signDelegateActionV2(
      { ...fields, nonce: { kind: 'Nonce', nonce: BigInt(key.nonce) + 1n } },
      pqKey,
    );
    const relayed = await sendTx(t.url, {
      signerId: ED,
      key: ed.key,
      receiverId: PQ,
      actions: [{ type: 'DelegateV2', signedDelegateAction: signed }],
    });
    assert.deepEqual(relayed.status, { SuccessValue: '' });
    const [view] = relayed.transaction.actions;
    assert.deepEqual(Object.keys(view), ['DelegateV2']);
    assert.deepEqual(view.DelegateV2.delegate_action.V2.nonce, { Nonce: { nonce: Number(key.nonce) + 1 } });
    const fees = t.cfg.fees;
    assert.equal(
      BigInt(relayed.transaction_outcome.outcome.gas_burnt),
      fees.new_action_receipt.sendNotSir +
        fees.delegate.sendNotSir +
        fees.transfer.sendNotSir +
        t.cfg.mlDsa65VerificationCost,
    );
    const [, inner] = relayed.receipts_outcome;
    assert.equal(inner.outcome.executor_id, ED);
    assert.deepEqual(inner.outcome.status, { SuccessValue: '' });
    const used = await viewAccessKey(t.url, PQ, pqKey.publicKeyString, { finality: 'final' });
    assert.equal(BigInt(used.nonce), BigInt(key.nonce) + 1n);

    const gasNonce = signDelegateActionV2(
      { ...fields, nonce: { kind: 'GasKeyNonce', nonce: BigInt(used.nonce) + 1n, nonceIndex: 0 } },
      pqKey,
    );
    const failed = await sendTx(t.url, {
      signerId: ED,
      key: ed.key,
      receiverId: PQ,
      actions: [{ type: 'DelegateV2', signedDelegateAction: gasNonce }],
    });
    assert.deepEqual(failed.status, {
      Failure: {
        ActionError: {
          index: 0,
          kind: { DelegateActionAccessKeyError: 'DelegateActionRequiresGasKey' },
        },
      },
    });
  });

  it('deletes the ML-DSA-65 key by its full public key', async () => {
    const result = await sendTx(t.url, {
      signerId: PQ,
      key: pqKey,
      receiverId: PQ,
      actions: [{ type: 'DeleteKey', publicKey: pqKey.publicKey }],
    });
    assert.deepEqual(result.status, { SuccessValue: '' });
    assert.equal(await viewAccessKey(t.url, PQ, pqKey.publicKeyString), undefined);
    const account = await viewAccount(t.url, PQ);
    assert.equal(BigInt(account?.storageUsage ?? 0), t.cfg.storageUsage.numBytesAccount);
  });
});
