/**
 * The NEP-655 host functions on a VMLogic without a node: `universal_state_init_to_account_id` derives nearcore's
 * known-answer id (the ML-DSA key-only vector of near_primitives' `test_derive_universal_account_id`) from
 * memory and from a register, over the bytes as given; `promise_batch_action_universal_state_init` appends the
 * bytes verbatim with the deposit, priced per entry, byte and key, and is refused in views and on a joint
 * promise. Linking only from protocol 87 is import-list.test.ts's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  encodeUniversalStateInit,
  hexDecode,
  KEY_HANDLE_ML_DSA_65_HASH,
  universalAccountIdOfRaw,
  universalStateInit,
} from '@shadebox/primitives';
import { universalStateInitActionFee } from '../config/universal-state-init-fees.js';
import { buildVMLogic, promiseBatchCreate, REGISTER, u128le } from './test-support/vm-logic-builder.js';
import { HostError } from './vm-errors.js';

const KEY_ONLY = encodeUniversalStateInit(
  universalStateInit(null, [], [{ keyType: KEY_HANDLE_ML_DSA_65_HASH, data: new Uint8Array(32).fill(0x11) }]),
);
const KEY_ONLY_ID = '0ux8te7g99f9kqzdtp9h4qnwt9aczpgayymmtbdc50w199rcw3at1g';
// V1, no code, entries "b" then "a" (descending: not what the typed form writes), no keys.
const NON_CANONICAL = hexDecode(
  `0000${'02000000'}${'0100000062'}${'0100000032'}${'0100000061'}${'0100000031'}${'00000000'}`,
);

function fails(fn: () => unknown, variant: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof HostError, String(e));
    assert.equal(e.variant, variant);
    return true;
  });
}

describe('universal_state_init_to_account_id', () => {
  it("derives nearcore's id of the key-only vector, paying base, its own costs, the read and the register", () => {
    const logic = buildVMLogic();
    const init = logic.memWrite(KEY_ONLY);
    logic.call('universal_state_init_to_account_id', init.len, init.ptr, 0n);
    const len = BigInt(KEY_ONLY.length);
    assert.equal(
      logic.usedGas,
      logic.extGas({
        base: 1,
        universal_state_init_to_account_id_base: 1,
        universal_state_init_to_account_id_byte: len,
        read_memory_base: 1,
        read_memory_byte: len,
        write_register_base: 1,
        write_register_byte: 54,
      }),
    );
    assert.equal(Buffer.from(logic.readRegister(0n)).toString(), KEY_ONLY_ID);
  });

  it('reads a register too, and hashes the bytes as given (a non-canonical encoding names its own id)', () => {
    const logic = buildVMLogic();
    logic.setRegister(1n, NON_CANONICAL);
    logic.call('universal_state_init_to_account_id', REGISTER, 1n, 2n);
    const id = Buffer.from(logic.readRegister(2n)).toString();
    assert.equal(id, universalAccountIdOfRaw(NON_CANONICAL));
    assert.match(id, /^0u[0-9a-hjkmnp-tv-z]{52}$/);
  });
});

describe('promise_batch_action_universal_state_init', () => {
  it('appends the bytes verbatim with the deposit, the send fees paid and the execution reserved', () => {
    const logic = buildVMLogic();
    const receiver = universalAccountIdOfRaw(NON_CANONICAL);
    const index = promiseBatchCreate(logic, receiver);
    const before = logic.usedGas;
    const balance = logic.vm.balance;
    const init = logic.memWrite(NON_CANONICAL);
    const amount = logic.memWrite(u128le(110n));
    logic.call('promise_batch_action_universal_state_init', index, init.len, init.ptr, amount.ptr);
    const [action] = logic.actionReceipts[0].actions;
    assert.deepEqual(action, { type: 'UniversalStateInit', stateInit: NON_CANONICAL, deposit: 110n });
    const fees = logic.config.fees;
    const exec = universalStateInitActionFee(fees, action as never, (f) => f.execution);
    const send = universalStateInitActionFee(fees, action as never, (f) => f.sendNotSir);
    const hostGas = logic.extGas({
      base: 1,
      read_memory_base: 2,
      read_memory_byte: NON_CANONICAL.length + 16,
    });
    assert.equal(logic.usedGas - before, hostGas + send + exec);
    assert.equal(logic.vm.balance, balance - 110n);
  });

  it('bytes that do not decode are still appended (the new receipt is what refuses them), priced by length', () => {
    const logic = buildVMLogic();
    const index = promiseBatchCreate(logic, universalAccountIdOfRaw(Uint8Array.of(7, 7, 7)));
    const init = logic.memWrite(Uint8Array.of(7, 7, 7));
    const amount = logic.memWrite(u128le(0n));
    logic.call('promise_batch_action_universal_state_init', index, init.len, init.ptr, amount.ptr);
    assert.equal(logic.actionReceipts[0].actions.length, 1);
  });

  it('is refused in a view, for a promise index that names none, and on a joint promise', () => {
    const init = { len: BigInt(KEY_ONLY.length), ptr: 0n };
    const view = buildVMLogic({ context: { isView: true } });
    fails(
      () => view.call('promise_batch_action_universal_state_init', 0n, init.len, init.ptr, 0n),
      'ProhibitedInView',
    );
    const logic = buildVMLogic();
    logic.memWrite(KEY_ONLY);
    const amount = logic.memWrite(u128le(0n));
    fails(
      () => logic.call('promise_batch_action_universal_state_init', 0n, init.len, init.ptr, amount.ptr),
      'InvalidPromiseIndex',
    );
    const a = promiseBatchCreate(logic, KEY_ONLY_ID);
    const b = promiseBatchCreate(logic, 'bob.near');
    const ids = logic.memWrite(new Uint8Array(new BigUint64Array([BigInt(a), BigInt(b)]).buffer));
    const joint = logic.u64('promise_and', ids.ptr, 2n);
    fails(
      () => logic.call('promise_batch_action_universal_state_init', joint, init.len, init.ptr, amount.ptr),
      'CannotAppendActionToJointPromise',
    );
  });
});
