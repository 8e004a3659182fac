// Storage with byte keys.
import * as env from "./env";
import { len, ptr, utf8 } from "./bytes";
import { readRegisterOrEmpty, REG } from "./registers";

export function storageRead(key: Uint8Array): Uint8Array | null {
  if (env.storage_read(len(key), ptr(key), REG) == 0) return null;
  return readRegisterOrEmpty(REG);
}

export function storageWrite(key: Uint8Array, value: Uint8Array): void {
  env.storage_write(len(key), ptr(key), len(value), ptr(value), REG);
}

/** Removes `key`; true when it existed. */
export function storageRemove(key: Uint8Array): bool {
  return env.storage_remove(len(key), ptr(key), REG) == 1;
}

export function storageHas(key: Uint8Array): bool {
  return env.storage_has_key(len(key), ptr(key)) == 1;
}

/** A key made of an ASCII prefix and a byte suffix. */
export function key(prefix: string, suffix: Uint8Array = new Uint8Array(0)): Uint8Array {
  const p = utf8(prefix);
  const out = new Uint8Array(p.length + suffix.length);
  out.set(p, 0);
  out.set(suffix, p.length);
  return out;
}
