/**
 * Registers (nearcore logic/vmstate.rs `Registers`): host-side buffers a contract reads with `read_register`.
 * Writing one charges `write_register_*` and is bounded by size, count and total memory, each failing with
 * `MemoryAccessViolation` (even overwriting fails once the count limit is reached — a protocol quirk).
 */
import type { LimitConfig } from '../config/runtime-config.js';
import type { ExtCosts } from './ext-costs.js';
import type { GasCounter } from './gas-counter.js';
import { hostError } from './vm-errors.js';

export class Registers {
  private readonly data = new Map<bigint, Uint8Array>();
  private memoryUsage = 0;

  constructor(
    private readonly gas: GasCounter,
    private readonly costs: ExtCosts,
    private readonly limits: LimitConfig,
  ) {}

  /** The register's contents, charging `read_register_*`; unset → InvalidRegisterId. */
  get(id: bigint): Uint8Array {
    const value = this.data.get(id);
    if (value === undefined) throw hostError.invalidRegisterId(id);
    this.gas.payBase(this.costs.read_register_base);
    this.gas.payPer(this.costs.read_register_byte, BigInt(value.length));
    return value;
  }

  /** Length of a register, or undefined when unset (no charge: `register_len` pays only its base). */
  lengthOf(id: bigint): number | undefined {
    return this.data.get(id)?.length;
  }

  set(id: bigint, value: Uint8Array): void {
    this.gas.payBase(this.costs.write_register_base);
    this.gas.payPer(this.costs.write_register_byte, BigInt(value.length));
    if (value.length > this.limits.maxRegisterSize) throw hostError.memoryAccessViolation();
    if (this.data.size >= this.limits.maxNumberRegisters) throw hostError.memoryAccessViolation();
    const old = this.data.get(id);
    const usage = this.memoryUsage - (old ? old.length + 8 : 0) + value.length + 8;
    if (usage > this.limits.registersMemoryLimit) throw hostError.memoryAccessViolation();
    this.data.set(id, value);
    this.memoryUsage = usage;
  }
}
