/**
 * The gas-key host functions on a VMLogic without a node: the action each appends, the gas it burns (send
 * fees) and reserves (execution fees) as nearcore's cost.rs prices them with protocol 85's gas-key fees, and
 * each error in nearcore's order (ProhibitedInView, IntegerOverflow for more than u16 nonces, InvalidPublicKey
 * only after the fees, BalanceExceeded, InvalidPromiseIndex, CannotAppendActionToJointPromise).
 *
 * The expected gas is written out by hand from the fee formulas: receiver `rick.test` (9 bytes), an ed25519
 * key (33 bytes), `action_gas_key_transfer` 115,123,062,500 send / 235,676,644,250 exec, `action_gas_key_byte`
 * 59,357,464 / 101,435,400, `action_gas_key_nonce_write_base` 0 / 64,196,736,000, and nearcore's test fees
 * for the key itself (`add_full_access_key` 101,765,125,000; `add_function_call_key_base` 102,217,625,000,
 * `…_byte` 1,925,331).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base58Decode } from '@shadebox/primitives';
import { ACTION_COST_INDEX } from './gas-profile.js';
import { buildVMLogic, type TestVMLogic, testVMConfig, u128le } from './test-support/vm-logic-builder.js';
import { HostError } from './vm-errors.js';

const PK = Uint8Array.of(0, ...base58Decode('5do5nkAEVhL8iteDvXNgxi4pWK78Y7DDadX11ArFNyrf'));

function fails(fn: () => unknown, variant: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof HostError, String(e));
    assert.equal(e.variant, variant);
    return true;
  });
}

function withReceipt(options: Parameters<typeof buildVMLogic>[0] = {}): {
  logic: TestVMLogic;
  index: bigint;
} {
  const logic = buildVMLogic(options);
  const account = logic.memWrite('rick.test');
  const index = logic.u64('promise_batch_create', account.len, account.ptr);
  return { logic, index };
}

/** Gas burnt and used by `fn`. */
function delta(logic: TestVMLogic, fn: () => void): { burnt: bigint; used: bigint } {
  const burnt = logic.burntGas;
  const used = logic.usedGas;
  fn();
  return { burnt: logic.burntGas - burnt, used: logic.usedGas - used };
}

describe('promise_batch_action_transfer_to_gas_key', () => {
  it('appends TransferToGasKey and charges gas_key_transfer_base + gas_key_byte', () => {
    const { logic, index } = withReceipt();
    const pk = logic.memWrite(PK);
    const amount = logic.memWrite(u128le(7n));
    const d = delta(logic, () =>
      logic.call('promise_batch_action_transfer_to_gas_key', index, pk.len, pk.ptr, amount.ptr),
    );
    const ext = logic.extGas({ base: 1, read_memory_base: 2, read_memory_byte: 33 + 16 });
    // send: 115,123,062,500 + 59,357,464 × 33; exec: 235,676,644,250 + 101,435,400 × (2 + 9 + 33 + 27).
    const send = 117_081_858_812n;
    const exec = 242_878_557_650n;
    assert.equal(d.burnt, ext + send);
    assert.equal(d.used, ext + send + exec);
    // The gas profile books the burnt send fees as nearcore's pay_action_accumulated does: base and per byte.
    const actions = logic.vm.profiler.profile.actions;
    assert.equal(actions[ACTION_COST_INDEX.gas_key_transfer_base], 115_123_062_500n);
    assert.equal(actions[ACTION_COST_INDEX.gas_key_byte], 59_357_464n * 33n);
    assert.deepEqual(logic.actionReceipts[0].actions, [
      { type: 'TransferToGasKey', publicKey: { keyType: 0, data: PK.subarray(1) }, deposit: 7n },
    ]);
    // The amount left the call's balance (100 + 10 attached).
    fails(() => {
      const big = logic.memWrite(u128le(104n));
      logic.call('promise_batch_action_transfer_to_gas_key', index, pk.len, pk.ptr, big.ptr);
    }, 'BalanceExceeded');
  });

  it('fails an invalid key with InvalidPublicKey after the fees', () => {
    const { logic, index } = withReceipt();
    const bad = logic.memWrite(Uint8Array.of(0, 1, 2));
    const amount = logic.memWrite(u128le(1n));
    const before = logic.usedGas;
    fails(
      () => logic.call('promise_batch_action_transfer_to_gas_key', index, bad.len, bad.ptr, amount.ptr),
      'InvalidPublicKey',
    );
    // Fees were charged for the 3 bytes given: 115,123,062,500 + 59,357,464 × 3 sent, and executed
    // 235,676,644,250 + 101,435,400 × (2 + 9 + 3 + 27).
    const ext = logic.extGas({ base: 1, read_memory_base: 2, read_memory_byte: 3 + 16 });
    assert.equal(logic.usedGas - before, ext + 115_301_134_892n + 239_835_495_650n);
    assert.deepEqual(logic.actionReceipts[0].actions, []);
  });

  it('is prohibited in views and needs a receipt promise', () => {
    const view = buildVMLogic({ context: { isView: true } });
    fails(() => view.call('promise_batch_action_transfer_to_gas_key', 0n, 33n, 0n, 0n), 'ProhibitedInView');
    const { logic } = withReceipt();
    const pk = logic.memWrite(PK);
    const amount = logic.memWrite(u128le(1n));
    fails(
      () => logic.call('promise_batch_action_transfer_to_gas_key', 5n, pk.len, pk.ptr, amount.ptr),
      'InvalidPromiseIndex',
    );
  });
});

describe('promise_batch_action_add_gas_key_with_full_access', () => {
  it('appends AddKey(GasKeyFullAccess) with a zero balance and charges the key plus its nonces', () => {
    const { logic, index } = withReceipt();
    const pk = logic.memWrite(PK);
    const d = delta(logic, () =>
      logic.call('promise_batch_action_add_gas_key_with_full_access', index, pk.len, pk.ptr, 3n),
    );
    const ext = logic.extGas({ base: 1, read_memory_base: 1, read_memory_byte: 33 });
    // send: add_full_access_key; exec: add_full_access_key + 3 × (64,196,736,000 + 101,435,400 × (2 + 9 + 33
    // + 2 + 8)).
    const send = 101_765_125_000n;
    const exec = 101_765_125_000n + 209_022_742_800n;
    assert.equal(d.burnt, ext + send);
    assert.equal(d.used, ext + send + exec);
    assert.deepEqual(logic.actionReceipts[0].actions, [
      {
        type: 'AddKey',
        publicKey: { keyType: 0, data: PK.subarray(1) },
        accessKey: {
          nonce: 0n,
          permission: { kind: 'GasKeyFullAccess', gasKeyInfo: { balance: 0n, numNonces: 3 } },
        },
      },
    ]);
  });

  it('refuses more than u16 nonces with IntegerOverflow', () => {
    const { logic, index } = withReceipt();
    const pk = logic.memWrite(PK);
    fails(
      () => logic.call('promise_batch_action_add_gas_key_with_full_access', index, pk.len, pk.ptr, 65_536n),
      'IntegerOverflow',
    );
    // 1,025 fits a u16: the host function appends it (AddKey validation refuses more than 1,024 later).
    logic.call('promise_batch_action_add_gas_key_with_full_access', index, pk.len, pk.ptr, 1_025n);
    assert.equal(logic.actionReceipts[0].actions.length, 1);
  });

  it('is prohibited in views; a joint promise cannot take actions', () => {
    const view = buildVMLogic({ context: { isView: true } });
    fails(
      () => view.call('promise_batch_action_add_gas_key_with_full_access', 0n, 33n, 0n, 1n),
      'ProhibitedInView',
    );
    const { logic, index } = withReceipt();
    const ids = logic.memWrite(new Uint8Array(new BigUint64Array([index]).buffer));
    const joint = logic.u64('promise_and', ids.ptr, 1n);
    const pk = logic.memWrite(PK);
    fails(
      () => logic.call('promise_batch_action_add_gas_key_with_full_access', joint, pk.len, pk.ptr, 1n),
      'CannotAppendActionToJointPromise',
    );
  });
});

describe('promise_batch_action_add_gas_key_with_function_call', () => {
  it('appends AddKey(GasKeyFunctionCall) and charges the function-call key plus its nonces', () => {
    const { logic, index } = withReceipt();
    const pk = logic.memWrite(PK);
    const allowance = logic.memWrite(u128le(0n));
    const receiver = logic.memWrite('c.near');
    const names = logic.memWrite('a,bb');
    const d = delta(logic, () =>
      logic.call(
        'promise_batch_action_add_gas_key_with_function_call',
        index,
        pk.len,
        pk.ptr,
        2n,
        allowance.ptr,
        receiver.len,
        receiver.ptr,
        names.len,
        names.ptr,
      ),
    );
    const ext = logic.extGas({
      base: 1,
      read_memory_base: 4,
      read_memory_byte: 33 + 16 + 6 + 4,
      utf8_decoding_base: 1,
      utf8_decoding_byte: 6,
    });
    // send and exec alike: 102,217,625,000 + 1,925,331 × 5 (each name with a NUL); exec adds 2 × (64,196,736,000
    // + 101,435,400 × 54).
    const key = 102_227_251_655n;
    assert.equal(d.burnt, ext + key);
    assert.equal(d.used, ext + key + key + 139_348_495_200n);
    assert.deepEqual(logic.actionReceipts[0].actions, [
      {
        type: 'AddKey',
        publicKey: { keyType: 0, data: PK.subarray(1) },
        accessKey: {
          nonce: 0n,
          permission: {
            kind: 'GasKeyFunctionCall',
            gasKeyInfo: { balance: 0n, numNonces: 2 },
            allowance: null,
            receiverId: 'c.near',
            methodNames: ['a', 'bb'],
          },
        },
      },
    ]);
  });

  it('an empty method name fails with EmptyMethodName', () => {
    const { logic, index } = withReceipt();
    const pk = logic.memWrite(PK);
    const allowance = logic.memWrite(u128le(0n));
    const receiver = logic.memWrite('c.near');
    const names = logic.memWrite('a,,b');
    fails(
      () =>
        logic.call(
          'promise_batch_action_add_gas_key_with_function_call',
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
      'EmptyMethodName',
    );
  });
});

describe('gas_key_host_fns', () => {
  it('off: the three functions are not linked', () => {
    const logic = buildVMLogic({ config: { gasKeyHostFns: false } });
    for (const name of [
      'promise_batch_action_transfer_to_gas_key',
      'promise_batch_action_add_gas_key_with_full_access',
      'promise_batch_action_add_gas_key_with_function_call',
    ]) {
      assert.equal(logic.host[name], undefined, name);
    }
    assert.equal(typeof buildVMLogic().host.promise_batch_action_transfer_to_gas_key, 'function');
  });
});

describe('FixMlDsaCostCharging (protocol 87): gas-key execution fees on the stored key length', () => {
  // An ML-DSA-65 key: 1 + 1,952 bytes on the wire, stored as its 1 + 32-byte hash handle.
  const ML_DSA_KEY = Uint8Array.of(2, ...new Uint8Array(1952).fill(9));

  function transferGas(fix: boolean): { burnt: bigint; used: bigint } {
    const base = testVMConfig();
    const { logic, index } = withReceipt({
      config: { feeContext: { ...base.feeContext, fixMlDsaCostCharging: fix } },
    });
    const pk = logic.memWrite(ML_DSA_KEY);
    const amount = logic.memWrite(u128le(1n));
    return delta(logic, () =>
      logic.call('promise_batch_action_transfer_to_gas_key', index, pk.len, pk.ptr, amount.ptr),
    );
  }

  it('reserves the exec per-byte fee on 33 key bytes instead of 1,953; the burnt send fee is unchanged', () => {
    const before = transferGas(false);
    const after = transferGas(true);
    assert.equal(after.burnt, before.burnt);
    assert.equal(before.used - after.used, 101_435_400n * (1953n - 33n));
  });

  it('prices an added gas key the same way', () => {
    const gas = (fix: boolean) => {
      const base = testVMConfig();
      const { logic, index } = withReceipt({
        config: { feeContext: { ...base.feeContext, fixMlDsaCostCharging: fix } },
      });
      const pk = logic.memWrite(ML_DSA_KEY);
      return delta(logic, () =>
        logic.call('promise_batch_action_add_gas_key_with_full_access', index, pk.len, pk.ptr, 3n),
      );
    };
    const before = gas(false);
    const after = gas(true);
    assert.equal(after.burnt, before.burnt);
    // Each of the 3 nonce records' keys holds the public key: 1,920 bytes fewer each at the gas_key_byte rate.
    assert.equal(before.used - after.used, 101_435_400n * (1953n - 33n) * 3n);
  });
});
