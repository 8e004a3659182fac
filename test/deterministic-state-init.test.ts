/**
 * End to end: deterministic account state init (NEP-616) on a real node. A global contract deployed by account
 * id; a DeterministicStateInit transaction creates the `0s…` account with that contract and its data (the
 * deposit pays the storage, the rest comes back), a repeated one changes nothing and refunds everything; the
 * wrong receiver is refused at submission, a missing global contract fails the receipt; a transfer to an
 * uninitialised deterministic account creates it bare and a later state init activates it. Then the same from
 * a contract through the host functions, and NEAR Intents' defuse 0.4.1 (which imports them) initialised and
 * called.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  type Action,
  type DeterministicAccountStateInit,
  deterministicAccountId,
  type KeyPair,
  ONE_NEAR,
  stateInit,
  TGAS,
} from '@shadebox/primitives';
import type { Json } from './support/raw-rpc.js';
import { rpcRaw } from './support/raw-rpc.js';
import { balanceOf, rpc, viewAccountJson } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { createAccount, sendTx } from './support/transactions.js';
import { wat } from './vm-wat-helpers.js';

const STORAGE_PER_BYTE = 10n ** 19n;
const enc = (s: string) => new TextEncoder().encode(s);
const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');

/** A contract that returns its own account id and the value stored under "greeting". */
const GREETER = `(module
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "storage_read" (func $storage_read (param i64 i64 i64) (result i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (memory (export "memory") 1)
  (data (i32.const 0) "greeting")
  (func (export "greeting")
    (drop (call $storage_read (i64.const 8) (i64.const 0) (i64.const 0)))
    (call $read_register (i64.const 0) (i64.const 100))
    (call $value_return (call $register_len (i64.const 0)) (i64.const 100))))`;

/**
 * A factory: \`init(input = receiver id)\` sends a DeterministicStateInit to the receiver named by its input,
 * with the global contract "code.test.near", one data entry greeting=hi-from-host and 1 NEAR of deposit.
 */
const FACTORY = `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "promise_batch_create" (func $batch (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_state_init_by_account_id"
    (func $state_init (param i64 i64 i64 i64) (result i64)))
  (import "env" "set_state_init_data_entry" (func $entry (param i64 i64 i64 i64 i64 i64)))
  (memory (export "memory") 1)
  (data (i32.const 0) "code.test.near")
  (data (i32.const 16) "greeting")
  (data (i32.const 32) "hi-from-host")
  (data (i32.const 48) "\\00\\00\\a1\\ed\\cc\\ce\\1b\\c2\\d3\\00\\00\\00\\00\\00\\00\\00")
  (func (export "init") (local $p i64) (local $a i64)
    (call $input (i64.const 1))
    (local.set $p (call $batch (i64.const -1) (i64.const 1)))
    (local.set $a (call $state_init (local.get $p) (i64.const 14) (i64.const 0) (i64.const 48)))
    (call $entry (local.get $p) (local.get $a) (i64.const 8) (i64.const 16) (i64.const 12) (i64.const 32))))`;

interface User {
  accountId: string;
  key: KeyPair;
}

describe('deterministic account state init (NEP-616)', () => {
  let t: TestNode;
  let code: User;
  let alice: User;
  const codeId = 'code.test.near';

  const send = (from: User, receiverId: string, actions: Action[]) =>
    sendTx(t.url, { signerId: from.accountId, key: from.key, receiverId, actions });
  const stateInitAction = (init: DeterministicAccountStateInit, deposit: bigint): Action => ({
    type: 'DeterministicStateInit',
    stateInit: init,
    deposit,
  });
  const greeting = async (accountId: string) => {
    const r = await rpc(t.url, 'query', {
      request_type: 'call_function',
      finality: 'optimistic',
      account_id: accountId,
      method_name: 'greeting',
      args_base64: '',
    });
    return r.error ?? Buffer.from(r.result).toString();
  };
  /** Tokens burnt by the transaction and all its receipts. */
  const burnt = (r: Json) =>
    BigInt(r.transaction_outcome.outcome.tokens_burnt) +
    r.receipts_outcome.reduce((n: bigint, o: Json) => n + BigInt(o.outcome.tokens_burnt), 0n);
  /** The balance refund (not the gas refund) the receipt sent back to `receiverId`, if any. */
  const balanceRefunds = async (r: Json) => {
    const amounts: bigint[] = [];
    for (const o of r.receipts_outcome.slice(1)) {
      const receipt = await rpc(t.url, 'EXPERIMENTAL_receipt', { receipt_id: o.id });
      if (receipt.predecessor_id !== 'system') continue;
      const action = receipt.receipt.Action;
      if (action.signer_id === 'system') amounts.push(BigInt(action.actions[0].Transfer.deposit));
    }
    return amounts;
  };

  before(async () => {
    // Deploying defuse (1.4 MB) prepares it in the same block: on a loaded machine that takes seconds.
    t = await startTestNode({ txTimeoutMs: 600_000 });
    code = await createAccount(t.url, t.rootSigner, codeId, 100n * ONE_NEAR);
    alice = await createAccount(t.url, t.rootSigner, 'alice.test.near', 100n * ONE_NEAR);
    const r = await send(code, codeId, [
      { type: 'DeployGlobalContract', code: await wat(GREETER), deployMode: 'AccountId' },
    ]);
    assert.ok('SuccessValue' in r.receipts_outcome[0].outcome.status);
    for (let i = 0; i < 2000; i++) {
      const view = await rpcRaw(t.url, 'query', {
        request_type: 'view_global_contract_code_by_account_id',
        finality: 'optimistic',
        account_id: codeId,
      });
      if (view.result && t.node.chain.pendingReceiptCount === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  after(() => t?.stop());

  it('creates the account with the global contract and its data; the deposit pays the storage, the rest is refunded', async () => {
    const big = 'x'.repeat(1000);
    const init = stateInit({ kind: 'AccountId', accountId: codeId }, [
      [enc('greeting'), enc('hello')],
      [enc('big'), enc(big)],
    ]);
    const id = deterministicAccountId(init);
    assert.match(id, /^0s[0-9a-f]{40}$/);
    const deposit = 5n * ONE_NEAR;
    const before = await balanceOf(t.url, alice.accountId);
    const r = await send(alice, id, [stateInitAction(init, deposit)]);
    assert.deepEqual(r.status, { SuccessValue: '' });
    // The view nearcore gives: the code as {"account_id"}, the data base64 by base64, the deposit.
    assert.deepEqual(r.transaction.actions, [
      {
        DeterministicStateInit: {
          code: { account_id: codeId },
          data: { [b64('big')]: b64(big), [b64('greeting')]: b64('hello') },
          deposit: deposit.toString(),
        },
      },
    ]);
    // Send and exec gas: base + per entry + per byte of keys and values.
    const f = t.cfg.fees;
    const bytes = BigInt('greeting'.length + 'hello'.length + 'big'.length + big.length);
    const tx = r.transaction_outcome.outcome;
    assert.equal(
      BigInt(tx.gas_burnt),
      f.new_action_receipt.sendNotSir +
        f.deterministic_state_init_base.sendNotSir +
        2n * f.deterministic_state_init_entry.sendNotSir +
        bytes * f.deterministic_state_init_byte.sendNotSir,
    );
    assert.equal(
      BigInt(r.receipts_outcome[0].outcome.gas_burnt),
      f.new_action_receipt.execution +
        f.deterministic_state_init_base.execution +
        2n * f.deterministic_state_init_entry.execution +
        bytes * f.deterministic_state_init_byte.execution,
    );
    // Storage: the account, the identifier (the account id's bytes), each entry with its 40 extra bytes.
    const storage = 100n + BigInt(codeId.length) + bytes + 2n * 40n;
    const account = await viewAccountJson(t.url, id);
    assert.equal(BigInt(account.storage_usage), storage);
    assert.equal(account.global_contract_account_id, codeId);
    assert.equal(account.code_hash, '11111111111111111111111111111111');
    // Over the zero-balance limit: the account holds exactly its storage, the rest of the deposit came back.
    assert.ok(storage > 770n);
    assert.equal(BigInt(account.amount), storage * STORAGE_PER_BYTE);
    assert.deepEqual(await balanceRefunds(r), [deposit - storage * STORAGE_PER_BYTE]);
    assert.equal(await balanceOf(t.url, alice.accountId), before - storage * STORAGE_PER_BYTE - burnt(r));
    // The contract runs with its data; the account has no keys.
    assert.equal(await greeting(id), 'hello');
    const keys = await rpc(t.url, 'query', {
      request_type: 'view_access_key_list',
      finality: 'optimistic',
      account_id: id,
    });
    assert.deepEqual(keys.keys, []);

    // Again: nothing changes, the whole deposit comes back.
    const before2 = await balanceOf(t.url, alice.accountId);
    const r2 = await send(alice, id, [stateInitAction(init, deposit)]);
    assert.deepEqual(r2.status, { SuccessValue: '' });
    assert.deepEqual(await balanceRefunds(r2), [deposit]);
    assert.equal(await balanceOf(t.url, alice.accountId), before2 - burnt(r2));
    const { block_hash: _h, block_height: _n, ...unchanged } = await viewAccountJson(t.url, id);
    const { block_hash: _h0, block_height: _n0, ...was } = account;
    assert.deepEqual(unchanged, was);
  });

  it('a small account is zero-balance: the whole deposit is refunded; the sender stays the actor', async () => {
    const init = stateInit({ kind: 'AccountId', accountId: codeId }, [[enc('greeting'), enc('small')]]);
    const id = deterministicAccountId(init);
    // A key added after the init would need the new account to act on itself: it does not.
    const r = await sendTx(t.url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: id,
      actions: [
        stateInitAction(init, ONE_NEAR),
        {
          type: 'AddKey',
          publicKey: alice.key.publicKey,
          accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
        },
      ],
    });
    assert.deepEqual(r.status.Failure.ActionError, {
      index: 1,
      kind: { ActorNoPermission: { account_id: id, actor_id: alice.accountId } },
    });
    const ok = await send(alice, id, [stateInitAction(init, ONE_NEAR)]);
    assert.deepEqual(ok.status, { SuccessValue: '' });
    assert.deepEqual(await balanceRefunds(ok), [ONE_NEAR]);
    const account = await viewAccountJson(t.url, id);
    assert.equal(account.amount, '0');
    assert.equal(await greeting(id), 'small');
  });

  it('refuses a state init sent to another account, and fails one whose global contract does not exist', async () => {
    const init = stateInit({ kind: 'AccountId', accountId: codeId }, []);
    const refused = await sendTx(t.url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: 'bob.test.near',
      actions: [stateInitAction(init, 0n)],
    }).then(
      () => undefined,
      (e: { error?: Json }) => e.error,
    );
    assert.deepEqual(refused?.data, {
      TxExecutionError: {
        InvalidTxError: {
          ActionsValidation: {
            InvalidDeterministicStateInitReceiver: {
              receiver_id: 'bob.test.near',
              derived_id: deterministicAccountId(init),
            },
          },
        },
      },
    });

    const missing = stateInit({ kind: 'AccountId', accountId: 'nobody.test.near' }, []);
    const id = deterministicAccountId(missing);
    const before = await balanceOf(t.url, alice.accountId);
    const r = await send(alice, id, [stateInitAction(missing, ONE_NEAR)]);
    assert.deepEqual(r.status.Failure.ActionError, {
      index: 0,
      kind: { GlobalContractDoesNotExist: { identifier: { AccountId: 'nobody.test.near' } } },
    });
    assert.deepEqual(await balanceRefunds(r), [ONE_NEAR]);
    assert.equal(await balanceOf(t.url, alice.accountId), before - burnt(r));
    assert.equal(
      (await rpcRaw(t.url, 'query', { request_type: 'view_account', finality: 'optimistic', account_id: id }))
        .error?.cause?.name,
      'UNKNOWN_ACCOUNT',
    );
  });

  it('a transfer creates an uninitialised deterministic account; a state init then activates it', async () => {
    const init = stateInit({ kind: 'AccountId', accountId: codeId }, [[enc('greeting'), enc('later')]]);
    const id = deterministicAccountId(init);
    const r = await send(alice, id, [{ type: 'Transfer', deposit: 2n * ONE_NEAR }]);
    assert.deepEqual(r.status, { SuccessValue: '' });
    assert.deepEqual(
      {
        amount: (await viewAccountJson(t.url, id)).amount,
        storage: (await viewAccountJson(t.url, id)).storage_usage,
      },
      { amount: (2n * ONE_NEAR).toString(), storage: 100 },
    );
    const r2 = await send(alice, id, [stateInitAction(init, ONE_NEAR)]);
    assert.deepEqual(r2.status, { SuccessValue: '' });
    assert.deepEqual(await balanceRefunds(r2), [ONE_NEAR]);
    const account = await viewAccountJson(t.url, id);
    assert.equal(account.amount, (2n * ONE_NEAR).toString());
    assert.equal(account.global_contract_account_id, codeId);
    assert.equal(await greeting(id), 'later');
  });

  it('a contract initialises one through promise_batch_action_state_init_by_account_id and set_state_init_data_entry', async () => {
    const factory = await createAccount(t.url, t.rootSigner, 'factory.test.near', 50n * ONE_NEAR);
    const deployed = await send(factory, factory.accountId, [
      { type: 'DeployContract', code: await wat(FACTORY) },
    ]);
    assert.deepEqual(deployed.status, { SuccessValue: '' });
    const init = stateInit({ kind: 'AccountId', accountId: codeId }, [
      [enc('greeting'), enc('hi-from-host')],
    ]);
    const id = deterministicAccountId(init);
    const r = await send(alice, factory.accountId, [
      { type: 'FunctionCall', methodName: 'init', args: enc(id), gas: 100n * TGAS, deposit: 0n },
    ]);
    assert.deepEqual(r.status, { SuccessValue: '' });
    const all = r.receipts_outcome.map((o: Json) => o.outcome.status);
    assert.ok(
      all.every((s: Json) => !('Failure' in s)),
      JSON.stringify(all),
    );
    assert.equal(await greeting(id), 'hi-from-host');
    const account = await viewAccountJson(t.url, id);
    assert.equal(account.global_contract_account_id, codeId);
    // A zero-balance account: the 1 NEAR the factory attached went back to it.
    assert.equal(account.amount, '0');
    assert.ok((await balanceOf(t.url, factory.accountId)) > 49n * ONE_NEAR);
  });

  const DEFUSE = '../shared/corpus/intents/defuse-0.4.1.wasm';
  it('runs NEAR Intents defuse 0.4.1 (it imports the state init host functions) unmodified', {
    skip: !existsSync(DEFUSE),
  }, async () => {
    const intents = await createAccount(t.url, t.rootSigner, 'intents.test.near', 50n * ONE_NEAR);
    const deployed = await send(intents, intents.accountId, [
      { type: 'DeployContract', code: new Uint8Array(readFileSync(DEFUSE)) },
      {
        type: 'FunctionCall',
        methodName: 'new',
        args: enc(
          JSON.stringify({
            config: {
              wnear_id: 'wrap.test.near',
              fees: { fee: 0, fee_collector: 'intents.test.near' },
              roles: { super_admins: ['test.near'], admins: {}, grantees: {} },
            },
          }),
        ),
        gas: 300n * TGAS,
        deposit: 0n,
      },
    ]);
    assert.deepEqual(deployed.status, { SuccessValue: '' }, JSON.stringify(deployed.status));
    const view = async (method: string, args: unknown) => {
      const r = await rpc(t.url, 'query', {
        request_type: 'call_function',
        finality: 'optimistic',
        account_id: intents.accountId,
        method_name: method,
        args_base64: b64(JSON.stringify(args)),
      });
      assert.equal(r.error, undefined, `${method}: ${r.error}`);
      return JSON.parse(Buffer.from(r.result).toString());
    };
    assert.equal(await view('fee', {}), 0);
    assert.equal(await view('fee_collector', {}), 'intents.test.near');
    assert.equal(await view('acl_is_super_admin', { account_id: 'test.near' }), true);
    assert.equal(
      await view('has_public_key', { account_id: 'alice.test.near', public_key: alice.key.publicKeyString }),
      false,
    );
    assert.deepEqual(await view('public_keys_of', { account_id: 'alice.test.near' }), []);
    assert.equal(
      await view('mt_balance_of', { account_id: 'alice.test.near', token_id: 'nep141:wrap.test.near' }),
      '0',
    );
    // A call that writes state: alice registers a public key for herself.
    const added = await send(alice, intents.accountId, [
      {
        type: 'FunctionCall',
        methodName: 'add_public_key',
        args: enc(JSON.stringify({ public_key: alice.key.publicKeyString })),
        gas: 100n * TGAS,
        deposit: 1n,
      },
    ]);
    assert.ok(!('Failure' in added.status), JSON.stringify(added.status));
    assert.deepEqual(await view('public_keys_of', { account_id: 'alice.test.near' }), [
      alice.key.publicKeyString,
    ]);
  });
});
