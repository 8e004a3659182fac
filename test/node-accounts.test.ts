/**
 * End to end: accounts, transfers, keys, deletion, meta transactions and staking through near-api-js against
 * a real node, with every balance checked to the yoctoNEAR against the pinned fee schedule.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import { type Account, actions, baseDecode, baseEncode, keyToImplicitAddress, PublicKey } from 'near-api-js';
import { checkConservation } from './support/conservation.js';
import { type Json, rpcRaw } from './support/raw-rpc.js';
import { receiptIdBytes, receiptOutcome, receiptView, refundDeposit } from './support/receipts.js';
import {
  applyGasPrice,
  balanceOf,
  block,
  blockHeight,
  rpc,
  viewAccessKey,
  viewAccount,
} from './support/rpc-calls.js';
import { checkSingleReceiptTx } from './support/single-receipt-tx.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { base64Of, refOf, type TxRef, txStatus } from './support/transactions.js';

describe('accounts, keys and transfers (near-api-js, automine)', () => {
  let t: TestNode;
  const txs: TxRef[] = [];
  const accounts = new Set<string>();
  const keys = { alice: newKey(), bob: newKey(), carol: newKey(), dave: newKey(), staker: newKey() };
  let alice: Account;
  let bob: Account;

  /** Runs a near-api-js call, records its transaction and returns its FINAL EXPERIMENTAL_tx_status. */
  async function run(call: Promise<Json>): Promise<Json> {
    const result = await call;
    const ref = refOf(result);
    txs.push(ref);
    return txStatus(t.url, ref, 'FINAL');
  }

  /** Sends a signed transaction through `send_tx` and returns the RPC error, which must be there. */
  async function rejected(account: Account, receiverId: string, txActions: Json[]): Promise<Json> {
    const signed = await account.createSignedTransaction({ receiverId, actions: txActions });
    const { result, error } = await rpcRaw(t.url, 'send_tx', {
      signed_tx_base64: base64Of(signed),
      wait_until: 'FINAL',
    });
    assert.equal(result, undefined, 'the transaction should be rejected');
    return error.data.TxExecutionError.InvalidTxError;
  }

  const accessKeyBytes = (pk: number, permission: number) => BigInt(pk + 8 + permission);

  before(async () => {
    t = await startTestNode();
    accounts.add(t.rootId);
  });
  after(async () => {
    await t?.stop();
  });

  it('creates sub-accounts with createSubAccount and createAccount', async () => {
    const before = await balanceOf(t.url, t.rootId);
    const status = await run(
      t.root.createSubAccount({
        accountOrPrefix: 'alice',
        publicKey: keys.alice.getPublicKey(),
        nearToTransfer: 100n * NEAR,
      }),
    );
    const costs = await checkSingleReceiptTx(t, status, { creates: true });
    accounts.add('alice.test.near');
    assert.deepEqual(status.status, { SuccessValue: '' });
    assert.equal(await balanceOf(t.url, t.rootId), before - 100n * NEAR - costs.fee);

    const a = await viewAccount(t.url, 'alice.test.near');
    const storage = t.cfg.storageUsage;
    assert.deepEqual(a, {
      amount: 100n * NEAR,
      locked: 0n,
      storageUsage: Number(storage.numBytesAccount + accessKeyBytes(33, 1) + storage.numExtraBytesRecord),
    });
    const key = await viewAccessKey(t.url, 'alice.test.near', keys.alice.getPublicKey().toString());
    assert.equal(key.nonce, (costs.receiptHeight - 1) * 1_000_000, 'AddKey nonce = (height - 1) * 1e6');
    assert.equal(key.permission, 'FullAccess');
    alice = t.account('alice.test.near', keys.alice);

    // createAccount with a sub-account id goes through createSubAccount.
    const before2 = await balanceOf(t.url, t.rootId);
    const status2 = await run(
      t.root.createAccount({
        newAccountId: 'bob.test.near',
        publicKey: keys.bob.getPublicKey(),
        nearToTransfer: 50n * NEAR,
      }),
    );
    const costs2 = await checkSingleReceiptTx(t, status2, { creates: true });
    accounts.add('bob.test.near');
    assert.equal(await balanceOf(t.url, t.rootId), before2 - 50n * NEAR - costs2.fee);
    assert.equal(await balanceOf(t.url, 'bob.test.near'), 50n * NEAR);
    bob = t.account('bob.test.near', keys.bob);
  });

  it('refuses to create accounts it may not create, refunding the deposit', async () => {
    // A top-level `x.near` goes to the `near` registrar contract, which does not exist here.
    const before = await balanceOf(t.url, t.rootId);
    const result = await t.root.signAndSendTransaction({
      receiverId: 'near',
      actions: [
        actions.functionCall(
          'create_account',
          { new_account_id: 'zed.near', new_public_key: keys.bob.getPublicKey().toString() },
          60n * TGAS,
          NEAR,
        ),
      ],
      throwOnFailure: false,
      waitUntil: 'FINAL',
    });
    txs.push(refOf(result));
    const status = await txStatus(t.url, refOf(result));
    const costs = await checkSingleReceiptTx(t, status, { failsAt: 0 });
    assert.deepEqual(status.status, {
      Failure: { ActionError: { index: 0, kind: { AccountDoesNotExist: { account_id: 'near' } } } },
    });
    assert.equal(costs.depositRefund, NEAR);
    assert.equal(await balanceOf(t.url, t.rootId), before - costs.fee);

    // Only the parent may create a sub-account.
    const before2 = await balanceOf(t.url, 'alice.test.near');
    const status2 = await run(
      alice.signAndSendTransaction({
        receiverId: 'x.bob.test.near',
        actions: [actions.createAccount(), actions.transfer(NEAR)],
        throwOnFailure: false,
      }),
    );
    const costs2 = await checkSingleReceiptTx(t, status2, { failsAt: 0 });
    assert.deepEqual(status2.status.Failure.ActionError.kind, {
      CreateAccountNotAllowed: { account_id: 'x.bob.test.near', predecessor_id: 'alice.test.near' },
    });
    assert.equal(await balanceOf(t.url, 'alice.test.near'), before2 - costs2.fee);
    assert.equal(await viewAccount(t.url, 'x.bob.test.near'), undefined);

    // An existing account cannot be created again; everything the receipt did is rolled back.
    const before3 = await balanceOf(t.url, t.rootId);
    const aliceBefore = await viewAccount(t.url, 'alice.test.near');
    const status3 = await run(
      t.root.signAndSendTransaction({
        receiverId: 'alice.test.near',
        actions: [
          actions.createAccount(),
          actions.transfer(NEAR),
          actions.addFullAccessKey(newKey().getPublicKey()),
        ],
        throwOnFailure: false,
      }),
    );
    const costs3 = await checkSingleReceiptTx(t, status3, { failsAt: 0 });
    assert.deepEqual(status3.status.Failure.ActionError.kind, {
      AccountAlreadyExists: { account_id: 'alice.test.near' },
    });
    assert.equal(await balanceOf(t.url, t.rootId), before3 - costs3.fee);
    assert.deepEqual(await viewAccount(t.url, 'alice.test.near'), aliceBefore);
  });

  it('creates a zero-balance account (NEP-448: small storage needs no balance)', async () => {
    const before = await balanceOf(t.url, t.rootId);
    const status = await run(
      t.root.createSubAccount({
        accountOrPrefix: 'zero',
        publicKey: newKey().getPublicKey(),
        nearToTransfer: 0n,
      }),
    );
    const costs = await checkSingleReceiptTx(t, status, { creates: true });
    accounts.add('zero.test.near');
    assert.equal(await balanceOf(t.url, t.rootId), before - costs.fee);
    const zero = await viewAccount(t.url, 'zero.test.near');
    assert.equal(zero!.amount, 0n);
    assert.ok(zero!.storageUsage > 0);
  });

  it('transfers between named accounts', async () => {
    const [a0, b0] = [await balanceOf(t.url, 'alice.test.near'), await balanceOf(t.url, 'bob.test.near')];
    const status = await run(alice.transfer({ receiverId: 'bob.test.near', amount: 3n * NEAR + 7n }));
    const costs = await checkSingleReceiptTx(t, status);
    assert.equal(await balanceOf(t.url, 'alice.test.near'), a0 - 3n * NEAR - 7n - costs.fee);
    assert.equal(await balanceOf(t.url, 'bob.test.near'), b0 + 3n * NEAR + 7n);
  });

  it('transfers to a NEAR-implicit account, creating it with its full-access key', async () => {
    const key = newKey();
    const implicitId = keyToImplicitAddress(key.getPublicKey());
    assert.match(implicitId, /^[0-9a-f]{64}$/);
    const r0 = await balanceOf(t.url, t.rootId);
    const status = await run(t.root.transfer({ receiverId: implicitId, amount: 2n * NEAR }));
    const costs = await checkSingleReceiptTx(t, status, { creates: true });
    accounts.add(implicitId);
    assert.equal(await balanceOf(t.url, t.rootId), r0 - 2n * NEAR - costs.fee);
    const storage = t.cfg.storageUsage;
    assert.deepEqual(await viewAccount(t.url, implicitId), {
      amount: 2n * NEAR,
      locked: 0n,
      storageUsage: Number(storage.numBytesAccount + accessKeyBytes(33, 1) + storage.numExtraBytesRecord),
    });
    const ak = await viewAccessKey(t.url, implicitId, key.getPublicKey().toString());
    assert.deepEqual(ak.permission, 'FullAccess');
    assert.equal(ak.nonce, (costs.receiptHeight - 1) * 1_000_000);

    // The implicit account's key works.
    const implicit = t.account(implicitId, key);
    const b0 = await balanceOf(t.url, 'bob.test.near');
    const status2 = await run(implicit.transfer({ receiverId: 'bob.test.near', amount: NEAR / 2n }));
    const costs2 = await checkSingleReceiptTx(t, status2);
    assert.equal(await balanceOf(t.url, implicitId), 2n * NEAR - NEAR / 2n - costs2.fee);
    assert.equal(await balanceOf(t.url, 'bob.test.near'), b0 + NEAR / 2n);

    // A second transfer pays the implicit-account fees again (they depend on the id), but no creation charge.
    const r1 = await balanceOf(t.url, t.rootId);
    const i1 = await balanceOf(t.url, implicitId);
    const status3 = await run(t.root.transfer({ receiverId: implicitId, amount: 1n }));
    const costs3 = await checkSingleReceiptTx(t, status3, { creates: false });
    assert.equal(
      costs3.receiptBurnt,
      t.fees.execGas(status3.transaction.actions, implicitId) * costs3.gasPrice,
      'no account_creation_charge for an existing account',
    );
    assert.equal(await balanceOf(t.url, t.rootId), r1 - 1n - costs3.fee);
    assert.equal(await balanceOf(t.url, implicitId), i1 + 1n);

    // ETH-implicit: created by a transfer too, paying account creation (no key: its wallet contract rules).
    const ethId = `0x${'ab'.repeat(20)}`;
    const r2 = await balanceOf(t.url, t.rootId);
    const status4 = await run(t.root.transfer({ receiverId: ethId, amount: NEAR }));
    const costs4 = await checkSingleReceiptTx(t, status4, { creates: true });
    accounts.add(ethId);
    assert.equal(
      costs4.receiptBurnt,
      t.fees.execGas(status4.transaction.actions, ethId) * costs4.gasPrice +
        t.fees.creationCharge(costs4.gasPrice),
    );
    assert.equal(await balanceOf(t.url, t.rootId), r2 - NEAR - costs4.fee);
    assert.equal(await balanceOf(t.url, ethId), NEAR);
  });

  it('transfers to a missing deterministic (NEP-616 0s…) account, creating it bare; CreateAccount cannot', async () => {
    const detId = `0s${'cd'.repeat(20)}`;
    const r0 = await balanceOf(t.url, t.rootId);
    const status = await run(t.root.transfer({ receiverId: detId, amount: NEAR }));
    const costs = await checkSingleReceiptTx(t, status, { creates: true });
    accounts.add(detId);
    // Transfer + create_account, no key (nearcore's transfer_exec_fee for NearDeterministicAccount).
    assert.equal(
      costs.receiptBurnt,
      t.fees.execGas(status.transaction.actions, detId) * costs.gasPrice +
        t.fees.creationCharge(costs.gasPrice),
    );
    assert.equal(await balanceOf(t.url, t.rootId), r0 - NEAR - costs.fee);
    // A bare account: num_bytes_account only, no code, no keys.
    assert.deepEqual(await viewAccount(t.url, detId), { amount: NEAR, locked: 0n, storageUsage: 100 });
    const keys = await rpc(t.url, 'query', {
      request_type: 'view_access_key_list',
      finality: 'final',
      account_id: detId,
    });
    assert.deepEqual(keys.keys, []);

    // A second transfer to the existing account adds to it and pays the same fees (they depend on the id).
    const status2 = await run(t.root.transfer({ receiverId: detId, amount: 5n }));
    await checkSingleReceiptTx(t, status2);
    assert.equal(await balanceOf(t.url, detId), NEAR + 5n);

    // CreateAccount of a deterministic id fails as for every implicit id.
    const other = `0s${'ef'.repeat(20)}`;
    const status3 = await run(
      t.root.signAndSendTransaction({
        receiverId: other,
        actions: [actions.createAccount(), actions.transfer(NEAR)],
        throwOnFailure: false,
      }),
    );
    await checkSingleReceiptTx(t, status3, { failsAt: 0 });
    assert.deepEqual(status3.status.Failure.ActionError.kind, {
      OnlyImplicitAccountCreationAllowed: { account_id: other },
    });
    assert.equal(await viewAccount(t.url, other), undefined);
  });

  it('adds a full-access key and a function-call key, uses the function-call key, deletes a key', async () => {
    const full = newKey();
    const a0 = await viewAccount(t.url, 'alice.test.near');
    const status = await run(alice.addFullAccessKey(full.getPublicKey()));
    const costs = await checkSingleReceiptTx(t, status);
    assert.equal(costs.receiptHeight, costs.txHeight, 'a transaction to oneself runs in its own block');
    const fullKey = await viewAccessKey(t.url, 'alice.test.near', full.getPublicKey().toString());
    assert.deepEqual(fullKey, {
      ...fullKey,
      nonce: (costs.txHeight - 1) * 1_000_000,
      permission: 'FullAccess',
    });
    const a1 = await viewAccount(t.url, 'alice.test.near');
    assert.equal(a1!.amount, a0!.amount - costs.fee);
    assert.equal(a1!.storageUsage, a0!.storageUsage + Number(accessKeyBytes(33, 1) + 40n));

    const fc = newKey();
    const allowance = NEAR / 2n;
    const status2 = await run(
      alice.addFunctionCallAccessKey({
        publicKey: fc.getPublicKey(),
        contractId: 'bob.test.near',
        methodNames: ['hello', 'world'],
        allowance,
      }),
    );
    const costs2 = await checkSingleReceiptTx(t, status2);
    const fcView = await viewAccessKey(t.url, 'alice.test.near', fc.getPublicKey().toString());
    assert.deepEqual(fcView.permission, {
      FunctionCall: {
        allowance: allowance.toString(),
        receiver_id: 'bob.test.near',
        method_names: ['hello', 'world'],
      },
    });
    assert.equal(fcView.nonce, (costs2.txHeight - 1) * 1_000_000);
    // permission: tag + Some(u128) + receiver string + two method names
    const permissionBytes = 1 + 17 + (4 + 13) + 4 + (4 + 5) + (4 + 5);
    const a2 = await viewAccount(t.url, 'alice.test.near');
    assert.equal(a2!.amount, a1!.amount - costs2.fee);
    assert.equal(a2!.storageUsage, a1!.storageUsage + 33 + 8 + permissionBytes + 40);

    // Calling a method through the function-call key: bob has no contract, so the call fails exactly as
    // nearcore fails it; the allowance pays the fees and gets the unused part back with the gas refund.
    const viaKey = t.account('alice.test.near', fc);
    const b0 = await balanceOf(t.url, 'bob.test.near');
    const status3 = await run(
      viaKey.signAndSendTransaction({
        receiverId: 'bob.test.near',
        actions: [actions.functionCall('hello', { x: 1 }, 30n * TGAS, 0n)],
        throwOnFailure: false,
      }),
    );
    const costs3 = await checkSingleReceiptTx(t, status3, { failsAt: 0 });
    assert.deepEqual(status3.status, {
      Failure: {
        ActionError: {
          index: 0,
          kind: {
            FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: 'bob.test.near' } } },
          },
        },
      },
    });
    assert.ok(costs3.totalCost > 30n * TGAS * costs3.purchasePrice, 'the attached gas was bought');
    const fcAfter = await viewAccessKey(t.url, 'alice.test.near', fc.getPublicKey().toString());
    assert.equal(BigInt(fcAfter.permission.FunctionCall.allowance), allowance - costs3.fee);
    assert.equal(fcAfter.nonce, status3.transaction.nonce);
    assert.equal(await balanceOf(t.url, 'alice.test.near'), a2!.amount - costs3.fee);
    assert.equal(await balanceOf(t.url, 'bob.test.near'), b0);

    // What the key may not do.
    assert.deepEqual(
      await rejected(viaKey, 'bob.test.near', [actions.functionCall('other', {}, 10n * TGAS, 0n)]),
      {
        InvalidAccessKeyError: { MethodNameMismatch: { method_name: 'other' } },
      },
    );
    assert.deepEqual(
      await rejected(viaKey, 'bob.test.near', [actions.functionCall('hello', {}, 10n * TGAS, 1n)]),
      {
        InvalidAccessKeyError: 'DepositWithFunctionCall',
      },
    );
    assert.deepEqual(
      await rejected(viaKey, 'alice.test.near', [actions.functionCall('hello', {}, 10n * TGAS, 0n)]),
      {
        InvalidAccessKeyError: {
          ReceiverMismatch: { tx_receiver: 'alice.test.near', ak_receiver: 'bob.test.near' },
        },
      },
    );
    assert.deepEqual(await rejected(viaKey, 'bob.test.near', [actions.transfer(1n)]), {
      InvalidAccessKeyError: 'RequiresFullAccess',
    });
    const tooMuch = await rejected(viaKey, 'bob.test.near', [
      actions.functionCall('hello', {}, 1000n * TGAS, 0n),
    ]);
    assert.equal(
      tooMuch.InvalidAccessKeyError.NotEnoughAllowance.allowance,
      (allowance - costs3.fee).toString(),
    );

    // Delete the full-access key: its storage is released.
    const status4 = await run(alice.deleteKey(full.getPublicKey()));
    const costs4 = await checkSingleReceiptTx(t, status4);
    assert.equal(await viewAccessKey(t.url, 'alice.test.near', full.getPublicKey().toString()), undefined);
    const a4 = await viewAccount(t.url, 'alice.test.near');
    assert.equal(a4!.storageUsage, a2!.storageUsage - Number(accessKeyBytes(33, 1) + 40n));
    assert.equal(a4!.amount, a2!.amount - costs3.fee - costs4.fee);

    // Storage must stay paid for: a key that takes the account past the zero-balance limit (770 bytes) with
    // too little balance fails after its action (index null), and nothing of it stays.
    const small = newKey();
    await run(
      t.root.createSubAccount({
        accountOrPrefix: 'small',
        publicKey: small.getPublicKey(),
        nearToTransfer: 5n * 10n ** 21n,
      }),
    );
    accounts.add('small.test.near');
    const smallAccount = t.account('small.test.near', small);
    const names = ['a', 'b', 'c', 'd'].map((c) => c.repeat(200));
    const s0 = await viewAccount(t.url, 'small.test.near');
    const big = newKey();
    const status6 = await run(
      smallAccount.signAndSendTransaction({
        receiverId: 'small.test.near',
        actions: [actions.addFunctionCallAccessKey(big.getPublicKey(), 'bob.test.near', names, NEAR)],
        throwOnFailure: false,
      }),
    );
    const costs6 = await checkSingleReceiptTx(t, status6, { failsAt: null });
    const keyBytes = 33 + 8 + 1 + 17 + (4 + 13) + 4 + names.reduce((n, m) => n + 4 + m.length, 0);
    const storage = BigInt(s0!.storageUsage + keyBytes + 40);
    assert.deepEqual(status6.status.Failure.ActionError, {
      index: null,
      kind: {
        LackBalanceForState: {
          account_id: 'small.test.near',
          amount: (storage * t.cfg.storageAmountPerByte - (s0!.amount - costs6.totalCost)).toString(),
        },
      },
    });
    assert.equal(await viewAccessKey(t.url, 'small.test.near', big.getPublicKey().toString()), undefined);
    assert.deepEqual(await viewAccount(t.url, 'small.test.near'), {
      ...s0!,
      amount: s0!.amount - costs6.fee,
    });

    // Deleting it again fails in the receipt.
    const status5 = await run(
      alice.signAndSendTransaction({
        receiverId: 'alice.test.near',
        actions: [actions.deleteKey(full.getPublicKey())],
        throwOnFailure: false,
      }),
    );
    await checkSingleReceiptTx(t, status5, { failsAt: 0 });
    assert.deepEqual(status5.status.Failure.ActionError.kind, {
      DeleteKeyDoesNotExist: { account_id: 'alice.test.near', public_key: full.getPublicKey().toString() },
    });
  });

  it('deletes accounts: the balance goes to the beneficiary, or is burnt when it does not exist', async () => {
    await run(
      t.root.createSubAccount({
        accountOrPrefix: 'carol',
        publicKey: keys.carol.getPublicKey(),
        nearToTransfer: 5n * NEAR,
      }),
    );
    await run(
      t.root.createSubAccount({
        accountOrPrefix: 'dave',
        publicKey: keys.dave.getPublicKey(),
        nearToTransfer: 3n * NEAR,
      }),
    );
    accounts.add('carol.test.near');
    accounts.add('dave.test.near');

    const b0 = await balanceOf(t.url, 'bob.test.near');
    const carol = t.account('carol.test.near', keys.carol);
    const status = await run(carol.deleteAccount('bob.test.near'));
    assert.deepEqual(status.status, { SuccessValue: '' });
    const txHeight = await blockHeight(t.url, status.transaction_outcome.block_hash);
    const price = await applyGasPrice(t.url, txHeight);
    const purchase = t.fees.purchasePrice(price);
    const actionsView = status.transaction.actions;
    const send = t.fees.sendGas(actionsView, true, 'carol.test.near');
    const prepaid = t.fees.prepaidGas(actionsView, 'carol.test.near');
    const exec = t.fees.execGas(actionsView, 'carol.test.near');
    const [r1] = status.transaction_outcome.outcome.receipt_ids;
    const deletion = receiptOutcome(status, r1);
    assert.equal(BigInt(deletion.outcome.gas_burnt), exec);
    assert.equal(BigInt(deletion.outcome.tokens_burnt), exec * price);
    // [balance to the beneficiary, gas refund to the (deleted) signer]
    const [toBeneficiary, gasRefund] = deletion.outcome.receipt_ids;
    const left = 5n * NEAR - send * price - prepaid * purchase;
    assert.equal(refundDeposit(status, toBeneficiary), left);
    assert.equal(receiptView(status, toBeneficiary).receiver_id, 'bob.test.near');
    assert.equal(refundDeposit(status, gasRefund), prepaid * purchase - exec * price);
    assert.deepEqual(receiptOutcome(status, toBeneficiary).outcome.status, { SuccessValue: '' });
    assert.deepEqual(receiptOutcome(status, gasRefund).outcome.status, {
      Failure: {
        ActionError: { index: 0, kind: { AccountDoesNotExist: { account_id: 'carol.test.near' } } },
      },
    });
    const height = await blockHeight(t.url, deletion.block_hash);
    assert.deepEqual(
      deletion.outcome.receipt_ids,
      [0, 1].map((i) => baseEncode(receiptIdBytes(baseDecode(r1), height, i))),
    );
    assert.equal(await viewAccount(t.url, 'carol.test.near'), undefined);
    assert.equal(
      await viewAccessKey(t.url, 'carol.test.near', keys.carol.getPublicKey().toString()),
      undefined,
    );
    assert.equal(await balanceOf(t.url, 'bob.test.near'), b0 + left);

    // The beneficiary does not exist: both refunds fail and their amounts are burnt.
    const dave = t.account('dave.test.near', keys.dave);
    const status2 = await run(dave.deleteAccount('nobody.test.near'));
    const [d1] = status2.transaction_outcome.outcome.receipt_ids;
    for (const id of receiptOutcome(status2, d1).outcome.receipt_ids) {
      assert.equal(
        receiptOutcome(status2, id).outcome.status.Failure.ActionError.kind.AccountDoesNotExist !== undefined,
        true,
      );
    }
    assert.equal(await viewAccount(t.url, 'dave.test.near'), undefined);
    assert.equal(await viewAccount(t.url, 'nobody.test.near'), undefined);
  });

  it('relays a meta transaction (NEP-366): the relayer pays, the sender acts', async () => {
    const [r0, a0, b0] = await Promise.all(
      [t.rootId, 'alice.test.near', 'bob.test.near'].map((id) => balanceOf(t.url, id)),
    );
    const { signedDelegate } = await alice.createSignedMetaTransaction({
      receiverId: 'bob.test.near',
      actions: [actions.transfer(2n * NEAR)],
    });
    const status = await run(t.root.relayMetaTransaction(signedDelegate));
    assert.deepEqual(status.status, { SuccessValue: '' });

    const txHeight = await blockHeight(t.url, status.transaction_outcome.block_hash);
    const price = await applyGasPrice(t.url, txHeight);
    const purchase = t.fees.purchasePrice(price);
    const outer = status.transaction.actions;
    const inner = outer[0].Delegate.delegate_action;
    assert.equal(inner.sender_id, 'alice.test.near');
    const send = t.fees.sendGas(outer, false, 'alice.test.near');
    assert.equal(BigInt(status.transaction_outcome.outcome.gas_burnt), send);

    // The delegate receipt on alice: burns its execution and the inner actions' send fees.
    const [r1] = status.transaction_outcome.outcome.receipt_ids;
    const delegateOutcome = receiptOutcome(status, r1);
    const innerSend = t.fees.actionsSend(inner.actions, false, 'bob.test.near');
    const burnt1 =
      t.cfg.fees.new_action_receipt.execution + t.fees.actionExec(outer[0], 'alice.test.near') + innerSend;
    assert.equal(BigInt(delegateOutcome.outcome.gas_burnt), burnt1);
    assert.equal(BigInt(delegateOutcome.outcome.tokens_burnt), burnt1 * price);
    const [r2, g1] = delegateOutcome.outcome.receipt_ids;
    const h1 = await blockHeight(t.url, delegateOutcome.block_hash);
    assert.equal(h1, txHeight + 1);
    assert.equal(r2, baseEncode(receiptIdBytes(baseDecode(r1), h1, 0)));
    // Everything prepaid was used (the inner receipt's gas is handed on): only the price surplus returns.
    assert.equal(refundDeposit(status, g1), (purchase - price) * burnt1);

    // The inner receipt: from alice, paid by the relayer at the purchase price.
    const innerView = receiptView(status, r2);
    assert.equal(innerView.predecessor_id, 'alice.test.near');
    assert.equal(innerView.receiver_id, 'bob.test.near');
    assert.equal(innerView.receipt.Action.signer_id, t.rootId);
    assert.equal(innerView.receipt.Action.gas_price, purchase.toString());
    const innerOutcome = receiptOutcome(status, r2);
    const burnt2 = t.fees.execGas(inner.actions, 'bob.test.near');
    assert.equal(BigInt(innerOutcome.outcome.gas_burnt), burnt2);
    assert.equal(BigInt(innerOutcome.outcome.tokens_burnt), burnt2 * price);
    const [g2] = innerOutcome.outcome.receipt_ids;
    assert.equal(refundDeposit(status, g2), (purchase - price) * burnt2);
    assert.equal(receiptView(status, g2).receiver_id, t.rootId);

    const fee = send * price + burnt1 * price + burnt2 * price;
    assert.equal(await balanceOf(t.url, t.rootId), r0 - 2n * NEAR - fee);
    assert.equal(await balanceOf(t.url, 'alice.test.near'), a0);
    assert.equal(await balanceOf(t.url, 'bob.test.near'), b0 + 2n * NEAR);
    const key = await viewAccessKey(t.url, 'alice.test.near', keys.alice.getPublicKey().toString());
    assert.equal(BigInt(key.nonce), signedDelegate.delegateAction.nonce, 'the delegate nonce is used');

    // The same signed delegate cannot be relayed twice.
    const again = await t.root.signAndSendTransaction({
      receiverId: 'alice.test.near',
      actions: [actions.signedDelegate(signedDelegate)],
      throwOnFailure: false,
      waitUntil: 'FINAL',
    });
    txs.push(refOf(again));
    const againStatus = await txStatus(t.url, refOf(again));
    await checkSingleReceiptTx(t, againStatus, { failsAt: 0 });
    assert.deepEqual(againStatus.status.Failure.ActionError.kind, {
      DelegateActionInvalidNonce: {
        delegate_nonce: Number(signedDelegate.delegateAction.nonce),
        ak_nonce: key.nonce,
      },
    });
  });

  it('stakes: locked goes up, amount down; the protocol refuses invalid stakes', async () => {
    await run(
      t.root.createSubAccount({
        accountOrPrefix: 'staker',
        publicKey: keys.staker.getPublicKey(),
        nearToTransfer: 2000n * NEAR,
      }),
    );
    accounts.add('staker.test.near');
    const staker = t.account('staker.test.near', keys.staker);
    const pk = PublicKey.from(keys.staker.getPublicKey().toString());
    const stake = (amount: bigint) =>
      run(
        staker.signAndSendTransaction({
          receiverId: 'staker.test.near',
          actions: [actions.stake(amount, pk)],
          throwOnFailure: false,
        }),
      );

    // Seat price of the genesis validator set (nearcore's select_validators with minimum_stake_ratio, when
    // fewer proposals than seats) divided by minimum_stake_divisor.
    const genesis = await rpcRaw(t.url, 'EXPERIMENTAL_genesis_config', null);
    const g = genesis.result;
    const total: bigint = g.validators.reduce((s: bigint, v: Json) => s + BigInt(v.amount), 0n);
    const [n, d]: bigint[] = g.minimum_stake_ratio.map(BigInt);
    const seatPrice = (n * total + (d - n) - 1n) / (d - n);
    const minimumStake = seatPrice / BigInt(g.minimum_stake_divisor);

    const s0 = await stake(0n);
    await checkSingleReceiptTx(t, s0, { failsAt: 0 });
    assert.deepEqual(s0.status.Failure.ActionError.kind, {
      TriesToUnstake: { account_id: 'staker.test.near' },
    });

    const s1 = await stake(minimumStake - 1n);
    await checkSingleReceiptTx(t, s1, { failsAt: 0 });
    assert.deepEqual(s1.status.Failure.ActionError.kind, {
      InsufficientStake: {
        account_id: 'staker.test.near',
        stake: (minimumStake - 1n).toString(),
        minimum_stake: minimumStake.toString(),
      },
    });

    const before = await balanceOf(t.url, 'staker.test.near');
    const s2 = await stake(5000n * NEAR);
    const c2 = await checkSingleReceiptTx(t, s2, { failsAt: 0 });
    assert.deepEqual(s2.status.Failure.ActionError.kind, {
      TriesToStake: {
        account_id: 'staker.test.near',
        stake: (5000n * NEAR).toString(),
        locked: '0',
        // the balance when the receipt ran: after the transaction was charged
        balance: (before - c2.totalCost).toString(),
      },
    });

    const b3 = await balanceOf(t.url, 'staker.test.near');
    const s3 = await stake(1000n * NEAR);
    const c3 = await checkSingleReceiptTx(t, s3);
    assert.deepEqual(await viewAccount(t.url, 'staker.test.near'), {
      ...(await viewAccount(t.url, 'staker.test.near'))!,
      amount: b3 - 1000n * NEAR - c3.fee,
      locked: 1000n * NEAR,
    });
    // The proposal goes into the next block's chunk header and block header.
    const next = await block(t.url, { block_id: c3.receiptHeight + 1 });
    const proposal = {
      account_id: 'staker.test.near',
      public_key: pk.toString(),
      stake: (1000n * NEAR).toString(),
      validator_stake_struct_version: 'V1',
    };
    assert.deepEqual(next.header.validator_proposals, [proposal]);
    assert.deepEqual(
      next.chunks.flatMap((c: Json) => c.validator_proposals),
      [proposal],
    );

    // Raising moves only the difference; lowering changes nothing until the epoch ends.
    const s4 = await stake(1500n * NEAR);
    const c4 = await checkSingleReceiptTx(t, s4);
    const s5 = await stake(minimumStake);
    const c5 = await checkSingleReceiptTx(t, s5);
    const after = await viewAccount(t.url, 'staker.test.near');
    assert.equal(after!.locked, 1500n * NEAR);
    assert.equal(after!.amount, b3 - 1500n * NEAR - c3.fee - c4.fee - c5.fee);

    // A staking account cannot be deleted.
    const s6 = await run(
      staker.signAndSendTransaction({
        receiverId: 'staker.test.near',
        actions: [actions.deleteAccount(t.rootId)],
        throwOnFailure: false,
      }),
    );
    await checkSingleReceiptTx(t, s6, { failsAt: 0 });
    assert.deepEqual(s6.status.Failure.ActionError.kind, {
      DeleteAccountStaking: { account_id: 'staker.test.near' },
    });
    assert.equal((await viewAccount(t.url, 'staker.test.near'))!.locked, 1500n * NEAR);
  });

  it('refuses actions on another account and duplicate keys', async () => {
    const s1 = await run(
      t.root.signAndSendTransaction({
        receiverId: 'bob.test.near',
        actions: [actions.deleteAccount(t.rootId)],
        throwOnFailure: false,
      }),
    );
    await checkSingleReceiptTx(t, s1, { failsAt: 0 });
    assert.deepEqual(s1.status.Failure.ActionError.kind, {
      ActorNoPermission: { account_id: 'bob.test.near', actor_id: t.rootId },
    });
    const s2 = await run(
      bob.signAndSendTransaction({
        receiverId: 'bob.test.near',
        actions: [actions.transfer(5n), actions.addFullAccessKey(keys.bob.getPublicKey())],
        throwOnFailure: false,
      }),
    );
    await checkSingleReceiptTx(t, s2, { failsAt: 1 });
    assert.deepEqual(s2.status.Failure.ActionError, {
      index: 1,
      kind: {
        AddKeyAlreadyExists: { account_id: 'bob.test.near', public_key: keys.bob.getPublicKey().toString() },
      },
    });
  });

  it('conserves tokens: balances + burnt == genesis supply, headers and outcomes agree', async () => {
    await checkConservation(t, [...accounts, 'nobody.test.near', 'carol.test.near', 'dave.test.near'], txs);
  });
});
