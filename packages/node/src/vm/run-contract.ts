/**
 * Runs one method of a contract (nearcore near-vm-runner `run`): resolve the prepared module, check the
 * method, charge the loading fee, link the host functions, run, and turn whatever happened into a VMOutcome.
 *
 * As at protocol 85 (`fix_contract_loading_cost` off), a preparation failure, a missing method and a method
 * with the wrong signature end the call before any gas is burnt.
 */
import type { ContractCache } from './contract-cache.js';
import { HOST_SIGNATURES } from './host-signatures.js';
import { contextImports } from './imports/context.js';
import { mathImports } from './imports/math.js';
import { miscImports } from './imports/misc.js';
import { promiseImports } from './imports/promises.js';
import { storageImports } from './imports/storage.js';
import { classifyTrap } from './prepare/traps.js';
import type { External, VMContext, VMOutcome } from './vm-context.js';
import {
  CompilationError,
  FunctionCallError,
  hostError,
  LinkError,
  MethodResolveError,
  WasmTrap,
} from './vm-errors.js';
import { type VMConfig, VMLogic } from './vm-logic.js';

export interface RunContractArgs {
  codeHash: Uint8Array;
  /** Loads the code when the cache does not have it prepared. */
  code: () => Uint8Array | undefined;
  method: string;
  context: VMContext;
  config: VMConfig;
  ext: External;
  /** Data ids of the promises this call creates derive from it. */
  actionHash: Uint8Array;
  cache: ContractCache;
}

type HostFn = (...args: never[]) => unknown;

export function runContract(args: RunContractArgs): VMOutcome {
  const vm = new VMLogic(args.context, args.config, args.ext, args.actionHash);
  const abort = (error: FunctionCallError): VMOutcome => outcome(vm, error);
  if (args.method === '') return abort(new MethodResolveError('MethodEmptyName'));

  const prepared = args.cache.get(args.codeHash, args.code);
  if (!prepared) {
    return abort(new CompilationError({ CodeDoesNotExist: { account_id: args.context.currentAccountId } }));
  }
  if (!prepared.ok) return abort(new CompilationError({ PrepareError: prepared.error.kind }));
  const contract = prepared.contract;
  const signatureOk = contract.methods.get(args.method);
  if (signatureOk === undefined) return abort(new MethodResolveError('MethodNotFound'));
  if (!signatureOk) return abort(new MethodResolveError('MethodInvalidSignature'));

  try {
    const costs = args.config.extCosts;
    vm.gas.payBase(costs.contract_loading_base);
    vm.gas.payPer(costs.contract_loading_bytes, BigInt(prepared.codeLength));
  } catch (e) {
    if (e instanceof FunctionCallError) return abort(e);
    throw e;
  }

  const all: Record<string, HostFn> = {
    ...contextImports(vm),
    ...miscImports(vm),
    ...storageImports(vm),
    ...promiseImports(vm),
    ...mathImports(vm),
    gas: (opcodes: number) => vm.gas.payPer(args.config.regularOpCost, BigInt(opcodes >>> 0)),
  };
  let remainingGas: WebAssembly.Global | undefined;
  const env: Record<string, HostFn> = {};
  for (const imp of contract.envImports) {
    const expected = HOST_SIGNATURES[imp.name];
    const fn = all[imp.name];
    if (!expected || !fn)
      return abort(new LinkError(`unknown import: \`env::${imp.name}\` has not been defined`));
    if (expected.params !== imp.params || expected.result !== imp.result) {
      return abort(new LinkError(`incompatible import type for \`env::${imp.name}\``));
    }
    env[imp.name] = (...a: unknown[]) => {
      if (remainingGas) vm.gas.syncFromWasm(remainingGas);
      try {
        // V8 hands i64 arguments over as signed BigInts; the host functions take them as u64.
        for (let i = 0; i < a.length; i++)
          if (typeof a[i] === 'bigint') a[i] = BigInt.asUintN(64, a[i] as bigint);
        return fn(...(a as never[]));
      } finally {
        if (remainingGas) vm.gas.syncToWasm(remainingGas);
      }
    };
  }
  const internal = {
    gas_exhausted: (cost: bigint) => vm.gas.wasmExhausted(remainingGas!, BigInt.asUintN(64, cost)),
    stack_exhausted: () => {
      throw hostError.memoryAccessViolation();
    },
  };

  let instance: WebAssembly.Instance | undefined;
  const memory = args.cache.memories.acquire();
  vm.memory = memory;
  try {
    instance = new WebAssembly.Instance(contract.module, { env, internal: { ...internal, memory } });
    const exports = instance.exports as Record<string, unknown>;
    remainingGas = exports.remaining_gas as WebAssembly.Global;
    (exports.remaining_stack as WebAssembly.Global).value = BigInt(args.config.limits.maxStackHeight);
    vm.gas.syncToWasm(remainingGas);
    // A start function runs first, metered like the method (the prepared module exports it instead of
    // letting instantiation run it before gas is set).
    if (typeof exports.start === 'function') (exports.start as () => void)();
    (exports[`\0${args.method}`] as () => void)();
    vm.gas.syncFromWasm(remainingGas);
  } catch (e) {
    if (remainingGas) vm.gas.syncFromWasm(remainingGas);
    if (e instanceof FunctionCallError) return abort(e);
    const trap = instance ? classifyTrap(e, instance) : undefined;
    if (trap) return abort(trap);
    if (e instanceof RangeError) return abort(new WasmTrap('StackOverflow'));
    if (!instance && e instanceof WebAssembly.RuntimeError) return abort(new WasmTrap('MemoryOutOfBounds'));
    if (!instance && e instanceof WebAssembly.LinkError) {
      return abort(new CompilationError({ PrepareError: 'Instantiate' }));
    }
    throw e;
  } finally {
    const wasmDirty = instance ? Number((instance.exports.dirty_end as WebAssembly.Global).value) : 0;
    args.cache.memories.release(memory, Math.max(wasmDirty, vm.hostDirtyEnd, contract.dataEnd));
  }

  // Gas nobody used goes to the weighted function calls the method created.
  if (!args.context.isView) {
    const unused = args.context.prepaidGas - vm.gas.used;
    if (unused > 0n) {
      try {
        vm.gas.prepay(vm.receipts.distributeUnusedGas(unused));
      } catch (e) {
        if (e instanceof FunctionCallError) return abort(e);
        throw e;
      }
    }
  }
  return outcome(vm);
}

function outcome(vm: VMLogic, error?: FunctionCallError): VMOutcome {
  return {
    balance: vm.balance,
    storageUsage: vm.storageUsage,
    returnData: error ? { kind: 'None' } : vm.returnData,
    burntGas: vm.gas.burnt,
    // An aborted call uses nothing beyond what it burnt: its promises are dropped.
    usedGas: error ? vm.gas.burnt : vm.gas.used,
    logs: vm.logs,
    subsidized: error ? 0n : vm.subsidized,
    error,
    receipts: vm.receipts,
  };
}
