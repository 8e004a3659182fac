/**
 * The VM's gas counter (nearcore near-vm-runner logic/gas_counter.rs): gas burnt by this call, gas handed to
 * the promises it creates, and the limit burning is checked against. The Wasm code burns gas through the
 * instance's `remaining_gas` global (see prepare/); `syncFromWasm` / `syncToWasm` keep the two in step around
 * every host call.
 */
import type { ProfileRecorder } from './gas-profile.js';
import { type HostError, hostError } from './vm-errors.js';

const U64_MAX = (1n << 64n) - 1n;

export class GasCounter {
  burnt = 0n;
  promises = 0n;
  /** What burning is checked against: min(max_gas_burnt, prepaid − promises). */
  private limit: bigint;
  /** The value last written to the Wasm `remaining_gas` global. */
  private lastRemaining = 0n;

  constructor(
    readonly prepaid: bigint,
    readonly maxGasBurnt: bigint,
    private readonly isView: boolean,
    /** Where the call's gas profile is kept (none: not profiled). */
    private readonly recorder?: ProfileRecorder,
  ) {
    this.limit = prepaid < maxGasBurnt ? prepaid : maxGasBurnt;
  }

  get used(): bigint {
    return this.burnt + this.promises;
  }

  /** Burn `gas` (host-function costs and Wasm op costs). */
  burn(gas: bigint): void {
    const next = this.burnt + gas;
    if (next > U64_MAX) throw hostError.integerOverflow();
    if (next <= this.limit) {
      this.burnt = next;
      return;
    }
    throw this.exceed(next, next + this.promises);
  }

  /** Burn a host-function cost (booked in the profile under the cost last read from the VM's table). */
  payBase(cost: bigint): void {
    this.book(cost);
    this.burn(cost);
  }

  payPer(cost: bigint, count: bigint): void {
    const gas = cost * count;
    if (gas > U64_MAX) throw hostError.integerOverflow();
    this.book(gas);
    this.burn(gas);
  }

  /** nearcore books the profile before burning, so a charge that runs out of gas still shows in full. */
  private book(gas: bigint): void {
    const r = this.recorder;
    if (r !== undefined && r.pendingExt >= 0) {
      r.profile.ext[r.pendingExt] += gas;
      r.pendingExt = -1;
    }
  }

  /** `deduct`, booking the burnt part under action cost `action` (an index of `ACTION_COSTS`; -1: none). */
  deductAction(action: number, burn: bigint, use: bigint): void {
    if (this.recorder !== undefined && action >= 0) this.recorder.profile.actions[action] += burn;
    this.deduct(burn, use);
  }

  /** Burn `burn` and set aside `use − burn` for promises (action fees and gas attached to calls). */
  deduct(burn: bigint, use: bigint): void {
    const forPromises = use - burn;
    const promises = this.promises + forPromises;
    const burnt = this.burnt + burn;
    const used = burnt + promises;
    if (promises > U64_MAX || burnt > U64_MAX || used > U64_MAX) throw hostError.integerOverflow();
    if (burnt <= this.maxGasBurnt && used <= this.prepaid) {
      if (forPromises !== 0n && !this.isView) {
        const left = this.prepaid - promises;
        this.limit = left < this.maxGasBurnt ? left : this.maxGasBurnt;
      }
      this.burnt = burnt;
      this.promises = promises;
      return;
    }
    throw this.exceed(burnt, used);
  }

  /** Gas attached to an outgoing call: used, not burnt. */
  prepay(gas: bigint): void {
    this.deduct(0n, gas);
  }

  /** Clamp the counters to what was paid for and name the limit that was crossed. */
  private exceed(newBurnt: bigint, newUsed: bigint): HostError {
    const hardLimit = this.prepaid < this.maxGasBurnt ? this.prepaid : this.maxGasBurnt;
    this.burnt = newBurnt < hardLimit ? newBurnt : hardLimit;
    const usedLimit = this.prepaid < newUsed ? this.prepaid : newUsed;
    this.promises = usedLimit - this.burnt;
    return newBurnt > this.maxGasBurnt ? hostError.gasLimitExceeded() : hostError.gasExceeded();
  }

  /** Count what the Wasm code burnt since the last `syncToWasm`. */
  syncFromWasm(global: WebAssembly.Global): void {
    const remaining = global.value as bigint;
    if (remaining !== this.lastRemaining) {
      this.burnt += this.lastRemaining - remaining;
      this.lastRemaining = remaining;
    }
  }

  /** Hand the Wasm code what it may still burn. */
  syncToWasm(global: WebAssembly.Global): void {
    const remaining = this.limit > this.burnt ? this.limit - this.burnt : 0n;
    this.lastRemaining = remaining;
    global.value = remaining;
  }

  /** The Wasm code asked to burn `cost` more than it had left: burn it for real, which fails. */
  wasmExhausted(global: WebAssembly.Global, cost: bigint): never {
    this.syncFromWasm(global);
    this.burn(cost);
    // burn() only returns when the limit moved up since the last sync, which cannot happen inside Wasm.
    throw hostError.gasExceeded();
  }
}
