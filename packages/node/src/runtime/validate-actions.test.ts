/**
 * The stateless checks of a receipt's actions, as nearcore's verifier tests exercise them
 * (runtime/runtime/src/verifier.rs `validate_actions` tests), with the protocol-85 limits.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Action, KEY_TYPE_SECP256K1 } from '@shadebox/primitives';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { runtimeParamsFrom } from './runtime-params.js';
import { testPublicKey, testRuntimeParams } from './test-support/apply-receipt-harness.js';
import { ActionsValidationError, validateActions } from './validate-actions.js';

const limits = testRuntimeParams().limits;
const call = (gas: bigint, methodName = 'hello', args = new Uint8Array()): Action => ({
  type: 'FunctionCall',
  methodName,
  args,
  gas,
  deposit: 0n,
});

/** The validation error's JSON (nearcore's `ActionsValidationError`). */
function errorOf(actions: Action[]): unknown {
  try {
    validateActions(limits, actions);
  } catch (e) {
    assert.ok(e instanceof ActionsValidationError);
    return e.json;
  }
  return undefined;
}

describe('validate_actions (nearcore verifier.rs)', () => {
  it('no actions, and a valid function call, pass', () => {
    assert.equal(errorOf([]), undefined);
    assert.equal(errorOf([call(100n)]), undefined);
  });

  it('a function call with zero gas: FunctionCallZeroAttachedGas', () => {
    assert.equal(errorOf([call(0n)]), 'FunctionCallZeroAttachedGas');
  });

  it('more gas than max_total_prepaid_gas, in one or two calls: TotalPrepaidGasExceeded', () => {
    const max = limits.maxTotalPrepaidGas;
    assert.equal(errorOf([call(max)]), undefined);
    const json = (total: bigint) => ({
      TotalPrepaidGasExceeded: { total_prepaid_gas: Number(total), limit: Number(max) },
    });
    assert.deepEqual(errorOf([call(max + 1n)]), json(max + 1n));
    assert.deepEqual(errorOf([call(max / 2n + 1n), call(max / 2n + 1n)]), json(2n * (max / 2n + 1n)));
  });

  it('more actions than max_actions_per_receipt: TotalNumberOfActionsExceeded', () => {
    const max = limits.maxActionsPerReceipt;
    const transfers: Action[] = Array.from({ length: max + 1 }, () => ({ type: 'Transfer', deposit: 1n }));
    assert.equal(errorOf(transfers.slice(0, max)), undefined);
    assert.deepEqual(errorOf(transfers), {
      TotalNumberOfActionsExceeded: { total_number_of_actions: max + 1, limit: max },
    });
  });

  it('DeleteAccount must be the last action', () => {
    const del: Action = { type: 'DeleteAccount', beneficiaryId: 'bob.near' };
    const transfer: Action = { type: 'Transfer', deposit: 1n };
    assert.equal(errorOf([transfer, del]), undefined);
    assert.equal(errorOf([del, transfer]), 'DeleteActionMustBeFinal');
  });

  it('a method name over max_length_method_name, and arguments over max_arguments_length', () => {
    const long = 'a'.repeat(limits.maxLengthMethodName + 1);
    assert.deepEqual(errorOf([call(1n, long)]), {
      FunctionCallMethodNameLengthExceeded: { length: long.length, limit: limits.maxLengthMethodName },
    });
    const args = new Uint8Array(limits.maxArgumentsLength + 1);
    assert.deepEqual(errorOf([call(1n, 'f', args)]), {
      FunctionCallArgumentsLengthExceeded: { length: args.length, limit: limits.maxArgumentsLength },
    });
  });

  it('a contract over max_contract_size: ContractSizeExceeded', () => {
    const code = new Uint8Array(limits.maxContractSize + 1);
    assert.deepEqual(errorOf([{ type: 'DeployContract', code }]), {
      ContractSizeExceeded: { size: code.length, limit: limits.maxContractSize },
    });
  });

  it('more deploy actions than max_deploy_actions_per_receipt (10 since 84): TotalNumberOfDeployActionsExceeded', () => {
    assert.equal(limits.maxDeployActionsPerReceipt, 10);
    const deploy: Action = { type: 'DeployContract', code: new Uint8Array() };
    const global: Action = { type: 'DeployGlobalContract', code: new Uint8Array(), deployMode: 'CodeHash' };
    const transfer: Action = { type: 'Transfer', deposit: 1n };
    assert.equal(errorOf([...Array(10).fill(deploy), transfer]), undefined);
    const json = (n: number) => ({
      TotalNumberOfDeployActionsExceeded: { number_of_deploy_actions: n, limit: 10 },
    });
    assert.deepEqual(errorOf(Array(11).fill(deploy)), json(11));
    // DeployGlobalContract counts with DeployContract.
    assert.deepEqual(errorOf([...Array(6).fill(deploy), ...Array(6).fill(global)]), json(12));
    // Checked before each action: an oversized code among them does not hide it.
    const big: Action = { type: 'DeployContract', code: new Uint8Array(limits.maxContractSize + 1) };
    assert.deepEqual(errorOf([big, ...Array(10).fill(deploy)]), json(11));
    // A delegate action's inner actions are counted on their own.
    const delegate = (actions: Action[]): Action => ({
      type: 'Delegate',
      signedDelegateAction: {
        delegateAction: {
          senderId: 'alice.near',
          receiverId: 'alice.near',
          actions,
          nonce: 1n,
          maxBlockHeight: 100n,
          publicKey: testPublicKey(),
        },
        signature: { keyType: 0, data: new Uint8Array(64) },
      },
    });
    assert.equal(errorOf([...Array(10).fill(deploy), delegate(Array(10).fill(deploy))]), undefined);
    assert.deepEqual(errorOf([delegate(Array(11).fill(deploy))]), json(11));
    // At 83 the limit was 100, as many as max_actions_per_receipt.
    const v83 = runtimeParamsFrom(loadRuntimeConfig(83)).limits;
    assert.equal(v83.maxDeployActionsPerReceipt, 100);
    assert.doesNotThrow(() => validateActions(v83, Array(11).fill(deploy)));
  });

  it('function-call key method names: each name and their total (a NUL per name) are limited', () => {
    const key = (methodNames: string[], receiverId = 'app.near'): Action => ({
      type: 'AddKey',
      publicKey: testPublicKey(),
      accessKey: {
        nonce: 0n,
        permission: { kind: 'FunctionCall', allowance: null, receiverId, methodNames },
      },
    });
    const long = 'm'.repeat(limits.maxLengthMethodName + 1);
    assert.deepEqual(errorOf([key([long])]), {
      AddKeyMethodNameLengthExceeded: { length: long.length, limit: limits.maxLengthMethodName },
    });
    const name = 'n'.repeat(limits.maxLengthMethodName);
    const count = Math.floor(limits.maxNumberBytesMethodNames / (name.length + 1)) + 1;
    assert.deepEqual(errorOf([key(Array(count).fill(name))]), {
      AddKeyMethodNamesNumberOfBytesExceeded: {
        total_number_of_bytes: count * (name.length + 1),
        limit: limits.maxNumberBytesMethodNames,
      },
    });
    assert.deepEqual(errorOf([key(['f'], 'Not Valid')]), { InvalidAccountId: { account_id: 'Not Valid' } });
  });

  it('staking with a secp256k1 key: UnsuitableStakingKey', () => {
    const publicKey = { keyType: KEY_TYPE_SECP256K1, data: new Uint8Array(64).fill(1) };
    const json = errorOf([{ type: 'Stake', stake: 1n, publicKey }]) as { UnsuitableStakingKey: unknown };
    assert.ok(json.UnsuitableStakingKey);
  });
});
