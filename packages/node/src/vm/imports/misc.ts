/**
 * Host functions for results, panics and logs (nearcore logic.rs "miscellaneous"): `value_return`, `panic`,
 * `panic_utf8`, `log_utf8`, `log_utf16`, and AssemblyScript's `abort`. Strings are bounded by what is left of
 * the call's total log length; `len == u64::MAX` reads a NUL-terminated string.
 */

import { ACTION_COST_INDEX } from '../gas-profile.js';
import { hostError } from '../vm-errors.js';
import { U64_MAX, type VMLogic } from '../vm-logic.js';

const utf16Decoder = new TextDecoder('utf-16le', { fatal: true });

function readUtf8(vm: VMLogic, len: bigint, ptr: bigint): string {
  vm.gas.payBase(vm.costs.utf8_decoding_base);
  const room = vm.logRoom();
  let buf: Uint8Array;
  if (len !== U64_MAX) {
    if (len > room) throw vm.totalLogLengthExceeded(len);
    buf = vm.readMemory(ptr, len);
  } else {
    const bytes: number[] = [];
    for (let i = 0n; i <= room; i++) {
      const b = vm.readMemory(ptr + i, 1n)[0];
      if (b === 0) break;
      if (i === room) throw vm.totalLogLengthExceeded(room + 1n);
      bytes.push(b);
    }
    buf = Uint8Array.from(bytes);
  }
  vm.gas.payPer(vm.costs.utf8_decoding_byte, BigInt(buf.length));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw hostError.badUtf8();
  }
}

function readUtf16(vm: VMLogic, len: bigint, ptr: bigint): string {
  vm.gas.payBase(vm.costs.utf16_decoding_base);
  const room = vm.logRoom();
  let buf: Uint8Array;
  if (len !== U64_MAX) {
    if (len > room) throw vm.totalLogLengthExceeded(len);
    buf = vm.readMemory(ptr, len);
    if (buf.length % 2 !== 0) throw hostError.badUtf16();
  } else {
    const bytes: number[] = [];
    const maxUnits = room / 2n;
    for (let i = 0n; i <= maxUnits; i++) {
      const unit = vm.readMemory(ptr + i * 2n, 2n);
      if (unit[0] === 0 && unit[1] === 0) break;
      if (i === maxUnits) throw vm.totalLogLengthExceeded(room + 1n);
      bytes.push(unit[0], unit[1]);
    }
    buf = Uint8Array.from(bytes);
  }
  vm.gas.payPer(vm.costs.utf16_decoding_byte, BigInt(buf.length));
  // Unpaired surrogates are invalid (Rust's String::from_utf16).
  const units = new Uint16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
  for (let i = 0; i < units.length; i++) {
    const u = units[i];
    if (u >= 0xd800 && u <= 0xdbff) {
      const next = units[i + 1];
      if (next === undefined || next < 0xdc00 || next > 0xdfff) throw hostError.badUtf16();
      i++;
    } else if (u >= 0xdc00 && u <= 0xdfff) throw hostError.badUtf16();
  }
  return utf16Decoder.decode(buf);
}

function payLog(vm: VMLogic, message: string): void {
  vm.gas.payBase(vm.costs.log_base);
  vm.gas.payPer(vm.costs.log_byte, BigInt(Buffer.byteLength(message)));
}

export function miscImports(vm: VMLogic) {
  return {
    value_return(valueLen: bigint, valuePtr: bigint): void {
      vm.payBase();
      const value = vm.memoryOrRegister(valuePtr, valueLen);
      const limit = BigInt(vm.config.limits.maxLengthReturnedData);
      if (BigInt(value.length) > limit)
        throw hostError.returnedValueLengthExceeded(BigInt(value.length), limit);
      // Each receiver of the result gets a data receipt of this size: its bytes are paid now.
      const perByte = vm.config.fees.new_data_receipt_byte;
      const burn =
        (perByte.sendNotSir + perByte.execution) *
        BigInt(value.length) *
        BigInt(vm.ctx.outputDataReceiverCount);
      vm.gas.deductAction(ACTION_COST_INDEX.new_data_receipt_byte, burn, burn);
      vm.returnData = { kind: 'Value', value };
    },
    panic(): void {
      vm.payBase();
      throw hostError.guestPanic('explicit guest panic');
    },
    panic_utf8(len: bigint, ptr: bigint): void {
      vm.payBase();
      throw hostError.guestPanic(readUtf8(vm, len, ptr));
    },
    log_utf8(len: bigint, ptr: bigint): void {
      vm.payBase();
      vm.checkCanAddLog();
      const message = readUtf8(vm, len, ptr);
      payLog(vm, message);
      vm.pushLog(message);
    },
    log_utf16(len: bigint, ptr: bigint): void {
      vm.payBase();
      vm.checkCanAddLog();
      const message = readUtf16(vm, len, ptr);
      payLog(vm, message);
      vm.pushLog(message);
    },
    abort(msgPtr: number, filenamePtr: number, line: number, col: number): void {
      vm.payBase();
      const m = msgPtr >>> 0;
      const f = filenamePtr >>> 0;
      if (m < 4 || f < 4) throw hostError.badUtf16();
      vm.checkCanAddLog();
      const msgLen = vm.readU32(BigInt(m - 4));
      const fileLen = vm.readU32(BigInt(f - 4));
      const msg = readUtf16(vm, BigInt(msgLen), BigInt(m));
      const file = readUtf16(vm, BigInt(fileLen), BigInt(f));
      const message = `${msg}, filename: "${file}" line: ${line >>> 0} col: ${col >>> 0}`;
      payLog(vm, message);
      vm.logs.push(`ABORT: ${message}`);
      throw hostError.guestPanic(message);
    },
  };
}
