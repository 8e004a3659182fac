/**
 * nearcore's `DepositFailed` verdict for gas-key transactions (runtime/runtime/src/verifier.rs
 * `verify_and_charge_gas_key_tx_ephemeral`, lib.rs transaction processing): the RPC refuses a transaction
 * whose deposits the account cannot pay, but when the account spends its balance between admission and
 * inclusion (here: two gas-key transactions in one chunk), the chunk includes it — the gas key pays what the
 * conversion burns, the nonce advances, the account is left as it is, no receipt is made, and the outcome
 * fails with `InvalidTxError` `NotEnoughBalanceForDeposit`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  ONE_NEAR as NEAR,
  signTransaction,
  transactionHash,
} from '@shadebox/primitives';
import { getGasKeyNonce, setAccessKey, setGasKeyNonce } from '../state/typed-state.js';
import { applyChunk, type PendingTransaction } from './apply-chunk.js';
import { InvalidTxError } from './errors.js';
import { RuntimeHarness } from './test-support/apply-receipt-harness.js';
import { validateTransaction, verifyAndChargeTransaction } from './verify-transaction.js';

const gasKey = KeyPair.fromSecretBytes(0, new Uint8Array(32).fill(21));
const KEY_BALANCE = NEAR;

function setup(): RuntimeHarness {
  const h = new RuntimeHarness();
  h.addAccount('alice.near', 10n * NEAR);
  h.addAccount('bob.near', NEAR);
  setAccessKey(h.state, 'alice.near', gasKey.publicKey, {
    nonce: 0n,
    permission: { kind: 'GasKeyFullAccess', gasKeyInfo: { balance: KEY_BALANCE, numNonces: 2 } },
  });
  setGasKeyNonce(h.state, 'alice.near', gasKey.publicKey, 0, 5n);
  setGasKeyNonce(h.state, 'alice.near', gasKey.publicKey, 1, 5n);
  h.state.commit({ type: 'initial_state' });
  return h;
}

function transfer(h: RuntimeHarness, nonceIndex: number, deposit: bigint): PendingTransaction {
  const tx = createTransaction({
    signerId: 'alice.near',
    publicKey: gasKey.publicKey,
    nonce: 6n,
    nonceIndex,
    receiverId: 'bob.near',
    blockHash: h.block.blockHash,
    actions: [{ type: 'Transfer', deposit }],
  });
  const signedTransaction = signTransaction(tx, gasKey);
  return {
    signedTransaction,
    hash: transactionHash(tx),
    size: encodeSignedTransaction(signedTransaction).length,
  };
}

const costOf = (h: RuntimeHarness, t: PendingTransaction) =>
  validateTransaction(h.params, t.signedTransaction, t.hash, t.size, h.block.gasPrice);

const keyBalance = (h: RuntimeHarness) => {
  const p = h.accessKey('alice.near', gasKey.publicKey)?.permission;
  assert.ok(p && 'gasKeyInfo' in p);
  return p.gasKeyInfo.balance;
};

describe('gas-key transactions whose deposits fail (DepositFailed)', () => {
  it('the RPC refuses one alone, with NotEnoughBalanceForDeposit and no charge', () => {
    const h = setup();
    const poor = transfer(h, 0, 20n * NEAR);
    assert.throws(
      () =>
        verifyAndChargeTransaction(
          h.params,
          h.state,
          poor.signedTransaction,
          costOf(h, poor),
          h.block.height,
        ),
      (e: unknown) => {
        assert.ok(e instanceof InvalidTxError);
        assert.equal(Object.keys(e.toJSON())[0], 'NotEnoughBalanceForDeposit');
        return true;
      },
    );
  });

  it('a chunk includes it after the balance went: the key pays the conversion, no receipt, a failed outcome', () => {
    const h = setup();
    const rich = transfer(h, 0, 9n * NEAR);
    const poor = transfer(h, 1, 2n * NEAR);
    const richCost = costOf(h, rich);
    const poorCost = costOf(h, poor);
    const out = applyChunk(h.params, h.block, h.state, [rich, poor], []);

    assert.deepEqual(out.dropped, []);
    assert.deepEqual(
      out.transactions.map((t) => t.hash),
      [rich.hash, poor.hash],
    );
    const [, failed] = out.outcomes;
    assert.deepEqual(failed.id, poor.hash);
    assert.equal(failed.executorId, 'alice.near');
    assert.deepEqual(failed.receiptIds, []);
    assert.equal(failed.gasBurnt, poorCost.gasBurnt);
    assert.equal(failed.tokensBurnt, poorCost.burntAmount);
    const balanceAfterRich = h.account('alice.near')!.amount;
    assert.equal(balanceAfterRich, NEAR, 'only the first transfer left the account');
    assert.deepEqual(failed.status, {
      Failure: {
        InvalidTxError: {
          NotEnoughBalanceForDeposit: {
            signer_id: 'alice.near',
            balance: NEAR.toString(),
            cost: (2n * NEAR).toString(),
            reason: 'NotEnoughBalance',
          },
        },
      },
    });
    // One receipt (the first transfer's); the key paid the first one's gas and the second one's conversion.
    assert.equal(out.outgoingReceipts.length, 1);
    assert.equal(keyBalance(h), KEY_BALANCE - richCost.gasCost - poorCost.burntAmount);
    assert.equal(getGasKeyNonce(h.state, 'alice.near', gasKey.publicKey, 1), 6n);
    assert.equal(out.gasUsed, richCost.gasBurnt + poorCost.gasBurnt);
    assert.equal(out.balanceBurnt, richCost.burntAmount + poorCost.burntAmount);
  });
});
