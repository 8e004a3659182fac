/**
 * End to end: global contracts (NEP-591) on a 2-shard chain. A contract deployed by code hash and by account
 * id travels to every shard, accounts on either shard use it, calls and views run its code, an update by
 * account id reaches its users, and the errors and balances are nearcore's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Action,
  base58Encode,
  base64Encode,
  type GlobalContractIdentifier,
  type KeyPair,
  ONE_NEAR,
  sha256,
  TGAS,
} from '@shadebox/primitives';
import type { Json } from './support/raw-rpc.js';
import { balanceOf, rpc, viewAccountJson } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { createAccount, refOf, sendTx, txStatus } from './support/transactions.js';
import { wat } from './vm-wat-helpers.js';

const contract = (version: string) => `(module
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "current_account_id" (func $current_account_id (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (memory (export "memory") 1)
  (data (i32.const 0) "${version}")
  (func (export "version") (call $value_return (i64.const ${version.length}) (i64.const 0)))
  (func (export "whoami")
    (call $current_account_id (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 100))
    (call $value_return (call $register_len (i64.const 0)) (i64.const 100))))`;

/** Each method takes its argument from the input and appends one global-contract action to a promise on the
 * contract's own account. */
const FACTORY = `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "current_account_id" (func $current_account_id (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_deploy_global_contract" (func $deploy (param i64 i64 i64)))
  (import "env" "promise_batch_action_deploy_global_contract_by_account_id" (func $deploy_by_id (param i64 i64 i64)))
  (import "env" "promise_batch_action_use_global_contract" (func $use (param i64 i64 i64)))
  (import "env" "promise_batch_action_use_global_contract_by_account_id" (func $use_by_id (param i64 i64 i64)))
  (memory (export "memory") 1)
  (func $self (result i64)
    (call $current_account_id (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 0))
    (call $create (call $register_len (i64.const 1)) (i64.const 0)))
  (func (export "deploy_hash") (call $input (i64.const 0)) (call $deploy (call $self) (i64.const -1) (i64.const 0)))
  (func (export "deploy_account") (call $input (i64.const 0)) (call $deploy_by_id (call $self) (i64.const -1) (i64.const 0)))
  (func (export "use_hash") (call $input (i64.const 0)) (call $use (call $self) (i64.const -1) (i64.const 0)))
  (func (export "use_account") (call $input (i64.const 0)) (call $use_by_id (call $self) (i64.const -1) (i64.const 0))))`;

interface User {
  accountId: string;
  key: KeyPair;
}

describe('global contracts across two shards', () => {
  let t: TestNode;
  let v1: Uint8Array;
  let v2: Uint8Array;
  /** alice deploys; bob is on the other shard; carol uses by account id. */
  let alice: User;
  let bob: User;
  let carol: User;

  const send = (from: User, receiverId: string, actions: Action[]) =>
    sendTx(t.url, { signerId: from.accountId, key: from.key, receiverId, actions });
  const status = (r: Json) => r.receipts_outcome[0].outcome.status;
  const callView = async (accountId: string, method: string) => {
    const r = await rpc(t.url, 'query', {
      request_type: 'call_function',
      finality: 'optimistic',
      account_id: accountId,
      method_name: method,
      args_base64: '',
    });
    return r.error ?? Buffer.from(r.result).toString();
  };
  const globalCode = (query: Json) =>
    rpc(t.url, 'query', { finality: 'optimistic', ...query }).then(
      (r) => r,
      (e) => e,
    );
  /** Waits (bounded) until the view shows the code under `query` and no receipt (the distribution going
   * shard to shard) is in flight any more. */
  const waitDistributed = async (query: Json, code: Uint8Array) => {
    for (let i = 0; i < 2000; i++) {
      const r = await globalCode(query);
      if (r.code_base64 === base64Encode(code) && t.node.chain.pendingReceiptCount === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.fail(`global contract ${JSON.stringify(query)} never reached every shard`);
  };

  before(async () => {
    t = await startTestNode({ numShards: 2 });
    v1 = await wat(contract('v1'));
    v2 = await wat(contract('v2'));
    const ids = { alice: '', bob: '', carol: '' };
    for (let i = 0; !ids.alice || !ids.bob; i++) {
      const id = `user${i}.test.near`;
      if (t.node.chain.shardOf(id) === 0 && !ids.alice) ids.alice = id;
      else if (t.node.chain.shardOf(id) === 1 && !ids.bob) ids.bob = id;
    }
    ids.carol = `carol.test.near`;
    alice = await createAccount(t.url, t.rootSigner, ids.alice, 100n * ONE_NEAR);
    bob = await createAccount(t.url, t.rootSigner, ids.bob, 100n * ONE_NEAR);
    carol = await createAccount(t.url, t.rootSigner, ids.carol, 100n * ONE_NEAR);
  });
  after(async () => {
    await t?.stop();
  });

  it('deploys by code hash: burns the storage, shows the action, and the code reaches every shard', async () => {
    const before = await balanceOf(t.url, alice.accountId);
    const r = await send(alice, alice.accountId, [
      { type: 'DeployGlobalContract', code: v1, deployMode: 'CodeHash' },
    ]);
    assert.ok('SuccessValue' in status(r), JSON.stringify(status(r)));
    assert.deepEqual(r.transaction.actions, [{ DeployGlobalContract: { code: base64Encode(sha256(v1)) } }]);
    const storage = t.cfg.globalContractStorageAmountPerByte * BigInt(v1.length);
    const outcome = r.receipts_outcome[0].outcome;
    const txOutcome = r.transaction_outcome.outcome;
    const gasPrice = BigInt(txOutcome.tokens_burnt) / BigInt(txOutcome.gas_burnt);
    // The receipt's outcome burns its gas and the code's storage (IncludeDeployGlobalContractOutcomeBurntStorage).
    assert.equal(BigInt(outcome.tokens_burnt), BigInt(outcome.gas_burnt) * gasPrice + storage);
    // The send and exec fees of the action are nearcore's per-byte fees.
    const f = t.cfg.fees;
    assert.equal(
      BigInt(txOutcome.gas_burnt),
      f.new_action_receipt.sendSir +
        f.deploy_global_contract_base.sendSir +
        f.deploy_global_contract_byte.sendSir * BigInt(v1.length),
    );
    assert.equal(
      BigInt(outcome.gas_burnt),
      f.new_action_receipt.execution +
        f.deploy_global_contract_base.execution +
        f.deploy_global_contract_byte.execution * BigInt(v1.length),
    );
    const after = await balanceOf(t.url, alice.accountId);
    // The deployer pays both outcomes' burns; the prepaid gas it did not use came back.
    assert.equal(before - after, BigInt(txOutcome.tokens_burnt) + BigInt(outcome.tokens_burnt));
    const hash = base58Encode(sha256(v1));
    await waitDistributed({ request_type: 'view_global_contract_code', code_hash: hash }, v1);
    const view = await globalCode({ request_type: 'view_global_contract_code', code_hash: hash });
    assert.equal(view.hash, hash);
    // The deployer itself does not run it.
    assert.equal((await viewAccountJson(t.url, alice.accountId)).global_contract_hash, undefined);
  });

  it('an account on the other shard uses it by hash: view_account, storage, view_code, calls', async () => {
    const hash = base58Encode(sha256(v1));
    const before = await viewAccountJson(t.url, bob.accountId);
    const id: GlobalContractIdentifier = { kind: 'CodeHash', codeHash: sha256(v1) };
    const r = await send(bob, bob.accountId, [{ type: 'UseGlobalContract', contractIdentifier: id }]);
    assert.ok('SuccessValue' in status(r), JSON.stringify(status(r)));
    assert.deepEqual(r.transaction.actions, [{ UseGlobalContract: { code_hash: hash } }]);
    const view = await viewAccountJson(t.url, bob.accountId);
    assert.equal(view.global_contract_hash, hash);
    assert.equal(view.global_contract_account_id, undefined);
    assert.equal(view.code_hash, '11111111111111111111111111111111');
    assert.equal(view.storage_usage, before.storage_usage + 32);
    assert.equal(await callView(bob.accountId, 'whoami'), bob.accountId);
    const code = await rpc(t.url, 'query', {
      request_type: 'view_code',
      finality: 'optimistic',
      account_id: bob.accountId,
    });
    assert.equal(code.code_base64, base64Encode(v1));
    assert.equal(code.hash, hash);
    // A function call receipt runs the global code on bob's shard.
    const call = await send(alice, bob.accountId, [
      { type: 'FunctionCall', methodName: 'whoami', args: new Uint8Array(), gas: 10n * TGAS, deposit: 0n },
    ]);
    assert.equal(Buffer.from(status(call).SuccessValue, 'base64').toString(), bob.accountId);
  });

  it('deploys by account id; users follow the deployer’s update', async () => {
    const r = await send(alice, alice.accountId, [
      { type: 'DeployGlobalContract', code: v1, deployMode: 'AccountId' },
    ]);
    assert.deepEqual(r.transaction.actions, [
      { DeployGlobalContractByAccountId: { code: base64Encode(sha256(v1)) } },
    ]);
    const query = { request_type: 'view_global_contract_code_by_account_id', account_id: alice.accountId };
    await waitDistributed(query, v1);
    const before = await viewAccountJson(t.url, carol.accountId);
    const use = await send(carol, carol.accountId, [
      { type: 'UseGlobalContract', contractIdentifier: { kind: 'AccountId', accountId: alice.accountId } },
    ]);
    assert.ok('SuccessValue' in status(use), JSON.stringify(status(use)));
    assert.deepEqual(use.transaction.actions, [
      { UseGlobalContractByAccountId: { account_id: alice.accountId } },
    ]);
    const view = await viewAccountJson(t.url, carol.accountId);
    assert.equal(view.global_contract_account_id, alice.accountId);
    assert.equal(view.global_contract_hash, undefined);
    assert.equal(view.storage_usage, before.storage_usage + alice.accountId.length);
    assert.equal(await callView(carol.accountId, 'version'), 'v1');

    await send(alice, alice.accountId, [{ type: 'DeployGlobalContract', code: v2, deployMode: 'AccountId' }]);
    await waitDistributed(query, v2);
    assert.equal(await callView(carol.accountId, 'version'), 'v2');
    // A local deploy replaces the global contract and gives back its identifier's bytes.
    const local = await send(carol, carol.accountId, [{ type: 'DeployContract', code: v1 }]);
    assert.ok('SuccessValue' in status(local), JSON.stringify(status(local)));
    const afterLocal = await viewAccountJson(t.url, carol.accountId);
    assert.equal(afterLocal.global_contract_account_id, undefined);
    assert.equal(afterLocal.code_hash, base58Encode(sha256(v1)));
    assert.equal(afterLocal.storage_usage, before.storage_usage + v1.length);
  });

  it('refuses an unknown global contract: GlobalContractDoesNotExist, NO_GLOBAL_CONTRACT_CODE', async () => {
    const unknown = sha256(new Uint8Array([1, 2, 3]));
    const r = await send(bob, bob.accountId, [
      { type: 'UseGlobalContract', contractIdentifier: { kind: 'CodeHash', codeHash: unknown } },
    ]);
    assert.deepEqual(status(r), {
      Failure: {
        ActionError: {
          index: 0,
          kind: { GlobalContractDoesNotExist: { identifier: { CodeHash: base58Encode(unknown) } } },
        },
      },
    });
    const err = await globalCode({
      request_type: 'view_global_contract_code',
      code_hash: base58Encode(unknown),
    });
    assert.equal(err.data?.name ?? err.cause?.name ?? err.name, err.name);
    const body = JSON.stringify(err);
    assert.match(body, /NO_GLOBAL_CONTRACT_CODE/);
    assert.match(
      body,
      new RegExp(`CodeHash\\(${base58Encode(unknown)}\\) has never been observed on the node`),
    );
    const byAccount = await globalCode({
      request_type: 'view_global_contract_code_by_account_id',
      account_id: bob.accountId,
    });
    assert.match(JSON.stringify(byAccount), /AccountId\(\\"[^"]+\\"\) has never been observed/);
  });

  it('the four host functions deploy and use global contracts from a contract', async () => {
    const factoryCode = await wat(FACTORY);
    const v3 = await wat(contract('v3'));
    const factories: User[] = [];
    for (const name of ['f1', 'f2', 'f3']) {
      const f = await createAccount(t.url, t.rootSigner, `${name}.test.near`, 50n * ONE_NEAR);
      await send(f, f.accountId, [{ type: 'DeployContract', code: factoryCode }]);
      factories.push(f);
    }
    const [f1, f2, f3] = factories;
    const call = (f: User, method: string, args: Uint8Array) =>
      send(f, f.accountId, [
        { type: 'FunctionCall', methodName: method, args, gas: 100n * TGAS, deposit: 0n },
      ]);
    const ok = (r: Json) => {
      for (const o of r.receipts_outcome)
        assert.ok(!('Failure' in o.outcome.status), JSON.stringify(o.outcome.status));
    };

    const byHash = await call(f1, 'deploy_hash', v3);
    ok(byHash);
    // The promise's receipt carries the action, shown as nearcore's view.
    const full = await txStatus(t.url, refOf(byHash));
    const deployReceipt = full.receipts.find(
      (r: Json) => r.receiver_id === f1.accountId && r.receipt.Action?.actions?.length,
    );
    assert.deepEqual(deployReceipt.receipt.Action.actions, [
      { DeployGlobalContract: { code: base64Encode(sha256(v3)) } },
    ]);
    await waitDistributed(
      { request_type: 'view_global_contract_code', code_hash: base58Encode(sha256(v3)) },
      v3,
    );
    ok(await call(f1, 'deploy_account', v2));
    await waitDistributed(
      { request_type: 'view_global_contract_code_by_account_id', account_id: f1.accountId },
      v2,
    );

    ok(await call(f2, 'use_hash', sha256(v3)));
    assert.equal((await viewAccountJson(t.url, f2.accountId)).global_contract_hash, base58Encode(sha256(v3)));
    assert.equal(await callView(f2.accountId, 'version'), 'v3');
    ok(await call(f3, 'use_account', new TextEncoder().encode(f1.accountId)));
    assert.equal((await viewAccountJson(t.url, f3.accountId)).global_contract_account_id, f1.accountId);
    assert.equal(await callView(f3.accountId, 'version'), 'v2');

    // A hash that is not 32 bytes fails in the host function; an unknown one when the action runs.
    const malformed = await call(f1, 'use_hash', new Uint8Array(31));
    assert.deepEqual(malformed.receipts_outcome[0].outcome.status, {
      Failure: {
        ActionError: {
          index: 0,
          kind: { FunctionCallError: { ExecutionError: 'contract code hash is malformed' } },
        },
      },
    });
    const unknown = await call(f1, 'use_hash', new Uint8Array(32).fill(7));
    const failed = unknown.receipts_outcome.find((o: Json) => 'Failure' in o.outcome.status);
    assert.deepEqual(failed.outcome.status.Failure.ActionError.kind, {
      GlobalContractDoesNotExist: { identifier: { CodeHash: base58Encode(new Uint8Array(32).fill(7)) } },
    });
    const badAccount = await call(f1, 'use_account', new TextEncoder().encode('Not An Id'));
    assert.deepEqual(badAccount.receipts_outcome[0].outcome.status.Failure.ActionError.kind, {
      FunctionCallError: { ExecutionError: 'VM Logic returned an invalid account id' },
    });
  });

  it('refuses a deploy whose storage the account cannot pay: LackBalanceForState', async () => {
    const poor = await createAccount(t.url, t.rootSigner, 'poor.test.near', ONE_NEAR);
    const r = await send(poor, poor.accountId, [
      { type: 'DeployGlobalContract', code: v1, deployMode: 'CodeHash' },
    ]);
    const storage = t.cfg.globalContractStorageAmountPerByte * BigInt(v1.length);
    if (storage > ONE_NEAR) {
      assert.deepEqual(status(r).Failure.ActionError.kind, {
        LackBalanceForState: { account_id: poor.accountId, amount: storage.toString() },
      });
    }
  });
});
