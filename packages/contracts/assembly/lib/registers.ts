// Registers, input and return values.
import { input as hostInput, read_register, register_len, value_return } from "./env";
import { len, ptr, utf8 } from "./bytes";

/** Register used for every transient host result in these contracts. */
export const REG: u64 = 0;

/** Contents of `register`, or null when it was never written. */
export function readRegister(register: u64): Uint8Array | null {
  const n = register_len(register);
  if (n == u64.MAX_VALUE) return null;
  const out = new Uint8Array(<i32>n);
  if (n > 0) read_register(register, ptr(out));
  return out;
}

export function readRegisterOrEmpty(register: u64): Uint8Array {
  const r = readRegister(register);
  return r !== null ? r : new Uint8Array(0);
}

/** The call's arguments (empty when none were given). */
export function input(): Uint8Array {
  hostInput(REG);
  return readRegisterOrEmpty(REG);
}

export function returnBytes(value: Uint8Array): void {
  value_return(len(value), ptr(value));
}

export function returnString(value: string): void {
  returnBytes(utf8(value));
}
