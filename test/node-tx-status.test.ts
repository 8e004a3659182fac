/**
 * End to end: every `wait_until` level of `send_tx`, `tx` and `EXPERIMENTAL_tx_status`, in automine and, block
 * by block, in manual production, where each intermediate level can be observed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR } from '@shadebox/primitives';
import { type Account, type Action, actions, baseDecode, baseEncode } from 'near-api-js';
import { checkConservation } from './support/conservation.js';
import type { Json } from './support/raw-rpc.js';
import { receiptIdBytes, receiptOutcome, refundDeposit } from './support/receipts.js';
import { applyGasPrice, balanceOf, blockHeight, rpc } from './support/rpc-calls.js';
import { checkSingleReceiptTx } from './support/single-receipt-tx.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { settledSoon } from './support/timing.js';
import { base64Of, type TxRef, txHashOf, txStatus } from './support/transactions.js';

const LEVELS = ['NONE', 'INCLUDED', 'EXECUTED_OPTIMISTIC', 'INCLUDED_FINAL', 'EXECUTED', 'FINAL'] as const;
type Level = (typeof LEVELS)[number];

/** Which reached levels satisfy a wait for each level (nearcore's TxExecutionStatus ordering). */
const SATISFIES: Record<Level, Level[]> = {
  NONE: [...LEVELS],
  INCLUDED: ['INCLUDED', 'EXECUTED_OPTIMISTIC', 'INCLUDED_FINAL', 'EXECUTED', 'FINAL'],
  EXECUTED_OPTIMISTIC: ['EXECUTED_OPTIMISTIC', 'EXECUTED', 'FINAL'],
  INCLUDED_FINAL: ['INCLUDED_FINAL', 'EXECUTED', 'FINAL'],
  EXECUTED: ['EXECUTED', 'FINAL'],
  FINAL: ['FINAL'],
};

const OUTCOME_FIELDS = ['status', 'transaction', 'transaction_outcome', 'receipts_outcome'];

function assertShape(result: Json, withReceipts: boolean) {
  const keys = Object.keys(result).sort();
  const expected = [
    ...OUTCOME_FIELDS,
    'final_execution_status',
    ...(withReceipts ? ['receipts'] : []),
  ].sort();
  assert.deepEqual(keys, expected, 'result fields');
}

/** `tx` and `EXPERIMENTAL_tx_status` at once, without waiting: the same level and outcomes. */
async function bothNow(t: TestNode, ref: TxRef): Promise<Json> {
  const params = { tx_hash: ref.hash, sender_account_id: ref.signer, wait_until: 'NONE' };
  const [plain, experimental] = await Promise.all([
    rpc(t.url, 'tx', params),
    rpc(t.url, 'EXPERIMENTAL_tx_status', params),
  ]);
  assertShape(plain, false);
  assertShape(experimental, true);
  const { receipts, ...rest } = experimental;
  assert.deepEqual(rest, plain, 'tx and EXPERIMENTAL_tx_status agree');
  assert.deepEqual(
    receipts.map((r: Json) => r.receipt_id),
    experimental.receipts_outcome
      .map((o: Json) => o.id)
      .filter(
        (id: string) =>
          !(
            plain.transaction.signer_id === plain.transaction.receiver_id &&
            id === plain.transaction_outcome.outcome.receipt_ids[0]
          ),
      ),
    'receipts: one per receipt outcome, except a local transaction receipt',
  );
  return experimental;
}

describe('wait_until levels in automine', () => {
  let t: TestNode;
  const txs: TxRef[] = [];
  let alice: Account;

  before(async () => {
    t = await startTestNode();
    const key = newKey();
    const r = await t.root.createSubAccount({
      accountOrPrefix: 'alice',
      publicKey: key.getPublicKey(),
      nearToTransfer: 10n * NEAR,
    });
    txs.push({ hash: r.transaction.hash, signer: t.rootId });
    alice = t.account('alice.test.near', key);
  });
  after(async () => {
    await t?.stop();
  });

  for (const level of LEVELS) {
    it(`send_tx with wait_until ${level}`, async () => {
      const signed = await t.root.createSignedTransaction({
        receiverId: 'alice.test.near',
        actions: [actions.transfer(1n)],
      });
      const hash = baseEncode(txHashOf(signed));
      const ref = { hash, signer: t.rootId };
      txs.push(ref);
      const result = await rpc(t.url, 'send_tx', { signed_tx_base64: base64Of(signed), wait_until: level });
      if (level === 'NONE') {
        assert.deepEqual(result, { final_execution_status: 'NONE' });
      } else {
        assertShape(result, false);
        assert.ok(
          SATISFIES[level].includes(result.final_execution_status),
          `${result.final_execution_status} satisfies ${level}`,
        );
        assert.equal(result.transaction.hash, hash);
        assert.equal(result.transaction_outcome.id, hash);
        if (SATISFIES.EXECUTED_OPTIMISTIC.includes(result.final_execution_status)) {
          assert.deepEqual(result.status, { SuccessValue: '' });
        }
      }
      // Waiting for FINAL on both methods gives the same, complete answer.
      const params = { tx_hash: hash, sender_account_id: t.rootId, wait_until: 'FINAL' };
      const [plain, experimental] = await Promise.all([
        rpc(t.url, 'tx', params),
        rpc(t.url, 'EXPERIMENTAL_tx_status', params),
      ]);
      assert.equal(plain.final_execution_status, 'FINAL');
      const { receipts, ...rest } = experimental;
      assert.deepEqual(rest, plain);
      assert.equal(receipts.length, plain.receipts_outcome.length);
      assert.equal(receipts[0].receiver_id, 'alice.test.near');
      assert.equal(receipts[1].predecessor_id, 'system');
      await checkSingleReceiptTx(t, experimental);
    });
  }

  it('a local transaction: EXPERIMENTAL_tx_status lists no receipt for its own receipt', async () => {
    const result = await alice.addFullAccessKey(newKey().getPublicKey());
    const ref = { hash: result.transaction.hash, signer: 'alice.test.near' };
    txs.push(ref);
    const status = await txStatus(t.url, ref, 'FINAL');
    const [own] = status.transaction_outcome.outcome.receipt_ids;
    assert.equal(status.receipts_outcome[0].id, own);
    assert.deepEqual(
      status.receipts.map((r: Json) => r.receipt_id),
      status.receipts_outcome.slice(1).map((o: Json) => o.id),
    );
    await bothNow(t, ref);
  });

  // Every level is already reached: each call answers from what is stored. No wall-clock bound is asserted;
  // a call that waited for a level instead would run into the test's timeout.
  it('tx for a hash with wait_until returns at once when the level is reached', {
    timeout: 60_000,
  }, async () => {
    const ref = txs[1];
    for (const level of LEVELS.slice(1)) {
      const r = await rpc(t.url, 'tx', {
        tx_hash: ref.hash,
        sender_account_id: ref.signer,
        wait_until: level,
      });
      assert.equal(r.final_execution_status, 'FINAL');
    }
  });

  it('automine stops once the last block that did work is final', async () => {
    const last = await txStatus(t.url, txs[txs.length - 1], 'FINAL');
    const heights = await Promise.all(
      [last.transaction_outcome, ...last.receipts_outcome].map((o: Json) => blockHeight(t.url, o.block_hash)),
    );
    await new Promise((r) => setTimeout(r, 300));
    const h1 = t.node.chain.head.height;
    assert.equal(h1, Math.max(...heights) + 2, 'two blocks after the last work, then idle');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(t.node.chain.head.height, h1);
  });

  it('conserves tokens', async () => {
    await checkConservation(t, [t.rootId, 'alice.test.near'], txs);
  });
});

describe('wait_until levels block by block (manual production)', () => {
  let t: TestNode;
  const txs: TxRef[] = [];
  const aliceKey = newKey();
  let alice: Account;

  const produce = (n = 1) => t.node.producer.produce(n);
  const head = () => t.node.chain.head.height;

  async function sendNone(account: Account, receiverId: string, txActions: Action[]): Promise<TxRef> {
    const signed = await account.createSignedTransaction({ receiverId, actions: txActions });
    const ref = { hash: baseEncode(txHashOf(signed)), signer: account.accountId };
    const r = await rpc(t.url, 'send_tx', { signed_tx_base64: base64Of(signed), wait_until: 'NONE' });
    assert.deepEqual(r, { final_execution_status: 'NONE' });
    txs.push(ref);
    return ref;
  }

  /** Starts a `tx` call waiting for each level from INCLUDED up. */
  function waiters(ref: TxRef): Map<Level, Promise<Json>> {
    const out = new Map<Level, Promise<Json>>();
    for (const level of LEVELS.slice(1)) {
      const method = level === 'EXECUTED_OPTIMISTIC' ? 'EXPERIMENTAL_tx_status' : 'tx';
      const p = rpc(t.url, method, { tx_hash: ref.hash, sender_account_id: ref.signer, wait_until: level });
      p.catch(() => {});
      out.set(level, p);
    }
    return out;
  }

  /** Asserts which waiters have answered (and with which level) and which still wait. */
  async function expectAnswered(w: Map<Level, Promise<Json>>, answered: Partial<Record<Level, Level>>) {
    // The waits that must have answered get a generous deadline; then the others must still be waiting.
    for (const [level, p] of w) {
      if (!answered[level]) continue;
      const state = await settledSoon(p, 5000);
      assert.ok(state.done, `the ${level} wait should have answered at height ${head()}`);
      assert.equal(state.value.final_execution_status, answered[level], `${level} wait answered with`);
      assertShape(state.value, level === 'EXECUTED_OPTIMISTIC');
    }
    const pending = [...w].filter(([level]) => !answered[level]);
    const states = await Promise.all(
      pending.map(async ([level, p]) => [level, await settledSoon(p, 100)] as const),
    );
    for (const [level, state] of states) {
      assert.ok(!state.done, `the ${level} wait should still wait at height ${head()}`);
    }
  }

  before(async () => {
    t = await startTestNode({ production: { kind: 'manual' } });
    const ref = await sendNone(t.root, 'alice.test.near', [
      actions.createAccount(),
      actions.transfer(20n * NEAR),
      actions.addFullAccessKey(aliceKey.getPublicKey()),
    ]);
    produce(5);
    assert.equal((await txStatus(t.url, ref, 'FINAL')).final_execution_status, 'FINAL');
    alice = t.account('alice.test.near', aliceKey);
  });
  after(async () => {
    await t?.stop();
  });

  it('a transfer goes INCLUDED -> EXECUTED_OPTIMISTIC -> EXECUTED -> FINAL', async () => {
    const r0 = await balanceOf(t.url, t.rootId, { finality: 'optimistic' });
    const a0 = await balanceOf(t.url, 'alice.test.near', { finality: 'optimistic' });
    const h0 = head();
    const ref = await sendNone(t.root, 'alice.test.near', [actions.transfer(NEAR)]);
    const w = waiters(ref);
    await expectAnswered(w, {});
    assert.equal(head(), h0, 'manual mode makes no block by itself');

    produce(); // h: the transaction is included and converted
    const h = head();
    await expectAnswered(w, { INCLUDED: 'INCLUDED' });
    const included = await w.get('INCLUDED')!;
    assert.equal(included.status, 'Started');
    assert.deepEqual(included.receipts_outcome, []);
    assert.equal(await blockHeight(t.url, included.transaction_outcome.block_hash), h);
    const [r1] = included.transaction_outcome.outcome.receipt_ids;
    assert.equal(r1, baseEncode(receiptIdBytes(baseDecode(ref.hash), h, 0)));
    const now1 = await bothNow(t, ref);
    assert.equal(now1.final_execution_status, 'INCLUDED');
    assert.deepEqual(now1.receipts, []);
    // The signer paid everything up front: send fees at the gas price, the receipt's gas at the purchase price.
    const price = await applyGasPrice(t.url, h);
    const purchase = t.fees.purchasePrice(price);
    const txActions = included.transaction.actions;
    const totalCost =
      t.fees.sendGas(txActions, false, 'alice.test.near') * price +
      t.fees.prepaidGas(txActions, 'alice.test.near') * purchase +
      NEAR;
    assert.equal(await balanceOf(t.url, t.rootId, { finality: 'optimistic' }), r0 - totalCost);

    produce(); // h+1: the receipt executes; its refund is pending
    await expectAnswered(w, { INCLUDED: 'INCLUDED', EXECUTED_OPTIMISTIC: 'EXECUTED_OPTIMISTIC' });
    const optimistic = await w.get('EXECUTED_OPTIMISTIC')!;
    assert.deepEqual(optimistic.status, { SuccessValue: '' });
    assert.deepEqual(
      optimistic.receipts_outcome.map((o: Json) => o.id),
      [r1],
    );
    assert.equal(optimistic.receipts.length, 1);
    assert.equal((await bothNow(t, ref)).final_execution_status, 'EXECUTED_OPTIMISTIC');
    assert.equal(await balanceOf(t.url, 'alice.test.near', { finality: 'optimistic' }), a0 + NEAR);
    assert.equal(await balanceOf(t.url, t.rootId, { finality: 'optimistic' }), r0 - totalCost);

    produce(); // h+2: the transaction's block is final, the refund executes
    await expectAnswered(w, {
      INCLUDED: 'INCLUDED',
      EXECUTED_OPTIMISTIC: 'EXECUTED_OPTIMISTIC',
      INCLUDED_FINAL: 'EXECUTED',
      EXECUTED: 'EXECUTED',
    });
    const executed = await bothNow(t, ref);
    assert.equal(executed.final_execution_status, 'EXECUTED');
    assert.equal(executed.receipts_outcome.length, 2);
    const costs = await checkSingleReceiptTx(t, executed);
    assert.equal(costs.totalCost, totalCost);
    assert.equal(await balanceOf(t.url, t.rootId, { finality: 'optimistic' }), r0 - NEAR - costs.fee);

    produce(); // h+3: the refund's block is not final yet
    await expectAnswered(w, {
      INCLUDED: 'INCLUDED',
      EXECUTED_OPTIMISTIC: 'EXECUTED_OPTIMISTIC',
      INCLUDED_FINAL: 'EXECUTED',
      EXECUTED: 'EXECUTED',
    });
    assert.equal((await bothNow(t, ref)).final_execution_status, 'EXECUTED');

    produce(); // h+4: every outcome is in a final block
    await expectAnswered(w, {
      INCLUDED: 'INCLUDED',
      EXECUTED_OPTIMISTIC: 'EXECUTED_OPTIMISTIC',
      INCLUDED_FINAL: 'EXECUTED',
      EXECUTED: 'EXECUTED',
      FINAL: 'FINAL',
    });
    assert.equal(head(), h + 4);
    const final = await bothNow(t, ref);
    assert.equal(final.final_execution_status, 'FINAL');
    assert.equal(await balanceOf(t.url, t.rootId, { finality: 'final' }), r0 - NEAR - costs.fee);
  });

  it('a failing meta transaction goes INCLUDED -> INCLUDED_FINAL -> EXECUTED -> FINAL', async () => {
    const { signedDelegate } = await alice.createSignedMetaTransaction({
      receiverId: 'ghost.test.near',
      actions: [actions.transfer(NEAR)],
    });
    const r0 = await balanceOf(t.url, t.rootId);
    const a0 = await balanceOf(t.url, 'alice.test.near');
    const ref = await sendNone(t.root, 'alice.test.near', [actions.signedDelegate(signedDelegate)]);
    const w = waiters(ref);

    produce(); // h: included
    const h = head();
    await expectAnswered(w, { INCLUDED: 'INCLUDED' });
    produce(); // h+1: the delegate runs on alice; the inner receipt is pending
    await expectAnswered(w, { INCLUDED: 'INCLUDED' });
    assert.equal((await bothNow(t, ref)).final_execution_status, 'INCLUDED');
    produce(); // h+2: the inner transfer fails; its deposit refund (not the last receipt) is pending
    await expectAnswered(w, { INCLUDED: 'INCLUDED', INCLUDED_FINAL: 'INCLUDED_FINAL' });
    const includedFinal = await w.get('INCLUDED_FINAL')!;
    assert.deepEqual(includedFinal.status, { SuccessValue: '' }, 'the delegate receipt succeeded');
    produce(); // h+3: both refunds executed
    await expectAnswered(w, {
      INCLUDED: 'INCLUDED',
      INCLUDED_FINAL: 'INCLUDED_FINAL',
      EXECUTED_OPTIMISTIC: 'EXECUTED',
      EXECUTED: 'EXECUTED',
    });
    produce(); // h+4
    await expectAnswered(w, {
      INCLUDED: 'INCLUDED',
      INCLUDED_FINAL: 'INCLUDED_FINAL',
      EXECUTED_OPTIMISTIC: 'EXECUTED',
      EXECUTED: 'EXECUTED',
    });
    produce(); // h+5: all outcomes final
    await expectAnswered(w, {
      INCLUDED: 'INCLUDED',
      INCLUDED_FINAL: 'INCLUDED_FINAL',
      EXECUTED_OPTIMISTIC: 'EXECUTED',
      EXECUTED: 'EXECUTED',
      FINAL: 'FINAL',
    });
    assert.equal(head(), h + 5);

    const status = await bothNow(t, ref);
    const [r1] = status.transaction_outcome.outcome.receipt_ids;
    const [r2, g1] = receiptOutcome(status, r1).outcome.receipt_ids;
    const inner = receiptOutcome(status, r2);
    assert.deepEqual(inner.outcome.status, {
      Failure: {
        ActionError: { index: 0, kind: { AccountDoesNotExist: { account_id: 'ghost.test.near' } } },
      },
    });
    const [b2, g2] = inner.outcome.receipt_ids;
    // The deposit goes back to the inner receipt's predecessor, the delegate's sender — not the relayer.
    assert.equal(refundDeposit(status, b2), NEAR);
    assert.equal(status.receipts.find((r: Json) => r.receipt_id === b2).receiver_id, 'alice.test.near');
    const price = await applyGasPrice(t.url, h);
    const purchase = t.fees.purchasePrice(price);
    const outer = status.transaction.actions;
    const innerActions = outer[0].Delegate.delegate_action.actions;
    const burnt1 =
      t.cfg.fees.new_action_receipt.execution +
      t.fees.actionExec(outer[0], 'alice.test.near') +
      t.fees.actionsSend(innerActions, false, 'ghost.test.near');
    const burnt2 = t.fees.execGas(innerActions, 'ghost.test.near');
    assert.equal(refundDeposit(status, g1), (purchase - price) * burnt1);
    assert.equal(refundDeposit(status, g2), (purchase - price) * burnt2);
    const fee = (t.fees.sendGas(outer, false, 'alice.test.near') + burnt1 + burnt2) * price;
    assert.equal(await balanceOf(t.url, t.rootId), r0 - NEAR - fee);
    assert.equal(await balanceOf(t.url, 'alice.test.near'), a0 + NEAR);
  });

  it('conserves tokens', async () => {
    produce(3);
    await checkConservation(t, [t.rootId, 'alice.test.near', 'ghost.test.near'], txs);
  });
});
