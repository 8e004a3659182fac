/**
 * The action rules protocol 87 adds (nearcore 2.14 runtime/runtime/src/action_validation.rs, NewReceipt mode:
 * transactions and the receipts contracts make), each checked at 86, where it does not apply, and at 87:
 * RejectEmptyMethodName, RejectDelegateV2, RejectWithdrawFromGasKeyInDelegate and `max_state_init_entries`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Action, deterministicAccountId, type StateInitEntry, stateInit } from '@shadebox/primitives';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { runtimeParamsFrom } from './runtime-params.js';
import { testPublicKey } from './test-support/apply-receipt-harness.js';
import { ActionsValidationError, validateActions } from './validate-actions.js';

const limitsOf = (version: number) => runtimeParamsFrom(loadRuntimeConfig(version)).limits;

function errorAt(version: number, actions: Action[], receiverId?: string): unknown {
  try {
    validateActions(limitsOf(version), actions, receiverId);
  } catch (e) {
    assert.ok(e instanceof ActionsValidationError);
    return e.json;
  }
  return undefined;
}

const call = (methodName: string, gas = 10n ** 12n): Action => ({
  type: 'FunctionCall',
  methodName,
  args: new Uint8Array(),
  gas,
  deposit: 0n,
});
const signature = { keyType: 0 as const, data: new Uint8Array(64) };

function delegate(actions: Action[], receiverId = 'bob.near'): Action {
  return {
    type: 'Delegate',
    signedDelegateAction: {
      delegateAction: {
        senderId: 'alice.near',
        receiverId,
        actions,
        nonce: 1n,
        maxBlockHeight: 100n,
        publicKey: testPublicKey(),
      },
      signature,
    },
  };
}

function delegateV2(actions: Action[]): Action {
  return {
    type: 'DelegateV2',
    signedDelegateAction: {
      delegateAction: {
        senderId: 'alice.near',
        receiverId: 'bob.near',
        actions,
        nonce: { kind: 'GasKeyNonce', nonce: 1n, nonceIndex: 0 },
        maxBlockHeight: 100n,
        publicKey: testPublicKey(),
      },
      signature,
    },
  };
}

const withdraw: Action = { type: 'WithdrawFromGasKey', publicKey: testPublicKey(), amount: 1n };

describe('protocol 87 action rules', () => {
  it('RejectEmptyMethodName: an empty method name is FunctionCallEmptyMethodName at 87, admitted at 86', () => {
    assert.equal(errorAt(86, [call('')]), undefined);
    assert.equal(errorAt(87, [call('')]), 'FunctionCallEmptyMethodName');
    // Inside a meta transaction too; zero gas is still checked first, as in nearcore.
    assert.equal(errorAt(87, [delegate([call('')])]), 'FunctionCallEmptyMethodName');
    assert.equal(errorAt(87, [call('', 0n)]), 'FunctionCallZeroAttachedGas');
    assert.equal(errorAt(87, [call('hello')]), undefined);
  });

  it('RejectDelegateV2: DelegateV2 is RemovedProtocolFeature at 87, admitted at 86', () => {
    const action = delegateV2([{ type: 'Transfer', deposit: 1n }]);
    assert.equal(errorAt(86, [action]), undefined);
    assert.deepEqual(errorAt(87, [action]), {
      RemovedProtocolFeature: { protocol_feature: 'DelegateV2', version: 87 },
    });
    // The first-version Delegate stays.
    assert.equal(errorAt(87, [delegate([{ type: 'Transfer', deposit: 1n }])]), undefined);
  });

  it('RejectWithdrawFromGasKeyInDelegate: a nested WithdrawFromGasKey is refused at 87 only', () => {
    assert.equal(errorAt(86, [delegate([withdraw])]), undefined);
    assert.equal(errorAt(87, [delegate([withdraw])]), 'WithdrawFromGasKeyNotAllowedInDelegate');
    assert.equal(
      errorAt(87, [delegate([{ type: 'Transfer', deposit: 1n }, withdraw])]),
      'WithdrawFromGasKeyNotAllowedInDelegate',
    );
    // At the top level it is an ordinary action.
    assert.equal(errorAt(87, [withdraw]), undefined);
    // Too many inner actions is counted first, as nearcore's validate_delegate_action does.
    const many = Array.from({ length: 101 }, () => withdraw);
    assert.deepEqual(errorAt(87, [delegate(many)]), {
      TotalNumberOfActionsExceeded: { total_number_of_actions: 101, limit: 100 },
    });
  });

  it("max_state_init_entries: more than 1_500 entries over a receipt's state inits is refused at 87", () => {
    const entries = (n: number, salt: number): StateInitEntry[] =>
      Array.from({ length: n }, (_, i) => [new Uint8Array([salt, i >> 8, i & 0xff]), new Uint8Array([1])]);
    const init = (n: number, salt: number) =>
      stateInit({ kind: 'AccountId', accountId: 'code.near' }, entries(n, salt));
    const a = init(1_000, 1);
    const b = init(501, 2);
    const actionA: Action = { type: 'DeterministicStateInit', stateInit: a, deposit: 0n };
    const actionB: Action = { type: 'DeterministicStateInit', stateInit: b, deposit: 0n };
    assert.equal(limitsOf(86).maxStateInitEntries, 4_294_967_295);
    assert.equal(limitsOf(87).maxStateInitEntries, 1_500);
    // One receipt, one receiver: the same state init twice counts twice (1_000 + 1_000).
    const receiver = deterministicAccountId(a);
    assert.equal(errorAt(87, [actionA], receiver), undefined);
    assert.equal(errorAt(86, [actionA, actionA], receiver), undefined);
    assert.deepEqual(errorAt(87, [actionA, actionA], receiver), {
      TotalNumberOfStateInitEntriesExceeded: { number_of_state_init_entries: 2_000, limit: 1_500 },
    });
    // Counted before each action is checked (b is sent to a's id, which its own check would refuse).
    assert.deepEqual(errorAt(87, [actionA, actionB], receiver), {
      TotalNumberOfStateInitEntriesExceeded: { number_of_state_init_entries: 1_501, limit: 1_500 },
    });
    // A delegate's inner state inits count towards the receipt that carries it.
    assert.deepEqual(errorAt(87, [delegate([actionA, actionA], receiver)], 'alice.near'), {
      TotalNumberOfStateInitEntriesExceeded: { number_of_state_init_entries: 2_000, limit: 1_500 },
    });
  });
});
