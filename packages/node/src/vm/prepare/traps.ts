/**
 * Maps V8's trap errors to nearcore's `WasmTrap` kinds. V8 gives one message for a null table entry and a
 * signature mismatch, so the instrumentation records every call_indirect's table index in the
 * `indirect_index` global and the table entry decides: null → IndirectCallToNull, else a mismatch.
 * nearcore (Wasmtime) reports table and segment out-of-bounds as MemoryOutOfBounds.
 */
import { WasmTrap } from '../vm-errors.js';
import { TABLE_EXPORT } from './emit-module.js';

function indirectEntryIsNull(instance: WebAssembly.Instance, indirectIndex: number): boolean {
  const table = instance.exports[TABLE_EXPORT] as WebAssembly.Table | undefined;
  if (!table) return true;
  const i = indirectIndex >>> 0;
  return i < table.length && table.get(i) === null;
}

/** @param indirectIndex the value of the instance's `indirect_index` global after the trap. */
export function classifyTrap(
  error: unknown,
  instance: WebAssembly.Instance,
  indirectIndex: number,
): WasmTrap | undefined {
  if (error instanceof RangeError && /Maximum call stack size exceeded/.test(error.message))
    return new WasmTrap('StackOverflow');
  if (!(error instanceof WebAssembly.RuntimeError)) return undefined;
  const msg = error.message;
  if (msg.includes('null function or function signature mismatch'))
    return new WasmTrap(
      indirectEntryIsNull(instance, indirectIndex) ? 'IndirectCallToNull' : 'IncorrectCallIndirectSignature',
    );
  if (msg.includes('unreachable')) return new WasmTrap('Unreachable');
  if (msg.includes('out of bounds')) return new WasmTrap('MemoryOutOfBounds');
  if (/divide by zero|remainder by zero|divide result unrepresentable|float unrepresentable/.test(msg))
    return new WasmTrap('IllegalArithmetic');
  if (msg.includes('misaligned') || msg.includes('unaligned')) return new WasmTrap('MisalignedAtomicAccess');
  return new WasmTrap('GenericTrap');
}
