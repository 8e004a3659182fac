/**
 * Assembles the instrumented module. Index layout (function indices of the contract shift by 2):
 *   imports:  internal.gas_exhausted(i64), internal.stack_exhausted(), then the contract's `env` functions;
 *   functions: the contract's, then the linear-fee helper, the method dispatcher, the reset function and
 *             the memory-grow function;
 *   memory:   imported as internal.memory {initial_memory_pages, max_memory_pages}, whatever the contract
 *             declared, so the host can reuse memories between calls (vm/memory-pool.ts). The contract sees
 *             a logical size, `memory_pages`: `memory.size` reads it, `memory.grow` raises it (growing the
 *             physical memory only when it is smaller), and every access is checked against
 *             `memory_limit` = pages × 64 KiB, trapping as an out-of-bounds access does. So a memory that
 *             a previous call grew serves the next call exactly as a fresh one would;
 *   globals:  imported internal.remaining_gas (i64), remaining_stack (i64), indirect_index (i32), dirty_end
 *             (i64: how far into the initial memory this instance wrote), memory_pages (i32), memory_limit
 *             (i64), grown_end (i64: how far into the grown pages it wrote), dirty_start (i64: where its
 *             lowest write into the initial memory started) — the host reuses the same Global objects for
 *             every call — then the contract's, shifted by 8;
 *   data:     every segment passive; "\0reset" writes the active ones where they belong and sets the mutable
 *             globals to their initial values, so the host can run many calls on one instance;
 *   exports:  "\0dispatch" (calls a method by its index in `methodIndex`), "\0reset", "table" when there is one, and
 *             "start": the start function is not run at instantiation but called by the host once gas is
 *             set. With `exportAll` (tests), every contract function also as "\0" + name.
 */

import type { FunctionAnalysis } from './analysis.js';
import { Writer } from './binary.js';
import {
  emitBody,
  emitBoundsCheck,
  emitDispatcher,
  emitLinearHelper,
  emitMemoryGrow,
  type Layout,
} from './instrument.js';
import { INJECTED_FUNCS, INJECTED_GLOBALS, type ParsedModule } from './module-parser.js';
import { EMPTY, I32, valSize } from './opcodes.js';
import { passiveData } from './passive-data.js';

export const INTERNAL_MODULE = 'internal';
export const GAS_EXHAUSTED = 'gas_exhausted';
export const STACK_EXHAUSTED = 'stack_exhausted';
export const MEMORY_EXPORT = 'memory';
export const TABLE_EXPORT = 'table';
export const REMAINING_GAS_EXPORT = 'remaining_gas';
export const REMAINING_STACK_EXPORT = 'remaining_stack';
export const INDIRECT_INDEX_EXPORT = 'indirect_index';
export const DIRTY_END_EXPORT = 'dirty_end';
export const MEMORY_PAGES_EXPORT = 'memory_pages';
export const MEMORY_LIMIT_EXPORT = 'memory_limit';
export const GROWN_END_EXPORT = 'grown_end';
export const DIRTY_START_EXPORT = 'dirty_start';
export const MEMORY_IMPORT = 'memory';
export const DISPATCH_EXPORT = '\0dispatch';
export const RESET_EXPORT = '\0reset';
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
  /** Export every contract function by name too (for tests that call functions with parameters). */
  exportAll?: boolean;
}

/** Frame size of finite-wasm's SimpleMaxStackCfg: 64 + the sizes of all params and declared locals. */
export function frameSize(params: number[], locals: [number, number][]): number {
  let size = 64;
  for (const p of params) size += valSize(p);
  for (const [count, t] of locals) size += count * valSize(t);
  return size;
}

export function emitModule(
  m: ParsedModule,
  analyses: FunctionAnalysis[],
  c: EmitConfig,
  /** Contract function indices of the callable methods, in dispatch order. */
  methods: number[],
): Uint8Array {
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
    gasGlobal: 0,
    stackGlobal: 1,
    indirectGlobal: 2,
    dirtyGlobal: 3,
    pagesGlobal: 4,
    limitGlobal: 5,
    grownGlobal: 6,
    dirtyStartGlobal: 7,
    memoryGrow: INJECTED_FUNCS + nImports + nDefined + 3,
    maxMemoryPages: c.maxMemoryPages,
    initialBytes: c.initialMemoryPages * 65_536,
    regular: c.regular,
    linearBase: c.linearBase,
    linearUnit: c.linearUnit,
  };
  const out = new Writer().bytes([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

  const typeGrow = nTypes + 3;
  const types = new Writer().u32(nTypes + 4);
  for (const t of m.types) {
    types.byte(0x60).u32(t.params.length).bytes(t.params).u32(t.results.length).bytes(t.results);
  }
  types.bytes([0x60, 1, 0x7e, 0]).bytes([0x60, 0, 0]).bytes([0x60, 1, I32, 0]).bytes([0x60, 1, I32, 1, I32]);
  out.section(1, types);

  const imports = new Writer().u32(nImports + INJECTED_FUNCS + 1 + INJECTED_GLOBALS);
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
  for (const [name, type] of [
    [REMAINING_GAS_EXPORT, 0x7e],
    [REMAINING_STACK_EXPORT, 0x7e],
    [INDIRECT_INDEX_EXPORT, I32],
    [DIRTY_END_EXPORT, 0x7e],
    [MEMORY_PAGES_EXPORT, I32],
    [MEMORY_LIMIT_EXPORT, 0x7e],
    [GROWN_END_EXPORT, 0x7e],
    [DIRTY_START_EXPORT, 0x7e],
  ] as const) {
    imports.name(INTERNAL_MODULE).name(name).byte(3).byte(type).byte(1);
  }
  out.section(2, imports);

  const funcs = new Writer().u32(nDefined + 4);
  for (let i = 0; i < nDefined; i++) funcs.u32(m.funcTypes[nImports + i]);
  funcs.u32(typeLinear).u32(typeLinear).u32(typeStack).u32(typeGrow);
  out.section(3, funcs);

  if (m.tableSection) out.section(4, new Writer().bytes(m.tableSection));

  if (m.globalCount > 0) out.section(6, new Writer().u32(m.globalCount).bytes(m.globalSection!.finish()));

  const exportList: [string, number, number][] = [];
  exportList.push([DISPATCH_EXPORT, 0, layout.linearHelper + 1]);
  exportList.push([RESET_EXPORT, 0, layout.linearHelper + 2]);
  if (c.exportAll) {
    for (const e of m.exports) {
      if (e.kind === 0) exportList.push([EXPORT_PREFIX + e.name, 0, e.index + INJECTED_FUNCS]);
    }
  }
  if (m.tableSection) exportList.push([TABLE_EXPORT, 1, 0]);
  if (m.start !== null) exportList.push([START_EXPORT, 0, m.start + INJECTED_FUNCS]);
  const exports = new Writer().u32(exportList.length);
  for (const [name, kind, index] of exportList) exports.name(name).byte(kind).u32(index);
  out.section(7, exports);

  if (m.elementSection) out.section(9, m.elementSection);
  const data = passiveData(m.dataSection);
  if (data.count > 0) out.section(12, new Writer().u32(data.count));

  const code = new Writer().u32(nDefined + 4);
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
  const dispatcher = new Writer();
  emitDispatcher(
    dispatcher,
    methods.map((f) => f + INJECTED_FUNCS),
  );
  code.u32(dispatcher.length).bytes(dispatcher.finish());
  const reset = new Writer().u32(0);
  for (const seg of data.active) {
    // The segment must fit the logical memory, as it must fit a fresh one at instantiation.
    reset.bytes(seg.offset.subarray(0, seg.offset.length - 1)); // the offset, without its `end`
    reset.byte(0xad); // i64.extend_i32_u
    reset.byte(0x42).sleb(BigInt(seg.length)).byte(0x7c);
    emitBoundsCheck(reset, layout);
    reset.bytes(seg.offset.subarray(0, seg.offset.length - 1));
    reset.byte(0x41).sleb(0n).byte(0x41).sleb(BigInt(seg.length)).byte(0xfc).u32(8).u32(seg.index).byte(0);
  }
  m.globalInits.forEach((g, i) => {
    if (!g.mutable) return;
    reset
      .bytes(g.init.subarray(0, g.init.length - 1))
      .byte(0x24)
      .u32(i + INJECTED_GLOBALS);
  });
  reset.byte(0x0b);
  code.u32(reset.length).bytes(reset.finish());
  const grow = new Writer();
  emitMemoryGrow(grow, layout);
  code.u32(grow.length).bytes(grow.finish());
  out.section(10, code);

  if (data.section) out.section(11, new Writer().bytes(data.section));
  return out.finish();
}
