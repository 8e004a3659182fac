/**
 * One action receipt applied to an in-memory state, without a chain (runtime/test-support): the gas each
 * action burns at protocol 85 (the receipt's execution fee plus the action's, as nearcore's `exec_fee`, with
 * the fees of parameters-pv85.json: e.g. the 223182562500 gas every NEAR transfer receipt shows), balances, keys and storage usage after it, and the
 * failures nearcore's runtime action tests check (runtime/runtime/src/actions.rs).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { functionCallAccessKey, hexEncode, sha256 } from '@shadebox/primitives';
import { accessKeyStorageUsage } from '../state/storage-usage.js';
import { actionReceipt, NEAR, RuntimeHarness, testPublicKey } from './test-support/apply-receipt-harness.js';

const GAS_PRICE = 100_000_000n;
/** new_action_receipt's execution fee: every action receipt burns it. */
const RECEIPT = 108_059_500_000n;

const failureKind = (kind: unknown) => Object.keys(kind as object)[0];

describe('transfer', () => {
  it('between existing accounts: 223182562500 gas burnt, nothing refunded', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    h.addAccount('bob.near', 1n * NEAR);
    const exec = h.applyAction('bob.near', { type: 'Transfer', deposit: 2n * NEAR });
    assert.equal(exec.failure, undefined);
    assert.equal(exec.result.gasBurnt, 223_182_562_500n);
    assert.equal(exec.result.gasBurnt, RECEIPT + h.params.fees.transfer.execution);
    assert.equal(exec.tokensBurnt, 223_182_562_500n * GAS_PRICE);
    assert.equal(exec.result.newReceipts.length, 0, 'exactly the prepaid gas was used');
    assert.equal(h.account('bob.near')?.amount, 3n * NEAR);
  });

  it('to a NEAR-implicit account creates it with its key: 7524947687500 gas burnt (create_account 7.2 Tgas)', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    const pk = testPublicKey(9);
    const implicit = hexEncode(pk.data);
    const exec = h.applyAction(implicit, { type: 'Transfer', deposit: NEAR });
    assert.equal(exec.failure, undefined);
    const f = h.params.fees;
    assert.equal(
      exec.result.gasBurnt,
      RECEIPT + f.transfer.execution + f.create_account.execution + f.add_full_access_key.execution,
    );
    assert.equal(exec.result.gasBurnt, 7_524_947_687_500n);
    assert.equal(h.account(implicit)?.amount, NEAR);
    assert.equal(h.accessKey(implicit, pk)?.permission.kind, 'FullAccess');
    assert.equal(h.account(implicit)?.storageUsage, 182n, 'account record + one ed25519 full-access key');
  });

  it('to a missing named account fails with AccountDoesNotExist and refunds the deposit', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    const exec = h.applyAction('nobody.near', { type: 'Transfer', deposit: NEAR });
    assert.equal(failureKind(exec.failure?.kind), 'AccountDoesNotExist');
    assert.equal(exec.failure?.index, 0);
    assert.equal(h.account('nobody.near'), undefined);
    const refund = exec.result.newReceipts.find(
      (r) =>
        r.receiverId === 'alice.near' &&
        r.receipt.kind === 'Action' &&
        r.receipt.actions[0]?.type === 'Transfer',
    );
    assert.ok(refund, 'the deposit goes back to the predecessor');
  });
});

describe('create account', () => {
  it('create + transfer + full-access key: 7524947687500 gas burnt, 182 bytes of storage', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    const pk = testPublicKey(5);
    const exec = h.apply(
      actionReceipt({
        predecessorId: 'alice.near',
        receiverId: 'sub.alice.near',
        actions: [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit: NEAR },
          { type: 'AddKey', publicKey: pk, accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } } },
        ],
      }),
    );
    assert.equal(exec.failure, undefined);
    const f = h.params.fees;
    assert.equal(
      exec.result.gasBurnt,
      RECEIPT + f.create_account.execution + f.transfer.execution + f.add_full_access_key.execution,
    );
    assert.equal(exec.result.gasBurnt, 7_524_947_687_500n);
    const account = h.account('sub.alice.near');
    assert.equal(account?.amount, NEAR);
    assert.equal(account?.storageUsage, 182n);
    assert.ok(h.accessKey('sub.alice.near', pk));
  });

  it('an account that exists: AccountAlreadyExists, nothing changes', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    h.addAccount('sub.alice.near', 1n * NEAR);
    const exec = h.apply(
      actionReceipt({
        predecessorId: 'alice.near',
        receiverId: 'sub.alice.near',
        actions: [{ type: 'CreateAccount' }, { type: 'Transfer', deposit: NEAR }],
      }),
    );
    assert.equal(failureKind(exec.failure?.kind), 'AccountAlreadyExists');
    assert.equal(h.account('sub.alice.near')?.amount, 1n * NEAR);
  });

  it("a sub-account of someone else's account: CreateAccountNotAllowed", () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    const exec = h.apply(
      actionReceipt({
        predecessorId: 'alice.near',
        receiverId: 'sub.bob.near',
        actions: [{ type: 'CreateAccount' }, { type: 'Transfer', deposit: NEAR }],
      }),
    );
    assert.equal(failureKind(exec.failure?.kind), 'CreateAccountNotAllowed');
    assert.equal(h.account('sub.bob.near'), undefined);
  });
});

describe('access keys', () => {
  it('add a function-call key: receipt + base + 1925331 per method-name byte (names counted with a NUL)', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    const pk = testPublicKey(7);
    const accessKey = functionCallAccessKey('app.near', ['foo', 'bar'], NEAR);
    const exec = h.applyAction('alice.near', { type: 'AddKey', publicKey: pk, accessKey });
    assert.equal(exec.failure, undefined);
    const f = h.params.fees;
    assert.equal(
      exec.result.gasBurnt,
      RECEIPT + f.add_function_call_key_base.execution + 8n * f.add_function_call_key_byte.execution,
    );
    assert.equal(exec.result.gasBurnt, 210_292_527_648n);
    const before = 182n;
    assert.equal(
      h.account('alice.near')?.storageUsage,
      before + accessKeyStorageUsage(h.params, pk, accessKey),
    );
    assert.deepEqual(h.accessKey('alice.near', pk)?.permission, accessKey.permission);
  });

  it('add a key that exists: AddKeyAlreadyExists', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR, testPublicKey(1));
    const exec = h.applyAction('alice.near', {
      type: 'AddKey',
      publicKey: testPublicKey(1),
      accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
    });
    assert.equal(failureKind(exec.failure?.kind), 'AddKeyAlreadyExists');
  });

  it('delete a key: 203006125000 gas burnt, its storage given back', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR, testPublicKey(1));
    const exec = h.applyAction('alice.near', { type: 'DeleteKey', publicKey: testPublicKey(1) });
    assert.equal(exec.failure, undefined);
    assert.equal(exec.result.gasBurnt, RECEIPT + h.params.fees.delete_key.execution);
    assert.equal(exec.result.gasBurnt, 203_006_125_000n);
    assert.equal(h.accessKey('alice.near', testPublicKey(1)), undefined);
    assert.equal(h.account('alice.near')?.storageUsage, 100n, 'only the account record is left');
  });

  it('delete a missing key: DeleteKeyDoesNotExist', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR, testPublicKey(1));
    const exec = h.applyAction('alice.near', { type: 'DeleteKey', publicKey: testPublicKey(2) });
    assert.equal(failureKind(exec.failure?.kind), 'DeleteKeyDoesNotExist');
  });
});

describe('deploy contract', () => {
  it('receipt + deploy base + 64572944 per byte (execution); the code hash is the code sha256', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    const code = Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00);
    const exec = h.applyAction('alice.near', { type: 'DeployContract', code });
    assert.equal(exec.failure, undefined);
    const f = h.params.fees;
    assert.equal(
      exec.result.gasBurnt,
      RECEIPT + f.deploy_contract_base.execution + 8n * f.deploy_contract_byte.execution,
    );
    assert.equal(exec.result.gasBurnt, 293_341_833_552n);
    assert.deepEqual(h.account('alice.near')?.codeHash, sha256(code));
    assert.equal(h.account('alice.near')?.storageUsage, 182n + 8n, 'the code counts as storage');
  });

  it('by someone else: ActorNoPermission', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    h.addAccount('bob.near', 10n * NEAR);
    const exec = h.applyAction('bob.near', { type: 'DeployContract', code: new Uint8Array(8) }, 'alice.near');
    assert.equal(failureKind(exec.failure?.kind), 'ActorNoPermission');
  });
});

describe('delete account', () => {
  it('sends the balance to the beneficiary: 255548500000 gas burnt', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    h.addAccount('bob.near', 1n * NEAR);
    const exec = h.applyAction(
      'bob.near',
      { type: 'DeleteAccount', beneficiaryId: 'alice.near' },
      'bob.near',
    );
    assert.equal(exec.failure, undefined);
    assert.equal(exec.result.gasBurnt, RECEIPT + 147_489_000_000n);
    assert.equal(exec.result.gasBurnt, 255_548_500_000n);
    assert.equal(h.account('bob.near'), undefined);
    const payout = exec.result.newReceipts.find((r) => r.receiverId === 'alice.near');
    assert.ok(payout && payout.receipt.kind === 'Action');
    assert.deepEqual(payout.receipt.kind === 'Action' && payout.receipt.actions, [
      { type: 'Transfer', deposit: 1n * NEAR },
    ]);
  });
});

describe('function call', () => {
  it('to an account without a contract: CodeDoesNotExist, the receipt and call fees burnt', () => {
    const h = new RuntimeHarness();
    h.addAccount('alice.near', 10n * NEAR);
    h.addAccount('bob.near', 1n * NEAR);
    const args = new TextEncoder().encode('{}');
    const exec = h.applyAction('bob.near', {
      type: 'FunctionCall',
      methodName: 'hello',
      args,
      gas: 10n ** 13n,
      deposit: 0n,
    });
    assert.equal(exec.failure && JSON.stringify(exec.failure.kind).includes('CodeDoesNotExist'), true);
    const f = h.params.fees;
    assert.equal(
      exec.result.gasBurnt,
      RECEIPT +
        f.function_call_base.execution +
        BigInt('hello'.length + args.length) * f.function_call_byte.execution,
    );
    const gasRefund = exec.result.newReceipts.find((r) => r.receiverId === 'alice.near');
    assert.ok(gasRefund, 'the unused 10 Tgas are refunded to the signer');
  });
});
