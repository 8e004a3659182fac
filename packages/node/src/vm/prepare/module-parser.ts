/**
 * Section-by-section parse of a contract, applying nearcore's early checks (prepare_v3) in binary-section
 * order, so the first failing check decides the error as it does in nearcore: too many types, imports
 * (non-`env` module / table / global → Instantiate, memory → Memory), the 10,000-function budget, tables,
 * table elements, function body size and the running local count.
 */
import type { LimitConfig } from '../../config/runtime-config.js';
import { PrepareError } from '../vm-errors.js';
import { malformed, Reader, Writer } from './binary.js';
import { FUNCREF, readValType } from './opcodes.js';

/** Functions the instrumentation imports ahead of the contract's own (gas_exhausted, stack_exhausted). */
export const INJECTED_FUNCS = 2;
/** Globals the instrumentation imports ahead of the contract's own (remaining_gas, remaining_stack,
 * indirect_index, dirty_end, memory_pages, memory_limit, grown_end, dirty_start). */
export const INJECTED_GLOBALS = 8;

export interface FuncType {
  params: number[];
  results: number[];
}

export interface CodeEntry {
  /** The body's local declarations (count, type) as written. */
  locals: [number, number][];
  /** Offsets of the first instruction and of the body's end, within the module bytes. */
  opsStart: number;
  end: number;
}

export interface ParsedModule {
  bytes: Uint8Array;
  types: FuncType[];
  /** `env` function imports in order: name and type index. */
  imports: { name: string; type: number }[];
  /** Type index of every function, imports first. */
  funcTypes: number[];
  /** Table section body (kept as is), or null. */
  tableSection: Uint8Array | null;
  /** Global entries (without the count) with function indices shifted, and how many there are. */
  globalSection: Writer | null;
  globalCount: number;
  /** Per global: mutable, and its initialiser (shifted, with its `end`). */
  globalInits: { mutable: boolean; init: Uint8Array }[];
  /** Value type of every global (none are imported). */
  globalTypes: number[];
  exports: { name: string; kind: number; index: number }[];
  start: number | null;
  elementSection: Writer | null;
  dataCountSection: Uint8Array | null;
  code: CodeEntry[];
  dataSection: Uint8Array | null;
}

/** Canonical order of the known non-custom sections (data count sits between element and code). */
const ORDER = [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 10, 11];

function limits(r: Reader): { min: number; max: number | null } {
  const flags = r.byte();
  if (flags > 1) malformed('shared or 64-bit limits are not enabled');
  const min = r.u32();
  const max = flags === 1 ? r.u32() : null;
  return { min, max };
}

/** Copies a constant expression, shifting function and global indices past the injected imports. */
export function copyConstExpr(r: Reader, w: Writer): void {
  for (;;) {
    const op = r.byte();
    w.byte(op);
    switch (op) {
      case 0x0b:
        return;
      case 0x41:
        w.sleb(r.signed(32));
        break;
      case 0x42:
        w.sleb(r.signed(64));
        break;
      case 0x43:
        w.bytes(r.bytesView(4));
        break;
      case 0x44:
        w.bytes(r.bytesView(8));
        break;
      case 0x23:
        w.u32(r.u32() + INJECTED_GLOBALS);
        break;
      case 0xd0:
        if (r.byte() !== FUNCREF) malformed('ref.null of a type other than funcref');
        w.byte(FUNCREF);
        break;
      case 0xd2:
        w.u32(r.u32() + INJECTED_FUNCS);
        break;
      default:
        malformed(`opcode 0x${op.toString(16)} in a constant expression`);
    }
  }
}

function copyFuncIndices(r: Reader, w: Writer): void {
  const n = r.u32();
  w.u32(n);
  for (let i = 0; i < n; i++) w.u32(r.u32() + INJECTED_FUNCS);
}

function copyExprs(r: Reader, w: Writer): void {
  const n = r.u32();
  w.u32(n);
  for (let i = 0; i < n; i++) copyConstExpr(r, w);
}

/** Re-encodes the element section with shifted function indices (all eight segment encodings). */
function elementSection(r: Reader): Writer {
  const w = new Writer();
  const n = r.u32();
  w.u32(n);
  for (let i = 0; i < n; i++) {
    const flags = r.u32();
    if (flags > 7) malformed('unknown element segment flags');
    w.u32(flags);
    if (flags & 2 && !(flags & 1)) w.u32(r.u32()); // explicit table index
    if (!(flags & 1)) copyConstExpr(r, w); // active: offset expression
    if (flags & 3) {
      const kind = r.byte(); // elemkind 0x00 or a ref type
      if (flags & 4 ? kind !== FUNCREF : kind !== 0) malformed('element kind must be funcref');
      w.byte(kind);
    }
    if (flags & 4) copyExprs(r, w);
    else copyFuncIndices(r, w);
  }
  return w;
}

export function parseModule(bytes: Uint8Array, limit: LimitConfig): ParsedModule {
  const r = new Reader(bytes);
  const magic = r.bytesView(8);
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (header.some((b, i) => magic[i] !== b)) malformed('bad magic or version');
  const m: ParsedModule = {
    bytes,
    types: [],
    imports: [],
    funcTypes: [],
    tableSection: null,
    globalSection: null,
    globalCount: 0,
    globalInits: [],
    globalTypes: [],
    exports: [],
    start: null,
    elementSection: null,
    dataCountSection: null,
    code: [],
    dataSection: null,
  };
  let functionBudget = limit.maxFunctionsNumberPerContract;
  // min_contract_size_per_local (87, 2): at most one local per that many bytes of code, beside the absolute
  // max_locals_per_contract (nearcore 2.14 near-vm-runner prepare: TooManyLocals either way).
  const perLocal = limit.minContractSizePerLocal;
  let localBudget =
    perLocal === undefined || perLocal === 0
      ? limit.maxLocalsPerContract
      : Math.min(limit.maxLocalsPerContract, Math.floor(bytes.length / perLocal));
  let lastOrder = -1;
  let definedFuncs = 0;
  while (!r.eof) {
    const id = r.byte();
    const size = r.u32();
    const s = new Reader(bytes, r.pos, r.pos + size);
    if (s.end > bytes.length) malformed('section out of bounds');
    r.pos = s.end;
    if (id === 0) {
      s.name(); // custom sections are discarded (discard_custom_sections)
      continue;
    }
    const order = ORDER.indexOf(id);
    if (order < 0) malformed(`unknown section ${id}`);
    if (order <= lastOrder) malformed(`section ${id} out of order`);
    lastOrder = order;
    switch (id) {
      case 1: {
        const n = s.u32();
        if (n > (limit.maxTypesPerContract ?? Infinity)) throw new PrepareError('TooManyTypes', `${n} types`);
        for (let i = 0; i < n; i++) {
          if (s.byte() !== 0x60) malformed('only function types are enabled');
          const params = Array.from({ length: s.u32() }, () => readValType(s));
          const results = Array.from({ length: s.u32() }, () => readValType(s));
          if (params.length > 1000) malformed('too many params in a type');
          if (results.length > 1) malformed('multi-value results are not enabled');
          m.types.push({ params, results });
        }
        break;
      }
      case 2: {
        // The whole section is decoded (and validated) before any import is judged.
        const all: { module: string; name: string; kind: number; type: number }[] = [];
        const n = s.u32();
        for (let i = 0; i < n; i++) {
          const module = s.name();
          const name = s.name();
          const kind = s.byte();
          let type = 0;
          if (kind === 0) {
            type = s.u32();
            if (type >= m.types.length) malformed('import of an unknown type');
          } else if (kind === 1) {
            readValType(s);
            limits(s);
          } else if (kind === 2) limits(s);
          else if (kind === 3) {
            readValType(s);
            if (s.byte() > 1) malformed('bad global mutability');
          } else malformed(`import kind ${kind} not enabled`);
          all.push({ module, name, kind, type });
        }
        for (const imp of all) {
          if (imp.module !== 'env') throw new PrepareError('Instantiate', `import from module ${imp.module}`);
          if (imp.kind === 2) throw new PrepareError('Memory', 'imported memory');
          if (imp.kind !== 0) throw new PrepareError('Instantiate', `table or global import ${imp.name}`);
          if (--functionBudget < 0) throw new PrepareError('TooManyFunctions', 'imports');
          m.imports.push({ name: imp.name, type: imp.type });
          m.funcTypes.push(imp.type);
        }
        break;
      }
      case 3: {
        definedFuncs = s.u32();
        for (let i = 0; i < definedFuncs; i++) {
          const t = s.u32();
          if (t >= m.types.length) malformed('function of an unknown type');
          m.funcTypes.push(t);
        }
        break;
      }
      case 4: {
        const n = s.u32();
        if (n > limit.maxTablesPerContract) throw new PrepareError('TooManyTables', `${n} tables`);
        for (let i = 0; i < n; i++) {
          if (s.byte() !== FUNCREF) malformed('table of a type other than funcref');
          const { min } = limits(s);
          if (min > limit.maxElementsPerContractTable)
            throw new PrepareError('TooManyTableElements', `${min} elements`);
        }
        m.tableSection = bytes.subarray(s.end - size, s.end);
        break;
      }
      case 5: {
        const n = s.u32();
        if (n > 1) malformed('multiple memories are not enabled');
        for (let i = 0; i < n; i++) limits(s); // replaced by the normalised memory
        break;
      }
      case 6: {
        const w = new Writer(); // entries only: the emitter appends the instrumentation's globals
        const n = s.u32();
        for (let i = 0; i < n; i++) {
          const t = readValType(s);
          m.globalTypes.push(t);
          w.byte(t);
          const mut = s.byte();
          if (mut > 1) malformed('bad global mutability');
          w.byte(mut);
          const init = new Writer();
          copyConstExpr(s, init);
          const bytes = init.finish();
          w.bytes(bytes);
          m.globalInits.push({ mutable: mut === 1, init: bytes });
        }
        m.globalSection = w;
        m.globalCount = n;
        break;
      }
      case 7: {
        const n = s.u32();
        for (let i = 0; i < n; i++) {
          const name = s.name();
          const kind = s.byte();
          if (kind > 3) malformed(`export kind ${kind} not enabled`);
          m.exports.push({ name, kind, index: s.u32() });
        }
        break;
      }
      case 8:
        m.start = s.u32();
        break;
      case 9:
        m.elementSection = elementSection(s);
        break;
      case 12:
        m.dataCountSection = bytes.subarray(s.end - size, s.end);
        s.u32();
        break;
      case 10: {
        const n = s.u32();
        if (n !== definedFuncs) malformed('function and code section counts differ');
        functionBudget -= n;
        if (functionBudget < 0) throw new PrepareError('TooManyFunctions', `${n} functions`);
        for (let i = 0; i < n; i++) {
          const bodySize = s.u32();
          const body = new Reader(bytes, s.pos, s.pos + bodySize);
          if (body.end > s.end) malformed('function body out of bounds');
          s.pos = body.end;
          if (bodySize > (limit.maxFunctionBodySize ?? Infinity))
            throw new PrepareError('FunctionBodyTooLarge', `${bodySize} bytes`);
          const locals: [number, number][] = [];
          const groups = body.u32();
          for (let g = 0; g < groups; g++) {
            const count = body.u32();
            localBudget -= count;
            if (localBudget < 0) throw new PrepareError('TooManyLocals', `function ${i}`);
            locals.push([count, readValType(body)]);
          }
          m.code.push({ locals, opsStart: body.pos, end: body.end });
        }
        break;
      }
      case 11:
        m.dataSection = bytes.subarray(s.end - size, s.end);
        s.pos = s.end;
        break;
    }
    if (!s.eof && id !== 11) malformed(`trailing bytes in section ${id}`);
  }
  if (m.code.length !== definedFuncs) malformed('function section without code section');
  return m;
}
