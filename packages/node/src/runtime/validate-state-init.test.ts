/**
 * The stateless checks of DeterministicStateInit (nearcore action_validation.rs
 * `validate_deterministic_state_init`), through `validateActions` as transactions and new receipts run them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Action, deterministicAccountId, stateInit } from '@shadebox/primitives';
import { testPublicKey, testRuntimeParams } from './test-support/apply-receipt-harness.js';
import { ActionsValidationError, validateActions } from './validate-actions.js';

const limits = testRuntimeParams().limits;
const init = stateInit({ kind: 'AccountId', accountId: 'code.near' }, [
  [new Uint8Array([1]), new Uint8Array([2])],
]);
const action: Action = { type: 'DeterministicStateInit', stateInit: init, deposit: 1n };
const derived = deterministicAccountId(init);

function errorOf(actions: Action[], receiverId: string): unknown {
  try {
    validateActions(limits, actions, receiverId);
  } catch (e) {
    assert.ok(e instanceof ActionsValidationError);
    return e.json;
  }
  return undefined;
}

describe('DeterministicStateInit validation', () => {
  it('accepts the state init sent to the id it derives to, and refuses any other receiver', () => {
    assert.equal(errorOf([action], derived), undefined);
    assert.deepEqual(errorOf([action], 'alice.near'), {
      InvalidDeterministicStateInitReceiver: { receiver_id: 'alice.near', derived_id: derived },
    });
  });

  it('refuses a global contract account id that is not a valid account id', () => {
    const bad: Action = {
      ...action,
      stateInit: stateInit({ kind: 'AccountId', accountId: 'Bad!' }, []),
    } as Action;
    assert.deepEqual(errorOf([bad], derived), { InvalidAccountId: { account_id: 'Bad!' } });
  });

  it('refuses keys and values over the storage limits', () => {
    const keyLimit = limits.maxLengthStorageKey!;
    const valueLimit = limits.maxLengthStorageValue!;
    const longKey = stateInit(init.code, [[new Uint8Array(keyLimit + 1), new Uint8Array(0)]]);
    assert.deepEqual(
      errorOf(
        [{ type: 'DeterministicStateInit', stateInit: longKey, deposit: 0n }],
        deterministicAccountId(longKey),
      ),
      { DeterministicStateInitKeyLengthExceeded: { length: keyLimit + 1, limit: keyLimit } },
    );
    const longValue = stateInit(init.code, [[new Uint8Array(1), new Uint8Array(valueLimit + 1)]]);
    assert.deepEqual(
      errorOf(
        [{ type: 'DeterministicStateInit', stateInit: longValue, deposit: 0n }],
        deterministicAccountId(longValue),
      ),
      { DeterministicStateInitValueLengthExceeded: { length: valueLimit + 1, limit: valueLimit } },
    );
  });

  it("checks a delegate action's inner state init against the delegate's receiver (protocol 85)", () => {
    const delegate = (receiverId: string): Action => ({
      type: 'Delegate',
      signedDelegateAction: {
        delegateAction: {
          senderId: 'relayed.near',
          receiverId,
          actions: [action],
          nonce: 1n,
          maxBlockHeight: 100n,
          publicKey: testPublicKey(),
        },
        signature: { keyType: 0, data: new Uint8Array(64) },
      },
    });
    assert.equal(errorOf([delegate(derived)], 'relayed.near'), undefined);
    assert.deepEqual(errorOf([delegate('other.near')], 'relayed.near'), {
      InvalidDeterministicStateInitReceiver: { receiver_id: 'other.near', derived_id: derived },
    });
  });
});
