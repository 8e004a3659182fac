/**
 * The promise API from a hand-written contract: every batch action (create account, transfer, both add-key
 * kinds, deploy, weighted function calls, delete key, delete account), gas split by weight, joint promises
 * (`promise_and` feeding a callback; appending to or returning one fails), and refunds of a failed batch.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import type { Account } from 'near-api-js';
import type { Json } from './support/raw-rpc.js';
import { receiptView } from './support/receipts.js';
import { rpc, viewAccount } from './support/rpc-calls.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { callOutcome, callRaw, execError, failureKind, view, wat } from './vm-wat-helpers.js';

const le128 = (n: bigint) => {
  const b = Buffer.alloc(16);
  b.writeBigUInt64LE(n & ((1n << 64n) - 1n), 0);
  b.writeBigUInt64LE(n >> 64n, 8);
  return b;
};
const watBytes = (b: Uint8Array) => [...b].map((x) => `\\${x.toString(16).padStart(2, '0')}`).join('');

/**
 * Memory layout: 0 zero amount, 16 ten NEAR, 32 one NEAR (allowance), 64 "noop", 80 "hi", 96 "noop,hi",
 * 128 "count", 144 "test.near", 1024.. the input (pk 33 bytes ‖ code length u32 ‖ code ‖ account id).
 */
const CONTRACT = `
(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "current_account_id" (func $current (param i64)))
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_then" (func $then (param i64 i64 i64) (result i64)))
  (import "env" "promise_and" (func $and (param i64 i64) (result i64)))
  (import "env" "promise_return" (func $return (param i64)))
  (import "env" "promise_results_count" (func $results (result i64)))
  (import "env" "promise_batch_action_create_account" (func $create_account (param i64)))
  (import "env" "promise_batch_action_transfer" (func $transfer (param i64 i64)))
  (import "env" "promise_batch_action_add_key_with_full_access" (func $add_full (param i64 i64 i64 i64)))
  (import "env" "promise_batch_action_add_key_with_function_call"
    (func $add_fc (param i64 i64 i64 i64 i64 i64 i64 i64 i64)))
  (import "env" "promise_batch_action_deploy_contract" (func $deploy (param i64 i64 i64)))
  (import "env" "promise_batch_action_function_call_weight"
    (func $call_weight (param i64 i64 i64 i64 i64 i64 i64 i64)))
  (import "env" "promise_batch_action_delete_key" (func $delete_key (param i64 i64 i64)))
  (import "env" "promise_batch_action_delete_account" (func $delete_account (param i64 i64 i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory (export "memory") 1)
  (data (i32.const 16) "${watBytes(le128(10n * NEAR))}")
  (data (i32.const 32) "${watBytes(le128(NEAR))}")
  (data (i32.const 64) "noop")
  (data (i32.const 80) "hi")
  (data (i32.const 96) "noop,hi")
  (data (i32.const 128) "count")
  (data (i32.const 144) "test.near")
  (global $len (mut i64) (i64.const 0))

  (func $load_input
    (call $input (i64.const 0))
    (global.set $len (call $register_len (i64.const 0)))
    (call $read_register (i64.const 0) (i64.const 1024)))
  ;; code length, code at 1024+37, account id after it
  (func $code_len (result i64) (i64.extend_i32_u (i32.load (i32.const 1057))))
  (func $id_ptr (result i64) (i64.add (i64.const 1061) (call $code_len)))
  (func $id_len (result i64) (i64.sub (global.get $len) (i64.add (i64.const 37) (call $code_len))))
  (func $self (result i64)
    (call $current (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 512))
    (call $register_len (i64.const 1)))

  (func (export "noop"))
  (func (export "count")
    (i64.store (i32.const 256) (call $results))
    (call $value_return (i64.const 1) (i64.const 256)))

  ;; A new account with every batch action: create, fund, two keys, code, and two weighted calls to it.
  (func (export "create_sub") (local $p i64)
    (call $load_input)
    (local.set $p (call $create (call $id_len) (call $id_ptr)))
    (call $create_account (local.get $p))
    (call $transfer (local.get $p) (i64.const 16))
    (call $add_full (local.get $p) (i64.const 33) (i64.const 1024) (i64.const 0))
    (call $deploy (local.get $p) (call $code_len) (i64.add (i64.const 1061) (i64.const 0)))
    (call $call_weight (local.get $p) (i64.const 2) (i64.const 80) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const 0) (i64.const 1))
    (call $call_weight (local.get $p) (i64.const 2) (i64.const 80) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const 0) (i64.const 2))
    (call $return (local.get $p)))

  ;; A function-call key on the sub-account, then the same key deleted, then the account deleted.
  (func (export "keys_then_delete") (local $p i64)
    (call $load_input)
    (local.set $p (call $create (call $id_len) (call $id_ptr)))
    (call $add_fc (local.get $p) (i64.const 33) (i64.const 1024) (i64.const 0) (i64.const 32)
      (call $self) (i64.const 512) (i64.const 7) (i64.const 96))
    (call $delete_key (local.get $p) (i64.const 33) (i64.const 1024))
    (call $delete_account (local.get $p) (i64.const 9) (i64.const 144)))

  ;; Two calls joined, and a callback that counts its inputs.
  (func (export "join") (local $a i64) (local $b i64)
    (local.set $a (call $create (call $self) (i64.const 512)))
    (call $call_weight (local.get $a) (i64.const 4) (i64.const 64) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const 5000000000000) (i64.const 0))
    (local.set $b (call $create (call $self) (i64.const 512)))
    (call $call_weight (local.get $b) (i64.const 4) (i64.const 64) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const 5000000000000) (i64.const 0))
    (i64.store (i32.const 300) (local.get $a))
    (i64.store (i32.const 308) (local.get $b))
    (local.set $a (call $then (call $and (i64.const 300) (i64.const 2)) (call $self) (i64.const 512)))
    (call $call_weight (local.get $a) (i64.const 5) (i64.const 128) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const 5000000000000) (i64.const 0))
    (call $return (local.get $a)))

  (func (export "return_joint") (local $a i64)
    (local.set $a (call $create (call $self) (i64.const 512)))
    (i64.store (i32.const 300) (local.get $a))
    (i64.store (i32.const 308) (local.get $a))
    (call $return (call $and (i64.const 300) (i64.const 2))))

  (func (export "append_to_joint") (local $a i64)
    (local.set $a (call $create (call $self) (i64.const 512)))
    (i64.store (i32.const 300) (local.get $a))
    (call $transfer (call $and (i64.const 300) (i64.const 1)) (i64.const 0)))

  ;; Spends more than the account holds on a transfer.
  (func (export "overspend") (local $p i64)
    (local.set $p (call $create (call $self) (i64.const 512)))
    (i64.store (i32.const 400) (i64.const -1))
    (i64.store (i32.const 408) (i64.const -1))
    (call $transfer (local.get $p) (i64.const 400)))
)`;

describe('promise API: batch actions, weights, joint promises', () => {
  let t: TestNode;
  let contract: Account;
  const subKey = newKey();
  let subCode: Uint8Array;

  function input(accountId: string): Uint8Array {
    const pk = Buffer.concat([Buffer.from([0]), Buffer.from(subKey.getPublicKey().data)]);
    const len = Buffer.alloc(4);
    len.writeUInt32LE(subCode.length);
    return new Uint8Array(Buffer.concat([pk, len, subCode, Buffer.from(accountId)]));
  }

  before(async () => {
    t = await startTestNode();
    const key = newKey();
    await t.root.createSubAccount({
      accountOrPrefix: 'p',
      publicKey: key.getPublicKey(),
      nearToTransfer: 100n * NEAR,
    });
    contract = t.account(`p.${t.rootId}`, key);
    await contract.deployContract(await wat(CONTRACT));
    subCode = await wat('(module (func (export "hi")))');
  });
  after(async () => {
    await t?.stop();
  });

  it('creates, funds, keys, deploys and calls a sub-account in one batch; unused gas goes by weight', async () => {
    const sub = `sub.${contract.accountId}`;
    const prepaid = 100n * TGAS;
    const result = await callRaw(contract, contract.accountId, 'create_sub', input(sub), prepaid);
    const outcome = callOutcome(result);
    assert.ok('SuccessReceiptId' in outcome.status, JSON.stringify(outcome.status));
    const batchId = outcome.status.SuccessReceiptId;
    const batch = receiptView(result, batchId) ?? (await rpcReceipt(t.url, batchId));
    const acts: Json[] = batch.receipt.Action.actions;
    assert.deepEqual(
      acts.map((a) => (typeof a === 'string' ? a : Object.keys(a)[0])),
      ['CreateAccount', 'Transfer', 'AddKey', 'DeployContract', 'FunctionCall', 'FunctionCall'],
    );
    assert.equal(acts[1].Transfer.deposit, (10n * NEAR).toString());
    // The two calls attached no gas: what the method left unused went to them, 1 : 2, remainder to the last.
    const g1 = BigInt(acts[4].FunctionCall.gas);
    const g2 = BigInt(acts[5].FunctionCall.gas);
    const unused = g1 + g2;
    assert.ok(unused > 0n && unused < prepaid);
    assert.equal(g1, unused / 3n);
    assert.equal(g2, unused - unused / 3n);
    // The batch ran: the account exists with its balance, key and code, and both calls succeeded.
    const batchOutcome = result.receipts_outcome.find((o: Json) => o.id === batchId);
    assert.deepEqual(batchOutcome.outcome.status, { SuccessValue: '' });
    const account = await viewAccount(t.url, sub);
    assert.ok(account);
    // 10 NEAR plus the 30% reward for the gas the two calls burnt in its code.
    assert.ok(account.amount > 10n * NEAR && account.amount < 10n * NEAR + NEAR / 1000n);
    const code = await rpc(t.url, 'query', { request_type: 'view_code', finality: 'final', account_id: sub });
    assert.equal(code.code_base64, Buffer.from(subCode).toString('base64'));
    const keys = await rpc(t.url, 'query', {
      request_type: 'view_access_key_list',
      finality: 'final',
      account_id: sub,
    });
    assert.deepEqual(
      keys.keys.map((k: Json) => [k.public_key, k.access_key.permission]),
      [[subKey.getPublicKey().toString(), 'FullAccess']],
    );
  });

  it('joins two calls with promise_and; the callback sees both results', async () => {
    const r = await callRaw(contract, contract.accountId, 'join', new Uint8Array(), 100n * TGAS);
    const final = r.status;
    assert.ok('SuccessValue' in final, JSON.stringify(final));
    const value = Buffer.from(final.SuccessValue, 'base64');
    assert.deepEqual([...value], [2]);
    const callback = result(r).find(
      (o: Json) => 'SuccessValue' in o.outcome.status && o.outcome.status.SuccessValue === final.SuccessValue,
    );
    const view_ = receiptView(r, callback.id) ?? (await rpcReceipt(t.url, callback.id));
    assert.equal(view_.receipt.Action.input_data_ids.length, 2);
  });

  it('a joint promise cannot be returned or extended', async () => {
    assert.deepEqual(
      failureKind(await callRaw(contract, contract.accountId, 'return_joint')),
      execError('Returning joint promise is currently prohibited.'),
    );
    assert.deepEqual(
      failureKind(await callRaw(contract, contract.accountId, 'append_to_joint')),
      execError('Actions can only be appended to non-joint promise.'),
    );
    const v = await view(t.url, contract.accountId, 'return_joint');
    assert.equal(
      v.error,
      'wasm execution failed with error: HostError(ProhibitedInView { method_name: "promise_batch_create" })',
    );
  });

  it('attaching more than the balance fails with BalanceExceeded and creates nothing', async () => {
    const r = await callRaw(contract, contract.accountId, 'overspend');
    assert.deepEqual(failureKind(r), execError('Exceeded the account balance.'));
    assert.equal(callOutcome(r).receipt_ids.length, 1, 'only the gas refund');
  });
  it('adds a function-call key, deletes it, then deletes the account with its balance to the beneficiary', async () => {
    // A contract may only act on itself (or on an account its receipt creates): on the sub-account, owned by
    // its own key, the batch is refused.
    const sub = `sub.${contract.accountId}`;
    const refused = await callRaw(contract, contract.accountId, 'keys_then_delete', input(sub), 100n * TGAS);
    const failed = result(refused).find((o: Json) => o.outcome.executor_id === sub);
    assert.deepEqual(failed.outcome.status.Failure.ActionError.kind, {
      ActorNoPermission: { account_id: sub, actor_id: contract.accountId },
    });
    // On itself it works: the key is added and deleted, then the account goes, its balance to test.near.
    const rootBefore = (await viewAccount(t.url, t.rootId))!.amount;
    const r = await callRaw(
      contract,
      contract.accountId,
      'keys_then_delete',
      input(contract.accountId),
      100n * TGAS,
    );
    const batchOutcome = result(r).find((o: Json) => o.id === callOutcome(r).receipt_ids[0]);
    assert.deepEqual(batchOutcome.outcome.status, { SuccessValue: '' });
    const batch = receiptView(r, batchOutcome.id) ?? (await rpcReceipt(t.url, batchOutcome.id));
    const acts: Json[] = batch.receipt.Action.actions;
    assert.deepEqual(acts[0].AddKey.access_key.permission, {
      FunctionCall: {
        allowance: NEAR.toString(),
        receiver_id: contract.accountId,
        method_names: ['noop', 'hi'],
      },
    });
    assert.deepEqual(acts[1], { DeleteKey: { public_key: subKey.getPublicKey().toString() } });
    assert.deepEqual(acts[2], { DeleteAccount: { beneficiary_id: t.rootId } });
    assert.equal(await viewAccount(t.url, contract.accountId), undefined);
    assert.ok((await viewAccount(t.url, t.rootId))!.amount > rootBefore + 80n * NEAR, 'the balance moved');
  });
});

function result(r: Json): Json[] {
  return r.receipts_outcome;
}

async function rpcReceipt(url: string, receiptId: string): Promise<Json> {
  return rpc(url, 'EXPERIMENTAL_receipt', { receipt_id: receiptId });
}
