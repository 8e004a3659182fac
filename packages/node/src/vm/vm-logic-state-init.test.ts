/**
 * The NEP-616 host functions on a VMLogic without a node: nearcore's logic tests
 * (runtime/near-vm-runner/src/logic/tests/promises.rs, the deterministic state init cases) ported with their
 * gas used, with nearcore's test fees for the state init rows; then the errors in nearcore's order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionToJson, stateInit } from '@shadebox/primitives';
import type { Fee } from '../config/fees.js';
import { buildVMLogic, promiseBatchCreate, REGISTER, u128le } from './test-support/vm-logic-builder.js';
import { HostError } from './vm-errors.js';

const fee = (sendSir: bigint, sendNotSir: bigint, execution: bigint): Fee => ({
  sendSir,
  sendNotSir,
  execution,
});

/** `RuntimeFeesConfig::test()`'s state init rows: parameters.yaml's (the base fee before 85.yaml's
 * rebalancing: 3.85 / 3.85 / 4.08 Tgas; the nearcore test's comment rounds the execution to 4.00). */
const TEST_STATE_INIT_FEES = {
  deterministic_state_init_base: fee(3_850_000_000_000n, 3_850_000_000_000n, 4_080_000_000_000n),
  deterministic_state_init_entry: fee(0n, 0n, 200_000_000_000n),
  deterministic_state_init_byte: fee(72_000_000n, 72_000_000n, 70_000_000n),
};

function fails(fn: () => unknown, variant: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof HostError, String(e));
    assert.equal(e.variant, variant);
    return true;
  });
}

describe('state init host functions (nearcore promises.rs)', () => {
  it('promise_batch_action_state_init_by_account_id + set_state_init_data_entry from memory: the gas nearcore asserts', () => {
    const logic = buildVMLogic({ fees: TEST_STATE_INIT_FEES });
    const index = promiseBatchCreate(logic, 'rick.test');
    const accountId = logic.memWrite('global.near');
    const key = logic.memWrite('key');
    const value = logic.memWrite('value');
    const amount = logic.memWrite(u128le(110n));
    const actionIndex = logic.u64(
      'promise_batch_action_state_init_by_account_id',
      index,
      accountId.len,
      accountId.ptr,
      amount.ptr,
    );
    assert.equal(actionIndex, 0n);
    logic.call('set_state_init_data_entry', index, actionIndex, key.len, key.ptr, value.len, value.ptr);
    assert.equal(logic.u64('used_gas'), 8_373_585_814_798n);
    // The receipt carries the action as nearcore's mocked external records it.
    const action = logic.actionReceipts[0].actions[0];
    assert.deepEqual(actionToJson(action), {
      DeterministicStateInit: {
        state_init: { V1: { code: { AccountId: 'global.near' }, data: { a2V5: 'dmFsdWU=' } } },
        deposit: '110',
      },
    });
  });

  it('a second entry from registers: the gas nearcore asserts', () => {
    const logic = buildVMLogic({ fees: TEST_STATE_INIT_FEES });
    const index = promiseBatchCreate(logic, 'rick.test');
    const accountId = logic.memWrite('global.near');
    const key = logic.memWrite('key');
    const value = logic.memWrite('value');
    const amount = logic.memWrite(u128le(110n));
    // nearcore writes these registers before it resets its counters: the writes are not in the gas used.
    logic.setRegister(0n, 'key2');
    logic.setRegister(1n, 'value2');
    const actionIndex = logic.u64(
      'promise_batch_action_state_init_by_account_id',
      index,
      accountId.len,
      accountId.ptr,
      amount.ptr,
    );
    logic.call('set_state_init_data_entry', index, actionIndex, key.len, key.ptr, value.len, value.ptr);
    logic.call('set_state_init_data_entry', index, actionIndex, REGISTER, 0n, REGISTER, 1n);
    assert.equal(logic.u64('used_gas'), 8_586_074_959_513n);
    const action = logic.actionReceipts[0].actions[0];
    assert.equal(action.type, 'DeterministicStateInit');
    assert.deepEqual(
      action.type === 'DeterministicStateInit' &&
        action.stateInit.data.map(([k, v]) => [Buffer.from(k).toString(), Buffer.from(v).toString()]),
      [
        ['key', 'value'],
        ['key2', 'value2'],
      ],
    );
  });

  it('by code hash, an entry given from registers, a key set twice keeps the last value', () => {
    const logic = buildVMLogic({ fees: TEST_STATE_INIT_FEES });
    const index = promiseBatchCreate(logic, 'rick.test');
    const hash = logic.memWrite(new Uint8Array(32).fill(9));
    const amount = logic.memWrite(u128le(5n));
    const actionIndex = logic.u64('promise_batch_action_state_init', index, hash.len, hash.ptr, amount.ptr);
    logic.setRegister(1n, 'k');
    logic.setRegister(2n, 'v1');
    logic.call('set_state_init_data_entry', index, actionIndex, REGISTER, 1n, REGISTER, 2n);
    logic.setRegister(2n, 'v2');
    logic.call('set_state_init_data_entry', index, actionIndex, REGISTER, 1n, REGISTER, 2n);
    const action = logic.actionReceipts[0].actions[0];
    const expected = stateInit({ kind: 'CodeHash', codeHash: new Uint8Array(32).fill(9) }, [
      [new TextEncoder().encode('k'), new TextEncoder().encode('v2')],
    ]);
    assert.deepEqual(action, { type: 'DeterministicStateInit', stateInit: expected, deposit: 5n });
  });

  it('fails as nearcore: in a view, a malformed code hash, a bad promise, a bad action index, too little balance', () => {
    const view = buildVMLogic({ context: { isView: true } });
    fails(() => view.call('promise_batch_action_state_init', 0n, 32n, 0n, 0n), 'ProhibitedInView');
    fails(
      () => view.call('promise_batch_action_state_init_by_account_id', 0n, 1n, 0n, 0n),
      'ProhibitedInView',
    );
    fails(() => view.call('set_state_init_data_entry', 0n, 0n, 0n, 0n, 0n, 0n), 'ProhibitedInView');

    const logic = buildVMLogic({ fees: TEST_STATE_INIT_FEES });
    const index = promiseBatchCreate(logic, 'rick.test');
    const short = logic.memWrite(new Uint8Array(31));
    const amount = logic.memWrite(u128le(0n));
    fails(
      () => logic.call('promise_batch_action_state_init', index, short.len, short.ptr, amount.ptr),
      'ContractCodeHashMalformed',
    );
    const hash = logic.memWrite(new Uint8Array(32));
    fails(
      () => logic.call('promise_batch_action_state_init', 7n, hash.len, hash.ptr, amount.ptr),
      'InvalidPromiseIndex',
    );
    const badId = logic.memWrite('Not Valid');
    fails(
      () =>
        logic.call('promise_batch_action_state_init_by_account_id', index, badId.len, badId.ptr, amount.ptr),
      'InvalidAccountId',
    );
    // Action index 0 names no action yet.
    fails(() => logic.call('set_state_init_data_entry', index, 0n, 0n, 0n, 0n, 0n), 'InvalidActionIndex');
    const huge = logic.memWrite(u128le(10n ** 30n));
    fails(
      () => logic.call('promise_batch_action_state_init', index, hash.len, hash.ptr, huge.ptr),
      'BalanceExceeded',
    );
    logic.call('promise_batch_action_state_init', index, hash.len, hash.ptr, amount.ptr);
    fails(() => logic.call('set_state_init_data_entry', 9n, 0n, 0n, 0n, 0n, 0n), 'InvalidPromiseIndex');
  });
});
