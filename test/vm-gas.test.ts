/**
 * Gas and balance bookkeeping of contract calls (near-hello 0.5.1 through near-api-js): for every transaction
 * tree, what the signer paid equals what the outcomes burnt plus what came back as gas refunds, in tokens and
 * in gas; failed calls refund their deposits; the contract's 30% reward matches the gas its code burnt; and
 * over the whole mixed run, total supply = Σ balances + locked + burnt since genesis.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import { type Account, actions, KeyPair } from 'near-api-js';
import { checkConservation, contractReward, type OutcomeInfo } from './support/conservation.js';
import type { Json } from './support/raw-rpc.js';
import { receiptView } from './support/receipts.js';
import { applyGasPrice, balanceOf, blockHeight, viewAccessKey } from './support/rpc-calls.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { refOf, type TxRef, txStatus } from './support/transactions.js';
import { testRandom } from './test-random.js';

const rng = testRandom('test/vm-gas.test.ts');

const HELLO = readFileSync(new URL('../node_modules/near-hello/dist/main.wasm', import.meta.url));

describe('gas bookkeeping of contract calls', () => {
  let t: TestNode;
  const txs: TxRef[] = [];
  const accounts: string[] = [];
  let a: Account;
  let b: Account;
  let user: Account;

  async function create(name: string, amount: bigint, code?: Uint8Array): Promise<Account> {
    const key = newKey();
    const r = await t.root.createSubAccount({
      accountOrPrefix: name,
      publicKey: key.getPublicKey(),
      nearToTransfer: amount,
    });
    txs.push(refOf(r));
    const account = t.account(`${name}.${t.rootId}`, key);
    accounts.push(account.accountId);
    if (code) txs.push(refOf(await account.deployContract(code)));
    return account;
  }

  /** Sends a call, records it, and returns its FINAL status (failures included). */
  async function call(
    from: Account,
    contract: string,
    methodName: string,
    args: Json,
    gas: bigint,
    deposit = 0n,
  ) {
    const signed = await from.createSignedTransaction({
      receiverId: contract,
      actions: [actions.functionCall(methodName, Buffer.from(JSON.stringify(args)), gas, deposit)],
    });
    const result = await t.provider.sendTransactionUntil(signed, 'FINAL');
    const ref = refOf(result);
    txs.push(ref);
    return txStatus(t.url, ref, 'FINAL');
  }

  /**
   * The identity of a transaction tree. The signer bought `send` gas at the transaction's block price and
   * `prepaid` gas (execution fees + attached gas) at the purchase price; every receipt then burns at the
   * lower of purchase and block price and refunds the rest. So, in tokens:
   *   send·price + prepaid·purchase = Σ tokens_burnt + Σ gas refunds,
   * and in gas, with each refund converted back at the price it was bought at:
   *   send + prepaid = Σ gas_burnt + Σ refunded gas.
   */
  async function checkTree(
    status: Json,
  ): Promise<{ outcomes: Json[]; gasRefunds: bigint; depositRefunds: bigint }> {
    const tx = status.transaction;
    const txOutcome = status.transaction_outcome.outcome;
    const txHeight = await blockHeight(t.url, status.transaction_outcome.block_hash);
    const price = await applyGasPrice(t.url, txHeight);
    const purchase = t.fees.purchasePrice(price);
    const send = t.fees.sendGas(tx.actions, tx.signer_id === tx.receiver_id, tx.receiver_id);
    const prepaid = t.fees.prepaidGas(tx.actions, tx.receiver_id);
    assert.equal(BigInt(txOutcome.gas_burnt), send, 'the transaction burns its send fees');
    assert.equal(BigInt(txOutcome.tokens_burnt), send * price);

    let tokens = BigInt(txOutcome.tokens_burnt);
    let gas = send;
    let gasRefunds = 0n;
    let depositRefunds = 0n;
    let refundedGas = 0n;
    const byId = new Map<string, Json>(status.receipts_outcome.map((o: Json) => [o.id, o]));
    for (const o of status.receipts_outcome) {
      const view = receiptView(status, o.id);
      assert.ok(view, `receipt ${o.id} is listed`);
      if (view.predecessor_id === 'system') {
        assert.equal(BigInt(o.outcome.gas_burnt), 0n, 'refunds burn nothing');
        const deposit = BigInt(view.receipt.Action.actions[0].Transfer.deposit);
        if (view.receipt.Action.signer_id === 'system') depositRefunds += deposit;
        else gasRefunds += deposit;
        continue;
      }
      const burnt = BigInt(o.outcome.gas_burnt);
      tokens += BigInt(o.outcome.tokens_burnt);
      gas += burnt;
      const height = await blockHeight(t.url, o.block_hash);
      const burnPrice =
        (await applyGasPrice(t.url, height)) < purchase ? await applyGasPrice(t.url, height) : purchase;
      assert.equal(
        BigInt(o.outcome.tokens_burnt),
        burnt * burnPrice,
        `receipt ${o.id}: tokens = gas × price`,
      );
      // The gas refund this receipt sent back, in gas bought at the purchase price.
      for (const child of o.outcome.receipt_ids) {
        const cv = receiptView(status, child);
        if (cv?.predecessor_id !== 'system' || cv.receipt.Action.signer_id === 'system') continue;
        assert.ok(byId.has(child));
        const deposit = BigInt(cv.receipt.Action.actions[0].Transfer.deposit);
        const surplus = (purchase - burnPrice) * burnt;
        assert.equal((deposit - surplus) % purchase, 0n, 'a gas refund is whole gas at the purchase price');
        refundedGas += (deposit - surplus) / purchase;
      }
    }
    assert.equal(send * price + prepaid * purchase, tokens + gasRefunds, 'tokens: paid = burnt + refunded');
    assert.equal(send + prepaid, gas + refundedGas, 'gas: bought = burnt + refunded');
    return { outcomes: status.receipts_outcome, gasRefunds, depositRefunds };
  }

  before(async () => {
    t = await startTestNode();
    accounts.push(t.rootId);
    a = await create('a', 50n * NEAR, HELLO);
    b = await create('b', 50n * NEAR, HELLO);
    user = await create('user', 100n * NEAR);
  });
  after(async () => {
    await t?.stop();
  });

  it('a storage write: refund of unused gas, and the contract reward is 30% of its code gas', async () => {
    const status = await call(user, a.accountId, 'setValue', { value: 'gas test' }, 30n * TGAS);
    assert.deepEqual(status.status, { SuccessValue: Buffer.from('"gas test"').toString('base64') });
    const { outcomes } = await checkTree(status);
    const fc = outcomes[0];
    const view = receiptView(status, fc.id);
    const codeGas = BigInt(fc.outcome.gas_burnt) - t.fees.execGas(view.receipt.Action.actions, a.accountId);
    const height = await blockHeight(t.url, fc.block_hash);
    const info: OutcomeInfo = {
      id: fc.id,
      blockHash: fc.block_hash,
      height,
      gasBurnt: BigInt(fc.outcome.gas_burnt),
      tokensBurnt: BigInt(fc.outcome.tokens_burnt),
      receipt: view,
      isTx: false,
      failed: false,
    };
    const reward = await contractReward(t.url, info);
    assert.equal(reward, ((codeGas * 3n) / 10n) * (await applyGasPrice(t.url, height)));
  });

  it('a failed call keeps its burnt gas and refunds its deposit to the predecessor', async () => {
    const before = await balanceOf(t.url, user.accountId);
    const status = await call(user, a.accountId, 'triggerAssert', {}, 30n * TGAS, 2n * NEAR);
    assert.match(JSON.stringify(status.status), /Smart contract panicked: expected to fail/);
    const { depositRefunds, gasRefunds } = await checkTree(status);
    assert.equal(depositRefunds, 2n * NEAR);
    const txTokens = BigInt(status.transaction_outcome.outcome.tokens_burnt);
    const prepaid = t.fees.prepaidGas(status.transaction.actions, a.accountId);
    const purchase = t.fees.purchasePrice(
      await applyGasPrice(t.url, await blockHeight(t.url, status.transaction_outcome.block_hash)),
    );
    assert.equal(
      await balanceOf(t.url, user.accountId),
      before - txTokens - prepaid * purchase - 2n * NEAR + depositRefunds + gasRefunds,
    );
  });

  it('an attached deposit stays with the contract when the call succeeds', async () => {
    const before = await balanceOf(t.url, a.accountId);
    const status = await call(user, a.accountId, 'hello', { name: 'deposit' }, 30n * TGAS, 5n * NEAR);
    assert.ok('SuccessValue' in status.status);
    const { depositRefunds } = await checkTree(status);
    assert.equal(depositRefunds, 0n);
    const after = await balanceOf(t.url, a.accountId);
    assert.ok(after - before >= 5n * NEAR, 'the deposit (plus the reward) reached the contract');
    assert.ok(after - before < 5n * NEAR + NEAR / 100n);
  });

  it('cross-contract calls with callbacks balance across the whole receipt tree', async () => {
    const promiseArgs = (methodName: string, args: Json) => ({
      args: {
        receiver: b.accountId,
        methodName,
        args,
        gas: String(20n * TGAS),
        balance: '0',
        callback: 'callbackWithName',
        callbackArgs: {},
        callbackBalance: '0',
        callbackGas: String(20n * TGAS),
      },
    });
    for (const [method, args] of [
      ['getValue', {}],
      ['hello', { name: 'x' }],
    ] as const) {
      const status = await call(user, a.accountId, 'callPromise', promiseArgs(method, args), 150n * TGAS);
      assert.ok('SuccessValue' in status.status, JSON.stringify(status.status));
      const { outcomes } = await checkTree(status);
      assert.ok(
        outcomes.some((o: Json) => o.outcome.executor_id === b.accountId),
        'the callee ran',
      );
      assert.ok('SuccessReceiptId' in outcomes[0].outcome.status, 'callPromise returns its callback');
    }
  });

  it('running out of gas burns exactly the attached gas', async () => {
    const status = await call(user, a.accountId, 'benchmark_sum_n', { n: 2_000_000_000 }, 10n * TGAS);
    const [fc] = status.receipts_outcome;
    assert.deepEqual(fc.outcome.status, {
      Failure: {
        ActionError: {
          index: 0,
          kind: { FunctionCallError: { ExecutionError: 'Exceeded the prepaid gas.' } },
        },
      },
    });
    const view = receiptView(status, fc.id);
    assert.equal(
      BigInt(fc.outcome.gas_burnt),
      t.fees.execGas(view.receipt.Action.actions, a.accountId) + 10n * TGAS,
    );
    await checkTree(status);
  });

  it('a function-call access key spends its allowance and gets the unused part back', async () => {
    const key = KeyPair.fromString(rng.keyPair('ed25519').toString() as never);
    const allowance = NEAR / 10n;
    const add = await user.addFunctionCallAccessKey({
      publicKey: key.getPublicKey(),
      contractId: a.accountId,
      methodNames: ['setValue'],
      allowance,
    });
    txs.push(refOf(add));
    const limited = t.account(user.accountId, key);
    const status = await call(limited, a.accountId, 'setValue', { value: 'from a limited key' }, 30n * TGAS);
    assert.ok('SuccessValue' in status.status);
    const { gasRefunds } = await checkTree(status);
    const txTokens = BigInt(status.transaction_outcome.outcome.tokens_burnt);
    const prepaid = t.fees.prepaidGas(status.transaction.actions, a.accountId);
    const purchase = t.fees.purchasePrice(
      await applyGasPrice(t.url, await blockHeight(t.url, status.transaction_outcome.block_hash)),
    );
    const view = await viewAccessKey(t.url, user.accountId, key.getPublicKey().toString());
    assert.ok(view && typeof view.permission === 'object');
    assert.equal(
      BigInt(view.permission.FunctionCall.allowance),
      allowance - txTokens - prepaid * purchase + gasRefunds,
      'allowance = initial − cost + gas refund',
    );
  });

  it('total supply = Σ balances + locked + burnt over the whole run', async () => {
    await checkConservation(t, accounts, txs);
  });
});
