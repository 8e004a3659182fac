/**
 * Contract preparation as nearcore does it at protocol 85 (prepare_v3: reftypes_bulk_memory is on):
 * validate features and limits, normalise memory and exports, and instrument gas and stack with
 * finite-wasm's rules. The result is compiled once; the host links `env` functions and `internal`
 * gas_exhausted / stack_exhausted, and drives the exported `remaining_gas` / `remaining_stack` globals.
 */
import type { LimitConfig } from '../../config/runtime-config.js';
import { PrepareError } from '../vm-errors.js';
import { analyseFunction, type FunctionAnalysis } from './analysis.js';
import { activeDataExtent } from './data-extent.js';
import { emitModule } from './emit-module.js';
import { parseModule } from './module-parser.js';
import { FC } from './opcodes.js';

export interface PrepareConfig {
  regularOpCost: bigint;
  linearOpBaseCost: bigint;
  linearOpUnitCost: bigint;
  limits: LimitConfig;
  /** Export every contract function by name too (tests call functions with parameters that way). */
  exportAll?: boolean;
}

/** A function the contract imports from `env`, with its type as letters: I i64, i i32, F f64, f f32. */
export interface EnvImport {
  name: string;
  params: string;
  result: string;
}

const LETTER: Record<number, string> = { 127: 'i', 126: 'I', 125: 'f', 124: 'F' };
const typeLetters = (types: number[]) => types.map((t) => LETTER[t] ?? '?').join('');

/** data.drop, elem.drop, table.set, table.init, table.copy, table.grow, table.fill. */
const MUTATES_INSTANCE = new Set([FC + 9, FC + 13, 0x26, FC + 12, FC + 14, FC + 15, FC + 17]);

export interface PreparedContract {
  /** Compiled once (new WebAssembly.Module) from the instrumented bytes. */
  module: WebAssembly.Module;
  /** Every exported FUNCTION of the original module by its original name → true when its type is [] -> []. */
  methods: Map<string, boolean>;
  /** The callable methods ([] -> []) → their index for the instance's "\0dispatch" export. */
  methodIndex: Map<string, number>;
  /** Names of the functions the contract imports from `env` (deduplicated), so the host links only those. */
  envImports: EnvImport[];
  /** Size of the instrumented binary, for diagnostics. */
  instrumentedSize: number;
  /** Start and end of the memory the active data segments write at instantiation (0 and Infinity when not
   * static; Infinity and 0 when there are none). */
  dataStart: number;
  dataEnd: number;
  /** Whether one instance may serve many calls (reset in between by "\0reset"): false when the code can
   * change instance state the reset does not restore (tables, dropped segments). */
  reusable: boolean;
}

export function prepareContract(code: Uint8Array, config: PrepareConfig): PreparedContract {
  const limits = config.limits;
  const m = parseModule(code, limits);
  // V8 checks types, indices and constant expressions; our parser has already refused disabled features.
  if (!WebAssembly.validate(code)) throw new PrepareError('Deserialization', 'the module does not validate');

  const cost = {
    regular: config.regularOpCost,
    linearBase: config.linearOpBaseCost,
    linearUnit: config.linearOpUnitCost,
  };
  const nImports = m.imports.length;
  const analyses: FunctionAnalysis[] = [];
  for (let i = 0; i < m.code.length; i++) {
    const params = m.types[m.funcTypes[nImports + i]].params;
    const localTypes = [...params];
    for (const [count, t] of m.code[i].locals) for (let k = 0; k < count; k++) localTypes.push(t);
    try {
      analyses.push(analyseFunction(m, i, localTypes, cost));
    } catch (e) {
      if (e instanceof PrepareError) throw e;
      throw new PrepareError('Deserialization', `analysis of function ${i}: ${(e as Error).message}`);
    }
  }

  // The per-function limits nearcore's instrumentation applies, in function order (an unset limit, before
  // protocol 84, is no limit: nearcore's `unwrap_or(u64::MAX)`).
  const maxParamsPerFunction = limits.maxParamsPerFunction ?? Infinity;
  const maxParamsPerContract = limits.maxParamsPerContract ?? Infinity;
  const maxOperandStack = limits.maxOperandStackBytesPerFunction ?? Infinity;
  const maxBlocksPerFunction = limits.maxBlocksPerFunction ?? Infinity;
  const maxBlocksPerContract = limits.maxBlocksPerContract ?? Infinity;
  let params = 0;
  let blocks = 0;
  for (let i = 0; i < m.code.length; i++) {
    const n = m.types[m.funcTypes[nImports + i]].params.length;
    if (n > maxParamsPerFunction) throw new PrepareError('TooManyParamsPerFunction', `function ${i}`);
    params += n;
    if (params > maxParamsPerContract) throw new PrepareError('TooManyParamsPerContract');
    if (analyses[i].maxStack > maxOperandStack)
      throw new PrepareError('OperandStackTooLarge', `function ${i}: ${analyses[i].maxStack} bytes`);
    if (analyses[i].blocks > maxBlocksPerFunction)
      throw new PrepareError('TooManyBlocksPerFunction', `function ${i}`);
    blocks += analyses[i].blocks;
    if (blocks > maxBlocksPerContract) throw new PrepareError('TooManyBlocksPerContract');
  }

  const methods = new Map<string, boolean>();
  const methodIndex = new Map<string, number>();
  const callable: number[] = [];
  for (const e of m.exports) {
    if (e.kind !== 0) continue;
    const t = m.types[m.funcTypes[e.index]];
    const ok = t.params.length === 0 && t.results.length === 0;
    methods.set(e.name, ok);
    if (ok) {
      methodIndex.set(e.name, callable.length);
      callable.push(e.index);
    }
  }

  const bytes = emitModule(
    m,
    analyses,
    {
      regular: config.regularOpCost,
      linearBase: config.linearOpBaseCost,
      linearUnit: config.linearOpUnitCost,
      initialMemoryPages: limits.initialMemoryPages,
      maxMemoryPages: limits.maxMemoryPages,
      maxStackHeight: limits.maxStackHeight,
      exportAll: config.exportAll,
    },
    callable,
  );
  if (bytes.length > (limits.maxInstrumentedCodeSize ?? Infinity))
    throw new PrepareError('InstrumentedCodeTooLarge', `${bytes.length} bytes`);

  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(bytes);
  } catch (e) {
    // A valid contract always compiles; reaching this is an instrumentation bug, reported as nearcore would
    // report an unloadable module.
    throw new PrepareError(
      'Deserialization',
      `instrumented module failed to compile: ${(e as Error).message}`,
    );
  }

  const seen = new Set<string>();
  const envImports: EnvImport[] = [];
  for (const imp of m.imports) {
    const t = m.types[imp.type];
    const entry = { name: imp.name, params: typeLetters(t.params), result: typeLetters(t.results) };
    const key = `${entry.name}:${entry.params}:${entry.result}`;
    if (!seen.has(key)) {
      seen.add(key);
      envImports.push(entry);
    }
  }
  return {
    module,
    methods,
    methodIndex,
    envImports,
    instrumentedSize: bytes.length,
    ...dataExtent(m.dataSection),
    reusable: !analyses.some((a) => a.ops.some((op) => MUTATES_INSTANCE.has(op.code))),
  };
}

function dataExtent(section: Uint8Array | null): { dataStart: number; dataEnd: number } {
  const { start, end } = activeDataExtent(section);
  return { dataStart: start, dataEnd: end };
}
