/** Shared helpers for the preparation tests: WAT → binary, a default config, and a minimal host. */
import wabtInit from 'wabt';
import { loadRuntimeConfig } from '../../config/runtime-config.js';
import type { PrepareConfig, PreparedContract } from './prepare-contract.js';

const wabt = await wabtInit();

export function wat(src: string, features: Record<string, boolean> = {}): Uint8Array {
  const mod = wabt.parseWat('t.wat', src, features);
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

const rc = loadRuntimeConfig();
export const config: PrepareConfig = {
  regularOpCost: rc.wasm.regularOpCost,
  linearOpBaseCost: rc.wasm.linearOpBaseCost,
  linearOpUnitCost: rc.wasm.linearOpUnitCost,
  limits: rc.wasm.limits,
  exportAll: true,
};
export const R = config.regularOpCost;

export class GasExhausted extends Error {}
export class StackExhausted extends Error {}

export interface TestInstance {
  instance: WebAssembly.Instance;
  /** The instance's exports plus the host-owned memory and globals, as the tests read them. */
  exports: Record<string, unknown>;
}

/** Instantiates with fresh internal globals and memory; functions are callable by name ("\0" + name)
 * because the tests prepare with `exportAll`. */
export function instantiate(
  p: PreparedContract,
  env: Record<string, unknown> = {},
  /** A memory to run on (for example one an earlier call grew); a fresh one of the initial size by default. */
  memory = new WebAssembly.Memory({
    initial: config.limits.initialMemoryPages,
    maximum: config.limits.maxMemoryPages,
  }),
): TestInstance {
  const i64 = () => new WebAssembly.Global({ value: 'i64', mutable: true }, 0n);
  const globals = {
    remaining_gas: i64(),
    remaining_stack: i64(),
    indirect_index: new WebAssembly.Global({ value: 'i32', mutable: true }, 0),
    dirty_end: i64(),
    memory_pages: new WebAssembly.Global({ value: 'i32', mutable: true }, config.limits.initialMemoryPages),
    memory_limit: new WebAssembly.Global(
      { value: 'i64', mutable: true },
      BigInt(config.limits.initialMemoryPages * 65_536),
    ),
    grown_end: i64(),
    dirty_start: new WebAssembly.Global(
      { value: 'i64', mutable: true },
      BigInt(config.limits.initialMemoryPages * 65_536),
    ),
  };
  globals.remaining_stack.value = BigInt(config.limits.maxStackHeight);
  const instance = new WebAssembly.Instance(p.module, {
    env,
    internal: {
      memory,
      ...globals,
      gas_exhausted: (cost: bigint) => {
        throw new GasExhausted(String(BigInt.asUintN(64, cost)));
      },
      stack_exhausted: () => {
        throw new StackExhausted();
      },
    },
  });
  return { instance, exports: { ...instance.exports, memory, ...globals } };
}

/** Calls `name` with `gas` available and returns the gas it used. */
export function gasUsed(instance: TestInstance, name: string, gas = 10n ** 15n, ...args: unknown[]) {
  const g = instance.exports.remaining_gas as WebAssembly.Global;
  g.value = gas;
  (instance.exports[`\0${name}`] as (...a: unknown[]) => unknown)(...args);
  return gas - (g.value as bigint);
}
