/**
 * NEP-655 in the runtime at protocols 86 and 87 (the version passed explicitly): a transfer to a `0u…` id
 * creates an uninitialized account at 87 and fails at 86, the uninitialized account refuses every action but a
 * transfer and its state init (`AccountNotInitialized`), UniversalStateInit installs data and full-access keys
 * above the bootstrap nonce, and validation refuses a wrong receiver, bytes that do not decode and the action
 * before 87. Cases of nearcore's test-loop tests (integration-tests universal_account_id.rs).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  encodeUniversalStateInit,
  publicKeyHandle,
  universalAccountIdOfRaw,
  universalStateInit,
} from '@shadebox/primitives';
import { accountToView } from '../state/account.js';
import {
  actionReceipt,
  NEAR,
  RuntimeHarness,
  testPublicKey,
  testRuntimeParams,
} from './test-support/apply-receipt-harness.js';
import { ActionsValidationError, validateActions } from './validate-actions.js';

const at = (protocolVersion: number) => {
  const base = testRuntimeParams();
  return testRuntimeParams({
    protocolVersion,
    universalAccounts: protocolVersion >= 87,
    limits: { ...base.limits, protocolVersion, maxUniversalStateInitKeys: 1024 },
  });
};
const kind = (k: unknown) => (typeof k === 'string' ? k : Object.keys(k as object)[0]);

const pk = testPublicKey(42);
const raw = encodeUniversalStateInit(
  universalStateInit(null, [[Uint8Array.of(1), Uint8Array.of(2, 3)]], [publicKeyHandle(pk)]),
);
const uaid = universalAccountIdOfRaw(raw);
const init = { type: 'UniversalStateInit' as const, stateInit: raw, deposit: 0n };

function validationError(protocolVersion: number, action = init, receiverId = uaid): unknown {
  try {
    validateActions(at(protocolVersion).limits, [action], receiverId);
    return null;
  } catch (e) {
    if (e instanceof ActionsValidationError) return e.json;
    throw e;
  }
}

describe('universal accounts (NEP-655)', () => {
  it('at 87 a transfer creates an uninitialized account with a bootstrap nonce from the height', () => {
    const h = new RuntimeHarness(at(87));
    h.addAccount('alice.near', 10n * NEAR);
    const exec = h.applyAction(uaid, { type: 'Transfer', deposit: 3n * NEAR });
    assert.equal(exec.failure, undefined);
    const account = h.account(uaid);
    assert.equal(account?.amount, 3n * NEAR);
    assert.equal(account?.uninitialized?.bootstrapNonce, 9_000_000n, '(height 10 - 1) * 1e6');
    const view = accountToView(account!);
    assert.equal(view.state, 'uninitialized');
    assert.equal(view.bootstrap_nonce, 9_000_000);
    assert.equal(view.storage_usage, 100);
  });

  it('at 86 a transfer to a 0u id is a transfer to a missing named account', () => {
    const h = new RuntimeHarness(at(86));
    h.addAccount('alice.near', 10n * NEAR);
    const exec = h.applyAction(uaid, { type: 'Transfer', deposit: NEAR });
    assert.deepEqual(exec.failure?.kind, { AccountDoesNotExist: { account_id: uaid } });
    assert.equal(h.account(uaid), undefined);
  });

  it('an uninitialized account refuses AddKey, DeployContract, FunctionCall with AccountNotInitialized', () => {
    const h = new RuntimeHarness(at(87));
    h.addAccount('alice.near', 10n * NEAR);
    h.applyAction(uaid, { type: 'Transfer', deposit: 3n * NEAR });
    for (const action of [
      {
        type: 'AddKey' as const,
        publicKey: pk,
        accessKey: { nonce: 0n, permission: { kind: 'FullAccess' as const } },
      },
      { type: 'DeployContract' as const, code: Uint8Array.of(0) },
      {
        type: 'FunctionCall' as const,
        methodName: 'm',
        args: new Uint8Array(),
        gas: 10n ** 12n,
        deposit: 0n,
      },
    ]) {
      const exec = h.applyAction(uaid, action);
      assert.deepEqual(exec.failure?.kind, { AccountNotInitialized: { account_id: uaid } }, action.type);
    }
    assert.equal(h.account(uaid)?.amount, 3n * NEAR);
    assert.ok(h.account(uaid)?.uninitialized);
  });

  it('UniversalStateInit installs the data and the key on the funded account, keeping its balance', () => {
    const h = new RuntimeHarness(at(87));
    h.addAccount('alice.near', 10n * NEAR);
    h.applyAction(uaid, { type: 'Transfer', deposit: 3n * NEAR });
    const exec = h.applyAction(uaid, { ...init, deposit: NEAR });
    assert.equal(exec.failure, undefined);
    const account = h.account(uaid)!;
    assert.equal(account.uninitialized, undefined);
    assert.equal(account.amount, 3n * NEAR, 'the deposit goes back: the balance covers the storage');
    assert.ok(
      exec.result.newReceipts.some((r) => r.receiverId === 'alice.near'),
      'deposit refunded',
    );
    // 100 (account) + 1 + 2 + 40 (entry) + 33 + 9 + 40 (ed25519 full-access key: handle, borsh key, record)
    assert.equal(account.storageUsage, 225n);
    const key = h.accessKey(uaid, pk);
    assert.equal(key?.permission.kind, 'FullAccess');
    assert.equal(key?.nonce, 9_000_000n);
    assert.equal(accountToView(account).state, undefined, 'state omitted once initialized');
    // A repeat is a no-op for the state.
    assert.equal(h.applyAction(uaid, init).failure, undefined);
    assert.equal(h.account(uaid)?.storageUsage, 225n);
  });

  it('state init then a transfer in one receipt creates and funds the account; it never acts on itself', () => {
    const h = new RuntimeHarness(at(87));
    h.addAccount('alice.near', 10n * NEAR);
    const exec = h.apply(
      actionReceipt({
        predecessorId: 'alice.near',
        receiverId: uaid,
        actions: [init, { type: 'Transfer', deposit: NEAR }],
      }),
    );
    assert.equal(exec.failure, undefined);
    assert.equal(h.account(uaid)?.amount, NEAR);
    const addKey = h.apply(
      actionReceipt({
        predecessorId: 'alice.near',
        receiverId: uaid,
        actions: [
          {
            type: 'AddKey',
            publicKey: testPublicKey(7),
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
        ],
      }),
    );
    assert.equal(kind(addKey.failure?.kind), 'ActorNoPermission');
  });

  it('validation: the action is refused before 87, at the wrong receiver and when the bytes do not decode', () => {
    assert.equal(validationError(87), null);
    assert.deepEqual(validationError(86), {
      UnsupportedProtocolFeature: { protocol_feature: 'UniversalAccounts', version: 86 },
    });
    assert.deepEqual(validationError(87, init, 'alice.near'), {
      InvalidUniversalStateInitReceiver: { receiver_id: 'alice.near', derived_id: uaid },
    });
    const bad = Uint8Array.of(7, 7, 7);
    assert.equal(
      validationError(87, { ...init, stateInit: bad }, universalAccountIdOfRaw(bad)),
      'MalformedUniversalStateInit',
    );
  });
});
