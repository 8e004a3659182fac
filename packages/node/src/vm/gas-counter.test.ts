/**
 * The gas counter through host functions, on a VMLogic without a node, with nearcore's own vectors
 * (runtime/near-vm-runner/src/logic/tests/gas_counter.rs): running out of burnt gas (GasLimitExceeded) and
 * out of attached gas (GasExceeded) while a specific action fee is charged must leave exactly the same burnt
 * and used gas as nearcore, so the order of charges is the protocol's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base58Decode, TGAS } from '@shadebox/primitives';
import type { ActionCost } from '../config/runtime-config.js';
import {
  buildVMLogic,
  promiseBatchActionAddKeyWithFullAccess,
  promiseBatchActionAddKeyWithFunctionCall,
  promiseBatchActionFunctionCall,
  promiseBatchActionFunctionCallWeight,
  promiseBatchCreate,
  promiseCreate,
  type TestVMLogic,
  u128le,
} from './test-support/vm-logic-builder.js';
import { HostError } from './vm-errors.js';

/** nearcore's `test_pk()`, borsh-encoded. */
const TEST_PK = Uint8Array.of(0, ...base58Decode('22W5rKuvbMRphnDoCj6nfrWhRKvh9Xf9SWXfGHaeXGde'));

function hostErrorOf(fn: () => unknown): HostError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof HostError, String(e));
    return e;
  }
  assert.fail('expected a host error');
}

/** Opcodes worth `gas` (the instrumentation charges `regular_op_cost` per opcode). */
const opLimit = (logic: TestVMLogic, gas: bigint) => Number(gas / logic.config.regularOpCost);

describe('gas limits (nearcore gas_counter.rs)', () => {
  const gasLimit = 100n * TGAS;

  it('attaching more gas than prepaid: GasExceeded, all of it used, little burnt', () => {
    const logic = buildVMLogic({ config: { maxGasBurnt: gasLimit * 2n }, context: { prepaidGas: gasLimit } });
    const index = promiseCreate(logic, 'rick.test', 0n, 0n);
    const e = hostErrorOf(() => promiseBatchActionFunctionCall(logic, index, 0n, gasLimit * 2n));
    assert.equal(e.variant, 'GasExceeded');
    assert.ok(logic.burntGas < gasLimit / 2n);
    assert.equal(logic.usedGas, gasLimit);
  });

  it('Wasm gas after attaching gas to a call is limited by what is left', () => {
    const logic = buildVMLogic({ config: { maxGasBurnt: gasLimit * 2n }, context: { prepaidGas: gasLimit } });
    const index = promiseCreate(logic, 'rick.test', 0n, 0n);
    promiseBatchActionFunctionCall(logic, index, 0n, gasLimit / 2n);
    hostErrorOf(() => logic.call('gas', opLimit(logic, gasLimit) / 2));
    assert.equal(logic.usedGas, gasLimit);
    assert.ok(gasLimit / 2n < logic.burntGas);
    assert.ok(logic.burntGas < gasLimit);
  });

  it('cannot burn more than max_gas_burnt', () => {
    const logic = buildVMLogic({ config: { maxGasBurnt: gasLimit }, context: { prepaidGas: gasLimit * 2n } });
    assert.equal(
      hostErrorOf(() => logic.call('gas', opLimit(logic, gasLimit) * 3)).variant,
      'GasLimitExceeded',
    );
    assert.equal(logic.burntGas, gasLimit);
    assert.equal(logic.usedGas, gasLimit * 2n);
  });

  it('cannot burn more than the prepaid gas', () => {
    const logic = buildVMLogic({ config: { maxGasBurnt: gasLimit * 2n }, context: { prepaidGas: gasLimit } });
    hostErrorOf(() => logic.call('gas', opLimit(logic, gasLimit) * 3));
    assert.equal(logic.burntGas, gasLimit);
    assert.equal(logic.usedGas, gasLimit);
  });

  it('hitting max_gas_burnt with gas attached to a promise', () => {
    const logic = buildVMLogic({ config: { maxGasBurnt: gasLimit }, context: { prepaidGas: gasLimit * 3n } });
    promiseCreate(logic, 'rick.test', 0n, gasLimit / 2n);
    assert.equal(
      hostErrorOf(() => logic.call('gas', opLimit(logic, gasLimit) * 2)).variant,
      'GasLimitExceeded',
    );
    assert.equal(logic.burntGas, gasLimit);
    assert.ok(logic.usedGas > gasLimit * 2n);
  });

  it('hitting the prepaid gas with gas attached to a promise', () => {
    const logic = buildVMLogic({ config: { maxGasBurnt: gasLimit * 3n }, context: { prepaidGas: gasLimit } });
    promiseCreate(logic, 'rick.test', 0n, gasLimit / 2n);
    assert.equal(hostErrorOf(() => logic.call('gas', opLimit(logic, gasLimit) * 2)).variant, 'GasExceeded');
    assert.equal(logic.burntGas, gasLimit);
    assert.equal(logic.usedGas, gasLimit);
  });

  it('gas burnt overflowing u64 through a huge method name: GasLimitExceeded, used = the limit', () => {
    const limit = 3n * 100n * TGAS;
    const logic = buildVMLogic({ config: { maxGasBurnt: limit }, context: { prepaidGas: limit } });
    const account = logic.memWrite('rick.test');
    const args = logic.memWrite('');
    const n100 = logic.memWrite(u128le(100n));
    const n10 = logic.memWrite(u128le(10n));
    const index = promiseBatchCreate(logic, 'rick.test');
    logic.call('promise_batch_action_transfer', index, n100.ptr);
    const callId = logic.u64('promise_batch_then', index, account.len, account.ptr);
    const needed = (1n << 64n) - 1n - logic.usedGas - 1n;
    const nameLen = needed / logic.costs.read_memory_byte;
    const e = hostErrorOf(() =>
      logic.call(
        'promise_batch_action_function_call',
        callId,
        nameLen,
        0n,
        args.len,
        args.ptr,
        n10.ptr,
        10000n,
      ),
    );
    assert.equal(e.variant, 'GasLimitExceeded');
    assert.equal(logic.usedGas, limit);
  });
});

/** A call that charges the action fee under test (nearcore's `exercise_action` closures). */
type Exercise = (logic: TestVMLogic) => void;

const createActionReceipt: Exercise = (logic) => {
  promiseBatchCreate(logic, 'rick.test');
};
const createPromiseDependency: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'rick.test');
  const account = logic.memWrite('rick.test');
  logic.call('promise_batch_then', idx, account.len, account.ptr);
};
const valueReturn: Exercise = (logic) => {
  const value = logic.memWrite('lorem ipsum');
  logic.call('value_return', 11n, value.ptr);
};
const createAccount: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'rick.test');
  logic.call('promise_batch_action_create_account', idx);
};
const deleteAccount: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'bob.test');
  const beneficiary = logic.memWrite('alice.test');
  logic.call('promise_batch_action_delete_account', idx, beneficiary.len, beneficiary.ptr);
};
const deployContract: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'rick.test');
  const code = logic.memWrite('lorem ipsum with length 26');
  logic.call('promise_batch_action_deploy_contract', idx, code.len, code.ptr);
};
const crossContractCall: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'rick.test');
  promiseBatchActionFunctionCall(logic, idx, 1n, 1n, 'fn_with_len_14', 'lorem ipsum with length 26');
};
const crossContractCallGasWeight: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'rick.test');
  promiseBatchActionFunctionCallWeight(
    logic,
    idx,
    1n,
    1n,
    1n,
    'fn_with_len_14',
    'lorem ipsum with length 26',
  );
};
const promiseTransfer: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'alice.test');
  // nearcore writes the amount big-endian here (1 << 120 read as little-endian): only the gas matters.
  const amount = logic.memWrite(u128le(1n).reverse());
  logic.call('promise_batch_action_transfer', idx, amount.ptr);
};
const promiseStake: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'pool.test');
  const amount = logic.memWrite(u128le(1n).reverse());
  const pk = logic.memWrite(TEST_PK);
  logic.call('promise_batch_action_stake', idx, amount.ptr, pk.len, pk.ptr);
};
const promiseFullAccessKey: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'alice.test');
  promiseBatchActionAddKeyWithFullAccess(logic, idx, TEST_PK, 0n);
};
const promiseFunctionKey: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'alice.test');
  promiseBatchActionAddKeyWithFunctionCall(logic, idx, TEST_PK, 0n, 1n, 'alice.test', 'foo,baz');
};
const promiseDeleteKey: Exercise = (logic) => {
  const idx = promiseBatchCreate(logic, 'alice.test');
  const pk = logic.memWrite(TEST_PK);
  logic.call('promise_batch_action_delete_key', idx, pk.len, pk.ptr);
};

/**
 * nearcore's `check_action_gas_exceeds_limit`: the fee under test is so high that burning it crosses
 * max_gas_burnt; everything attached ends up burnt and used.
 */
function exceedsLimit(cost: ActionCost, paid: bigint, exercise: Exercise): void {
  const gasLimit = 10n ** 13n;
  const logic = buildVMLogic({
    config: { maxGasBurnt: gasLimit },
    fees: { [cost]: { sendSir: gasLimit / paid + 1n, sendNotSir: gasLimit / paid + 10n, execution: 1n } },
    context: { prepaidGas: gasLimit, outputDataReceiverCount: 1 },
  });
  assert.equal(hostErrorOf(() => exercise(logic)).variant, 'GasLimitExceeded', cost);
  assert.equal(logic.burntGas, gasLimit, `${cost}: burnt gas is all the attached gas`);
  assert.equal(logic.usedGas, gasLimit, `${cost}: used gas is all the attached gas`);
}

/**
 * nearcore's `check_action_gas_exceeds_attached`: the fee's execution part is so high that burnt + promised
 * gas crosses the attached gas (GasExceeded); `expected` is nearcore's "<burnt> burnt <used> used".
 */
function exceedsAttached(cost: ActionCost, paid: bigint, expected: string, exercise: Exercise): void {
  const gasAttached = 10n ** 13n;
  const logic = buildVMLogic({
    config: { maxGasBurnt: 10n ** 14n },
    fees: { [cost]: { sendSir: 1n, sendNotSir: 10n, execution: gasAttached / paid + 1n } },
    context: { prepaidGas: gasAttached, outputDataReceiverCount: 1 },
  });
  assert.equal(hostErrorOf(() => exercise(logic)).variant, 'GasExceeded', cost);
  assert.equal(`${logic.burntGas} burnt ${logic.usedGas} used`, expected, cost);
}

describe('out of gas while charging one action fee (nearcore gas_counter.rs out_of_gas_*)', () => {
  it('new_action_receipt', () => {
    exceedsLimit('new_action_receipt', 1n, createActionReceipt);
    exceedsLimit('new_action_receipt', 2n, createPromiseDependency);
    exceedsAttached('new_action_receipt', 1n, '8644846690 burnt 10000000000000 used', createActionReceipt);
    exceedsAttached(
      'new_action_receipt',
      2n,
      '9411968532130 burnt 10000000000000 used',
      createPromiseDependency,
    );
  });

  it('new_data_receipt_base', () => {
    exceedsLimit('new_data_receipt_base', 1n, createPromiseDependency);
    exceedsAttached(
      'new_data_receipt_base',
      1n,
      '10000000000000 burnt 10000000000000 used',
      createPromiseDependency,
    );
  });

  it('new_data_receipt_byte (value_return to one data receiver)', () => {
    exceedsLimit('new_data_receipt_byte', 11n, valueReturn);
    exceedsAttached('new_data_receipt_byte', 11n, '10000000000000 burnt 10000000000000 used', valueReturn);
  });

  it('create_account', () => {
    exceedsLimit('create_account', 1n, createAccount);
    exceedsAttached('create_account', 1n, '116969114801 burnt 10000000000000 used', createAccount);
  });

  it('delete_account', () => {
    exceedsLimit('delete_account', 1n, deleteAccount);
    exceedsAttached('delete_account', 1n, '125349193370 burnt 10000000000000 used', deleteAccount);
  });

  it('deploy_contract_base and deploy_contract_byte', () => {
    exceedsLimit('deploy_contract_base', 1n, deployContract);
    exceedsLimit('deploy_contract_byte', 26n, deployContract);
    exceedsAttached('deploy_contract_byte', 26n, '304443562909 burnt 10000000000000 used', deployContract);
  });

  it('deploy_contract_base, attached gas exceeded: the base fee fails before the per-byte fee is charged', () => {
    exceedsAttached('deploy_contract_base', 1n, '119677812659 burnt 10000000000000 used', deployContract);
  });

  it('function_call_base and function_call_byte, with and without a gas weight', () => {
    for (const call of [crossContractCall, crossContractCallGasWeight]) {
      exceedsLimit('function_call_base', 1n, call);
      exceedsAttached('function_call_base', 1n, '125011579049 burnt 10000000000000 used', call);
      exceedsLimit('function_call_byte', 40n, call);
      exceedsAttached('function_call_byte', 40n, '2444873079439 burnt 10000000000000 used', call);
    }
  });

  it('transfer', () => {
    exceedsLimit('transfer', 1n, promiseTransfer);
    exceedsAttached('transfer', 1n, '119935181141 burnt 10000000000000 used', promiseTransfer);
  });

  it('stake', () => {
    exceedsLimit('stake', 1n, promiseStake);
    exceedsAttached('stake', 1n, '122375106518 burnt 10000000000000 used', promiseStake);
  });

  it('add_full_access_key', () => {
    exceedsLimit('add_full_access_key', 1n, promiseFullAccessKey);
    exceedsAttached(
      'add_full_access_key',
      1n,
      '119999803802 burnt 10000000000000 used',
      promiseFullAccessKey,
    );
  });

  it('add_function_call_key_base and add_function_call_key_byte, burnt limit exceeded', () => {
    exceedsLimit('add_function_call_key_base', 1n, promiseFunctionKey);
    exceedsLimit('add_function_call_key_byte', 7n, promiseFunctionKey);
  });

  it('add_function_call_key_base and _byte, attached gas exceeded (method names read, not decoded)', () => {
    exceedsAttached(
      'add_function_call_key_base',
      1n,
      '133982421242 burnt 10000000000000 used',
      promiseFunctionKey,
    );
    exceedsAttached(
      'add_function_call_key_byte',
      7n,
      '236200046312 burnt 10000000000000 used',
      promiseFunctionKey,
    );
  });

  it('delete_key', () => {
    exceedsLimit('delete_key', 1n, promiseDeleteKey);
    exceedsAttached('delete_key', 1n, '119999803802 burnt 10000000000000 used', promiseDeleteKey);
  });
});
