/**
 * Promise host functions on a VMLogic without a node, with the gas nearcore's own logic tests assert
 * (runtime/near-vm-runner/src/logic/tests/promises.rs): same context, same call sequence (failing calls
 * included, since they burn gas too), same fees (`RuntimeFeesConfig::test()`), so the same gas used.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base58Decode } from '@shadebox/primitives';
import {
  buildVMLogic,
  promiseBatchActionAddKeyWithFunctionCall,
  promiseBatchActionFunctionCall,
  promiseBatchActionFunctionCallWeight,
  promiseCreate,
  type TestVMLogic,
  u128le,
} from './test-support/vm-logic-builder.js';
import { HostError } from './vm-errors.js';

/** nearcore's `test_public_key()`, borsh-encoded (key type 0, then the 32 bytes). */
const TEST_PK = Uint8Array.of(0, ...base58Decode('5do5nkAEVhL8iteDvXNgxi4pWK78Y7DDadX11ArFNyrf'));

const u64le = (value: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, value, true);
  return b;
};

/** The call fails with the host error `variant`. */
function fails(fn: () => unknown, variant?: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof HostError, String(e));
    if (variant) assert.equal(e.variant, variant);
    return true;
  });
}

/** promise_create to rick.test, then a promise_and over it: the preamble every nearcore test shares. */
function setup(): { logic: TestVMLogic; index: bigint; nonReceipt: bigint } {
  const logic = buildVMLogic();
  const index = promiseCreate(logic, 'rick.test', 0n, 0n);
  const indexPtr = logic.memWrite(u64le(index)).ptr;
  return { logic, index, nonReceipt: indexPtr };
}

/**
 * nearcore's gas used after each sequence (promises.rs). nearcore reads it with `logic.used_gas()`, which is
 * the `used_gas` host function: it charges `base` before it answers, so the figure includes that `base`.
 */
const NEARCORE_USED_GAS: Record<string, bigint> = {
  create_account: 12_578_263_688_564n,
  deploy_contract: 5_255_774_958_146n,
  transfer: 5_349_703_444_787n,
  stake: 5_138_414_976_215n,
  add_key_with_function_call: 5_126_680_499_695n,
  batch_then: 24_124_999_601_771n,
};
const usedGas = new Map<string, bigint>();

/** The `used_gas` host function, as nearcore's tests read the gas used (charged `base` included). */
const usedGasHost = (logic: TestVMLogic) => logic.u64('used_gas');

/** promise_and over `ptr` (one index): a promise that is not a receipt. */
const joint = (logic: TestVMLogic, ptr: bigint) => logic.u64('promise_and', ptr, 1n);

describe('promise host functions (nearcore promises.rs)', () => {
  it('promise_results: count, status codes and the successful result in the register', () => {
    const logic = buildVMLogic({
      context: {
        promiseResults: [
          { kind: 'Successful', data: new TextEncoder().encode('test') },
          { kind: 'Failed' },
          { kind: 'NotReady' },
        ],
      },
    });
    assert.equal(logic.u64('promise_results_count'), 3n);
    assert.equal(logic.u64('promise_result', 0n, 0n), 1n);
    assert.equal(logic.u64('promise_result', 1n, 0n), 2n);
    assert.equal(logic.u64('promise_result', 2n, 0n), 0n);
    assert.equal(new TextDecoder().decode(logic.readRegister(0n)), 'test');
  });

  it('promise_create: a receipt to rick.test with one function call', () => {
    const { logic } = setup();
    assert.equal(logic.actionReceipts.length, 1);
    const receipt = logic.actionReceipts[0]!;
    assert.equal(receipt.receiverId, 'rick.test');
    assert.equal(receipt.actions.length, 1);
    const call = receipt.actions[0]!;
    assert.equal(call.type, 'FunctionCall');
    if (call.type !== 'FunctionCall') return;
    assert.equal(call.methodName, 'promise_create');
    assert.equal(new TextDecoder().decode(call.args), 'args');
    assert.equal(call.deposit, 0n);
    assert.equal(call.gas, 0n);
  });

  it('promise_batch_action_function_call: rejects unknown and joint indices, then appends', () => {
    const { logic, index, nonReceipt } = setup();
    fails(() => promiseBatchActionFunctionCall(logic, 123n, 0n, 0n), 'InvalidPromiseIndex');
    const j = joint(logic, nonReceipt);
    fails(() => promiseBatchActionFunctionCall(logic, j, 0n, 0n), 'CannotAppendActionToJointPromise');
    promiseBatchActionFunctionCall(logic, index, 0n, 0n);
    const actions = logic.actionReceipts[0]!.actions;
    assert.equal(actions.length, 2);
    assert.equal(actions[1]!.type === 'FunctionCall' && actions[1]!.methodName, 'promise_batch_action');
  });

  it('promise_batch_action_create_account: rejects unknown and joint indices, then appends', () => {
    const { logic, index, nonReceipt } = setup();
    fails(() => logic.call('promise_batch_action_create_account', 123n));
    const j = joint(logic, nonReceipt);
    fails(() => logic.call('promise_batch_action_create_account', j));
    logic.call('promise_batch_action_create_account', index);
    usedGas.set('create_account', usedGasHost(logic));
    assert.equal(logic.actionReceipts[0]!.actions[1]!.type, 'CreateAccount');
  });

  it('promise_batch_action_deploy_contract: rejects unknown and joint indices, then appends the code', () => {
    const { logic, index, nonReceipt } = setup();
    const code = logic.memWrite('sample');
    fails(() => logic.call('promise_batch_action_deploy_contract', 123n, code.len, code.ptr));
    const j = joint(logic, nonReceipt);
    fails(() => logic.call('promise_batch_action_deploy_contract', j, code.len, code.ptr));
    logic.call('promise_batch_action_deploy_contract', index, code.len, code.ptr);
    usedGas.set('deploy_contract', usedGasHost(logic));
    const deploy = logic.actionReceipts[0]!.actions[1]!;
    assert.equal(deploy.type, 'DeployContract');
    if (deploy.type === 'DeployContract') assert.equal(new TextDecoder().decode(deploy.code), 'sample');
  });

  it('promise_batch_action_transfer: rejects unknown and joint indices, then transfers all 110 yocto', () => {
    const { logic, index, nonReceipt } = setup();
    const n110 = logic.memWrite(u128le(110n));
    const n1 = logic.memWrite(u128le(1n));
    fails(() => logic.call('promise_batch_action_transfer', 123n, n110.ptr));
    const j = joint(logic, nonReceipt);
    fails(() => logic.call('promise_batch_action_transfer', j, n110.ptr));
    logic.call('promise_batch_action_transfer', index, n110.ptr);
    // Balance 100 + deposit 10, all 110 attached: nothing left for 1 more (no one-yocto subsidy on a transfer).
    fails(() => logic.call('promise_batch_action_transfer', index, n1.ptr), 'BalanceExceeded');
    usedGas.set('transfer', usedGasHost(logic));
    const transfer = logic.actionReceipts[0]!.actions[1]!;
    assert.deepEqual(transfer, { type: 'Transfer', deposit: 110n });
  });

  it('promise_batch_action_stake: rejects unknown and joint indices, then appends the stake', () => {
    const { logic, index, nonReceipt } = setup();
    const key = logic.memWrite(TEST_PK);
    const n110 = logic.memWrite(u128le(110n));
    fails(() => logic.call('promise_batch_action_stake', 123n, n110.ptr, key.len, key.ptr));
    const j = joint(logic, nonReceipt);
    fails(() => logic.call('promise_batch_action_stake', j, n110.ptr, key.len, key.ptr));
    logic.call('promise_batch_action_stake', index, n110.ptr, key.len, key.ptr);
    usedGas.set('stake', usedGasHost(logic));
    const stake = logic.actionReceipts[0]!.actions[1]!;
    assert.equal(stake.type, 'Stake');
    if (stake.type === 'Stake') {
      assert.equal(stake.stake, 110n);
      assert.deepEqual(stake.publicKey.data, TEST_PK.slice(1));
    }
  });

  it('promise_batch_action_add_key_with_function_call: rejects unknown and joint indices, then appends the key', () => {
    const { logic, index, nonReceipt } = setup();
    const add = (i: bigint) =>
      promiseBatchActionAddKeyWithFunctionCall(logic, i, TEST_PK, 1n, 999n, 'sam', 'foo,bar');
    fails(() => add(123n));
    const j = joint(logic, nonReceipt);
    fails(() => add(j));
    add(index);
    usedGas.set('add_key_with_function_call', usedGasHost(logic));
    const addKey = logic.actionReceipts[0]!.actions[1]!;
    assert.equal(addKey.type, 'AddKey');
    if (addKey.type === 'AddKey') {
      assert.equal(addKey.accessKey.nonce, 1n);
      assert.deepEqual(addKey.accessKey.permission, {
        kind: 'FunctionCall',
        allowance: 999n,
        receiverId: 'sam',
        methodNames: ['foo', 'bar'],
      });
    }
  });

  it('promise_batch_action_add_key_with_function_call: a name that is not UTF-8 fails after its fees, without decoding gas', () => {
    const logic = buildVMLogic();
    const index = promiseCreate(logic, 'rick.test', 0n, 0n);
    const pk = logic.memWrite(TEST_PK);
    const receiver = logic.memWrite('sam');
    const allowance = logic.memWrite(u128le(0n));
    const names = logic.memWrite(Uint8Array.of(0x66, 0x6f, 0x6f, 0x2c, 0xff)); // "foo," then a lone 0xff
    const before = logic.usedGas;
    fails(
      () =>
        logic.call(
          'promise_batch_action_add_key_with_function_call',
          index,
          pk.len,
          pk.ptr,
          1n,
          allowance.ptr,
          receiver.len,
          receiver.ptr,
          names.len,
          names.ptr,
        ),
      'InvalidMethodName',
    );
    const c = logic.costs;
    const fees = logic.config.fees;
    const reads = 4n * c.read_memory_base + (BigInt(TEST_PK.length) + 16n + 3n + 5n) * c.read_memory_byte;
    const receiverDecoding = c.utf8_decoding_base + 3n * c.utf8_decoding_byte;
    // rick.test is another account: send_not_sir, plus execution; 2 names of 3 and 1 bytes, each + 1.
    const base = fees.add_function_call_key_base;
    const byte = fees.add_function_call_key_byte;
    const actionFees = base.sendNotSir + base.execution + 6n * (byte.sendNotSir + byte.execution);
    assert.equal(logic.usedGas - before, c.base + reads + receiverDecoding + actionFees);
    assert.equal(logic.actionReceipts[0]!.actions.length, 1, 'no AddKey appended');
  });

  it('a malformed public key fails with InvalidPublicKey only after the promise index check and the fee', () => {
    const logic = buildVMLogic();
    const index = promiseCreate(logic, 'rick.test', 0n, 0n);
    const badKey = logic.memWrite(Uint8Array.of(9, 1, 2, 3));
    // An unknown promise index is reported first, as nearcore decodes the key last.
    fails(
      () => logic.call('promise_batch_action_delete_key', 123n, badKey.len, badKey.ptr),
      'InvalidPromiseIndex',
    );
    const before = logic.usedGas;
    fails(
      () => logic.call('promise_batch_action_delete_key', index, badKey.len, badKey.ptr),
      'InvalidPublicKey',
    );
    const c = logic.costs;
    const fee = logic.config.fees.delete_key;
    const read = c.read_memory_base + 4n * c.read_memory_byte;
    assert.equal(logic.usedGas - before, c.base + read + fee.sendNotSir + fee.execution);
    assert.equal(logic.actionReceipts[0]!.actions.length, 1, 'no DeleteKey appended');
  });

  it('promise_batch_then: accepts a joint promise', () => {
    const logic = buildVMLogic();
    const index = promiseCreate(logic, 'rick.test', 0n, 0n);
    const account = logic.memWrite('rick.test');
    const indexSlice = logic.memWrite(u64le(index));
    fails(() => logic.call('promise_batch_then', 123n, account.len, account.ptr));
    const j = joint(logic, indexSlice.ptr);
    logic.call('promise_batch_then', j, account.len, account.ptr);
    logic.call('promise_batch_then', index, account.len, account.ptr);
    usedGas.set('batch_then', usedGasHost(logic));
    const receipts = logic.actionReceipts;
    assert.equal(receipts.length, 3);
    for (const r of receipts.slice(1)) {
      assert.equal(r.receiverId, 'rick.test');
      assert.equal(r.inputDataIds.length, 1, 'each waits for the first receipt');
    }
    assert.equal(receipts[0]!.outputDataReceivers.length, 2);
  });
});

describe('gas used after each sequence (nearcore promises.rs)', () => {
  for (const [name, nearcore] of Object.entries(NEARCORE_USED_GAS)) {
    it(`${name}: ${nearcore}`, () => {
      assert.equal(usedGas.get(name), nearcore);
    });
  }
});

describe('one yoctoNEAR on a promise (nearcore promises.rs, one_yocto_near_on_promise)', () => {
  const zeroBalance = { context: { accountBalance: 0n, attachedDeposit: 0n } };

  it('enabled: 1 yocto from an empty account is allowed for a call, not 2', () => {
    const logic = buildVMLogic({ ...zeroBalance, config: { oneYoctoOnPromise: true } });
    const index = promiseCreate(logic, 'rick.test', 0n, 0n);
    promiseBatchActionFunctionCallWeight(logic, index, 1n, 0n, 0n);
    fails(() => promiseBatchActionFunctionCallWeight(logic, index, 2n, 0n, 0n), 'BalanceExceeded');
  });

  it('enabled: a 1-yocto transfer from an empty account still fails (the subsidy is for function calls)', () => {
    const logic = buildVMLogic({ ...zeroBalance, config: { oneYoctoOnPromise: true } });
    const index = promiseCreate(logic, 'rick.test', 0n, 0n);
    const one = logic.memWrite(u128le(1n));
    fails(() => logic.call('promise_batch_action_transfer', index, one.ptr), 'BalanceExceeded');
    assert.equal(logic.vm.subsidized, 0n);
    assert.equal(logic.actionReceipts[0]!.actions.length, 1, 'no Transfer appended');
  });

  it('enabled, with 1 yocto of balance: the first is deducted, the next one subsidised', () => {
    const logic = buildVMLogic({
      context: { accountBalance: 1n, attachedDeposit: 0n },
      config: { oneYoctoOnPromise: true },
    });
    const index = promiseCreate(logic, 'rick.test', 0n, 0n);
    promiseBatchActionFunctionCallWeight(logic, index, 1n, 0n, 0n);
    assert.equal(logic.vm.balance, 0n);
    promiseBatchActionFunctionCallWeight(logic, index, 1n, 0n, 0n);
    assert.equal(logic.vm.subsidized, 1n);
  });

  it('disabled: 1 yocto from an empty account fails', () => {
    const logic = buildVMLogic({ ...zeroBalance, config: { oneYoctoOnPromise: false } });
    const index = promiseCreate(logic, 'rick.test', 0n, 0n);
    fails(() => promiseBatchActionFunctionCallWeight(logic, index, 1n, 0n, 0n), 'BalanceExceeded');
  });
});
