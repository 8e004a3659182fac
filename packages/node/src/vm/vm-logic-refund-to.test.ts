/**
 * The NEP-616 context host functions on a VMLogic without a node (nearcore logic.rs / wasmtime_runner
 * logic.rs): `refund_to_account_id`, `current_contract_code` and `promise_set_refund_to`, with the costs
 * nearcore charges counted per `ExtCosts` (base first; the prohibited-in-view check after base; an account id
 * read as memory or register, then decoded as UTF-8) and their errors.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExtCosts } from './ext-costs.js';
import {
  buildVMLogic,
  promiseBatchCreate,
  REGISTER,
  type TestVMLogic,
} from './test-support/vm-logic-builder.js';
import { HostError } from './vm-errors.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

function measure(logic: TestVMLogic, fn: () => unknown): { error?: HostError; value?: unknown; gas: bigint } {
  const before = logic.burntGas;
  try {
    const value = fn();
    return { value, gas: logic.burntGas - before };
  } catch (e) {
    assert.ok(e instanceof HostError, String(e));
    return { error: e, gas: logic.burntGas - before };
  }
}

const costs = (logic: TestVMLogic, counts: Partial<Record<keyof ExtCosts, number | bigint>>) =>
  logic.extGas(counts);

describe('refund_to_account_id', () => {
  it('without a refund_to: the predecessor, for base and the register write', () => {
    const logic = buildVMLogic();
    const r = measure(logic, () => logic.call('refund_to_account_id', 0n));
    assert.equal(r.error, undefined);
    assert.deepEqual(logic.vm.registers.get(0n), utf8('carol.near'));
    assert.equal(r.gas, costs(logic, { base: 1, write_register_base: 1, write_register_byte: 10 }));
  });

  it('with a refund_to on the receipt: that account', () => {
    const logic = buildVMLogic({ context: { refundToAccountId: 'refunds.near' } });
    const r = measure(logic, () => logic.call('refund_to_account_id', 3n));
    assert.equal(r.error, undefined);
    assert.deepEqual(logic.vm.registers.get(3n), utf8('refunds.near'));
    assert.equal(r.gas, costs(logic, { base: 1, write_register_base: 1, write_register_byte: 12 }));
  });

  it('in a view: ProhibitedInView after base, no register', () => {
    const logic = buildVMLogic({ context: { isView: true } });
    const r = measure(logic, () => logic.call('refund_to_account_id', 0n));
    assert.equal(r.error?.variant, 'ProhibitedInView');
    assert.equal(r.error?.debug(), 'HostError(ProhibitedInView { method_name: "refund_to_account_id" })');
    assert.deepEqual(r.error?.outcomeJson(), {
      ExecutionError: 'refund_to_account_id is not allowed in view calls',
    });
    assert.equal(logic.vm.registers.lengthOf(0n), undefined);
    assert.equal(r.gas, costs(logic, { base: 1 }));
  });
});

describe('current_contract_code', () => {
  const hash = new Uint8Array(32).map((_, i) => i + 1);

  it('no contract: 0, the register left alone, base only', () => {
    for (const context of [{}, { accountContract: { kind: 'None' as const } }]) {
      const logic = buildVMLogic({ context });
      const r = measure(logic, () => logic.call('current_contract_code', 0n));
      assert.equal(r.value, 0n);
      assert.equal(logic.vm.registers.lengthOf(0n), undefined);
      assert.equal(r.gas, costs(logic, { base: 1 }));
    }
  });

  it('a local contract: 1 and its 32-byte code hash', () => {
    const logic = buildVMLogic({ context: { accountContract: { kind: 'Local', codeHash: hash } } });
    const r = measure(logic, () => logic.call('current_contract_code', 5n));
    assert.equal(r.value, 1n);
    assert.deepEqual(logic.vm.registers.get(5n), hash);
    assert.equal(r.gas, costs(logic, { base: 1, write_register_base: 1, write_register_byte: 32 }));
  });

  it('a global contract by hash: 2 and the hash', () => {
    const logic = buildVMLogic({ context: { accountContract: { kind: 'Global', codeHash: hash } } });
    const r = measure(logic, () => logic.call('current_contract_code', 0n));
    assert.equal(r.value, 2n);
    assert.deepEqual(logic.vm.registers.get(0n), hash);
    assert.equal(r.gas, costs(logic, { base: 1, write_register_base: 1, write_register_byte: 32 }));
  });

  it('a global contract by account: 3 and the deployer account id', () => {
    const logic = buildVMLogic({
      context: { accountContract: { kind: 'GlobalByAccount', accountId: 'deployer.near' } },
    });
    const r = measure(logic, () => logic.call('current_contract_code', 0n));
    assert.equal(r.value, 3n);
    assert.deepEqual(logic.vm.registers.get(0n), utf8('deployer.near'));
    assert.equal(r.gas, costs(logic, { base: 1, write_register_base: 1, write_register_byte: 13 }));
  });

  it('is allowed in a view', () => {
    const logic = buildVMLogic({
      context: { isView: true, accountContract: { kind: 'Local', codeHash: hash } },
    });
    assert.equal(logic.call('current_contract_code', 0n), 1n);
  });
});

describe('promise_set_refund_to', () => {
  /** base + reading `len` bytes of memory + decoding them. */
  const setCost = (logic: TestVMLogic, len: number) =>
    costs(logic, {
      base: 1,
      read_memory_base: 1,
      read_memory_byte: len,
      utf8_decoding_base: 1,
      utf8_decoding_byte: len,
    });

  it('sets the refund_to of the promise’s receipt, for base and the account-id read', () => {
    const logic = buildVMLogic();
    const index = promiseBatchCreate(logic, 'bob.near');
    const account = logic.memWrite('refunds.near');
    const r = measure(logic, () => logic.call('promise_set_refund_to', index, account.len, account.ptr));
    assert.equal(r.error, undefined);
    assert.equal(r.value, undefined);
    assert.equal(logic.actionReceipts[0].refundTo, 'refunds.near');
    assert.equal(r.gas, setCost(logic, 12));
  });

  it('the last call wins; the account id may come from a register', () => {
    const logic = buildVMLogic();
    const index = promiseBatchCreate(logic, 'bob.near');
    const first = logic.memWrite('first.near');
    logic.call('promise_set_refund_to', index, first.len, first.ptr);
    logic.setRegister(7n, 'second.near');
    const r = measure(logic, () => logic.call('promise_set_refund_to', index, REGISTER, 7n));
    assert.equal(r.error, undefined);
    assert.equal(logic.actionReceipts[0].refundTo, 'second.near');
    assert.equal(
      r.gas,
      costs(logic, {
        base: 1,
        read_register_base: 1,
        read_register_byte: 11,
        utf8_decoding_base: 1,
        utf8_decoding_byte: 11,
      }),
    );
  });

  it('works on a yielded promise (a receipt of the current account)', () => {
    const logic = buildVMLogic();
    const method = logic.memWrite('cb');
    const index = logic.u64('promise_yield_create', method.len, method.ptr, 0n, 0n, 10n ** 12n, 0n, 0n);
    const account = logic.memWrite('refunds.near');
    logic.call('promise_set_refund_to', index, account.len, account.ptr);
    assert.equal(logic.actionReceipts[0].isPromiseYield, true);
    assert.equal(logic.actionReceipts[0].refundTo, 'refunds.near');
  });

  it('an unknown promise index: InvalidPromiseIndex after the account id was read', () => {
    const logic = buildVMLogic();
    const account = logic.memWrite('refunds.near');
    const r = measure(logic, () => logic.call('promise_set_refund_to', 9n, account.len, account.ptr));
    assert.equal(r.error?.variant, 'InvalidPromiseIndex');
    assert.equal(r.error?.debug(), 'HostError(InvalidPromiseIndex { promise_idx: 9 })');
    assert.equal(r.gas, setCost(logic, 12));
  });

  it('a joint promise (promise_and): CannotSetRefundToOnJointPromise', () => {
    const logic = buildVMLogic();
    const index = promiseBatchCreate(logic, 'bob.near');
    const indices = logic.memWrite(new Uint8Array(new BigUint64Array([index]).buffer));
    const joint = logic.u64('promise_and', indices.ptr, 1n);
    const account = logic.memWrite('refunds.near');
    const r = measure(logic, () => logic.call('promise_set_refund_to', joint, account.len, account.ptr));
    assert.equal(r.error?.variant, 'CannotSetRefundToOnJointPromise');
    assert.equal(r.error?.debug(), 'HostError(CannotSetRefundToOnJointPromise)');
    assert.equal(r.gas, setCost(logic, 12));
    assert.equal(logic.actionReceipts[0].refundTo, undefined);
  });

  it('in a view: ProhibitedInView after base', () => {
    const logic = buildVMLogic({ context: { isView: true } });
    const account = logic.memWrite('refunds.near');
    const r = measure(logic, () => logic.call('promise_set_refund_to', 0n, account.len, account.ptr));
    assert.equal(r.error?.variant, 'ProhibitedInView');
    assert.equal(r.gas, costs(logic, { base: 1 }));
  });

  it('bad UTF-8: BadUTF8; an invalid account id: InvalidAccountId; memory out of bounds', () => {
    const logic = buildVMLogic();
    const index = promiseBatchCreate(logic, 'bob.near');
    const bad = logic.memWrite(Uint8Array.of(0xff, 0xfe));
    assert.equal(
      measure(logic, () => logic.call('promise_set_refund_to', index, bad.len, bad.ptr)).error?.variant,
      'BadUTF8',
    );
    const invalid = logic.memWrite('Not An Account');
    assert.equal(
      measure(logic, () => logic.call('promise_set_refund_to', index, invalid.len, invalid.ptr)).error
        ?.variant,
      'InvalidAccountId',
    );
    assert.equal(
      measure(logic, () => logic.call('promise_set_refund_to', index, 10n, 1n << 40n)).error?.variant,
      'MemoryAccessViolation',
    );
    assert.equal(logic.actionReceipts[0].refundTo, undefined);
  });
});
