/**
 * A VMLogic without a node, a contract or an instance (the role of nearcore's `VMLogicBuilder` in
 * runtime/near-vm-runner/src/logic/tests/vm_logic_builder.rs): a context and a configuration chosen by the test,
 * an in-memory storage and a linear memory the test writes into for free, and every host function callable
 * directly. After a call the test reads registers, logs, the gas used and burnt, and the receipts created.
 *
 * The defaults are nearcore's test defaults: the context of `get_context()` (alice.near called by carol.near,
 * signed by bob.near, balance 100, locked 50, deposit 10, 100 Tgas, block 10 at time 42, epoch 1), the
 * protocol-85 host-function costs and limits, and the fee table of `RuntimeFeesConfig::test()`.
 */

import { KEY_TYPE_ED25519, type PublicKey } from '@shadebox/primitives';
import type { ActionCost, Fee, FeeTable } from '../../config/fees.js';
import { loadRuntimeConfig, type RuntimeConfig } from '../../config/runtime-config.js';
import type { ExtCosts } from '../ext-costs.js';
import { type HostFunction, hostFunctions } from '../imports/host-functions.js';
import type { NewDataReceipt, NewReceipt } from '../receipt-manager.js';
import { vmConfigFrom } from '../vm-config.js';
import type { External, StorageAccessTracker, StorageValuePtr, VMContext } from '../vm-context.js';
import { type VMConfig, VMLogic } from '../vm-logic.js';

/** Size of the test memory: one Wasm page, as nearcore's `MockedMemory`. */
export const TEST_MEMORY_SIZE = 64 * 1024;

const U64_MAX = (1n << 64n) - 1n;

const fee = (sendSir: bigint, sendNotSir: bigint, execution: bigint): Fee => ({
  sendSir,
  sendNotSir,
  execution,
});
const same = (gas: bigint): Fee => fee(gas, gas, gas);

/**
 * nearcore's `RuntimeFeesConfig::test()` (core/parameters/src/cost.rs), the fees its VM logic tests assert
 * gas against, by nearcore's `ActionCosts` name.
 */
export const NEARCORE_TEST_FEES: Readonly<Record<ActionCost, Fee>> = {
  // Global contracts, deterministic state init and gas keys: protocol 85's fees (not yet checked against
  // `RuntimeFeesConfig::test()`; a ported test that needs nearcore's test numbers passes them in `fees`).
  ...pv85Fees(),
  create_account: same(3_850_000_000_000n),
  delete_account: same(147_489_000_000n),
  deploy_contract_base: same(184_765_750_000n),
  deploy_contract_byte: same(6_812_999n),
  function_call_base: same(2_319_861_500_000n),
  function_call_byte: same(2_235_934n),
  transfer: same(115_123_062_500n),
  stake: fee(141_715_687_500n, 141_715_687_500n, 102_217_625_000n),
  add_full_access_key: same(101_765_125_000n),
  add_function_call_key_base: same(102_217_625_000n),
  add_function_call_key_byte: same(1_925_331n),
  delete_key: same(94_946_625_000n),
  new_action_receipt: same(108_059_500_000n),
  new_data_receipt_base: same(4_697_339_419_375n),
  new_data_receipt_byte: same(59_357_464n),
  delegate: same(200_000_000_000n),
};

function pv85Fees(): Readonly<Record<ActionCost, Fee>> {
  return loadRuntimeConfig(85).fees;
}

let pv85: RuntimeConfig | undefined;
/** The pinned protocol-85 runtime configuration (read once). */
export function protocolConfig(): RuntimeConfig {
  pv85 ??= loadRuntimeConfig(85);
  return pv85;
}

/**
 * A VM configuration: protocol 85's host-function costs and limits, with `fees` (by `ActionCosts` name;
 * default nearcore's test fees) and any field of `overrides` replaced.
 */
export function testVMConfig(
  options: { fees?: Partial<Record<ActionCost, Fee>>; overrides?: Partial<VMConfig> } = {},
): VMConfig {
  const base = vmConfigFrom(protocolConfig());
  const fees: FeeTable = { ...NEARCORE_TEST_FEES, ...options.fees };
  return {
    ...base,
    fees,
    feeContext: { ...base.feeContext, fees },
    ...options.overrides,
  };
}

/** nearcore's test context (`get_context` in vm_logic_builder.rs), as our VMContext. */
export function testContext(overrides: Partial<VMContext> = {}): VMContext {
  return {
    currentAccountId: 'alice.near',
    signerAccountId: 'bob.near',
    signerAccountPk: { keyType: KEY_TYPE_ED25519, data: new Uint8Array(32).fill(7) } as PublicKey,
    predecessorAccountId: 'carol.near',
    input: Uint8Array.of(0, 1, 2, 3, 4),
    promiseResults: [],
    blockHeight: 10n,
    blockTimestamp: 42n,
    epochHeight: 1n,
    accountBalance: 100n,
    accountLockedBalance: 50n,
    storageUsage: 0n,
    attachedDeposit: 10n,
    prepaidGas: 100n * 10n ** 12n,
    randomSeed: Uint8Array.of(0, 1, 2),
    isView: false,
    outputDataReceiverCount: 0,
    chainId: 'localnet',
    ...overrides,
  };
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Contract storage and chain facts in memory (nearcore's `MockedExternal`). */
export class MemoryExternal implements External {
  readonly storage = new Map<string, Uint8Array>();
  readonly validators = new Map<string, bigint>();
  readonly pendingYields = new Set<string>();

  /** What `recordedStorageSize` answers (a test sets it to exercise the storage-proof limit). */
  recordedSize = 0;
  sizeBeforeReceipt: number | undefined;

  /** No trie: the old value's bytes are charged, no trie node is counted. */
  storageGet(_tracker: StorageAccessTracker, key: Uint8Array): StorageValuePtr | undefined {
    const value = this.storage.get(hex(key));
    return value === undefined ? undefined : { length: value.length, deref: () => value };
  }
  storageSet(tracker: StorageAccessTracker, key: Uint8Array, value: Uint8Array): Uint8Array | undefined {
    const old = this.storage.get(hex(key));
    if (old !== undefined) tracker.derefWriteEvictedValueBytes(old.length);
    this.storage.set(hex(key), Uint8Array.from(value));
    return old;
  }
  storageRemove(tracker: StorageAccessTracker, key: Uint8Array): Uint8Array | undefined {
    const old = this.storage.get(hex(key));
    if (old !== undefined) tracker.derefRemovedValueBytes(old.length);
    this.storage.delete(hex(key));
    return old;
  }
  storageHas(_tracker: StorageAccessTracker, key: Uint8Array): boolean {
    return this.storage.has(hex(key));
  }
  recordedStorageSize(): number {
    return this.recordedSize;
  }
  storageProofSizeBeforeReceipt(): number {
    return this.sizeBeforeReceipt ?? this.recordedSize;
  }
  validatorStake(accountId: string): bigint | undefined {
    return this.validators.get(accountId);
  }
  validatorTotalStake(): bigint {
    let total = 0n;
    for (const stake of this.validators.values()) total += stake;
    return total;
  }
  /** Data id (hex) → nearcore's `PromiseYieldStatus` of yields created or resumed by the calls. */
  readonly yieldStatus = new Map<string, 'Yielded' | 'ResumeInitiated'>();
  yieldIsPending(dataId: Uint8Array): boolean {
    return this.pendingYields.has(hex(dataId)) || this.yieldStatus.has(hex(dataId));
  }
  yieldCreated(dataId: Uint8Array): void {
    this.yieldStatus.set(hex(dataId), 'Yielded');
  }
  yieldResumed(dataId: Uint8Array): void {
    this.yieldStatus.set(hex(dataId), 'ResumeInitiated');
  }
  /** Yield id (hex) → data id, and back, of yields created with an id. */
  readonly yieldIds = new Map<string, Uint8Array>();
  readonly yieldIdOfData = new Map<string, Uint8Array>();
  yieldIdDataId(yieldId: Uint8Array): Uint8Array | undefined {
    return this.yieldIds.get(hex(yieldId));
  }
  setYieldIdMapping(yieldId: Uint8Array, dataId: Uint8Array): void {
    this.yieldIds.set(hex(yieldId), Uint8Array.from(dataId));
    this.yieldIdOfData.set(hex(dataId), Uint8Array.from(yieldId));
  }
  removeYieldIdMappings(dataId: Uint8Array): void {
    const yieldId = this.yieldIdOfData.get(hex(dataId));
    if (!yieldId) return;
    this.yieldIdOfData.delete(hex(dataId));
    this.yieldIds.delete(hex(yieldId));
  }
}

/** A piece of the test memory: where it is and how long (nearcore's `MemSlice`). */
export interface MemSlice {
  ptr: bigint;
  len: bigint;
}

export interface VMLogicBuilderOptions {
  /** Fields of nearcore's test context to change. */
  context?: Partial<VMContext>;
  /** Fees by `ActionCosts` name replacing nearcore's test fees. */
  fees?: Partial<Record<ActionCost, Fee>>;
  /** Fields of the VM configuration to replace (limits, `maxGasBurnt`, `extCosts`, ...). */
  config?: Partial<VMConfig>;
  /** The external (storage, validators); a fresh empty one by default. */
  ext?: MemoryExternal;
  /** An External of another kind the calls use instead of `ext` (the runtime's, over a trie). */
  external?: External;
  /** 32 bytes the data ids of created promises derive from (default all zero). */
  actionHash?: Uint8Array;
}

/** A VMLogic for one call, with the test helpers of nearcore's `TestVMLogic`. */
export class TestVMLogic {
  readonly vm: VMLogic;
  readonly ext: MemoryExternal;
  readonly context: VMContext;
  /** Every host function by its import name, plus `gas(opcodes)` (the instrumentation's charge). */
  readonly host: Record<string, HostFunction>;
  private memWriteOffset = 0n;

  constructor(options: VMLogicBuilderOptions = {}) {
    const config = testVMConfig({ fees: options.fees, overrides: options.config });
    this.vm = new VMLogic(config);
    this.ext = options.ext ?? new MemoryExternal();
    this.context = testContext(options.context);
    this.vm.begin(this.context, options.external ?? this.ext, options.actionHash ?? new Uint8Array(32));
    this.vm.memory = new WebAssembly.Memory({ initial: TEST_MEMORY_SIZE / 65536 });
    this.host = hostFunctions(this.vm, config);
  }

  get config(): VMConfig {
    return this.vm.config;
  }
  get costs(): ExtCosts {
    return this.vm.config.extCosts;
  }
  /** Gas burnt plus gas set aside for the promises created. */
  get usedGas(): bigint {
    return this.vm.gas.used;
  }
  get burntGas(): bigint {
    return this.vm.gas.burnt;
  }
  get logs(): readonly string[] {
    return this.vm.logs;
  }
  get actionReceipts(): readonly NewReceipt[] {
    return this.vm.receipts.actionReceipts;
  }
  get dataReceipts(): readonly NewDataReceipt[] {
    return this.vm.receipts.dataReceipts;
  }

  /** Calls the host function `name` as a contract would (arguments as i64 → bigint, i32 → number). */
  call(name: string, ...args: Array<bigint | number>): unknown {
    const fn = this.host[name];
    if (!fn) throw new Error(`no host function ${name}`);
    return fn(...args);
  }

  /** Writes `data` after the previous write, without gas (nearcore's `internal_mem_write`). */
  memWrite(data: Uint8Array | string): MemSlice {
    const slice = this.memWriteAt(this.memWriteOffset, data);
    this.memWriteOffset += slice.len;
    return slice;
  }

  /** Writes `data` at `ptr`, without gas. */
  memWriteAt(ptr: bigint, data: Uint8Array | string): MemSlice {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    new Uint8Array(this.vm.memory!.buffer).set(bytes, Number(ptr));
    return { ptr, len: BigInt(bytes.length) };
  }

  /** Reads memory without gas. */
  memRead(ptr: bigint, len: bigint): Uint8Array {
    return new Uint8Array(this.vm.memory!.buffer).slice(Number(ptr), Number(ptr + len));
  }

  /** Sets a register without gas (nearcore's `wrapped_internal_write_register` charges; use the host for that). */
  setRegister(id: bigint, data: Uint8Array | string): void {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    this.vm.registers.set(id, bytes);
  }

  /**
   * `read_register` as the contract calls it (charged), onto the end of memory, then the bytes read for free
   * (nearcore's `assert_read_register`).
   */
  readRegister(id: bigint): Uint8Array {
    const len = BigInt(this.vm.registers.lengthOf(id) ?? 0);
    const ptr = BigInt(TEST_MEMORY_SIZE) - len;
    this.call('read_register', id, ptr);
    return this.memRead(ptr, len);
  }

  /** The u64 the host function returns, for functions returning a register length or a flag. */
  u64(name: string, ...args: Array<bigint | number>): bigint {
    return this.call(name, ...args) as bigint;
  }

  /** Gas of host-function operations counted per `ExtCosts` name (nearcore's `assert_costs` maps). */
  extGas(counts: Partial<Record<keyof ExtCosts, number | bigint>>): bigint {
    let gas = 0n;
    for (const [name, count] of Object.entries(counts)) {
      const cost = this.costs[name as keyof ExtCosts];
      if (typeof cost !== 'bigint') throw new Error(`unknown ext cost ${name}`);
      gas += cost * BigInt(count as number | bigint);
    }
    return gas;
  }
}

/** The length that reads a register instead of memory (`u64::MAX`). */
export const REGISTER = U64_MAX;

/** Builds a TestVMLogic (see {@link VMLogicBuilderOptions}). */
export function buildVMLogic(options: VMLogicBuilderOptions = {}): TestVMLogic {
  return new TestVMLogic(options);
}

// ---- nearcore's promise helpers (logic/tests/helpers.rs) ---------------------------------------------------

const u128le = (value: bigint) => {
  const b = new Uint8Array(16);
  const view = new DataView(b.buffer);
  view.setBigUint64(0, value & U64_MAX, true);
  view.setBigUint64(8, value >> 64n, true);
  return b;
};

/** `promise_create(account_id, "promise_create", "args", amount, gas)`. */
export function promiseCreate(logic: TestVMLogic, accountId: string, amount: bigint, gas: bigint): bigint {
  const account = logic.memWrite(accountId);
  const method = logic.memWrite('promise_create');
  const args = logic.memWrite('args');
  const deposit = logic.memWrite(u128le(amount));
  return logic.u64(
    'promise_create',
    account.len,
    account.ptr,
    method.len,
    method.ptr,
    args.len,
    args.ptr,
    deposit.ptr,
    gas,
  );
}

export function promiseBatchCreate(logic: TestVMLogic, accountId: string): bigint {
  const account = logic.memWrite(accountId);
  return logic.u64('promise_batch_create', account.len, account.ptr);
}

/** `promise_batch_action_function_call(index, method, args, amount, gas)`. */
export function promiseBatchActionFunctionCall(
  logic: TestVMLogic,
  index: bigint,
  amount: bigint,
  gas: bigint,
  method = 'promise_batch_action',
  args = 'promise_batch_action_args',
): void {
  const m = logic.memWrite(method);
  const a = logic.memWrite(args);
  const deposit = logic.memWrite(u128le(amount));
  logic.call('promise_batch_action_function_call', index, m.len, m.ptr, a.len, a.ptr, deposit.ptr, gas);
}

/** `promise_batch_action_function_call_weight(index, method, args, amount, gas, weight)`. */
export function promiseBatchActionFunctionCallWeight(
  logic: TestVMLogic,
  index: bigint,
  amount: bigint,
  gas: bigint,
  weight: bigint,
  method = 'promise_batch_action',
  args = 'promise_batch_action_args',
): void {
  const m = logic.memWrite(method);
  const a = logic.memWrite(args);
  const deposit = logic.memWrite(u128le(amount));
  logic.call(
    'promise_batch_action_function_call_weight',
    index,
    m.len,
    m.ptr,
    a.len,
    a.ptr,
    deposit.ptr,
    gas,
    weight,
  );
}

/** `promise_batch_action_add_key_with_function_call(index, key, nonce, allowance, receiver, methods)`. */
export function promiseBatchActionAddKeyWithFunctionCall(
  logic: TestVMLogic,
  index: bigint,
  publicKey: Uint8Array,
  nonce: bigint,
  allowance: bigint,
  receiverId: string,
  methodNames: string,
): void {
  const pk = logic.memWrite(publicKey);
  const receiver = logic.memWrite(receiverId);
  const allowanceSlice = logic.memWrite(u128le(allowance));
  const methods = logic.memWrite(methodNames);
  logic.call(
    'promise_batch_action_add_key_with_function_call',
    index,
    pk.len,
    pk.ptr,
    nonce,
    allowanceSlice.ptr,
    receiver.len,
    receiver.ptr,
    methods.len,
    methods.ptr,
  );
}

/** `promise_batch_action_add_key_with_full_access(index, key, nonce)`. */
export function promiseBatchActionAddKeyWithFullAccess(
  logic: TestVMLogic,
  index: bigint,
  publicKey: Uint8Array,
  nonce: bigint,
): void {
  const pk = logic.memWrite(publicKey);
  logic.call('promise_batch_action_add_key_with_full_access', index, pk.len, pk.ptr, nonce);
}

/** A u128 little-endian, as contracts pass amounts. */
export { u128le };
