/**
 * Logs, registers, storage and context host functions on a VMLogic without a node, with the costs nearcore's
 * logic tests assert (runtime/near-vm-runner/src/logic/tests/{logs,registers,storage_read_write,
 * storage_usage}.rs). nearcore counts each `ExtCosts` a call charges; here the same counts, priced with the
 * protocol-85 costs, must equal the gas the call burnt.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExtCosts } from './ext-costs.js';
import {
  buildVMLogic,
  REGISTER,
  TEST_MEMORY_SIZE,
  type TestVMLogic,
  type VMLogicBuilderOptions,
} from './test-support/vm-logic-builder.js';
import { HostError } from './vm-errors.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const utf16le = (text: string) => {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out.push(unit & 0xff, unit >> 8);
  }
  return Uint8Array.from(out);
};

/** Runs `fn`, returns its error (or undefined) and the gas it burnt. */
function measure(logic: TestVMLogic, fn: () => unknown): { error?: HostError; gas: bigint } {
  const before = logic.burntGas;
  try {
    fn();
    return { gas: logic.burntGas - before };
  } catch (e) {
    assert.ok(e instanceof HostError, String(e));
    return { error: e, gas: logic.burntGas - before };
  }
}

/** The call burns exactly the gas of `counts` (nearcore's `assert_costs`). */
function assertCosts(
  logic: TestVMLogic,
  burnt: bigint,
  counts: Partial<Record<keyof ExtCosts, number | bigint>>,
) {
  assert.equal(burnt, logic.extGas(counts));
}

const withLimits = (limits: Partial<TestVMLogic['config']['limits']>): VMLogicBuilderOptions => {
  const base = buildVMLogic().config.limits;
  return { config: { limits: { ...base, ...limits } } };
};

const TEXT = "j ñ r'ø qò$`5 y'5 øò{%÷ `Võ%";

describe('logs (nearcore logs.rs)', () => {
  it('valid UTF-8: logged, with base, log, memory and decoding costs', () => {
    const logic = buildVMLogic();
    const bytes = logic.memWrite(TEXT);
    const { error, gas } = measure(logic, () => logic.call('log_utf8', bytes.len, bytes.ptr));
    assert.equal(error, undefined);
    assert.deepEqual(logic.logs, [TEXT]);
    assertCosts(logic, gas, {
      base: 1,
      log_base: 1,
      log_byte: bytes.len,
      read_memory_base: 1,
      read_memory_byte: bytes.len,
      utf8_decoding_base: 1,
      utf8_decoding_byte: bytes.len,
    });
  });

  it('invalid UTF-8: BadUTF8, nothing logged, decoding still paid', () => {
    const logic = buildVMLogic();
    const bytes = logic.memWrite(Uint8Array.of(0x80));
    const { error, gas } = measure(logic, () => logic.call('log_utf8', bytes.len, bytes.ptr));
    assert.equal(error?.variant, 'BadUTF8');
    assert.equal(logic.logs.length, 0);
    assertCosts(logic, gas, {
      base: 1,
      read_memory_base: 1,
      read_memory_byte: bytes.len,
      utf8_decoding_base: 1,
      utf8_decoding_byte: bytes.len,
    });
  });

  it('a NUL-terminated string is read byte by byte', () => {
    const string = utf8(TEXT);
    const logic = buildVMLogic(withLimits({ maxTotalLogLength: string.length }));
    const bytes = logic.memWrite(Uint8Array.of(...string, 0));
    const { error, gas } = measure(logic, () => logic.call('log_utf8', REGISTER, bytes.ptr));
    assert.equal(error, undefined);
    assert.deepEqual(logic.logs, [TEXT]);
    assertCosts(logic, gas, {
      base: 1,
      log_base: 1,
      log_byte: string.length,
      read_memory_base: bytes.len,
      read_memory_byte: bytes.len,
      utf8_decoding_base: 1,
      utf8_decoding_byte: string.length,
    });
  });

  it('a log over max_total_log_length fails before reading it', () => {
    const length = BigInt(utf8(TEXT).length);
    const logic = buildVMLogic(withLimits({ maxTotalLogLength: Number(length - 1n) }));
    const bytes = logic.memWrite(TEXT);
    const { error, gas } = measure(logic, () => logic.call('log_utf8', bytes.len, bytes.ptr));
    assert.equal(error?.variant, 'TotalLogLengthExceeded');
    assert.deepEqual(error?.fields, { length, limit: length - 1n });
    assertCosts(logic, gas, { base: 1, utf8_decoding_base: 1 });
    assert.equal(logic.logs.length, 0);
  });

  it('the total length of all logs is limited', () => {
    const length = utf8(TEXT).length;
    const limit = length * 10 - 1;
    const logic = buildVMLogic(withLimits({ maxTotalLogLength: limit, maxNumberLogs: 10 }));
    const bytes = logic.memWrite(TEXT);
    for (let i = 0; i < 9; i++) logic.call('log_utf8', bytes.len, bytes.ptr);
    const { error } = measure(logic, () => logic.call('log_utf8', bytes.len, bytes.ptr));
    assert.equal(error?.variant, 'TotalLogLengthExceeded');
    assert.deepEqual(error?.fields, { length: BigInt(limit + 1), limit: BigInt(limit) });
    assert.equal(logic.logs.length, 9);
  });

  it('the number of logs is limited', () => {
    const max = 3;
    const logic = buildVMLogic(withLimits({ maxTotalLogLength: 7 * (max + 1), maxNumberLogs: max }));
    const bytes = logic.memWrite('blabla');
    const before = logic.burntGas;
    for (let i = 0; i < max; i++) logic.call('log_utf8', bytes.len, bytes.ptr);
    const { error } = measure(logic, () => logic.call('log_utf8', bytes.len, bytes.ptr));
    assert.equal(error?.variant, 'NumberOfLogsExceeded');
    assertCosts(logic, logic.burntGas - before, {
      base: max + 1,
      log_base: max,
      log_byte: bytes.len * BigInt(max),
      read_memory_base: max,
      read_memory_byte: bytes.len * BigInt(max),
      utf8_decoding_base: max,
      utf8_decoding_byte: bytes.len * BigInt(max),
    });
    assert.equal(logic.logs.length, max);
  });

  it('UTF-16: logged, log bytes counted in UTF-8', () => {
    const string = '$ qò$`';
    const logic = buildVMLogic();
    const bytes = logic.memWrite(utf16le(string));
    const { error, gas } = measure(logic, () => logic.call('log_utf16', bytes.len, bytes.ptr));
    assert.equal(error, undefined);
    assert.deepEqual(logic.logs, [string]);
    assertCosts(logic, gas, {
      base: 1,
      read_memory_base: 1,
      read_memory_byte: bytes.len,
      utf16_decoding_base: 1,
      utf16_decoding_byte: bytes.len,
      log_base: 1,
      log_byte: utf8(string).length,
    });
  });

  it('UTF-16 NUL-terminated is read two bytes at a time', () => {
    const string = '$ qò$`';
    const logic = buildVMLogic();
    const bytes = logic.memWrite(Uint8Array.of(...utf16le(string), 0, 0));
    const { error, gas } = measure(logic, () => logic.call('log_utf16', REGISTER, bytes.ptr));
    assert.equal(error, undefined);
    assert.deepEqual(logic.logs, [string]);
    assertCosts(logic, gas, {
      base: 1,
      read_memory_base: bytes.len / 2n,
      read_memory_byte: bytes.len,
      utf16_decoding_base: 1,
      utf16_decoding_byte: bytes.len - 2n,
      log_base: 1,
      log_byte: utf8(string).length,
    });
  });

  it('invalid UTF-16 (an unpaired surrogate): BadUTF16, decoding paid', () => {
    const logic = buildVMLogic();
    const units = [0xd834, 0xdd1e, 0x006d, 0x0075, 0xd800, 0x0069, 0x0063];
    const bytes = logic.memWrite(Uint8Array.from(units.flatMap((u) => [u & 0xff, u >> 8])));
    const { error, gas } = measure(logic, () => logic.call('log_utf16', bytes.len, bytes.ptr));
    assert.equal(error?.variant, 'BadUTF16');
    assertCosts(logic, gas, {
      base: 1,
      read_memory_base: 1,
      read_memory_byte: bytes.len,
      utf16_decoding_base: 1,
      utf16_decoding_byte: bytes.len,
    });
  });

  it('a NUL-terminated UTF-8 log stops reading once past the limit', () => {
    const logic = buildVMLogic(withLimits({ maxTotalLogLength: 3 }));
    const bytes = logic.memWrite('abcdefgh\0');
    const { error, gas } = measure(logic, () => logic.call('log_utf8', REGISTER, bytes.ptr));
    assert.equal(error?.variant, 'TotalLogLengthExceeded');
    assert.deepEqual(error?.fields, { length: 4n, limit: 3n });
    assertCosts(logic, gas, { base: 1, read_memory_base: 4, read_memory_byte: 4, utf8_decoding_base: 1 });
  });

  it('host reads and writes stop at the logical memory size, not at a larger physical memory', () => {
    // A reused memory an earlier call grew is physically larger; the contract's size is `memory_pages`.
    const logic = buildVMLogic();
    logic.vm.memory!.grow(1);
    logic.vm.memoryPages = new WebAssembly.Global({ value: 'i32', mutable: true }, TEST_MEMORY_SIZE / 65_536);
    const end = BigInt(TEST_MEMORY_SIZE);
    logic.memWriteAt(end - 3n, utf8('abc'));
    assert.equal(measure(logic, () => logic.call('log_utf8', 3n, end - 3n)).error, undefined);
    const read = measure(logic, () => logic.call('log_utf8', 4n, end - 3n));
    assert.equal(read.error?.variant, 'MemoryAccessViolation');
    logic.setRegister(0n, utf8('xy'));
    assert.equal(measure(logic, () => logic.call('read_register', 0n, end - 2n)).error, undefined);
    const write = measure(logic, () => logic.call('read_register', 0n, end - 1n));
    assert.equal(write.error?.variant, 'MemoryAccessViolation');
  });

  it('invalid UTF-8 at the very end of memory: BadUTF8; one byte further: MemoryAccessViolation', () => {
    const data = Uint8Array.of(...utf8('foo bar '), 0xff, ...utf8(' baz qux'));
    const at = BigInt(TEST_MEMORY_SIZE - data.length);
    const good = buildVMLogic();
    good.memWriteAt(at, data);
    const read = measure(good, () => good.call('log_utf8', BigInt(data.length), at));
    assert.equal(read.error?.variant, 'BadUTF8');
    assertCosts(good, read.gas, {
      base: 1,
      read_memory_base: 1,
      read_memory_byte: 17,
      utf8_decoding_base: 1,
      utf8_decoding_byte: 17,
    });
    const past = buildVMLogic();
    past.memWriteAt(at, data);
    const over = measure(past, () => past.call('log_utf8', BigInt(data.length + 1), at));
    assert.equal(over.error?.variant, 'MemoryAccessViolation');
    assertCosts(past, over.gas, {
      base: 1,
      read_memory_base: 1,
      read_memory_byte: 18,
      utf8_decoding_base: 1,
    });
  });
});

describe('registers (nearcore registers.rs)', () => {
  it('one register: its length, then its contents', () => {
    const logic = buildVMLogic();
    logic.setRegister(0n, Uint8Array.of(0, 1, 2));
    assert.equal(logic.u64('register_len', 0n), 3n);
    assert.deepEqual(logic.readRegister(0n), Uint8Array.of(0, 1, 2));
  });

  it('an unset register: length u64::MAX, reading it is InvalidRegisterId', () => {
    const logic = buildVMLogic();
    assert.equal(logic.u64('register_len', 0n), REGISTER);
    const { error } = measure(logic, () => logic.call('read_register', 0n, 0n));
    assert.equal(error?.variant, 'InvalidRegisterId');
    assert.deepEqual(error?.fields, { register_id: 0n });
  });

  it('max_number_registers registers, then one more is MemoryAccessViolation', () => {
    const logic = buildVMLogic();
    const max = logic.config.limits.maxNumberRegisters;
    for (let i = 0; i < max; i++) {
      const value = new Uint8Array(8);
      new DataView(value.buffer).setBigUint64(0, BigInt(i * 10), true);
      logic.setRegister(BigInt(i), value);
      assert.deepEqual(logic.readRegister(BigInt(i)), value);
    }
    assert.throws(() => logic.setRegister(BigInt(max), new Uint8Array()), /MemoryAccessViolation|memory/i);
  });

  it('a register over max_register_size is MemoryAccessViolation', () => {
    const logic = buildVMLogic({ config: { maxGasBurnt: 1n << 62n }, context: { prepaidGas: 1n << 62n } });
    const value = new Uint8Array(logic.config.limits.maxRegisterSize + 1);
    assert.throws(
      () => logic.setRegister(0n, value),
      (e: unknown) => e instanceof HostError && e.variant === 'MemoryAccessViolation',
    );
  });

  it('registers together are limited by registers_memory_limit', () => {
    const logic = buildVMLogic({ config: { maxGasBurnt: 1n << 62n }, context: { prepaidGas: 1n << 62n } });
    const { maxRegisterSize, registersMemoryLimit } = logic.config.limits;
    const count = Math.floor(Number(registersMemoryLimit) / maxRegisterSize);
    const value = new Uint8Array(maxRegisterSize).fill(1);
    for (let i = 0; i < count; i++) logic.setRegister(BigInt(i), value);
    assert.throws(
      () => logic.setRegister(BigInt(count), value),
      (e: unknown) => e instanceof HostError && e.variant === 'MemoryAccessViolation',
    );
  });
});

describe('storage (nearcore storage_read_write.rs, storage_usage.rs)', () => {
  it('storage_write with key and value in registers', () => {
    const logic = buildVMLogic();
    logic.setRegister(1n, 'foo');
    logic.setRegister(2n, 'bar');
    assert.equal(logic.u64('storage_write', REGISTER, 1n, REGISTER, 2n, 0n), 0n);
    assert.deepEqual(logic.ext.storage.get(Buffer.from('foo').toString('hex')), utf8('bar'));
  });

  it('storage_read with the key in a register: the value lands in the register', () => {
    const logic = buildVMLogic();
    logic.ext.storage.set(Buffer.from('foo').toString('hex'), utf8('bar'));
    logic.setRegister(1n, 'foo');
    assert.equal(logic.u64('storage_read', REGISTER, 1n, 0n), 1n);
    assert.deepEqual(logic.readRegister(0n), utf8('bar'));
  });

  it('storage_remove with the key in a register returns the old value', () => {
    const logic = buildVMLogic();
    const key = logic.memWrite('foo');
    const value = logic.memWrite('bar');
    logic.call('storage_write', key.len, key.ptr, value.len, value.ptr, 0n);
    logic.setRegister(1n, 'foo');
    assert.equal(logic.u64('storage_remove', REGISTER, 1n, 0n), 1n);
    assert.deepEqual(logic.readRegister(0n), utf8('bar'));
    assert.equal(logic.ext.storage.has(Buffer.from('foo').toString('hex')), false);
  });

  it('storage_has_key with the key in a register', () => {
    const logic = buildVMLogic();
    logic.ext.storage.set(Buffer.from('foo').toString('hex'), utf8('bar'));
    logic.setRegister(1n, 'foo');
    assert.equal(logic.u64('storage_has_key', REGISTER, 1n), 1n);
  });

  it('storage usage: a new record adds key + value + num_extra_bytes_record; rewriting adds nothing', () => {
    const logic = buildVMLogic();
    const key = logic.memWrite('foo');
    const value = logic.memWrite('bar');
    logic.call('storage_write', key.len, key.ptr, value.len, value.ptr, 0n);
    const expected = logic.config.numExtraBytesRecord + key.len + value.len;
    assert.equal(logic.u64('storage_usage'), expected);
    logic.call('storage_write', key.len, key.ptr, value.len, value.ptr, 0n);
    assert.equal(logic.u64('storage_usage'), expected);
  });

  it('storage usage: removing the record gives it all back', () => {
    const logic = buildVMLogic();
    const key = logic.memWrite('foo');
    const value = logic.memWrite('bar');
    logic.call('storage_write', key.len, key.ptr, value.len, value.ptr, 0n);
    logic.call('storage_remove', key.len, key.ptr, 0n);
    assert.equal(logic.u64('storage_usage'), 0n);
  });

  it('storage_write charges base, write costs per key and value byte, and the evicted bytes', () => {
    const logic = buildVMLogic();
    const key = logic.memWrite('foo');
    const value = logic.memWrite('bar');
    const first = measure(logic, () =>
      logic.call('storage_write', key.len, key.ptr, value.len, value.ptr, 0n),
    );
    assertCosts(logic, first.gas, {
      base: 1,
      storage_write_base: 1,
      read_memory_base: 2,
      read_memory_byte: key.len + value.len,
      storage_write_key_byte: key.len,
      storage_write_value_byte: value.len,
    });
    const second = measure(logic, () =>
      logic.call('storage_write', key.len, key.ptr, value.len, value.ptr, 0n),
    );
    assertCosts(logic, second.gas, {
      base: 1,
      storage_write_base: 1,
      read_memory_base: 2,
      read_memory_byte: key.len + value.len,
      storage_write_key_byte: key.len,
      storage_write_value_byte: value.len,
      storage_write_evicted_byte: value.len,
      write_register_base: 1,
      write_register_byte: value.len,
    });
  });
});

describe('context (nearcore context.rs)', () => {
  const ids: Array<[string, string]> = [
    ['current_account_id', 'alice.near'],
    ['signer_account_id', 'bob.near'],
    ['predecessor_account_id', 'carol.near'],
  ];
  for (const [name, expected] of ids) {
    it(`${name} writes ${expected} to the register`, () => {
      const logic = buildVMLogic();
      logic.call(name, 0n);
      assert.equal(new TextDecoder().decode(logic.readRegister(0n)), expected);
    });
  }

  it('input, random seed, block index and timestamp, epoch height, storage usage, prepaid gas', () => {
    const logic = buildVMLogic();
    logic.call('input', 0n);
    assert.deepEqual(logic.readRegister(0n), Uint8Array.of(0, 1, 2, 3, 4));
    logic.call('random_seed', 0n);
    assert.deepEqual(logic.readRegister(0n), Uint8Array.of(0, 1, 2));
    assert.equal(logic.u64('block_index'), 10n);
    assert.equal(logic.u64('block_timestamp'), 42n);
    assert.equal(logic.u64('epoch_height'), 1n);
    assert.equal(logic.u64('storage_usage'), 0n);
    assert.equal(logic.u64('prepaid_gas'), 100n * 10n ** 12n);
  });

  it('balances are written as u128 little-endian', () => {
    const logic = buildVMLogic();
    const read = (name: string) => {
      logic.call(name, 0n);
      const b = logic.memRead(0n, 16n);
      const view = new DataView(b.buffer, b.byteOffset, 16);
      return view.getBigUint64(0, true) | (view.getBigUint64(8, true) << 64n);
    };
    assert.equal(read('account_balance'), 110n, 'balance plus the attached deposit');
    assert.equal(read('account_locked_balance'), 50n);
    assert.equal(read('attached_deposit'), 10n);
  });

  it('attached_deposit in a view call: the amount, whatever the balance', () => {
    for (const amount of [0n, 1n, (1n << 128n) - 1n]) {
      const logic = buildVMLogic({ context: { isView: true, accountBalance: 0n, attachedDeposit: amount } });
      logic.call('attached_deposit', 0n);
      const b = logic.memRead(0n, 16n);
      const view = new DataView(b.buffer, b.byteOffset, 16);
      assert.equal(view.getBigUint64(0, true) | (view.getBigUint64(8, true) << 64n), amount);
    }
  });

  it('used_gas reports what was burnt so far', () => {
    const logic = buildVMLogic();
    const used = logic.u64('used_gas');
    assert.equal(used, logic.usedGas);
    assert.ok(used > 0n, 'the call itself paid base');
  });
});
