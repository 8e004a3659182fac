import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testRandom } from '../../../test/test-random.js';
import { ACTION_TAG, decodeAction, decodeActions, encodeAction, encodeActions } from './action.js';
import { encodeBorsh } from './borsh.js';
import {
  DELEGATE_ACTION_PREFIX,
  decodeSignedDelegateAction,
  delegateActionHash,
  encodeDelegateAction,
  encodeSignableDelegateAction,
  encodeSignedDelegateAction,
  signDelegateAction,
  verifySignedDelegateAction,
} from './delegate-action.js';
import { hexDecode, hexEncode } from './encoding.js';
import { BorshError } from './errors.js';
import { sha256 } from './hash.js';
import type { Action, DelegateAction } from './types.js';

const rng = testRandom('packages/primitives/src/action.test.ts');

describe('actions', () => {
  it('use the discriminants 0..15 in nearcore order', () => {
    assert.deepEqual(Object.values(ACTION_TAG), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    assert.equal(encodeAction({ type: 'CreateAccount' })[0], 0);
    assert.equal(encodeAction({ type: 'DeleteAccount', beneficiaryId: 'ab' })[0], 7);
  });

  it('encode strings as UTF-8 (Rust String), length in bytes', () => {
    const action: Action = {
      type: 'FunctionCall',
      methodName: 'ünï',
      args: new Uint8Array(0),
      gas: 1n,
      deposit: 0n,
    };
    const bytes = encodeAction(action);
    assert.equal(hexEncode(bytes.subarray(0, 10)), `02${'05000000'}c3bc6ec3af`);
    assert.deepEqual(decodeAction(bytes), action);
  });

  it('encode lists of actions', () => {
    const actions: Action[] = [{ type: 'CreateAccount' }, { type: 'Transfer', deposit: 1n }];
    const bytes = encodeActions(actions);
    assert.equal(hexEncode(bytes), `02000000${'00'}${'03'}01${'00'.repeat(15)}`);
    assert.deepEqual(decodeActions(bytes), actions);
  });

  it('refuse unknown action types when encoding', () => {
    assert.throws(() => encodeAction({ type: 'Nope' } as unknown as Action), BorshError);
  });
});

describe('delegate actions', () => {
  // core/primitives/src/action/delegate.rs, DELEGATE_ACTION_HEX: Action::Delegate with sender "aaa",
  // receiver "bbb", [CreateAccount], nonce 1, max_block_height 2, the empty ed25519 key and signature.
  const NEARCORE_DELEGATE_HEX = [
    '0803000000616161030000006262620100000000010000000000000002000000000000',
    '0000000000000000000000000000000000000000000000000000000000000000000000',
    '0000000000000000000000000000000000000000000000000000000000000000000000',
    '0000000000000000000000000000000000000000000000000000000000',
  ].join('');
  const nearcoreDelegate: Action = {
    type: 'Delegate',
    signedDelegateAction: {
      delegateAction: {
        senderId: 'aaa',
        receiverId: 'bbb',
        actions: [{ type: 'CreateAccount' }],
        nonce: 1n,
        maxBlockHeight: 2n,
        publicKey: { keyType: 0, data: new Uint8Array(32) },
      },
      signature: { keyType: 0, data: new Uint8Array(64) },
    },
  };

  it('match nearcore’s hard-coded delegate action bytes', () => {
    assert.equal(hexEncode(encodeAction(nearcoreDelegate)), NEARCORE_DELEGATE_HEX);
    assert.deepEqual(decodeAction(hexDecode(NEARCORE_DELEGATE_HEX)), nearcoreDelegate);
  });

  it('cannot nest another delegate action, in either direction', () => {
    const nested = hexDecode(NEARCORE_DELEGATE_HEX);
    // Replace the inner CreateAccount (tag 0 at offset 1+7+7+4) by a Delegate tag.
    nested[19] = 8;
    assert.throws(
      () => decodeAction(nested),
      (e: unknown) => e instanceof BorshError && /nested/.test(e.message),
    );
    const inner = (nearcoreDelegate as Extract<Action, { type: 'Delegate' }>).signedDelegateAction;
    const bad: DelegateAction = { ...inner.delegateAction, actions: [nearcoreDelegate] };
    assert.throws(() => encodeDelegateAction(bad), BorshError);
  });

  it('are signed over sha256(u32_le(2^30 + 366) ‖ borsh(DelegateAction))', () => {
    assert.equal(DELEGATE_ACTION_PREFIX, 1073742190);
    const kp = rng.keyPair();
    const d: DelegateAction = {
      senderId: 'alice.near',
      receiverId: 'app.near',
      actions: [{ type: 'Transfer', deposit: 9n }],
      nonce: 3n,
      maxBlockHeight: 1000n,
      publicKey: kp.publicKey,
    };
    const signable = encodeSignableDelegateAction(d);
    assert.equal(hexEncode(signable.subarray(0, 4)), '6e010040');
    assert.deepEqual(signable.subarray(4), encodeDelegateAction(d));
    assert.deepEqual(delegateActionHash(d), sha256(signable));
    const signed = signDelegateAction(d, kp);
    assert.equal(verifySignedDelegateAction(signed), true);
    assert.equal(verifySignedDelegateAction({ ...signed, delegateAction: { ...d, nonce: 4n } }), false);
    assert.equal(
      verifySignedDelegateAction({
        ...signed,
        delegateAction: { ...d, publicKey: rng.keyPair().publicKey },
      }),
      false,
    );
    assert.deepEqual(decodeSignedDelegateAction(encodeSignedDelegateAction(signed)), signed);
  });

  it('signing with secp256k1 works the same way', () => {
    const kp = rng.keyPair('secp256k1');
    const d: DelegateAction = {
      senderId: 'alice.near',
      receiverId: 'app.near',
      actions: [],
      nonce: 1n,
      maxBlockHeight: 10n,
      publicKey: kp.publicKey,
    };
    assert.equal(verifySignedDelegateAction(signDelegateAction(d, kp)), true);
    assert.equal(encodeBorsh((w) => w.u32(DELEGATE_ACTION_PREFIX)).length, 4);
  });
});
