import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testRandom } from '../../../test/test-random.js';
import { signDelegateAction } from './delegate-action.js';
import { base64Encode, utf8Encode } from './encoding.js';
import { InvalidViewError } from './errors.js';
import { cryptoHashToString, sha256 } from './hash.js';
import { signatureToString } from './keys.js';
import { signTransaction, transactionHash } from './transaction.js';
import type { AccessKey, Action, Receipt, Transaction } from './types.js';
import {
  accessKeyFromView,
  accessKeyToView,
  actionFromJson,
  actionFromView,
  actionToJson,
  actionToView,
  receiptFromView,
  receiptToView,
  signedDelegateActionFromView,
  signedDelegateActionToView,
  signedTransactionToView,
} from './views.js';

const rng = testRandom('packages/primitives/src/views.test.ts');

const kp = rng.keyPair('ed25519');
const pk = kp.publicKeyString;
const code = utf8Encode('\0asm fake code');

describe('action views', () => {
  it('serialise every action as nearcore’s ActionView', () => {
    const cases: Array<[Action, unknown]> = [
      [{ type: 'CreateAccount' }, 'CreateAccount'],
      [{ type: 'DeployContract', code }, { DeployContract: { code: base64Encode(sha256(code)) } }],
      [
        {
          type: 'FunctionCall',
          methodName: 'm',
          args: utf8Encode('{}'),
          gas: 30_000_000_000_000n,
          deposit: 10n ** 24n,
        },
        {
          FunctionCall: {
            method_name: 'm',
            args: 'e30=',
            gas: 30_000_000_000_000,
            deposit: '1000000000000000000000000',
          },
        },
      ],
      [{ type: 'Transfer', deposit: 1n }, { Transfer: { deposit: '1' } }],
      [{ type: 'Stake', stake: 5n, publicKey: kp.publicKey }, { Stake: { stake: '5', public_key: pk } }],
      [
        {
          type: 'AddKey',
          publicKey: kp.publicKey,
          accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
        },
        { AddKey: { public_key: pk, access_key: { nonce: 0, permission: 'FullAccess' } } },
      ],
      [
        {
          type: 'AddKey',
          publicKey: kp.publicKey,
          accessKey: {
            nonce: 9n,
            permission: { kind: 'FunctionCall', allowance: null, receiverId: 'app.near', methodNames: ['a'] },
          },
        },
        {
          AddKey: {
            public_key: pk,
            access_key: {
              nonce: 9,
              permission: { FunctionCall: { allowance: null, receiver_id: 'app.near', method_names: ['a'] } },
            },
          },
        },
      ],
      [{ type: 'DeleteKey', publicKey: kp.publicKey }, { DeleteKey: { public_key: pk } }],
      [{ type: 'DeleteAccount', beneficiaryId: 'b.near' }, { DeleteAccount: { beneficiary_id: 'b.near' } }],
    ];
    for (const [action, view] of cases) assert.deepEqual(actionToView(action), view, action.type);
  });

  it('show delegate actions with the serde form of their inner actions', () => {
    const signed = signDelegateAction(
      {
        senderId: 'alice.near',
        receiverId: 'app.near',
        actions: [
          { type: 'CreateAccount' },
          { type: 'DeployContract', code },
          { type: 'FunctionCall', methodName: 'go', args: Uint8Array.from([1]), gas: 5n, deposit: 0n },
        ],
        nonce: 77n,
        maxBlockHeight: 1_000n,
        publicKey: kp.publicKey,
      },
      kp,
    );
    const view = actionToView({ type: 'Delegate', signedDelegateAction: signed });
    assert.deepEqual(view, {
      Delegate: {
        delegate_action: {
          sender_id: 'alice.near',
          receiver_id: 'app.near',
          actions: [
            { CreateAccount: {} },
            { DeployContract: { code: base64Encode(code) } },
            { FunctionCall: { method_name: 'go', args: 'AQ==', gas: 5, deposit: '0' } },
          ],
          nonce: 77,
          max_block_height: 1000,
          public_key: pk,
        },
        signature: signatureToString(signed.signature),
      },
    });
    assert.deepEqual(
      Object.keys((view as { Delegate: { delegate_action: object } }).Delegate.delegate_action),
      ['sender_id', 'receiver_id', 'actions', 'nonce', 'max_block_height', 'public_key'],
    );
    assert.deepEqual(actionFromView(JSON.parse(JSON.stringify(view))), {
      type: 'Delegate',
      signedDelegateAction: signed,
    });
    assert.deepEqual(signedDelegateActionFromView(signedDelegateActionToView(signed)), signed);
  });

  it('read views back (DeployContract keeps only the hash, as in nearcore)', () => {
    const actions: Action[] = [
      { type: 'CreateAccount' },
      { type: 'FunctionCall', methodName: 'm', args: utf8Encode('{}'), gas: 7n, deposit: 3n },
      { type: 'Transfer', deposit: (1n << 128n) - 1n },
      { type: 'Stake', stake: 5n, publicKey: kp.publicKey },
      {
        type: 'AddKey',
        publicKey: kp.publicKey,
        accessKey: {
          nonce: 2n,
          permission: { kind: 'FunctionCall', allowance: 8n, receiverId: 'x.near', methodNames: [] },
        },
      },
      { type: 'DeleteKey', publicKey: kp.publicKey },
      { type: 'DeleteAccount', beneficiaryId: 'b.near' },
    ];
    for (const action of actions) {
      assert.deepEqual(actionFromView(JSON.parse(JSON.stringify(actionToView(action)))), action, action.type);
      assert.deepEqual(actionFromJson(JSON.parse(JSON.stringify(actionToJson(action)))), action, action.type);
    }
    assert.deepEqual(actionFromView(actionToView({ type: 'DeployContract', code })), {
      type: 'DeployContract',
      code: sha256(code),
    });
    assert.deepEqual(actionFromJson(actionToJson({ type: 'DeployContract', code })), {
      type: 'DeployContract',
      code,
    });
  });

  it('reject malformed views with the path of the problem', () => {
    const bad: Array<[unknown, RegExp]> = [
      ['Transfer', /expected an object/],
      [{ Transfer: { deposit: '-1' } }, /Transfer\.deposit/],
      [{ Transfer: { deposit: '1e3' } }, /decimal string/],
      [{ Transfer: { deposit: (1n << 128n).toString() } }, /u128/],
      [{ FunctionCall: { method_name: 'm', args: 'e30', gas: 1, deposit: '0' } }, /args/],
      [{ FunctionCall: { method_name: 'm', args: '', gas: -1, deposit: '0' } }, /gas/],
      [{ FunctionCall: { method_name: 'm', args: '', gas: 1.5, deposit: '0' } }, /gas/],
      [{ Stake: { stake: '1', public_key: 'ed25519:xyz0' } }, /public_key/],
      [{ DeleteAccount: { beneficiary_id: 'Bad' } }, /beneficiary_id/],
      [{ Teleport: {} }, /unknown action/],
      [{ Transfer: { deposit: '1' }, Extra: {} }, /one variant key/],
      [null, /object/],
    ];
    for (const [view, message] of bad) {
      assert.throws(
        () => actionFromView(view),
        (e: unknown) => e instanceof InvalidViewError && message.test(e.message),
        String(message),
      );
    }
    assert.throws(() => actionFromJson({ Delegate: {} }), InvalidViewError);
    assert.throws(() => actionToJson({ type: 'Delegate' } as Action), InvalidViewError);
  });
});

describe('access key views', () => {
  it('round trip both permissions', () => {
    const keys: AccessKey[] = [
      { nonce: 5_000_000n, permission: { kind: 'FullAccess' } },
      {
        nonce: 0n,
        permission: {
          kind: 'FunctionCall',
          allowance: 10n ** 24n,
          receiverId: 'c.near',
          methodNames: ['a', 'b'],
        },
      },
      {
        nonce: 1n,
        permission: { kind: 'FunctionCall', allowance: null, receiverId: 'c.near', methodNames: [] },
      },
    ];
    assert.deepEqual(accessKeyToView(keys[1]), {
      nonce: 0,
      permission: {
        FunctionCall: {
          allowance: '1000000000000000000000000',
          receiver_id: 'c.near',
          method_names: ['a', 'b'],
        },
      },
    });
    for (const key of keys)
      assert.deepEqual(accessKeyFromView(JSON.parse(JSON.stringify(accessKeyToView(key)))), key);
  });

  it('accept the forms nearcore accepts and reject the rest', () => {
    assert.deepEqual(accessKeyFromView({ nonce: 0, permission: { FullAccess: null } }).permission, {
      kind: 'FullAccess',
    });
    assert.deepEqual(
      accessKeyFromView({
        nonce: 0,
        permission: { FunctionCall: { allowance: 5, receiver_id: 'a.near', method_names: [] } },
      }).permission,
      { kind: 'FunctionCall', allowance: 5n, receiverId: 'a.near', methodNames: [] },
    );
    assert.throws(() => accessKeyFromView({ nonce: '1', permission: 'FullAccess' }), InvalidViewError);
    assert.throws(() => accessKeyFromView({ nonce: 1, permission: { FullAccess: {} } }), InvalidViewError);
    assert.throws(() => accessKeyFromView({ nonce: 1, permission: 'Partial' }), InvalidViewError);
    assert.throws(
      () => accessKeyFromView({ nonce: 1, permission: { FunctionCall: { receiver_id: 5 } } }),
      InvalidViewError,
    );
  });
});

describe('SignedTransactionView', () => {
  it('has nearcore’s fields in nearcore’s order', () => {
    const tx: Transaction = {
      version: 0,
      signerId: 'alice.near',
      publicKey: kp.publicKey,
      nonce: 12n,
      receiverId: 'bob.near',
      blockHash: new Uint8Array(32),
      actions: [{ type: 'Transfer', deposit: 2n }],
    };
    const stx = signTransaction(tx, kp);
    const hash = transactionHash(tx);
    const view = signedTransactionToView(stx, hash);
    assert.deepEqual(Object.keys(view), [
      'signer_id',
      'public_key',
      'nonce',
      'receiver_id',
      'actions',
      'priority_fee',
      'signature',
      'hash',
    ]);
    assert.deepEqual(view, {
      signer_id: 'alice.near',
      public_key: pk,
      nonce: 12,
      receiver_id: 'bob.near',
      actions: [{ Transfer: { deposit: '2' } }],
      priority_fee: 0,
      signature: signatureToString(stx.signature),
      hash: cryptoHashToString(hash),
    });
    assert.equal(signedTransactionToView(stx, 'given').hash, 'given');
  });

  it('adds nonce_index (gas-key nonces) and nonce_mode (every V1) after the hash', () => {
    const tx: Transaction = {
      version: 1,
      signerId: 'alice.near',
      publicKey: kp.publicKey,
      nonce: 12n,
      nonceIndex: 2,
      receiverId: 'bob.near',
      blockHash: new Uint8Array(32),
      actions: [{ type: 'Transfer', deposit: 2n }],
      nonceMode: 'Strict',
    };
    const view = signedTransactionToView(signTransaction(tx, kp), 'h');
    assert.deepEqual(Object.keys(view).slice(-4), ['signature', 'hash', 'nonce_index', 'nonce_mode']);
    assert.equal(view.priority_fee, 0);
    assert.equal(view.nonce_index, 2);
    assert.equal(view.nonce_mode, 'strict');
    const plain = signedTransactionToView(
      signTransaction({ ...tx, nonceIndex: undefined, nonceMode: 'Monotonic' }, kp),
      'h',
    );
    assert.equal('nonce_index' in plain, false);
    assert.equal(plain.nonce_mode, 'monotonic');
  });
});

describe('ReceiptView', () => {
  const actionReceipt: Receipt = {
    predecessorId: 'alice.near',
    receiverId: 'bob.near',
    receiptId: new Uint8Array(32).fill(1),
    receipt: {
      kind: 'Action',
      signerId: 'alice.near',
      signerPublicKey: kp.publicKey,
      gasPrice: 100_000_000n,
      outputDataReceivers: [{ dataId: new Uint8Array(32).fill(2), receiverId: 'c.near' }],
      inputDataIds: [new Uint8Array(32).fill(3)],
      actions: [{ type: 'CreateAccount' }],
      isPromiseYield: true,
    },
    priority: 0n,
  };

  it('shows action receipts', () => {
    const view = receiptToView(actionReceipt);
    assert.deepEqual(view, {
      predecessor_id: 'alice.near',
      receiver_id: 'bob.near',
      receipt_id: cryptoHashToString(new Uint8Array(32).fill(1)),
      receipt: {
        Action: {
          signer_id: 'alice.near',
          signer_public_key: pk,
          gas_price: '100000000',
          output_data_receivers: [
            { data_id: cryptoHashToString(new Uint8Array(32).fill(2)), receiver_id: 'c.near' },
          ],
          input_data_ids: [cryptoHashToString(new Uint8Array(32).fill(3))],
          actions: ['CreateAccount'],
          is_promise_yield: true,
        },
      },
      priority: 0,
    });
    assert.deepEqual(Object.keys(view), [
      'predecessor_id',
      'receiver_id',
      'receipt_id',
      'receipt',
      'priority',
    ]);
    assert.deepEqual(receiptFromView(JSON.parse(JSON.stringify(view))), { ...actionReceipt, version: 1 });
  });

  it('shows refund_to only when an ActionReceiptV2 carries one (nearcore ReceiptEnumView::Action)', () => {
    const v2 = { ...actionReceipt, receipt: { ...actionReceipt.receipt, v2: true } } as Receipt;
    const plain = receiptToView(v2).receipt as { Action: Record<string, unknown> };
    assert.equal('refund_to' in plain.Action, false);
    const withRefund = {
      ...actionReceipt,
      receipt: { ...actionReceipt.receipt, v2: true, refundTo: 'refunds.near' },
    } as Receipt;
    const view = receiptToView(withRefund);
    const action = (view.receipt as { Action: Record<string, unknown> }).Action;
    assert.equal(action.refund_to, 'refunds.near');
    assert.deepEqual(Object.keys(action).slice(-2), ['is_promise_yield', 'refund_to']);
    // Back from a view: V2 when refund_to is given (a V2 receipt without one comes back as V1, as in nearcore).
    assert.deepEqual(receiptFromView(JSON.parse(JSON.stringify(view))), { ...withRefund, version: 1 });
    assert.deepEqual(receiptFromView(JSON.parse(JSON.stringify(receiptToView(v2)))), {
      ...actionReceipt,
      version: 1,
    });
  });

  it('shows data receipts, with null data for a failed promise', () => {
    for (const data of [null, Uint8Array.from([1, 2])]) {
      const receipt: Receipt = {
        ...actionReceipt,
        receipt: { kind: 'Data', dataId: new Uint8Array(32).fill(4), data, isPromiseResume: false },
        priority: 7n,
      };
      const view = receiptToView(receipt);
      assert.deepEqual(view.receipt, {
        Data: {
          data_id: cryptoHashToString(new Uint8Array(32).fill(4)),
          data: data && 'AQI=',
          is_promise_resume: false,
        },
      });
      assert.equal(view.priority, 7);
      assert.deepEqual(receiptFromView(JSON.parse(JSON.stringify(view))), { ...receipt, version: 1 });
    }
  });

  it('reads views without the yield/resume flags as false, as nearcore does', () => {
    const view = JSON.parse(JSON.stringify(receiptToView(actionReceipt)));
    delete view.receipt.Action.is_promise_yield;
    delete view.priority;
    const receipt = receiptFromView(view);
    assert.equal(receipt.receipt.kind === 'Action' && receipt.receipt.isPromiseYield, false);
    assert.equal(receipt.priority, 0n);
    assert.throws(() => receiptFromView({ ...view, receipt: { Other: {} } }), InvalidViewError);
    assert.throws(() => receiptFromView({ ...view, receipt_id: 'short' }), InvalidViewError);
  });
});
