/**
 * End to end: stake returned at epoch boundaries (epoch length 10, manual production so every height is
 * known). A lowered stake gives `locked − proposal` back at the first block of the next epoch, an unstake
 * everything; the change is recorded with cause `validator_accounts_update`; tokens are conserved. `validators`
 * reports each epoch's stake proposals in `current_proposals`, from transactions and from a contract.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import { type Account, type Action, actions, baseEncode, type KeyPair, PublicKey } from 'near-api-js';
import { checkConservation } from './support/conservation.js';
import { block, rpc, viewAccount } from './support/rpc-calls.js';
import { checkSingleReceiptTx } from './support/single-receipt-tx.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { base64Of, type TxRef, txHashOf, txStatus } from './support/transactions.js';
import { wat } from './vm-wat-helpers.js';

const EPOCH = 10;

/** A contract whose `stake` method stakes for its own account: input is the u128 amount (LE) then the borsh key. */
const STAKING_WAT = `(module
  (import "env" "current_account_id" (func $current (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "input" (func $input (param i64)))
  (import "env" "promise_batch_create" (func $batch (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_stake" (func $stake (param i64 i64 i64 i64)))
  (memory 1)
  (export "memory" (memory 0))
  (func (export "stake")
    (local $len i64)
    (call $current (i64.const 0))
    (local.set $len (call $register_len (i64.const 0)))
    (call $read_register (i64.const 0) (i64.const 0))
    (call $input (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 1024))
    (call $stake
      (call $batch (local.get $len) (i64.const 0))
      (i64.const 1024) (i64.const 33) (i64.const 1040))))`;

describe('stake returns at epoch boundaries', () => {
  let t: TestNode;
  const txs: TxRef[] = [];
  const stakers: Record<string, { key: KeyPair; account: Account }> = {};

  const head = () => t.node.chain.head.height;
  /** Produces blocks until the head is at `height`. */
  const produceTo = (height: number) => {
    assert.ok(head() <= height, `head ${head()} is already past ${height}`);
    t.node.producer.produce(height - head());
  };

  async function send(account: Account, receiverId: string, txActions: Action[]): Promise<TxRef> {
    const signed = await account.createSignedTransaction({ receiverId, actions: txActions });
    const ref = { hash: baseEncode(txHashOf(signed)), signer: account.accountId };
    await rpc(t.url, 'send_tx', { signed_tx_base64: base64Of(signed), wait_until: 'NONE' });
    txs.push(ref);
    return ref;
  }

  const stake = (id: string, amount: bigint) =>
    send(stakers[id].account, id, [
      actions.stake(amount, PublicKey.from(stakers[id].key.getPublicKey().toString())),
    ]);

  const at = (id: string, height: number) => viewAccount(t.url, id, { block_id: height });

  before(async () => {
    t = await startTestNode({ production: { kind: 'manual' }, epochLength: EPOCH });
    for (const name of ['lowers', 'keeps']) {
      const id = `${name}.test.near`;
      const key = newKey();
      await send(t.root, id, [
        actions.createAccount(),
        actions.transfer(3000n * NEAR),
        actions.addFullAccessKey(key.getPublicKey()),
      ]);
      stakers[id] = { key, account: t.account(id, key) };
    }
    const poolKey = newKey();
    await send(t.root, 'pool.test.near', [
      actions.createAccount(),
      actions.transfer(3000n * NEAR),
      actions.addFullAccessKey(poolKey.getPublicKey()),
      actions.deployContract(await wat(STAKING_WAT)),
    ]);
    stakers['pool.test.near'] = { key: poolKey, account: t.account('pool.test.near', poolKey) };
    t.node.producer.produce(3); // heights 1..3: created, refunds paid
  });
  after(async () => {
    await t?.stop();
  });

  it('epoch ids and heights follow nearcore', async () => {
    const genesis = await block(t.url, { block_id: 0 });
    produceTo(4);
    const first = await block(t.url, { block_id: 1 });
    assert.equal(first.header.epoch_id, '11111111111111111111111111111111');
    assert.equal(first.header.next_epoch_id, genesis.header.hash);
    const info = await rpc(t.url, 'EXPERIMENTAL_genesis_config', null);
    assert.equal(info.epoch_length, EPOCH);
  });

  it('a lowered stake returns the difference at the first block of the next epoch', async () => {
    const lowers = 'lowers.test.near';
    const keeps = 'keeps.test.near';
    const raised = await stake(lowers, 1000n * NEAR); // at height 5
    const kept = await stake(keeps, 1200n * NEAR);
    produceTo(5);
    const lowered = await stake(lowers, 900n * NEAR); // at height 6
    produceTo(EPOCH);
    for (const ref of [raised, kept, lowered]) {
      await checkSingleReceiptTx(t, await txStatus(t.url, ref, 'NONE'));
    }

    const before = await at(lowers, EPOCH);
    assert.equal(before!.locked, 1000n * NEAR, 'lowering takes effect only at the epoch boundary');
    produceTo(EPOCH + 1);
    const after = await at(lowers, EPOCH + 1);
    assert.equal(after!.locked, 900n * NEAR);
    assert.equal(after!.amount, before!.amount + 100n * NEAR);
    assert.deepEqual(await at(keeps, EPOCH + 1), await at(keeps, EPOCH), 'an unchanged stake stays locked');
    assert.deepEqual(
      await at(t.rootId, EPOCH + 1),
      await at(t.rootId, EPOCH),
      'the genesis validator keeps its stake',
    );

    const b = await block(t.url, { block_id: EPOCH + 1 });
    const genesis = await block(t.url, { block_id: 0 });
    const last = await block(t.url, { block_id: EPOCH });
    assert.equal(b.header.epoch_id, genesis.header.hash);
    assert.equal(b.header.next_epoch_id, last.header.hash);
    assert.equal(last.header.epoch_id, '11111111111111111111111111111111');

    // The change is recorded with its cause, for the accounts of the update (and nothing else happened).
    const changes = t.node.chain.stateChanges(EPOCH + 1)!;
    const touched = (id: string) =>
      changes.filter((c) =>
        Buffer.from(c.key, 'base64').equals(Buffer.concat([Buffer.from([0]), Buffer.from(id)])),
      );
    for (const id of [lowers, keeps, t.rootId]) {
      assert.deepEqual(
        touched(id).map((c) => c.cause),
        [{ type: 'validator_accounts_update' }],
        `${id} is updated by the validator accounts update`,
      );
    }
    // Besides, as in nearcore, each chunk rewrites its shard's bandwidth scheduler state (key 0x0f).
    const scheduler = (c: { cause: { type: string } }) => c.cause.type === 'bandwidth_scheduler_state_update';
    assert.ok(changes.every((c) => c.cause.type === 'validator_accounts_update' || scheduler(c)));
    assert.equal(changes.filter(scheduler).length, 1);
    const next = t.node.chain.stateChanges(EPOCH + 2) ?? [];
    assert.equal(next.filter((c) => !scheduler(c)).length, 0, 'nothing else in the next block');
  });

  it('an unstake returns everything at the next epoch boundary', async () => {
    const lowers = 'lowers.test.near';
    produceTo(EPOCH + 2);
    const unstake = await stake(lowers, 0n); // at height 13
    produceTo(2 * EPOCH);
    await checkSingleReceiptTx(t, await txStatus(t.url, unstake, 'NONE'));
    const before = await at(lowers, 2 * EPOCH);
    assert.equal(before!.locked, 900n * NEAR);
    produceTo(2 * EPOCH + 1);
    const after = await at(lowers, 2 * EPOCH + 1);
    assert.equal(after!.locked, 0n);
    assert.equal(after!.amount, before!.amount + 900n * NEAR);
    // `keeps` made no proposal this epoch: untouched.
    assert.equal((await at('keeps.test.near', 2 * EPOCH + 1))!.locked, 1200n * NEAR);
    const b = await block(t.url, { block_id: 2 * EPOCH + 1 });
    const lastOfFirst = await block(t.url, { block_id: EPOCH });
    assert.equal(b.header.epoch_id, lastOfFirst.header.hash);
  });

  it('conserves tokens', async () => {
    produceTo(2 * EPOCH + 4);
    await checkConservation(t, [t.rootId, 'lowers.test.near', 'keeps.test.near', 'pool.test.near'], txs);
  });

  it('validators: current_proposals, the latest proposal per account of the epoch, from transactions and contracts', async () => {
    type Proposal = {
      account_id: string;
      public_key: string;
      stake: string;
      validator_stake_struct_version: string;
    };
    const proposals = async (params: unknown): Promise<Proposal[]> =>
      (await rpc(t.url, 'validators', params)).current_proposals;
    const keyOf = (id: string) => stakers[id].key.getPublicKey().toString();
    const proposal = (id: string, stake: bigint): Proposal => ({
      account_id: id,
      public_key: keyOf(id),
      stake: stake.toString(),
      validator_stake_struct_version: 'V1',
    });
    const lowers = 'lowers.test.near';
    const keeps = 'keeps.test.near';

    // Epoch 1 (heights 1..10): stakes applied at 5 (keeps 1200, lowers 1000) and at 6 (lowers 900). A block
    // header carries the proposals of its previous block's chunks, so they show from heights 6 and 7.
    assert.deepEqual(await proposals([5]), []);
    assert.deepEqual(await proposals([6]), [proposal(keeps, 1200n * NEAR), proposal(lowers, 1000n * NEAR)]);
    assert.deepEqual(await proposals({ block_id: 7 }), [
      proposal(keeps, 1200n * NEAR),
      proposal(lowers, 900n * NEAR),
    ]);
    const epoch1 = (await block(t.url, { block_id: 1 })).header.epoch_id;
    assert.deepEqual(await proposals({ epoch_id: epoch1 }), [
      proposal(keeps, 1200n * NEAR),
      proposal(lowers, 900n * NEAR),
    ]);
    // Epoch 2 (heights 11..20): only the unstake applied at 13.
    assert.deepEqual(await proposals([13]), []);
    assert.deepEqual(await proposals([14]), [proposal(lowers, 0n)]);
    const epoch2 = (await block(t.url, { block_id: 11 })).header.epoch_id;
    assert.deepEqual(await proposals({ epoch_id: epoch2 }), [proposal(lowers, 0n)]);
    // Epoch 3 so far: none.
    assert.deepEqual(await proposals({ latest: null }), []);

    // A Stake action made by a contract (promise_batch_action_stake) and one from a transaction.
    const amount = 1100n * NEAR;
    const args = new Uint8Array(16 + 33);
    for (let i = 0; i < 16; i++) args[i] = Number((amount >> BigInt(8 * i)) & 0xffn);
    args.set([0, ...stakers['pool.test.near'].key.getPublicKey().data], 16);
    const byContract = await send(t.root, 'pool.test.near', [
      actions.functionCall('stake', args, 100n * TGAS, 0n),
    ]);
    const byTx = await stake(keeps, 1300n * NEAR);
    t.node.producer.produce(5);
    await checkSingleReceiptTx(t, await txStatus(t.url, byTx, 'NONE'));
    const status = await txStatus(t.url, byContract, 'NONE');
    assert.ok('SuccessValue' in status.status, JSON.stringify(status.status));
    const expected = [proposal(keeps, 1300n * NEAR), proposal('pool.test.near', amount)];
    assert.deepEqual(await proposals([null]), expected);
    assert.deepEqual(await proposals({ latest: null }), expected);
    const headers = [];
    for (let h = 2 * EPOCH + 5; h <= t.node.chain.head.height; h++)
      headers.push(...(await block(t.url, { block_id: h })).header.validator_proposals);
    assert.deepEqual(
      headers.map((p: Proposal) => p.account_id).sort(),
      ['keeps.test.near', 'pool.test.near'],
      'each proposal is in exactly one block header',
    );
  });
});
