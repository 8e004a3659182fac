/**
 * DelegateV2 applied to an in-memory state (runtime/test-support): the nonce checks of nearcore's
 * `validate_delegate_action_key` for a plain nonce and a gas-key nonce, the nonce each advances, and the inner
 * receipt it sends.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type AccessKey,
  type DelegateActionV2,
  KeyPair,
  signDelegateActionV2,
  type TransactionNonce,
} from '@shadebox/primitives';
import { getGasKeyNonce, setAccessKey, setGasKeyNonce } from '../../state/typed-state.js';
import { NEAR, RuntimeHarness } from '../test-support/apply-receipt-harness.js';

const sender = KeyPair.fromSecretBytes(0, new Uint8Array(32).fill(11));
const pq = KeyPair.fromMlDsa65Seed(new Uint8Array(32).fill(12));

function setup(key: KeyPair, accessKey: AccessKey): RuntimeHarness {
  const h = new RuntimeHarness();
  h.addAccount('relayer.near', 10n * NEAR);
  h.addAccount('sender.near', 10n * NEAR);
  h.addAccount('bob.near', NEAR);
  setAccessKey(h.state, 'sender.near', key.publicKey, accessKey);
  h.state.commit({ type: 'initial_state' });
  return h;
}

function delegate(h: RuntimeHarness, key: KeyPair, nonce: TransactionNonce) {
  const d: DelegateActionV2 = {
    senderId: 'sender.near',
    receiverId: 'bob.near',
    actions: [{ type: 'Transfer', deposit: 5n }],
    nonce,
    maxBlockHeight: 100n,
    publicKey: key.publicKey,
  };
  return h.applyAction(
    'sender.near',
    { type: 'DelegateV2', signedDelegateAction: signDelegateActionV2(d, key) },
    'relayer.near',
  );
}

const kindOf = (exec: { failure?: { kind: unknown } }) => exec.failure?.kind;

describe('DelegateV2 execution', () => {
  it('a plain nonce advances the access key and sends the inner actions from the sender', () => {
    const h = setup(pq, { nonce: 7n, permission: { kind: 'FullAccess' } });
    const exec = delegate(h, pq, { kind: 'Nonce', nonce: 8n });
    assert.equal(exec.failure, undefined);
    assert.equal(h.accessKey('sender.near', pq.publicKey)?.nonce, 8n);
    const [inner] = exec.result.newReceipts;
    assert.equal(inner.predecessorId, 'sender.near');
    assert.equal(inner.receiverId, 'bob.near');
    assert.deepEqual(inner.receipt.kind === 'Action' && inner.receipt.actions, [
      { type: 'Transfer', deposit: 5n },
    ]);
    // Replaying it fails on the nonce.
    assert.deepEqual(kindOf(delegate(h, pq, { kind: 'Nonce', nonce: 8n })), {
      DelegateActionInvalidNonce: { delegate_nonce: 8, ak_nonce: 8 },
    });
  });

  it('a gas-key nonce on a plain key fails with DelegateActionRequiresGasKey', () => {
    const h = setup(sender, { nonce: 1n, permission: { kind: 'FullAccess' } });
    assert.deepEqual(kindOf(delegate(h, sender, { kind: 'GasKeyNonce', nonce: 2n, nonceIndex: 0 })), {
      DelegateActionAccessKeyError: 'DelegateActionRequiresGasKey',
    });
  });

  it('a gas key: a plain nonce is refused, an index past num_nonces is refused, an index in range advances', () => {
    const gasKey: AccessKey = {
      nonce: 0n,
      permission: { kind: 'GasKeyFullAccess', gasKeyInfo: { balance: 0n, numNonces: 2 } },
    };
    const h = setup(sender, gasKey);
    setGasKeyNonce(h.state, 'sender.near', sender.publicKey, 0, 3n);
    setGasKeyNonce(h.state, 'sender.near', sender.publicKey, 1, 4n);
    h.state.commit({ type: 'initial_state' });
    assert.deepEqual(kindOf(delegate(h, sender, { kind: 'Nonce', nonce: 9n })), {
      DelegateActionAccessKeyError: 'DelegateActionRequiresNonGasKey',
    });
    assert.deepEqual(kindOf(delegate(h, sender, { kind: 'GasKeyNonce', nonce: 9n, nonceIndex: 2 })), {
      DelegateActionInvalidNonceIndex: { nonce_index: 2, num_nonces: 2 },
    });
    assert.deepEqual(kindOf(delegate(h, sender, { kind: 'GasKeyNonce', nonce: 4n, nonceIndex: 1 })), {
      DelegateActionInvalidNonce: { delegate_nonce: 4, ak_nonce: 4 },
    });
    const ok = delegate(h, sender, { kind: 'GasKeyNonce', nonce: 9n, nonceIndex: 1 });
    assert.equal(ok.failure, undefined);
    assert.equal(getGasKeyNonce(h.state, 'sender.near', sender.publicKey, 1), 9n);
    assert.equal(
      getGasKeyNonce(h.state, 'sender.near', sender.publicKey, 0),
      3n,
      'the other index is untouched',
    );
    assert.equal(h.accessKey('sender.near', sender.publicKey)?.nonce, 0n, "the key's own nonce is not used");
  });

  it('a bad signature fails with DelegateActionInvalidSignature', () => {
    const h = setup(sender, { nonce: 1n, permission: { kind: 'FullAccess' } });
    const d: DelegateActionV2 = {
      senderId: 'sender.near',
      receiverId: 'bob.near',
      actions: [],
      nonce: { kind: 'Nonce', nonce: 2n },
      maxBlockHeight: 100n,
      publicKey: sender.publicKey,
    };
    const signed = signDelegateActionV2(d, pq);
    const exec = h.applyAction(
      'sender.near',
      { type: 'DelegateV2', signedDelegateAction: { delegateAction: d, signature: signed.signature } },
      'relayer.near',
    );
    assert.equal(kindOf(exec), 'DelegateActionInvalidSignature');
  });
});
