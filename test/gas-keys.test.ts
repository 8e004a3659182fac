/**
 * Gas keys (NEP-611) end to end through a real node: a gas key is added (its nonces appear in state and in
 * `view_gas_key_nonces`), funded with TransferToGasKey, signs TransactionV1s with gas-key nonces whose gas
 * comes from its balance and whose deposits come from the account, takes its gas refunds back, is drained
 * with WithdrawFromGasKey and deleted with its nonces. The errors nearcore gives for each misuse are checked,
 * and near-kit (an independent client that implements gas keys) drives the same flow.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stateRecordsAt } from '@shadebox/node';
import {
  type Action,
  gasKeyFullAccessKey,
  gasKeyFunctionCallAccessKey,
  type KeyPair,
  ONE_NEAR as NEAR,
  TGAS,
} from '@shadebox/primitives';
import { Near } from 'near-kit';
import { type Json, postRpc } from './support/raw-rpc.js';
import { balanceOf, rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { buildTx, createAccount, sendTx, type TxFields } from './support/transactions.js';
import { testRandom } from './test-random.js';
import { callRaw, execError, failureKind, view, wat } from './vm-wat-helpers.js';

const rng = testRandom('test/gas-keys.test.ts');

function query(url: string, request: Record<string, unknown>): Promise<Json> {
  return rpc(url, 'query', { finality: 'optimistic', ...request });
}

function accessKeyView(url: string, accountId: string, key: KeyPair): Promise<Json> {
  return query(url, {
    request_type: 'view_access_key',
    account_id: accountId,
    public_key: key.publicKeyString,
  });
}

async function gasKeyNonces(url: string, accountId: string, key: KeyPair): Promise<bigint[]> {
  const view = await query(url, {
    request_type: 'view_gas_key_nonces',
    account_id: accountId,
    public_key: key.publicKeyString,
  });
  return view.nonces.map((n: number) => BigInt(n));
}

async function gasKeyBalance(url: string, accountId: string, key: KeyPair): Promise<bigint> {
  const { permission } = await accessKeyView(url, accountId, key);
  return BigInt((permission.GasKeyFullAccess ?? permission.GasKeyFunctionCall).balance);
}

/** The InvalidTxError a transaction is refused with by `send_tx`. */
async function rejection(url: string, f: TxFields): Promise<unknown> {
  const tx = await buildTx(url, f);
  const answer = await postRpc(url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: 'FINAL' });
  const body = JSON.parse(answer.text);
  assert.ok(body.error, `expected a rejection, got ${answer.text}`);
  return body.error.data.TxExecutionError.InvalidTxError;
}

describe('gas keys', { timeout: 300_000 }, () => {
  let t: TestNode;
  let url: string;
  let alice: { accountId: string; key: KeyPair };
  const gasKey = rng.keyPair();
  const transfer = (deposit: bigint): Action[] => [{ type: 'Transfer', deposit }];

  before(async () => {
    t = await startTestNode();
    url = t.url;
    alice = await createAccount(url, t.rootSigner, 'alice.test.near', 100n * NEAR);
  });
  after(() => t?.stop());

  test('AddKey with a GasKeyFullAccess permission writes the key and one nonce per index', async () => {
    const result = await sendTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [{ type: 'AddKey', publicKey: gasKey.publicKey, accessKey: gasKeyFullAccessKey(3) }],
    });
    assert.deepEqual(result.status, { SuccessValue: '' });
    const view = await accessKeyView(url, alice.accountId, gasKey);
    assert.equal(view.nonce, 0);
    assert.deepEqual(view.permission, { GasKeyFullAccess: { balance: '0', num_nonces: 3 } });
    const nonces = await gasKeyNonces(url, alice.accountId, gasKey);
    assert.equal(nonces.length, 3);
    // Every index starts at (height of the applying block - 1) * 1e6.
    assert.ok(nonces.every((n) => n === nonces[0] && n % 1_000_000n === 0n && n > 0n));

    // The key list shows the key once (its nonces live under its state key but are not keys).
    const list = await query(url, { request_type: 'view_access_key_list', account_id: alice.accountId });
    const listed = list.keys.filter((k: Json) => k.public_key === gasKey.publicKeyString);
    assert.equal(listed.length, 1);
    assert.equal(list.keys.length, 2);

    // The nonce writes are state changes of the key (`gas_key_nonce_update`).
    const block = result.receipts_outcome[0].block_hash;
    const changes = await rpc(url, 'EXPERIMENTAL_changes', {
      block_id: block,
      changes_type: 'single_access_key_changes',
      keys: [{ account_id: alice.accountId, public_key: gasKey.publicKeyString }],
    });
    const kinds = changes.changes.map((c: Json) => c.type);
    assert.deepEqual(kinds, [
      'access_key_update',
      'gas_key_nonce_update',
      'gas_key_nonce_update',
      'gas_key_nonce_update',
    ]);
    assert.deepEqual(
      changes.changes.slice(1).map((c: Json) => [c.change.index, BigInt(c.change.nonce)]),
      [
        [0, nonces[0]],
        [1, nonces[0]],
        [2, nonces[0]],
      ],
    );
  });

  test('a state dump has the gas key and one GasKeyNonce record per index (nearcore StateRecord)', async () => {
    const records = stateRecordsAt(t.node.chain, t.node.chain.head.height) as Json[];
    const mine = records.filter(
      (r) =>
        (r.AccessKey?.public_key ?? r.GasKeyNonce?.public_key) === gasKey.publicKeyString &&
        (r.AccessKey?.account_id ?? r.GasKeyNonce?.account_id) === alice.accountId,
    );
    const nonces = await gasKeyNonces(url, alice.accountId, gasKey);
    assert.deepEqual(mine, [
      {
        AccessKey: {
          account_id: alice.accountId,
          public_key: gasKey.publicKeyString,
          access_key: { nonce: 0, permission: { GasKeyFullAccess: { balance: '0', num_nonces: 3 } } },
        },
      },
      ...[0, 1, 2].map((index) => ({
        GasKeyNonce: {
          account_id: alice.accountId,
          public_key: gasKey.publicKeyString,
          index,
          nonce: Number(nonces[index]),
        },
      })),
    ]);
  });

  test('TransferToGasKey funds the key from the account', async () => {
    const before = await balanceOf(url, alice.accountId, { finality: 'optimistic' });
    const result = await sendTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [{ type: 'TransferToGasKey', publicKey: gasKey.publicKey, deposit: 2n * NEAR }],
    });
    assert.deepEqual(result.status, { SuccessValue: '' });
    assert.deepEqual(result.transaction.actions, [
      { TransferToGasKey: { public_key: gasKey.publicKeyString, deposit: (2n * NEAR).toString() } },
    ]);
    assert.equal(await gasKeyBalance(url, alice.accountId, gasKey), 2n * NEAR);
    const after = await balanceOf(url, alice.accountId, { finality: 'optimistic' });
    assert.ok(before - after > 2n * NEAR && before - after < 2n * NEAR + NEAR / 100n);
  });

  test('a TransactionV1 with a gas-key nonce: gas from the key, the deposit from the account', async () => {
    const [, n1] = await gasKeyNonces(url, alice.accountId, gasKey);
    const accountBefore = await balanceOf(url, alice.accountId, { finality: 'optimistic' });
    const keyBefore = await gasKeyBalance(url, alice.accountId, gasKey);
    const result = await sendTx(url, {
      signerId: alice.accountId,
      key: gasKey,
      receiverId: 'test.near',
      actions: transfer(7n),
      nonce: n1 + 1n,
      nonceIndex: 1,
    });
    assert.deepEqual(result.status, { SuccessValue: '' });
    assert.equal(result.transaction.nonce_index, 1);
    assert.equal(result.transaction.nonce_mode, 'monotonic');
    assert.equal(result.transaction.priority_fee, 0);
    const nonces = await gasKeyNonces(url, alice.accountId, gasKey);
    assert.equal(nonces[1], n1 + 1n);
    assert.equal(nonces[0], n1);
    assert.equal(await balanceOf(url, alice.accountId, { finality: 'optimistic' }), accountBefore - 7n);
    const spent = keyBefore - (await gasKeyBalance(url, alice.accountId, gasKey));
    const burnt = BigInt(result.transaction_outcome.outcome.tokens_burnt);
    const receiptBurnt = result.receipts_outcome.reduce(
      (sum: bigint, o: Json) => sum + BigInt(o.outcome.tokens_burnt),
      0n,
    );
    // The key paid exactly what was burnt: what it bought beyond that came back as a gas refund.
    assert.equal(spent, burnt + receiptBurnt);
    // The access key's own nonce is unused by gas keys.
    assert.equal((await accessKeyView(url, alice.accountId, gasKey)).nonce, 0);
  });

  test('strict nonce mode wants exactly the next nonce', async () => {
    const [n0] = await gasKeyNonces(url, alice.accountId, gasKey);
    const f = { signerId: alice.accountId, key: gasKey, receiverId: 'test.near', actions: transfer(1n) };
    assert.deepEqual(await rejection(url, { ...f, nonce: n0 + 2n, nonceIndex: 0, nonceMode: 'Strict' }), {
      InvalidNonce: { tx_nonce: Number(n0 + 2n), ak_nonce: Number(n0) },
    });
    const ok = await sendTx(url, { ...f, nonce: n0 + 1n, nonceIndex: 0, nonceMode: 'Strict' });
    assert.equal(ok.transaction.nonce_mode, 'strict');
    assert.equal((await gasKeyNonces(url, alice.accountId, gasKey))[0], n0 + 1n);
  });

  test('the errors of gas-key transactions', async () => {
    const [n0] = await gasKeyNonces(url, alice.accountId, gasKey);
    const f = { signerId: alice.accountId, key: gasKey, receiverId: 'test.near', actions: transfer(1n) };
    // A used nonce.
    assert.deepEqual(await rejection(url, { ...f, nonce: n0, nonceIndex: 0 }), {
      InvalidNonce: { tx_nonce: Number(n0), ak_nonce: Number(n0) },
    });
    // An index past the key's nonces.
    assert.deepEqual(await rejection(url, { ...f, nonce: n0 + 1n, nonceIndex: 3 }), {
      InvalidNonceIndex: { tx_nonce_index: 3, num_nonces: 3 },
    });
    // A gas key signing with a plain nonce (V0, or V1 without an index).
    assert.deepEqual(await rejection(url, { ...f, nonce: n0 + 1n }), {
      InvalidNonceIndex: { tx_nonce_index: null, num_nonces: 3 },
    });
    assert.deepEqual(await rejection(url, { ...f, nonce: n0 + 1n, nonceMode: 'Monotonic' }), {
      InvalidNonceIndex: { tx_nonce_index: null, num_nonces: 3 },
    });
    // Deposits the account cannot pay.
    const balance = await balanceOf(url, alice.accountId, { finality: 'optimistic' });
    const poor = (await rejection(url, {
      ...f,
      actions: transfer(1000n * NEAR),
      nonce: n0 + 1n,
      nonceIndex: 0,
    })) as Json;
    assert.deepEqual(poor, {
      NotEnoughBalanceForDeposit: {
        signer_id: alice.accountId,
        balance: balance.toString(),
        cost: (1000n * NEAR).toString(),
        reason: 'NotEnoughBalance',
      },
    });
    // Gas the key cannot pay: a second, barely funded key.
    const small = rng.keyPair();
    await sendTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [
        { type: 'AddKey', publicKey: small.publicKey, accessKey: gasKeyFullAccessKey(1) },
        { type: 'TransferToGasKey', publicKey: small.publicKey, deposit: 1000n },
      ],
    });
    const [s0] = await gasKeyNonces(url, alice.accountId, small);
    const broke = (await rejection(url, { ...f, key: small, nonce: s0 + 1n, nonceIndex: 0 })) as Json;
    assert.equal(broke.NotEnoughGasKeyBalance.signer_id, alice.accountId);
    assert.equal(broke.NotEnoughGasKeyBalance.balance, '1000');
    assert.ok(BigInt(broke.NotEnoughGasKeyBalance.cost) > 1000n);
  });

  test('AddKey refuses invalid gas keys (ActionsValidationError)', async () => {
    const k = rng.keyPair();
    const add = (permission: Json) =>
      rejection(url, {
        signerId: alice.accountId,
        key: alice.key,
        receiverId: alice.accountId,
        actions: [{ type: 'AddKey', publicKey: k.publicKey, accessKey: { nonce: 0n, permission } }],
      });
    assert.deepEqual(await add({ kind: 'GasKeyFullAccess', gasKeyInfo: { balance: 0n, numNonces: 0 } }), {
      ActionsValidation: { GasKeyInvalidNumNonces: { requested_nonces: 0, limit: 1024 } },
    });
    assert.deepEqual(await add({ kind: 'GasKeyFullAccess', gasKeyInfo: { balance: 0n, numNonces: 1025 } }), {
      ActionsValidation: { GasKeyInvalidNumNonces: { requested_nonces: 1025, limit: 1024 } },
    });
    assert.deepEqual(await add({ kind: 'GasKeyFullAccess', gasKeyInfo: { balance: 5n, numNonces: 1 } }), {
      ActionsValidation: { AddGasKeyWithNonZeroBalance: { balance: '5' } },
    });
    const withAllowance = gasKeyFunctionCallAccessKey(1, 'test.near', [], 10n).permission;
    assert.deepEqual(await add(withAllowance), {
      ActionsValidation: 'GasKeyFunctionCallAllowanceNotAllowed',
    });
  });

  test('a GasKeyFunctionCall key signs only its calls', async () => {
    const fc = rng.keyPair();
    await sendTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [
        {
          type: 'AddKey',
          publicKey: fc.publicKey,
          accessKey: gasKeyFunctionCallAccessKey(2, 'test.near', ['go']),
        },
        { type: 'TransferToGasKey', publicKey: fc.publicKey, deposit: NEAR },
      ],
    });
    const view = await accessKeyView(url, alice.accountId, fc);
    assert.deepEqual(view.permission, {
      GasKeyFunctionCall: {
        balance: NEAR.toString(),
        num_nonces: 2,
        allowance: null,
        receiver_id: 'test.near',
        method_names: ['go'],
      },
    });
    const [n0] = await gasKeyNonces(url, alice.accountId, fc);
    const f = { signerId: alice.accountId, key: fc, nonce: n0 + 1n, nonceIndex: 0 };
    assert.deepEqual(await rejection(url, { ...f, receiverId: 'test.near', actions: transfer(1n) }), {
      InvalidAccessKeyError: 'RequiresFullAccess',
    });
    const call: Action = {
      type: 'FunctionCall',
      methodName: 'other',
      args: new Uint8Array(),
      gas: TGAS,
      deposit: 0n,
    };
    assert.deepEqual(await rejection(url, { ...f, receiverId: 'test.near', actions: [call] }), {
      InvalidAccessKeyError: { MethodNameMismatch: { method_name: 'other' } },
    });
  });

  test('WithdrawFromGasKey moves balance back; too much fails with InsufficientGasKeyBalance', async () => {
    const keyBefore = await gasKeyBalance(url, alice.accountId, gasKey);
    const accountBefore = await balanceOf(url, alice.accountId, { finality: 'optimistic' });
    const result = await sendTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [{ type: 'WithdrawFromGasKey', publicKey: gasKey.publicKey, amount: NEAR }],
    });
    assert.deepEqual(result.status, { SuccessValue: '' });
    assert.equal(await gasKeyBalance(url, alice.accountId, gasKey), keyBefore - NEAR);
    const gained = (await balanceOf(url, alice.accountId, { finality: 'optimistic' })) - accountBefore;
    assert.ok(gained > NEAR - NEAR / 100n && gained < NEAR);

    const tooMuch = await sendTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [{ type: 'WithdrawFromGasKey', publicKey: gasKey.publicKey, amount: 100n * NEAR }],
    });
    assert.deepEqual(tooMuch.status.Failure.ActionError, {
      index: 0,
      kind: {
        InsufficientGasKeyBalance: {
          account_id: alice.accountId,
          public_key: gasKey.publicKeyString,
          balance: (keyBefore - NEAR).toString(),
          required: (100n * NEAR).toString(),
        },
      },
    });
    // Funding a key that is not a gas key.
    const notGas = await sendTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [{ type: 'TransferToGasKey', publicKey: alice.key.publicKey, deposit: 1n }],
    });
    assert.deepEqual(notGas.status.Failure.ActionError.kind, {
      GasKeyDoesNotExist: { account_id: alice.accountId, public_key: alice.key.publicKeyString },
    });
  });

  test('DeleteKey removes the gas key and its nonces', async () => {
    const storageBefore = (await query(url, { request_type: 'view_account', account_id: alice.accountId }))
      .storage_usage;
    await sendTx(url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: alice.accountId,
      actions: [{ type: 'DeleteKey', publicKey: gasKey.publicKey }],
    });
    const answer = await postRpc(url, 'query', {
      finality: 'optimistic',
      request_type: 'view_gas_key_nonces',
      account_id: alice.accountId,
      public_key: gasKey.publicKeyString,
    });
    const error = JSON.parse(answer.text).error;
    assert.equal(error.cause.name, 'UNKNOWN_GAS_KEY');
    assert.equal(error.cause.info.public_key, gasKey.publicKeyString);
    const storageAfter = (await query(url, { request_type: 'view_account', account_id: alice.accountId }))
      .storage_usage;
    // The key record (33 + 27 + 40) and 3 nonce records (33 + 2 + 8 + 40 each).
    assert.equal(storageBefore - storageAfter, 100 + 3 * 83);
  });

  test('a contract adds and funds gas keys with the host functions (hand-written WAT), and their errors', async () => {
    const contract = await createAccount(url, t.rootSigner, 'gk-wat.test.near', 10n * NEAR);
    const code = await wat(GAS_KEY_WAT);
    await sendTx(url, {
      signerId: contract.accountId,
      key: contract.key,
      receiverId: contract.accountId,
      actions: [{ type: 'DeployContract', code }],
    });
    const caller = t.account(contract.accountId, contract.key.toString() as never);
    const full = rng.keyPair();
    const fc = rng.keyPair();
    const input = new Uint8Array([...full.publicKey.data, ...fc.publicKey.data]);
    const ok = await callRaw(caller, contract.accountId, 'add_and_fund', input, 100n * TGAS);
    assert.deepEqual(ok.status, { SuccessValue: '' }, JSON.stringify(ok.status));
    assert.deepEqual((await accessKeyView(url, contract.accountId, full)).permission, {
      GasKeyFullAccess: { balance: '1000', num_nonces: 2 },
    });
    assert.deepEqual((await accessKeyView(url, contract.accountId, fc)).permission, {
      GasKeyFunctionCall: {
        balance: '0',
        num_nonces: 1,
        allowance: null,
        receiver_id: 'test.near',
        method_names: ['go', 'stop'],
      },
    });
    assert.equal((await gasKeyNonces(url, contract.accountId, full)).length, 2);

    assert.deepEqual(
      failureKind(await callRaw(caller, contract.accountId, 'bad_key', new Uint8Array(), 100n * TGAS)),
      execError('VM Logic provided an invalid public key'),
    );
    assert.deepEqual(
      failureKind(await callRaw(caller, contract.accountId, 'too_many_nonces', input, 100n * TGAS)),
      execError('Integer overflow.'),
    );
    assert.deepEqual(
      failureKind(await callRaw(caller, contract.accountId, 'fund_too_much', input, 100n * TGAS)),
      execError('Exceeded the account balance.'),
    );
    const inView = await view(url, contract.accountId, 'add_and_fund', input);
    assert.match(inView.error, /HostError\(ProhibitedInView \{ method_name: "promise_batch_create" \}\)/);
    assert.match(
      (await view(url, contract.accountId, 'fund_in_view', input)).error,
      /HostError\(ProhibitedInView \{ method_name: "promise_batch_action_transfer_to_gas_key" \}\)/,
    );
    // The receipt the host function made fails like the action would: a key that is not a gas key.
    const notGas = await callRaw(
      caller,
      contract.accountId,
      'fund_not_gas_key',
      new Uint8Array([...contract.key.publicKey.data]),
      100n * TGAS,
    );
    const failed = notGas.receipts_outcome.find((o: Json) => o.outcome.status.Failure);
    assert.deepEqual(failed.outcome.status.Failure.ActionError.kind, {
      GasKeyDoesNotExist: { account_id: contract.accountId, public_key: contract.key.publicKeyString },
    });
  });

  test('near-kit adds, funds and signs with a gas key on this node', async () => {
    const bob = await createAccount(url, t.rootSigner, 'bob.test.near', 20n * NEAR);
    const kitKey = rng.keyPair();
    const owner = new Near({
      network: { rpcUrl: url, networkId: 'localnet' },
      privateKey: bob.key.toString() as never,
      defaultSignerId: bob.accountId,
      defaultWaitUntil: 'FINAL',
    });
    await owner
      .transaction(bob.accountId)
      .addKey(kitKey.publicKeyString, { type: 'gasKeyFullAccess', numNonces: 2 } as never)
      .transferToGasKey(kitKey.publicKeyString, '1 NEAR' as never)
      .send();
    assert.equal(await gasKeyBalance(url, bob.accountId, kitKey), NEAR);

    const gas = new Near({
      network: { rpcUrl: url, networkId: 'localnet' },
      privateKey: kitKey.toString() as never,
      defaultSignerId: bob.accountId,
      defaultWaitUntil: 'FINAL',
    });
    const before = await gasKeyNonces(url, bob.accountId, kitKey);
    const outcome = (await gas
      .transaction(bob.accountId)
      .useGasKey(1)
      .transfer('test.near', '1 yocto' as never)
      .send()) as Json;
    assert.deepEqual(outcome.status, { SuccessValue: '' });
    const after = await gasKeyNonces(url, bob.accountId, kitKey);
    assert.equal(after[1], before[1] + 1n);
    assert.ok((await gasKeyBalance(url, bob.accountId, kitKey)) < NEAR);
  });
});

/**
 * A contract over the three gas-key host functions. `add_and_fund` takes two ed25519 keys (64 bytes of input):
 * it adds the first as a GasKeyFullAccess key with 2 nonces funded with 1000 yocto, the second as a
 * GasKeyFunctionCall key (1 nonce, test.near, "go,stop"), on a receipt to itself. The other methods call
 * them wrongly: a 3-byte key, 65,536 nonces, more than the balance, from a view, and funding a key that is
 * not a gas key (the input's 32 bytes).
 */
const GAS_KEY_WAT = `(module
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_add_gas_key_with_full_access" (func $add_full (param i64 i64 i64 i64)))
  (import "env" "promise_batch_action_add_gas_key_with_function_call"
    (func $add_fc (param i64 i64 i64 i64 i64 i64 i64 i64 i64)))
  (import "env" "promise_batch_action_transfer_to_gas_key" (func $fund (param i64 i64 i64 i64)))
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read (param i64 i64)))
  (import "env" "register_len" (func $rlen (param i64) (result i64)))
  (import "env" "current_account_id" (func $cur (param i64)))
  (memory (export "memory") 1)
  (data (i32.const 400) "test.near")
  (data (i32.const 420) "go,stop")
  ;; keys at 0 (tag 0 + 32 bytes) and 33; amounts at 100 (1000) and 120 (u128 max); account id at 1000
  (func $setup (result i64)
    (call $input (i64.const 1))
    (call $read (i64.const 1) (i64.const 1))
    (i32.store8 (i32.const 0) (i32.const 0))
    (memory.copy (i32.const 34) (i32.const 33) (i32.const 32))
    (i32.store8 (i32.const 33) (i32.const 0))
    (i64.store (i32.const 100) (i64.const 1000))
    (i64.store (i32.const 120) (i64.const -1))
    (i64.store (i32.const 128) (i64.const -1))
    (call $cur (i64.const 0))
    (call $read (i64.const 0) (i64.const 1000))
    (call $create (call $rlen (i64.const 0)) (i64.const 1000)))
  (func (export "add_and_fund") (local $p i64)
    (local.set $p (call $setup))
    (call $add_full (local.get $p) (i64.const 33) (i64.const 0) (i64.const 2))
    (call $fund (local.get $p) (i64.const 33) (i64.const 0) (i64.const 100))
    (call $add_fc (local.get $p) (i64.const 33) (i64.const 33) (i64.const 1) (i64.const 140)
      (i64.const 9) (i64.const 400) (i64.const 7) (i64.const 420)))
  (func (export "bad_key")
    (call $add_full (call $setup) (i64.const 3) (i64.const 0) (i64.const 1)))
  (func (export "too_many_nonces")
    (call $add_full (call $setup) (i64.const 33) (i64.const 0) (i64.const 65536)))
  (func (export "fund_too_much")
    (call $fund (call $setup) (i64.const 33) (i64.const 0) (i64.const 120)))
  (func (export "fund_in_view")
    (call $fund (i64.const 0) (i64.const 33) (i64.const 0) (i64.const 100)))
  (func (export "fund_not_gas_key") (local $p i64)
    (call $cur (i64.const 0))
    (call $read (i64.const 0) (i64.const 1000))
    (local.set $p (call $create (call $rlen (i64.const 0)) (i64.const 1000)))
    (call $input (i64.const 1))
    (call $read (i64.const 1) (i64.const 1))
    (i32.store8 (i32.const 0) (i32.const 0))
    (i64.store (i32.const 100) (i64.const 1))
    (call $fund (local.get $p) (i64.const 33) (i64.const 0) (i64.const 100))))`;
