/**
 * Assembles the instrumented module. Index layout (function indices of the contract shift by 2):
 *   imports:  internal.gas_exhausted(i64), internal.stack_exhausted(), then the contract's `env` functions;
 *   functions: the contract's, then the linear-fee helper;
 *   memory:   imported as internal.memory {initial_memory_pages, max_memory_pages}, whatever the contract
 *             declared, so the host can reuse memories between calls (vm/memory-pool.ts);
 *   globals:  the contract's, then remaining_gas (i64), remaining_stack (i64), indirect_index (i32),
 *             dirty_end (i64: how far into memory this instance wrote);
 *   exports:  every contract function as "\0" + name, plus the internal names below. The start function is
 *             not run at instantiation: it is exported as "start" so the host calls it once gas is set.
 */

import type { FunctionAnalysis } from './analysis.js';
import { Writer } from './binary.js';
import { emitBody, emitLinearHelper, type Layout } from './instrument.js';
import { INJECTED_FUNCS, type ParsedModule } from './module-parser.js';
import { EMPTY, I32, valSize } from './opcodes.js';

export const INTERNAL_MODULE = 'internal';
export const GAS_EXHAUSTED = 'gas_exhausted';
export const STACK_EXHAUSTED = 'stack_exhausted';
export const MEMORY_EXPORT = 'memory';
export const TABLE_EXPORT = 'table';
export const REMAINING_GAS_EXPORT = 'remaining_gas';
export const REMAINING_STACK_EXPORT = 'remaining_stack';
export const INDIRECT_INDEX_EXPORT = 'indirect_index';
export const DIRTY_END_EXPORT = 'dirty_end';
export const MEMORY_IMPORT = 'memory';
export const START_EXPORT = 'start';
/** Prefix of every contract export, so no contract name can collide with the internal ones. */
export const EXPORT_PREFIX = '\0';

export interface EmitConfig {
  regular: bigint;
  linearBase: bigint;
  linearUnit: bigint;
  initialMemoryPages: number;
  maxMemoryPages: number;
  maxStackHeight: number;
}

/** Frame size of finite-wasm's SimpleMaxStackCfg: 64 + the sizes of all params and declared locals. */
export function frameSize(params: number[], locals: [number, number][]): number {
  let size = 64;
  for (const p of params) size += valSize(p);
  for (const [count, t] of locals) size += count * valSize(t);
  return size;
}

export function emitModule(m: ParsedModule, analyses: FunctionAnalysis[], c: EmitConfig): Uint8Array {
  const nTypes = m.types.length;
  const typeGas = nTypes;
  const typeStack = nTypes + 1;
  const typeLinear = nTypes + 2;
  const nImports = m.imports.length;
  const nDefined = m.code.length;
  const layout: Layout = {
    gasExhausted: 0,
    stackExhausted: 1,
    linearHelper: INJECTED_FUNCS + nImports + nDefined,
    gasGlobal: m.globalCount,
    stackGlobal: m.globalCount + 1,
    indirectGlobal: m.globalCount + 2,
    dirtyGlobal: m.globalCount + 3,
    regular: c.regular,
    linearBase: c.linearBase,
    linearUnit: c.linearUnit,
  };
  const out = new Writer().bytes([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

  const types = new Writer().u32(nTypes + 3);
  for (const t of m.types) {
    types.byte(0x60).u32(t.params.length).bytes(t.params).u32(t.results.length).bytes(t.results);
  }
  types.bytes([0x60, 1, 0x7e, 0]).bytes([0x60, 0, 0]).bytes([0x60, 1, I32, 0]);
  out.section(1, types);

  const imports = new Writer().u32(nImports + INJECTED_FUNCS + 1);
  imports.name(INTERNAL_MODULE).name(GAS_EXHAUSTED).byte(0).u32(typeGas);
  imports.name(INTERNAL_MODULE).name(STACK_EXHAUSTED).byte(0).u32(typeStack);
  for (const imp of m.imports) imports.name('env').name(imp.name).byte(0).u32(imp.type);
  imports
    .name(INTERNAL_MODULE)
    .name(MEMORY_IMPORT)
    .byte(2)
    .byte(1)
    .u32(c.initialMemoryPages)
    .u32(c.maxMemoryPages);
  out.section(2, imports);

  const funcs = new Writer().u32(nDefined + 1);
  for (let i = 0; i < nDefined; i++) funcs.u32(m.funcTypes[nImports + i]);
  funcs.u32(typeLinear);
  out.section(3, funcs);

  if (m.tableSection) out.section(4, new Writer().bytes(m.tableSection));

  const globals = new Writer().u32(m.globalCount + 4);
  if (m.globalSection) globals.bytes(m.globalSection.finish());
  globals.bytes([0x7e, 1, 0x42, 0, 0x0b]);
  globals.bytes([0x7e, 1, 0x42]).sleb(BigInt(c.maxStackHeight)).byte(0x0b);
  globals.bytes([I32, 1, 0x41, 0, 0x0b]);
  globals.bytes([0x7e, 1, 0x42, 0, 0x0b]);
  out.section(6, globals);

  const exportList: [string, number, number][] = [];
  for (const e of m.exports) {
    if (e.kind === 0) exportList.push([EXPORT_PREFIX + e.name, 0, e.index + INJECTED_FUNCS]);
  }
  exportList.push([MEMORY_EXPORT, 2, 0]);
  if (m.tableSection) exportList.push([TABLE_EXPORT, 1, 0]);
  exportList.push([REMAINING_GAS_EXPORT, 3, layout.gasGlobal]);
  exportList.push([REMAINING_STACK_EXPORT, 3, layout.stackGlobal]);
  exportList.push([INDIRECT_INDEX_EXPORT, 3, layout.indirectGlobal]);
  exportList.push([DIRTY_END_EXPORT, 3, layout.dirtyGlobal]);
  if (m.start !== null) exportList.push([START_EXPORT, 0, m.start + INJECTED_FUNCS]);
  const exports = new Writer().u32(exportList.length);
  for (const [name, kind, index] of exportList) exports.name(name).byte(kind).u32(index);
  out.section(7, exports);

  if (m.elementSection) out.section(9, m.elementSection);
  if (m.dataCountSection) out.section(12, new Writer().bytes(m.dataCountSection));

  const code = new Writer().u32(nDefined + 1);
  for (let i = 0; i < nDefined; i++) {
    const type = m.types[m.funcTypes[nImports + i]];
    const entry = m.code[i];
    const declared = entry.locals.reduce((n, [count]) => n + count, 0);
    const body = new Writer();
    emitBody(body, layout, {
      bytes: m.bytes,
      analysis: analyses[i],
      locals: entry.locals,
      scratch: type.params.length + declared,
      frame: frameSize(type.params, entry.locals),
      result: type.results.length === 0 ? EMPTY : type.results[0],
    });
    code.u32(body.length).bytes(body.finish());
  }
  const helper = new Writer();
  emitLinearHelper(helper, layout);
  code.u32(helper.length).bytes(helper.finish());
  out.section(10, code);

  if (m.dataSection) out.section(11, new Writer().bytes(m.dataSection));
  return out.finish();
}
