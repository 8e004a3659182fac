/**
 * Every host function a contract may import from `env`, bound to one VMLogic, plus the instrumentation's
 * `gas` callback (the metered blocks' opcode counts priced at the regular op cost). The runner links
 * contracts against this table; the test harness calls into the same one.
 */
import type { VMConfig, VMLogic } from '../vm-logic.js';
import { contextImports } from './context.js';
import { mathImports } from './math.js';
import { miscImports } from './misc.js';
import { promiseImports } from './promises.js';
import { stateInitImports } from './state-init.js';
import { storageImports } from './storage.js';
import { universalStateInitImports } from './universal-state-init.js';

// biome-ignore lint/suspicious/noExplicitAny: host functions take and return Wasm values of several types.
export type HostFunction = (...args: any[]) => any;

export function hostFunctions(vm: VMLogic, config: VMConfig): Record<string, HostFunction> {
  return {
    ...contextImports(vm),
    ...miscImports(vm),
    ...storageImports(vm),
    ...promiseImports(vm),
    ...stateInitImports(vm),
    ...universalStateInitImports(vm),
    ...mathImports(vm),
    gas: (opcodes: number) => vm.gas.payPer(config.regularOpCost, BigInt(opcodes >>> 0)),
  };
}
