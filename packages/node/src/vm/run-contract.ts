/**
 * Runs one method of a contract (nearcore near-vm-runner `prepare` + `run`): resolve the prepared module,
 * charge the loading fee, link the host functions and look the method up, run, and turn whatever happened into
 * a VMOutcome.
 *
 * nearcore's order with `fix_contract_loading_cost` off (every protocol 83-87; the fix is nightly): an empty
 * method name, then a preparation failure, end the call before any gas is burnt; then the loading fee is
 * charged (`contract_loading_bytes` per byte of the original code, then `contract_loading_base`), so a call
 * whose gas does not cover it fails with GasExceeded whatever its method; then a missing method or one with
 * the wrong signature ends the call as a nop (nothing burnt: the fee charged is dropped). Wasmtime (84+)
 * links the imports while loading, before the method is looked up; NearVm (83) links at instantiation, after.
 */

import type { ContractCache } from './contract-cache.js';
import { emptyGasProfile, setWasmGas } from './gas-profile.js';
import { type HostFn, hostCall } from './host-call.js';
import { hostFunctionEnabled } from './host-function-gates.js';
import { HOST_SIGNATURES } from './host-signatures.js';
import { hostFunctions } from './imports/host-functions.js';
import type { MemoryPool } from './memory-pool.js';
import { DISPATCH_EXPORT, RESET_EXPORT } from './prepare/emit-module.js';
import type { PreparedContract } from './prepare/prepare-contract.js';
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

/**
 * The host side of the VM, made once per contract cache: one reusable VMLogic, its host functions, and per
 * prepared contract the linked `env` object (or why linking fails). Nothing is allocated per call but the
 * call's own state.
 */
class Host {
  readonly vm: VMLogic;
  private readonly all: Record<string, HostFn>;
  readonly internal: Record<string, unknown>;
  /** The instrumentation's globals, imported by every instance and reset for each call. */
  readonly globals: Record<
    | 'remaining_gas'
    | 'remaining_stack'
    | 'indirect_index'
    | 'dirty_end'
    | 'memory_pages'
    | 'memory_limit'
    | 'grown_end'
    | 'dirty_start',
    WebAssembly.Global
  >;
  private readonly linked = new WeakMap<PreparedContract, Record<string, HostFn> | LinkError>();
  /** Instances kept for reuse, least recently used first. */
  private readonly instances = new Map<PreparedContract, KeptInstance>();
  /** The most recently used kept contract: a run of calls to one contract leaves the map untouched (moving an
   * entry to the back rehashes the map's table, and a long-lived map's new table is made in the old
   * generation, which then fills at the call rate). */
  private newest: PreparedContract | undefined;

  constructor(
    private readonly config: VMConfig,
    private readonly pool: MemoryPool,
  ) {
    const vm = new VMLogic(config);
    this.vm = vm;
    this.all = hostFunctions(vm, config);
    const global = (value: 'i64' | 'i32') =>
      new WebAssembly.Global({ value, mutable: true }, value === 'i64' ? 0n : 0);
    this.globals = {
      remaining_gas: global('i64'),
      remaining_stack: global('i64'),
      indirect_index: global('i32'),
      dirty_end: global('i64'),
      memory_pages: global('i32'),
      memory_limit: global('i64'),
      grown_end: global('i64'),
      dirty_start: global('i64'),
    };
    vm.memoryPages = this.globals.memory_pages;
    this.internal = {
      gas_exhausted: (cost: bigint) => vm.gas.wasmExhausted(vm.remainingGas!, BigInt.asUintN(64, cost)),
      stack_exhausted: () => {
        throw hostError.memoryAccessViolation();
      },
      memory: undefined,
      ...this.globals,
    };
  }

  instanceOf(contract: PreparedContract): KeptInstance | undefined {
    const kept = this.instances.get(contract);
    if (kept && contract !== this.newest) {
      this.newest = contract;
      this.instances.delete(contract);
      this.instances.set(contract, kept);
    }
    return kept;
  }

  keepInstance(contract: PreparedContract, instance: WebAssembly.Instance, memory: WebAssembly.Memory): void {
    this.instances.set(contract, { instance, memory });
    this.newest = contract;
    if (this.instances.size > KEPT_INSTANCES) {
      const [oldest, entry] = this.instances.entries().next().value as [PreparedContract, KeptInstance];
      this.instances.delete(oldest);
      // Its memory was zeroed after its last call: it can serve a fresh instance.
      this.pool.release(entry.memory, 0, 0, 0);
    }
  }

  /** After a call on a kept instance: zero what it wrote. A memory the call grew stays as large: the next
   * call sees the initial logical size (`memory_pages`), whatever the physical one. */
  afterCall(contract: PreparedContract, dirtyStart: number, dirtyEnd: number, grownEnd: number): void {
    const kept = this.instances.get(contract);
    if (kept) this.pool.zeroAfterCall(kept.memory, dirtyStart, dirtyEnd, grownEnd);
  }

  /** The `env` imports of `contract`: each host function checked against its signature and wrapped to keep
   * the gas counter in step with the instance and to read i64 arguments as u64 (host-call.ts). */
  link(contract: PreparedContract): Record<string, HostFn> | LinkError {
    const known = this.linked.get(contract);
    if (known) return known;
    const vm = this.vm;
    let env: Record<string, HostFn> | LinkError = {};
    for (const imp of contract.envImports) {
      const expected = HOST_SIGNATURES[imp.name];
      const fn = hostFunctionEnabled(imp.name, this.config.hostFunctionSwitches)
        ? this.all[imp.name]
        : undefined;
      if (!expected || !fn) {
        env = new LinkError(`unknown import: \`env::${imp.name}\` has not been defined`);
        break;
      }
      if (expected.params !== imp.params || expected.result !== imp.result) {
        env = new LinkError(`incompatible import type for \`env::${imp.name}\``);
        break;
      }
      env[imp.name] = hostCall(vm, fn, imp.params);
    }
    this.linked.set(contract, env);
    return env;
  }
}

interface KeptInstance {
  instance: WebAssembly.Instance;
  memory: WebAssembly.Memory;
}

const KEPT_INSTANCES = 16;
const PAGE = 65_536;

const hosts = new WeakMap<ContractCache, Host>();

export function runContract(args: RunContractArgs): VMOutcome {
  let host = hosts.get(args.cache);
  if (!host) {
    host = new Host(args.config, args.cache.memories);
    hosts.set(args.cache, host);
  }
  try {
    return run(host, args);
  } finally {
    // The reused VMLogic lets go of the call's state (the block's StateUpdate, through `ext`).
    host.vm.end();
  }
}

function run(host: Host, args: RunContractArgs): VMOutcome {
  const vm = host.vm;
  vm.begin(args.context, args.ext, args.actionHash);
  const abort = (error: FunctionCallError): VMOutcome => outcome(vm, error);
  if (args.method === '') return abort(new MethodResolveError('MethodEmptyName'));

  const prepared = args.cache.get(args.codeHash, args.code);
  if (!prepared) {
    return abort(new CompilationError({ CodeDoesNotExist: { account_id: args.context.currentAccountId } }));
  }
  if (!prepared.ok) return abort(new CompilationError({ PrepareError: prepared.error.kind }));
  const contract = prepared.contract;

  try {
    // nearcore's `add_contract_loading_fee`: the bytes first, then the base.
    vm.gas.payPer(vm.costs.contract_loading_bytes, BigInt(prepared.codeLength));
    vm.gas.payBase(vm.costs.contract_loading_base);
  } catch (e) {
    if (e instanceof FunctionCallError) return abort(e);
    throw e;
  }
  const linksFirst = args.config.vmKind !== 'NearVm';
  let env = linksFirst ? host.link(contract) : undefined;
  if (env instanceof LinkError) return abort(env);
  const signatureOk = contract.methods.get(args.method);
  if (signatureOk === undefined) return nop(vm, new MethodResolveError('MethodNotFound'));
  if (!signatureOk) return nop(vm, new MethodResolveError('MethodInvalidSignature'));
  env ??= host.link(contract);
  if (env instanceof LinkError) return abort(env);
  const internal = host.internal;
  const globals = host.globals;

  // A reusable contract keeps one instance (and its memory) across calls; `\0reset` gives each call the
  // state of a fresh instance: data segments written again, mutable globals back to their initial values,
  // and the memory was zeroed up to where the previous call wrote.
  const kept = contract.reusable ? host.instanceOf(contract) : undefined;
  let instance = kept?.instance;
  const memory = kept?.memory ?? args.cache.memories.acquire();
  vm.memory = memory;
  internal.memory = memory;
  const remainingGas = globals.remaining_gas;
  globals.remaining_stack.value = BigInt(args.config.limits.maxStackHeight);
  globals.indirect_index.value = 0;
  globals.dirty_end.value = 0n;
  globals.grown_end.value = 0n;
  globals.dirty_start.value = BigInt(args.cache.memories.initialPages * PAGE);
  globals.memory_pages.value = args.cache.memories.initialPages;
  globals.memory_limit.value = BigInt(args.cache.memories.initialPages * PAGE);
  vm.remainingGas = remainingGas;
  vm.gas.syncToWasm(remainingGas);
  try {
    instance ??= new WebAssembly.Instance(contract.module, { env, internal });
    if (contract.reusable && !kept) host.keepInstance(contract, instance, memory);
    const exports = instance.exports as Record<string, unknown>;
    (exports[RESET_EXPORT] as () => void)();
    // A start function runs first, metered like the method (the prepared module exports it instead of
    // letting instantiation run it before gas is set).
    if (typeof exports.start === 'function') (exports.start as () => void)();
    (exports[DISPATCH_EXPORT] as (method: number) => void)(contract.methodIndex.get(args.method)!);
    vm.gas.syncFromWasm(remainingGas);
  } catch (e) {
    vm.gas.syncFromWasm(remainingGas);
    if (e instanceof FunctionCallError) return abort(e);
    const trap = instance ? classifyTrap(e, instance, globals.indirect_index.value as number) : undefined;
    if (trap) return abort(trap);
    if (e instanceof RangeError) return abort(new WasmTrap('StackOverflow'));
    if (!instance && e instanceof WebAssembly.LinkError) {
      return abort(new CompilationError({ PrepareError: 'Instantiate' }));
    }
    throw e;
  } finally {
    // What the call wrote in the initial memory (its data segments included: another contract may get the
    // memory next) and in the pages it grew.
    const dirtyStart = Math.min(
      Number(globals.dirty_start.value as bigint),
      vm.hostDirtyStart,
      contract.dataStart,
    );
    const dirty = Math.max(Number(globals.dirty_end.value as bigint), vm.hostDirtyEnd, contract.dataEnd);
    const grownEnd = Math.max(Number(globals.grown_end.value as bigint), vm.hostGrownEnd);
    if (contract.reusable && instance) host.afterCall(contract, dirtyStart, dirty, grownEnd);
    else args.cache.memories.release(memory, dirtyStart, dirty, grownEnd);
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

/** nearcore's `abort_but_nop_outcome_in_old_protocol` without `fix_contract_loading_cost`: the call failed and
 * burnt nothing, its profile empty (the loading fee already charged is not kept). */
function nop(vm: VMLogic, error: FunctionCallError): VMOutcome {
  return { ...outcome(vm, error), burntGas: 0n, usedGas: 0n, logs: [], profile: emptyGasProfile() };
}

function outcome(vm: VMLogic, error?: FunctionCallError): VMOutcome {
  const profile = vm.profiler.profile;
  if (!vm.ctx.isView) setWasmGas(profile, vm.gas.burnt);
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
    profile,
  };
}
