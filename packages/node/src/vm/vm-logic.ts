/**
 * The state of one contract call as the host functions see it (nearcore logic/logic.rs `VMLogic`): gas,
 * registers, the instance's memory, logs, promises, the balance and storage usage as the call changes them,
 * and the value it returns. Host functions live in imports/*.ts; this file holds what they share.
 */

import type { PublicKey } from '@shadebox/primitives';
import { decodePublicKey, isValidAccountId } from '@shadebox/primitives';
import { type Fee, type FeeContext, type FeeTable, sendFee } from '../config/fees.js';
import type { LimitConfig, StorageGetMode, VmKind } from '../config/runtime-config.js';
import type { ExtCosts } from './ext-costs.js';
import { GasCounter } from './gas-counter.js';
import { emptyGasProfile, type GasProfile, ProfileRecorder } from './gas-profile.js';
import type { HostFunctionSwitches } from './host-function-gates.js';
import { ReceiptManager } from './receipt-manager.js';
import { RecordedStorageCounter } from './recorded-storage-counter.js';
import { Registers } from './registers.js';
import type { External, ReturnData, StorageAccessTracker, VMContext } from './vm-context.js';
import { hostError } from './vm-errors.js';

export const U64_MAX = (1n << 64n) - 1n;

/** A promise index points at one receipt, or (after `promise_and`) at several. */
export type VmPromise = { kind: 'Receipt'; index: number } | { kind: 'Joint'; indices: number[] };

export interface VMConfig {
  extCosts: ExtCosts;
  limits: LimitConfig;
  fees: FeeTable;
  /** For fees that depend on the receiver (transfers to implicit accounts). */
  feeContext: FeeContext;
  numExtraBytesRecord: bigint;
  maxGasBurnt: bigint;
  regularOpCost: bigint;
  /** `one_yocto_on_promise`: a contract with no balance may still attach 1 yoctoNEAR to a call. */
  oneYoctoOnPromise: boolean;
  /** The switches that leave host functions out at older protocol versions (all on when absent). */
  hostFunctionSwitches?: HostFunctionSwitches;
  /** `fix_contract_loading_error` (86): a module that fails to load costs the loading fee. */
  fixContractLoadingError?: boolean;
  /** `vm_kind`: NearVm (83) links the imports after the method lookup, Wasmtime (84+, the default) before. */
  vmKind?: VmKind;
  /** `gas_key_host_fns` (protocol 85): the gas-key batch actions are linked. Absent means on. */
  gasKeyHostFns?: boolean;
  /** `storage_get_mode`: `FlatStorage` (every protocol 83-87, the default) reads contract storage without
   * charging trie nodes; `Trie` charges a read's path as a write's. */
  storageGetMode?: StorageGetMode;
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** The profile of every view call: empty, and frozen so nothing books into it. */
const VIEW_PROFILE: GasProfile = Object.freeze({
  ...emptyGasProfile(),
  actions: Object.freeze(emptyGasProfile().actions) as bigint[],
  ext: Object.freeze(emptyGasProfile().ext) as bigint[],
});

/** nearcore's `FreeGasCounter`: `storage_read` dereferences the value it found without paying for the
 * access (the value's hash still counts in the chunk's trie accounting). */
export const FREE_STORAGE_TRACKER: StorageAccessTracker = Object.freeze({
  derefWriteEvictedValueBytes() {},
  derefRemovedValueBytes() {},
  trieNodesTouched() {},
  cachedTrieNodesRead() {},
});

/**
 * One object serves call after call (calls never overlap: the VM runs synchronously), so the host functions
 * are made once and read the current call's state from it; `begin` starts a call.
 */
export class VMLogic {
  ctx!: VMContext;
  ext!: External;
  gas!: GasCounter;
  registers!: Registers;
  receipts!: ReceiptManager;
  promises: VmPromise[] = [];
  logs: string[] = [];
  totalLogLength = 0n;
  returnData: ReturnData = { kind: 'None' };
  /** Balance + attached deposit − what the call attached to promises. */
  balance = 0n;
  storageUsage = 0n;
  /** yoctoNEAR attached to promises without leaving the balance (the one-yocto subsidy): minted. */
  subsidized = 0n;
  memory: WebAssembly.Memory | undefined;
  /** The contract's logical memory size in pages (the instrumentation's `memory_pages`): host reads and
   * writes are bounded by it, not by the physical memory, which may be larger (vm/memory-pool.ts). */
  memoryPages: WebAssembly.Global | undefined;
  /** The instance's `remaining_gas` global, once instantiated. */
  remainingGas: WebAssembly.Global | undefined;
  /** How far the host itself wrote into the initial memory (the pool zeroes up to here, see memory-pool.ts). */
  hostDirtyEnd = 0;
  /** How far the host itself wrote into the pages the call grew, past the initial memory. */
  hostGrownEnd = 0;
  /** Where the host's lowest write into the initial memory started (Infinity: none). */
  hostDirtyStart = Number.POSITIVE_INFINITY;

  /** The per-receipt storage-proof limit, observed after each storage operation. */
  recordedStorage!: RecordedStorageCounter;
  /** The gas counter as the External's storage operations charge it (nearcore's `StorageAccessTracker` of
   * `GasCounter`), each charge booked under its host cost. */
  readonly storageTracker: StorageAccessTracker;

  /** The call's gas profile, and the cost table that tells it which host cost a charge is for. */
  readonly profiler: ProfileRecorder;
  private readonly taggedCosts: ExtCosts;

  constructor(readonly config: VMConfig) {
    this.profiler = new ProfileRecorder(config.fees);
    this.taggedCosts = this.profiler.taggedCosts(config.extCosts);
    const costs = this.taggedCosts;
    this.storageTracker = {
      derefWriteEvictedValueBytes: (length) =>
        this.gas.payPer(costs.storage_write_evicted_byte, BigInt(length)),
      derefRemovedValueBytes: (length) =>
        this.gas.payPer(costs.storage_remove_ret_value_byte, BigInt(length)),
      trieNodesTouched: (count) => this.gas.payPer(costs.touching_trie_node, BigInt(count)),
      cachedTrieNodesRead: (count) => this.gas.payPer(costs.read_cached_trie_node, BigInt(count)),
    };
  }

  begin(ctx: VMContext, ext: External, actionHash: Uint8Array): void {
    this.ctx = ctx;
    this.ext = ext;
    // A view's gas profile is never shown: views keep none (run-contract.ts leaves it empty).
    this.profiler.profile = ctx.isView ? VIEW_PROFILE : emptyGasProfile();
    this.profiler.pendingExt = -1;
    this.gas = new GasCounter(
      ctx.prepaidGas,
      this.config.maxGasBurnt,
      ctx.isView,
      ctx.isView ? undefined : this.profiler,
    );
    this.registers = new Registers(this.gas, this.taggedCosts, this.config.limits);
    this.receipts = new ReceiptManager(actionHash, ctx.blockHeight);
    this.recordedStorage = new RecordedStorageCounter(
      ext.storageProofSizeBeforeReceipt(),
      Number(this.config.limits.perReceiptStorageProofSizeLimit),
    );
    this.promises = [];
    this.logs = [];
    this.totalLogLength = 0n;
    this.returnData = { kind: 'None' };
    this.balance = ctx.accountBalance + ctx.attachedDeposit;
    this.storageUsage = ctx.storageUsage;
    this.subsidized = 0n;
    this.memory = undefined;
    this.remainingGas = undefined;
    this.hostDirtyEnd = 0;
    this.hostGrownEnd = 0;
    this.hostDirtyStart = Number.POSITIVE_INFINITY;
  }

  /**
   * Ends a call: drops what this VMLogic, reused by every call, would otherwise hold until the next one: the
   * state the call read and wrote through `ext` (a whole block's StateUpdate with its changes: 15 MiB after the
   * benchmark's `fill` calls), its context and its registers. The call's outcome keeps what it returns.
   */
  end(): void {
    // Read by no host function between calls (`begin` sets them again).
    this.ctx = undefined as unknown as VMContext;
    this.ext = undefined as unknown as External;
    this.registers = undefined as unknown as Registers;
    this.receipts = undefined as unknown as ReceiptManager;
    this.promises = [];
    this.logs = [];
    this.returnData = { kind: 'None' };
    this.memory = undefined;
    this.remainingGas = undefined;
  }

  /** The host-function costs (reading one marks it for the profile: see gas-profile.ts). */
  get costs(): ExtCosts {
    return this.taggedCosts;
  }

  payBase(): void {
    this.gas.payBase(this.taggedCosts.base);
  }

  prohibitedInView(name: string): void {
    if (this.ctx.isView) throw hostError.prohibitedInView(name);
  }

  // ---- memory ---------------------------------------------------------------------------------------------

  /** The contract's memory up to its logical size. */
  private bytes(): Uint8Array {
    const buffer = this.memory!.buffer;
    const pages = this.memoryPages?.value as number | undefined;
    return pages === undefined
      ? new Uint8Array(buffer)
      : new Uint8Array(buffer, 0, Math.min(buffer.byteLength, pages * 65_536));
  }

  /** `len` bytes at `ptr` (a copy), charging `read_memory_*`; out of bounds → MemoryAccessViolation. */
  readMemory(ptr: bigint, len: bigint): Uint8Array {
    this.gas.payBase(this.costs.read_memory_base);
    this.gas.payPer(this.costs.read_memory_byte, len);
    const mem = this.bytes();
    if (ptr + len > BigInt(mem.length)) throw hostError.memoryAccessViolation();
    return mem.slice(Number(ptr), Number(ptr + len));
  }

  writeMemory(ptr: bigint, data: Uint8Array): void {
    this.gas.payBase(this.costs.write_memory_base);
    this.gas.payPer(this.costs.write_memory_byte, BigInt(data.length));
    const mem = this.bytes();
    const end = ptr + BigInt(data.length);
    if (end > BigInt(mem.length)) throw hostError.memoryAccessViolation();
    mem.set(data, Number(ptr));
    // How far the call's memory must be zeroed after it (run-contract.ts): a write that starts in the initial
    // memory counts there, one that starts in the grown pages counts in those.
    if (Number(ptr) < this.config.limits.initialMemoryPages * 65_536) {
      if (Number(end) > this.hostDirtyEnd) this.hostDirtyEnd = Number(end);
      if (Number(ptr) < this.hostDirtyStart) this.hostDirtyStart = Number(ptr);
    } else if (Number(end) > this.hostGrownEnd) this.hostGrownEnd = Number(end);
  }

  readU128(ptr: bigint): bigint {
    const b = this.readMemory(ptr, 16n);
    const view = new DataView(b.buffer, b.byteOffset, 16);
    return view.getBigUint64(0, true) | (view.getBigUint64(8, true) << 64n);
  }

  writeU128(ptr: bigint, value: bigint): void {
    const b = new Uint8Array(16);
    const view = new DataView(b.buffer);
    view.setBigUint64(0, value & U64_MAX, true);
    view.setBigUint64(8, value >> 64n, true);
    this.writeMemory(ptr, b);
  }

  readU32(ptr: bigint): number {
    const b = this.readMemory(ptr, 4n);
    return new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true);
  }

  /** `len == u64::MAX` means "the contents of register `ptr`" (nearcore `get_memory_or_register`). */
  memoryOrRegister(ptr: bigint, len: bigint): Uint8Array {
    return len === U64_MAX ? this.registers.get(ptr) : this.readMemory(ptr, len);
  }

  // ---- decoding ---------------------------------------------------------------------------------------------

  decodeUtf8(buf: Uint8Array): string {
    this.gas.payBase(this.costs.utf8_decoding_base);
    this.gas.payPer(this.costs.utf8_decoding_byte, BigInt(buf.length));
    try {
      return utf8Decoder.decode(buf);
    } catch {
      throw hostError.badUtf8();
    }
  }

  readAccountId(ptr: bigint, len: bigint): string {
    const id = this.decodeUtf8(this.memoryOrRegister(ptr, len));
    if (!isValidAccountId(id)) throw hostError.invalidAccountId();
    return id;
  }

  /**
   * Reads a borsh public key now (charging the read) and decodes it when asked: as nearcore's
   * `PublicKeyBuffer`, a malformed key fails with InvalidPublicKey only at `decode()`, after the checks and
   * fees that come first in each host function.
   */
  readPublicKey(ptr: bigint, len: bigint): { decode(): PublicKey } {
    const bytes = this.memoryOrRegister(ptr, len);
    let key: PublicKey | undefined;
    try {
      key = decodePublicKey(bytes);
    } catch {}
    return {
      decode: () => {
        if (!key) throw hostError.invalidPublicKey();
        return key;
      },
    };
  }

  // ---- logs -------------------------------------------------------------------------------------------------

  checkCanAddLog(): void {
    if (this.logs.length >= this.config.limits.maxNumberLogs)
      throw hostError.numberOfLogsExceeded(BigInt(this.config.limits.maxNumberLogs));
  }

  logRoom(): bigint {
    const max = BigInt(this.config.limits.maxTotalLogLength);
    return max > this.totalLogLength ? max - this.totalLogLength : 0n;
  }

  totalLogLengthExceeded(add: bigint): Error {
    return hostError.totalLogLengthExceeded(
      this.totalLogLength + add,
      BigInt(this.config.limits.maxTotalLogLength),
    );
  }

  pushLog(message: string): void {
    this.totalLogLength += BigInt(Buffer.byteLength(message));
    if (this.totalLogLength > BigInt(this.config.limits.maxTotalLogLength))
      throw this.totalLogLengthExceeded(0n);
    this.logs.push(message);
  }

  // ---- action fees paid from the call's gas ----------------------------------------------------------------

  payActionBase(fee: Fee, sir: boolean): void {
    const burn = sendFee(fee, sir);
    this.gas.deductAction(this.profiler.actionOf(fee), burn, burn + fee.execution);
  }

  payActionPerByte(fee: Fee, bytes: bigint, sir: boolean): void {
    const burn = sendFee(fee, sir) * bytes;
    this.gas.deductAction(this.profiler.actionOf(fee), burn, burn + fee.execution * bytes);
  }

  /** Attach `amount` to a function call: 1 yoctoNEAR from an empty account is subsidised (protocol 85,
   * `one_yocto_on_promise`), so such accounts can call methods that require exactly one yocto. Only function
   * calls get this; a transfer spends the balance with `deductBalance`. */
  attachToPromise(amount: bigint): void {
    if (amount === 1n && this.config.oneYoctoOnPromise && this.balance === 0n) this.subsidized += 1n;
    else this.deductBalance(amount);
  }

  /** Spend `amount` of the account's balance on a promise. */
  deductBalance(amount: bigint): void {
    if (amount > this.balance) throw hostError.balanceExceeded();
    this.balance -= amount;
  }
}
