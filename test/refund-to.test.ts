/**
 * End to end: the NEP-616 context host functions in a hand-written WAT contract through a real node, with
 * near-api-js as the client. `promise_set_refund_to`: the callee fails, and the attached deposit comes back
 * to the account the contract named (balances, the callee receipt's `refund_to` in `EXPERIMENTAL_receipt`, the
 * refund receipt from `system`); `refund_to_account_id` in the callee; `current_contract_code` for a local
 * contract and for a global one by hash and by account; the joint-promise and view errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { base58Encode, ONE_NEAR, sha256, TGAS } from '@shadebox/primitives';
import type { Account } from 'near-api-js';
import type { Json } from './support/raw-rpc.js';
import { balanceOf, rpc } from './support/rpc-calls.js';
import { newKey, startTestNode, type TestNode } from './support/test-node.js';
import { bytes, callOutcome, callRaw, failureKind, view, viewError, vmError, wat } from './vm-wat-helpers.js';

const CONTRACT = `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "attached_deposit" (func $attached_deposit (param i64)))
  (import "env" "current_account_id" (func $current_account_id (param i64)))
  (import "env" "refund_to_account_id" (func $refund_to_account_id (param i64)))
  (import "env" "current_contract_code" (func $current_contract_code (param i64) (result i64)))
  (import "env" "promise_batch_create" (func $batch_create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_function_call"
    (func $function_call (param i64 i64 i64 i64 i64 i64 i64)))
  (import "env" "promise_set_refund_to" (func $set_refund_to (param i64 i64 i64)))
  (import "env" "promise_and" (func $promise_and (param i64 i64) (result i64)))
  (import "env" "promise_return" (func $promise_return (param i64)))
  (memory (export "memory") 1)
  ;; 0..16: the attached deposit; 16..32: a zero u128; 64: "missing"; 80: "whoami"; 1024..: the input
  (data (i32.const 64) "missing")
  (data (i32.const 80) "whoami")
  (func $load_input (result i64)
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 1024))
    (call $register_len (i64.const 0)))
  ;; input: one byte n, the callee (n bytes), the refund account (the rest). Calls callee.missing with the
  ;; attached deposit and names the refund account.
  (func (export "send") (local $len i64) (local $n i64) (local $p i64)
    (local.set $len (call $load_input))
    (local.set $n (i64.load8_u (i32.const 1024)))
    (call $attached_deposit (i64.const 0))
    (local.set $p (call $batch_create (local.get $n) (i64.const 1025)))
    (call $function_call (local.get $p) (i64.const 7) (i64.const 64) (i64.const 0) (i64.const 0)
      (i64.const 0) (i64.const 5000000000000))
    (call $set_refund_to (local.get $p)
      (i64.sub (i64.sub (local.get $len) (local.get $n)) (i64.const 1))
      (i64.add (i64.const 1025) (local.get $n))))
  ;; input: the refund account. Calls this contract's whoami with that refund_to and returns its answer.
  (func (export "probe") (local $len i64) (local $p i64)
    (local.set $len (call $load_input))
    (call $current_account_id (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 512))
    (local.set $p (call $batch_create (call $register_len (i64.const 1)) (i64.const 512)))
    (call $function_call (local.get $p) (i64.const 6) (i64.const 80) (i64.const 0) (i64.const 0)
      (i64.const 16) (i64.const 5000000000000))
    (call $set_refund_to (local.get $p) (local.get $len) (i64.const 1024))
    (call $promise_return (local.get $p)))
  (func (export "whoami")
    (call $refund_to_account_id (i64.const 3))
    (call $read_register (i64.const 3) (i64.const 2048))
    (call $value_return (call $register_len (i64.const 3)) (i64.const 2048)))
  ;; '0' + what current_contract_code answered, then the register it wrote (if any)
  (func (export "code") (local $r i64) (local $len i64)
    (local.set $r (call $current_contract_code (i64.const 4)))
    (i64.store8 (i32.const 4096) (i64.add (i64.const 48) (local.get $r)))
    (local.set $len (i64.const 1))
    (if (i64.ne (local.get $r) (i64.const 0))
      (then
        (call $read_register (i64.const 4) (i64.const 4097))
        (local.set $len (i64.add (i64.const 1) (call $register_len (i64.const 4))))))
    (call $value_return (local.get $len) (i64.const 4096)))
  ;; input: an account; names a refund account on a promise_and over a promise to it
  (func (export "joint") (local $len i64)
    (local.set $len (call $load_input))
    (i64.store (i32.const 3000) (call $batch_create (local.get $len) (i64.const 1024)))
    (call $set_refund_to (call $promise_and (i64.const 3000) (i64.const 1)) (local.get $len) (i64.const 1024)))
)`;

const text = (b64text: string) => Buffer.from(b64text, 'base64').toString();

describe('refund_to and the code reference (NEP-616 host functions, real node)', () => {
  let t: TestNode;
  let code: Uint8Array;
  const ids: Record<string, string> = {};
  const accounts: Record<string, Account> = {};

  /** Polls (bounded) until the global code is held and no receipt is in flight. */
  async function distributed(query: Record<string, unknown>): Promise<void> {
    for (let i = 0; i < 2000; i++) {
      const r = await rpc(t.url, 'query', { finality: 'optimistic', ...query }).catch(() => undefined);
      if (r?.code_base64 && t.node.chain.pendingReceiptCount === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.fail(`global contract ${JSON.stringify(query)} never arrived`);
  }

  before(async () => {
    t = await startTestNode();
    code = await wat(CONTRACT);
    for (const name of ['rt', 'nocode', 'sink', 'deployer', 'user1', 'user2']) {
      const key = newKey();
      await t.root.createSubAccount({
        accountOrPrefix: name,
        publicKey: key.getPublicKey(),
        nearToTransfer: 20n * ONE_NEAR,
      });
      ids[name] = `${name}.${t.rootId}`;
      accounts[name] = t.account(ids[name], key);
    }
    const deployed: Json = await accounts.rt.deployContract(code);
    assert.deepEqual(deployed.status, { SuccessValue: '' });
  });
  after(async () => {
    await t?.stop();
  });

  it('a failed callee’s deposit goes to the refund_to account, from system, visible in the receipts', async () => {
    const deposit = 3n * ONE_NEAR;
    const sinkBefore = await balanceOf(t.url, ids.sink);
    const args = bytes([ids.nocode.length], ids.nocode, ids.sink);
    const result = await callRaw(t.root, ids.rt, 'send', args, 100n * TGAS, deposit);
    // The contract's own call succeeds; its promise to an account without code fails.
    assert.deepEqual(callOutcome(result).status, { SuccessValue: '' });
    const calleeId: string = callOutcome(result).receipt_ids[0];
    const callee = result.receipts_outcome.find((o: Json) => o.id === calleeId);
    assert.equal(callee.outcome.executor_id, ids.nocode);
    assert.deepEqual(callee.outcome.status.Failure.ActionError.kind, {
      FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: ids.nocode } } },
    });

    // The callee receipt is an ActionReceiptV2 naming the refund account.
    const calleeReceipt = await rpc(t.url, 'EXPERIMENTAL_receipt', { receipt_id: calleeId });
    assert.equal(calleeReceipt.predecessor_id, ids.rt);
    assert.equal(calleeReceipt.receipt.Action.refund_to, ids.sink);
    assert.equal(calleeReceipt.receipt.Action.actions[0].FunctionCall.deposit, deposit.toString());

    // Its deposit refund goes to sink (not to rt, the predecessor).
    const refunds = result.receipts_outcome.filter((o: Json) => callee.outcome.receipt_ids.includes(o.id));
    const toSink = refunds.filter((o: Json) => o.outcome.executor_id === ids.sink);
    assert.equal(toSink.length, 1, JSON.stringify(refunds.map((o: Json) => o.outcome.executor_id)));
    assert.equal(
      refunds.some((o: Json) => o.outcome.executor_id === ids.rt),
      false,
    );
    const refund = await rpc(t.url, 'EXPERIMENTAL_receipt', { receipt_id: toSink[0].id });
    assert.equal(refund.predecessor_id, 'system');
    assert.equal(refund.receiver_id, ids.sink);
    assert.deepEqual(refund.receipt.Action.actions, [{ Transfer: { deposit: deposit.toString() } }]);
    assert.equal('refund_to' in refund.receipt.Action, false);
    assert.equal(await balanceOf(t.url, ids.sink), sinkBefore + deposit);
  });

  it('refund_to_account_id: the refund_to a predecessor set, else the predecessor', async () => {
    const probed = await callRaw(t.root, ids.rt, 'probe', bytes(ids.sink), 100n * TGAS);
    assert.equal(text(probed.status.SuccessValue), ids.sink);
    const direct = await callRaw(t.root, ids.rt, 'whoami');
    assert.equal(text(direct.status.SuccessValue), t.rootId);
    // The callee receipt carries the refund_to the contract named.
    const calleeId: string = callOutcome(probed).receipt_ids[0];
    const receipt = await rpc(t.url, 'EXPERIMENTAL_receipt', { receipt_id: calleeId });
    assert.equal(receipt.receipt.Action.refund_to, ids.sink);
    assert.equal(
      await viewError(t.url, ids.rt, 'whoami'),
      vmError('HostError(ProhibitedInView { method_name: "refund_to_account_id" })'),
    );
  });

  it('current_contract_code: 1 and the hash of a local contract (in a view and in a call)', async () => {
    const hash = sha256(code);
    const r = await view(t.url, ids.rt, 'code');
    assert.deepEqual(Buffer.from(r.result as number[]), Buffer.concat([Buffer.from('1'), hash]));
    const called = await callRaw(t.root, ids.rt, 'code');
    assert.deepEqual(
      Buffer.from(callOutcome(called).status.SuccessValue, 'base64'),
      Buffer.concat([Buffer.from('1'), hash]),
    );
  });

  it('current_contract_code: 2 and the hash by code hash, 3 and the deployer by account', async () => {
    const { deployer, user1, user2 } = accounts;
    assert.deepEqual((await deployer.deployGlobalContract(code, 'codeHash')).status, { SuccessValue: '' });
    assert.deepEqual((await deployer.deployGlobalContract(code, 'accountId')).status, { SuccessValue: '' });
    const hash = sha256(code);
    await distributed({ request_type: 'view_global_contract_code', code_hash: base58Encode(hash) });
    await distributed({ request_type: 'view_global_contract_code_by_account_id', account_id: ids.deployer });
    assert.deepEqual((await user1.useGlobalContract({ codeHash: hash })).status, { SuccessValue: '' });
    assert.deepEqual((await user2.useGlobalContract({ accountId: ids.deployer })).status, {
      SuccessValue: '',
    });
    const byHash = await view(t.url, ids.user1, 'code');
    assert.deepEqual(Buffer.from(byHash.result as number[]), Buffer.concat([Buffer.from('2'), hash]));
    const byAccount = await view(t.url, ids.user2, 'code');
    assert.equal(Buffer.from(byAccount.result as number[]).toString(), `3${ids.deployer}`);
  });

  it('a joint promise cannot take a refund_to: the call fails with CannotSetRefundToOnJointPromise', async () => {
    const r = await callRaw(t.root, ids.rt, 'joint', bytes(ids.sink));
    assert.deepEqual(failureKind(r), {
      FunctionCallError: { ExecutionError: 'Refund-to can only be set on a non-joint promise.' },
    });
    assert.equal(
      await viewError(t.url, ids.rt, 'joint', bytes(ids.sink)),
      vmError('HostError(ProhibitedInView { method_name: "promise_batch_create" })'),
    );
  });
});
