/**
 * End to end: universal accounts (NEP-655) on a real node at protocol 87, then the same steps at 86. At 87 a
 * transfer to a `0u…` id creates an uninitialized account (view_account's `state` and `bootstrap_nonce`) that
 * refuses AddKey with `AccountNotInitialized`; the account then signs its own state init (the self-signed
 * bootstrap: a key it does not commit to is `AccessKeyNotFound`, a nonce other than bootstrap_nonce + 1 is
 * `InvalidNonce`) and ends initialized with its key and data; a state init sent to another id is
 * `InvalidUniversalStateInitReceiver`; a contract creates a universal account through
 * `universal_state_init_to_account_id` and `promise_batch_action_universal_state_init`, and bytes that are no
 * state init fail its call with `MalformedUniversalStateInit`. At 86 the transfer finds no account, the action
 * is `UnsupportedProtocolFeature` and the host functions do not link, as nearcore 2.14 has it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Action,
  encodeUniversalStateInit,
  KeyPair,
  ONE_NEAR,
  publicKeyHandle,
  TGAS,
  universalAccountIdOfRaw,
  universalStateInit,
} from '@shadebox/primitives';
import type { Json } from './support/raw-rpc.js';
import { rpcRaw } from './support/raw-rpc.js';
import { rpc, viewAccountJson } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { createAccount, sendTx } from './support/transactions.js';
import { wat } from './vm-wat-helpers.js';

/** `create(input = state init bytes)`: derives their id, then sends them a UniversalStateInit with 1 NEAR. */
const CREATOR = `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "universal_state_init_to_account_id" (func $uaid (param i64 i64 i64)))
  (import "env" "promise_batch_create" (func $batch (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_universal_state_init" (func $init (param i64 i64 i64 i64)))
  (memory (export "memory") 1)
  (data (i32.const 0) "\\00\\00\\a1\\ed\\cc\\ce\\1b\\c2\\d3\\00\\00\\00\\00\\00\\00\\00")
  (func (export "create") (local $p i64)
    (call $input (i64.const 1))
    (call $uaid (i64.const -1) (i64.const 1) (i64.const 2))
    (local.set $p (call $batch (i64.const -1) (i64.const 2)))
    (call $init (local.get $p) (i64.const -1) (i64.const 1) (i64.const 0))))`;

interface User {
  accountId: string;
  key: KeyPair;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The state init committing to `key`, with data entry greeting=hi. */
function stateInitFor(key: KeyPair): Uint8Array {
  return encodeUniversalStateInit(
    universalStateInit(
      null,
      [[Buffer.from('greeting'), Buffer.from('hi')]],
      [publicKeyHandle(key.publicKey)],
    ),
  );
}

const init = (raw: Uint8Array, deposit = 0n): Action => ({
  type: 'UniversalStateInit',
  stateInit: raw,
  deposit,
});

/** The `data` of a refused send_tx, or undefined when it was accepted. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { error?: Json }) => e.error?.data,
  );

async function accountOrError(url: string, accountId: string): Promise<Json> {
  const r = await rpcRaw(url, 'query', {
    request_type: 'view_account',
    finality: 'final',
    account_id: accountId,
  });
  return r.result ?? r.error;
}

describe('universal accounts at protocol 87 (NEP-655)', () => {
  let t: TestNode;
  let alice: User;
  const key = KeyPair.fromRandom();
  const raw = stateInitFor(key);
  const uaid = universalAccountIdOfRaw(raw);

  before(async () => {
    t = await startTestNode({ protocolVersion: 87 });
    alice = await createAccount(t.url, t.rootSigner, 'alice.test.near', 100n * ONE_NEAR);
  });
  after(() => t?.stop());

  it('a transfer creates the account uninitialized, with the nonce its own state init must follow', async () => {
    const r = await sendTx(t.url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: uaid,
      actions: [{ type: 'Transfer', deposit: 3n * ONE_NEAR }],
    });
    assert.ok('SuccessValue' in r.status, JSON.stringify(r.status));
    const view = await viewAccountJson(t.url, uaid);
    assert.equal(view.amount, (3n * ONE_NEAR).toString());
    assert.equal(view.state, 'uninitialized');
    assert.equal(typeof view.bootstrap_nonce, 'number');
    assert.ok(view.bootstrap_nonce > 0);
    assert.equal(view.code_hash, '11111111111111111111111111111111');
  });

  it('refuses AddKey while uninitialized (AccountNotInitialized)', async () => {
    const r = await sendTx(t.url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: uaid,
      actions: [
        {
          type: 'AddKey',
          publicKey: alice.key.publicKey,
          accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
        },
      ],
    });
    assert.deepEqual(r.status.Failure.ActionError, {
      index: 0,
      kind: { AccountNotInitialized: { account_id: uaid } },
    });
  });

  it('the bootstrap transaction: a wrong key or nonce is refused, then the account initializes itself', async () => {
    const { bootstrap_nonce: bootstrapNonce } = await viewAccountJson(t.url, uaid);
    const stranger = KeyPair.fromRandom();
    const self = (k: KeyPair, nonce: bigint) =>
      sendTx(t.url, { signerId: uaid, key: k, receiverId: uaid, nonce, actions: [init(raw)] });
    assert.deepEqual(await refusal(self(stranger, BigInt(bootstrapNonce) + 1n)), {
      TxExecutionError: {
        InvalidTxError: {
          InvalidAccessKeyError: {
            AccessKeyNotFound: { account_id: uaid, public_key: stranger.publicKeyString },
          },
        },
      },
    });
    assert.deepEqual(await refusal(self(key, BigInt(bootstrapNonce) + 2n)), {
      TxExecutionError: {
        InvalidTxError: { InvalidNonce: { tx_nonce: bootstrapNonce + 2, ak_nonce: bootstrapNonce } },
      },
    });

    const r = await self(key, BigInt(bootstrapNonce) + 1n);
    assert.ok('SuccessValue' in r.status, JSON.stringify(r.status));
    const view = await viewAccountJson(t.url, uaid);
    assert.equal(view.state, undefined);
    assert.equal(view.bootstrap_nonce, undefined);
    const ak = await rpc(t.url, 'query', {
      request_type: 'view_access_key',
      finality: 'final',
      account_id: uaid,
      public_key: key.publicKeyString,
    });
    assert.equal(ak.permission, 'FullAccess');
    assert.ok(ak.nonce >= bootstrapNonce + 1, 'the key starts above the consumed bootstrap nonce');
    const state = await rpc(t.url, 'query', {
      request_type: 'view_state',
      finality: 'final',
      account_id: uaid,
      prefix_base64: '',
    });
    assert.deepEqual(state.values, [{ key: b64('greeting'), value: b64('hi') }]);
    // The installed key signs ordinary transactions now.
    const spend = await sendTx(t.url, {
      signerId: uaid,
      key,
      receiverId: alice.accountId,
      actions: [{ type: 'Transfer', deposit: ONE_NEAR }],
    });
    assert.ok('SuccessValue' in spend.status, JSON.stringify(spend.status));
  });

  it('a state init sent to another id is refused (InvalidUniversalStateInitReceiver)', async () => {
    const other = universalAccountIdOfRaw(new Uint8Array(10));
    assert.deepEqual(
      await refusal(
        sendTx(t.url, { signerId: alice.accountId, key: alice.key, receiverId: other, actions: [init(raw)] }),
      ),
      {
        TxExecutionError: {
          InvalidTxError: {
            ActionsValidation: {
              InvalidUniversalStateInitReceiver: { receiver_id: other, derived_id: uaid },
            },
          },
        },
      },
    );
  });

  it('a contract creates a universal account through the two host functions', async () => {
    const creator = await createAccount(t.url, t.rootSigner, 'creator.test.near', 20n * ONE_NEAR);
    const deployed = await sendTx(t.url, {
      signerId: creator.accountId,
      key: creator.key,
      receiverId: creator.accountId,
      actions: [{ type: 'DeployContract', code: await wat(CREATOR) }],
    });
    assert.ok('SuccessValue' in deployed.status);
    const owner = KeyPair.fromRandom();
    const made = stateInitFor(owner);
    const madeId = universalAccountIdOfRaw(made);
    const call = (args: Uint8Array) =>
      sendTx(t.url, {
        signerId: creator.accountId,
        key: creator.key,
        receiverId: creator.accountId,
        actions: [{ type: 'FunctionCall', methodName: 'create', args, gas: 100n * TGAS, deposit: 0n }],
      });
    const r = await call(made);
    assert.ok('SuccessValue' in r.status, JSON.stringify(r.status));
    const view = await viewAccountJson(t.url, madeId);
    assert.equal(view.state, undefined);
    const ak = await rpc(t.url, 'query', {
      request_type: 'view_access_key',
      finality: 'final',
      account_id: madeId,
      public_key: owner.publicKeyString,
    });
    assert.equal(ak.permission, 'FullAccess');

    const malformed = await call(Uint8Array.of(7, 7, 7));
    assert.deepEqual(malformed.status.Failure.ActionError, {
      index: 0,
      kind: { NewReceiptValidationError: { ActionsValidation: 'MalformedUniversalStateInit' } },
    });
  });
});

describe('universal accounts at protocol 86 (before NEP-655)', () => {
  let t: TestNode;
  let alice: User;
  const key = KeyPair.fromRandom();
  const raw = stateInitFor(key);
  const uaid = universalAccountIdOfRaw(raw);

  before(async () => {
    t = await startTestNode({ protocolVersion: 86 });
    alice = await createAccount(t.url, t.rootSigner, 'alice.test.near', 100n * ONE_NEAR);
  });
  after(() => t?.stop());

  it('a transfer to a 0u id finds no account; the state init is UnsupportedProtocolFeature', async () => {
    const r = await sendTx(t.url, {
      signerId: alice.accountId,
      key: alice.key,
      receiverId: uaid,
      actions: [{ type: 'Transfer', deposit: ONE_NEAR }],
    });
    assert.deepEqual(r.status.Failure.ActionError, {
      index: 0,
      kind: { AccountDoesNotExist: { account_id: uaid } },
    });
    assert.equal((await accountOrError(t.url, uaid)).cause?.name, 'UNKNOWN_ACCOUNT');
    assert.deepEqual(
      await refusal(
        sendTx(t.url, { signerId: alice.accountId, key: alice.key, receiverId: uaid, actions: [init(raw)] }),
      ),
      {
        TxExecutionError: {
          InvalidTxError: {
            ActionsValidation: {
              UnsupportedProtocolFeature: { protocol_feature: 'UniversalAccounts', version: 86 },
            },
          },
        },
      },
    );
  });

  it('a contract importing the NEP-655 host functions does not link', async () => {
    const creator = await createAccount(t.url, t.rootSigner, 'creator.test.near', 20n * ONE_NEAR);
    await sendTx(t.url, {
      signerId: creator.accountId,
      key: creator.key,
      receiverId: creator.accountId,
      actions: [{ type: 'DeployContract', code: await wat(CREATOR) }],
    });
    const r = await sendTx(t.url, {
      signerId: creator.accountId,
      key: creator.key,
      receiverId: creator.accountId,
      actions: [{ type: 'FunctionCall', methodName: 'create', args: raw, gas: 100n * TGAS, deposit: 0n }],
    });
    const kind = r.status.Failure?.ActionError?.kind;
    assert.ok(kind?.FunctionCallError, JSON.stringify(r.status));
    assert.match(JSON.stringify(kind), /universal_state_init_to_account_id|LinkError|Link/);
  });
});
