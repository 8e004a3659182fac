import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { decodeAction, encodeAction } from './action.js';
import { delegateActionHash } from './delegate-action.js';
import {
  DELEGATE_ACTION_V2_PREFIX,
  delegateActionV2Hash,
  signDelegateActionV2,
  verifyVersionedSignedDelegateAction,
} from './delegate-action-v2.js';
import { encodePublicKey } from './key-borsh.js';
import { KeyPair } from './key-pair.js';
import type { Action, DelegateActionV2 } from './types.js';
import { actionFromView, actionToView } from './views.js';

const ed = KeyPair.fromSecretBytes(0, new Uint8Array(32).fill(3));
const pq = KeyPair.fromMlDsa65Seed(new Uint8Array(32).fill(5));

function delegateV2(nonce: DelegateActionV2['nonce'], key = ed): DelegateActionV2 {
  return {
    senderId: 'alice.near',
    receiverId: 'bob.near',
    actions: [{ type: 'Transfer', deposit: 7n }],
    nonce,
    maxBlockHeight: 1000n,
    publicKey: key.publicKey,
  };
}

describe('DelegateV2 (action 14)', () => {
  it('encodes tag 14, payload V2 = 0, the fields in order with a TransactionNonce', () => {
    const d = delegateV2({ kind: 'GasKeyNonce', nonce: 1n, nonceIndex: 7 });
    const action: Action = { type: 'DelegateV2', signedDelegateAction: signDelegateActionV2(d, ed) };
    const bytes = encodeAction(action);
    assert.equal(bytes[0], 14);
    assert.equal(bytes[1], 0, 'VersionedDelegateActionPayload::V2');
    const expectedHead = Buffer.concat([
      Buffer.from([14, 0]),
      Buffer.from([10, 0, 0, 0]),
      Buffer.from('alice.near'),
      Buffer.from([8, 0, 0, 0]),
      Buffer.from('bob.near'),
      Buffer.from([1, 0, 0, 0, 3]),
      Buffer.from([7, ...new Array(15).fill(0)]),
      Buffer.from([1, 1, 0, 0, 0, 0, 0, 0, 0, 7, 0]),
      Buffer.from([0xe8, 0x03, 0, 0, 0, 0, 0, 0]),
      encodePublicKey(ed.publicKey),
    ]);
    assert.deepEqual(Buffer.from(bytes.subarray(0, expectedHead.length)), expectedHead);
    assert.equal(bytes.length, expectedHead.length + 65);
    assert.deepEqual(decodeAction(bytes), action);
  });

  it('signs sha256(u32_le(2^30 + 611) ‖ payload) and keeps V1 and V2 signatures apart', () => {
    const d = delegateV2({ kind: 'Nonce', nonce: 5n });
    assert.equal(DELEGATE_ACTION_V2_PREFIX, 1073742435);
    const payload = encodeAction({ type: 'DelegateV2', signedDelegateAction: signDelegateActionV2(d, ed) });
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32LE(DELEGATE_ACTION_V2_PREFIX);
    const signable = Buffer.concat([prefix, payload.subarray(1, payload.length - 65)]);
    assert.deepEqual(Buffer.from(delegateActionV2Hash(d)), createHash('sha256').update(signable).digest());
    const signed = signDelegateActionV2(d, ed);
    assert.ok(verifyVersionedSignedDelegateAction(signed));
    // A V1 signature of the same fields does not verify as V2.
    const v1 = ed.sign(
      delegateActionHash({ ...d, nonce: 5n, actions: d.actions } as Parameters<typeof delegateActionHash>[0]),
    );
    assert.ok(!verifyVersionedSignedDelegateAction({ delegateAction: d, signature: v1 }));
    // Another nonce index breaks the signature.
    const gas = signDelegateActionV2(delegateV2({ kind: 'GasKeyNonce', nonce: 1n, nonceIndex: 3 }), ed);
    assert.ok(
      !verifyVersionedSignedDelegateAction({
        ...gas,
        delegateAction: { ...gas.delegateAction, nonce: { kind: 'GasKeyNonce', nonce: 1n, nonceIndex: 4 } },
      }),
    );
  });

  it('signs and verifies with an ML-DSA-65 key', () => {
    const signed = signDelegateActionV2(delegateV2({ kind: 'Nonce', nonce: 9n }, pq), pq);
    assert.equal(signed.signature.data.length, 3309);
    assert.ok(verifyVersionedSignedDelegateAction(signed));
    const bytes = encodeAction({ type: 'DelegateV2', signedDelegateAction: signed });
    assert.deepEqual(decodeAction(bytes), { type: 'DelegateV2', signedDelegateAction: signed });
  });

  it('refuses a delegate action nested in DelegateV2 (and DelegateV2 nested in either)', () => {
    const inner = signDelegateActionV2(delegateV2({ kind: 'Nonce', nonce: 1n }), ed);
    const nested = delegateV2({ kind: 'Nonce', nonce: 2n });
    nested.actions = [{ type: 'DelegateV2', signedDelegateAction: inner }];
    assert.throws(
      () =>
        encodeAction({
          type: 'DelegateV2',
          signedDelegateAction: { delegateAction: nested, signature: inner.signature },
        }),
      /mustn't contain a nested one/,
    );
    const bytes = encodeAction({ type: 'DelegateV2', signedDelegateAction: inner });
    // Rewrite the inner Transfer (tag 3) as a DelegateV2 tag: decoding refuses it.
    const at = 2 + 4 + 10 + 4 + 8 + 4;
    assert.equal(bytes[at], 3);
    const forged = Uint8Array.from(bytes);
    forged[at] = 14;
    assert.throws(() => decodeAction(forged), /mustn't contain a nested one/);
  });

  it('shows as nearcore’s ActionView::DelegateV2 and reads back', () => {
    const signed = signDelegateActionV2(delegateV2({ kind: 'GasKeyNonce', nonce: 4n, nonceIndex: 2 }), ed);
    const action: Action = { type: 'DelegateV2', signedDelegateAction: signed };
    const view = actionToView(action) as { DelegateV2: { delegate_action: { V2: Record<string, unknown> } } };
    assert.deepEqual(view.DelegateV2.delegate_action.V2, {
      sender_id: 'alice.near',
      receiver_id: 'bob.near',
      actions: [{ Transfer: { deposit: '7' } }],
      nonce: { GasKeyNonce: { nonce: 4, nonce_index: 2 } },
      max_block_height: 1000,
      public_key: ed.publicKeyString,
    });
    assert.deepEqual(actionFromView(JSON.parse(JSON.stringify(view))), action);
  });
});
