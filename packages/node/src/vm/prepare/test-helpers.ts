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
};
export const R = config.regularOpCost;

export class GasExhausted extends Error {}
export class StackExhausted extends Error {}

export function instantiate(p: PreparedContract, env: Record<string, unknown> = {}): WebAssembly.Instance {
  return new WebAssembly.Instance(p.module, {
    env,
    internal: {
      memory: new WebAssembly.Memory({
        initial: config.limits.initialMemoryPages,
        maximum: config.limits.maxMemoryPages,
      }),
      gas_exhausted: (cost: bigint) => {
        throw new GasExhausted(String(BigInt.asUintN(64, cost)));
      },
      stack_exhausted: () => {
        throw new StackExhausted();
      },
    },
  });
}

/** Calls `name` with `gas` available and returns the gas it used. */
export function gasUsed(instance: WebAssembly.Instance, name: string, gas = 10n ** 15n, ...args: unknown[]) {
  const g = instance.exports.remaining_gas as WebAssembly.Global;
  g.value = gas;
  (instance.exports[`\0${name}`] as (...a: unknown[]) => unknown)(...args);
  return gas - (g.value as bigint);
}
