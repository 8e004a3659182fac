/**
 * Prepared contracts by code hash. Preparation (validation, instrumentation, compilation) runs once per code
 * hash — at deploy time, or on first use after a restart — and its result, failure included, is kept: nothing
 * is recompiled per call. Bounded so a chain with many distinct contracts does not hold them all.
 */

import { latin1String } from '@shadebox/primitives';
import type { RuntimeConfig } from '../config/runtime-config.js';
import { MemoryPool } from './memory-pool.js';
import { type PreparedContract, prepareContract } from './prepare/prepare-contract.js';
import { PrepareError } from './vm-errors.js';

export type PrepareResult = (
  | { ok: true; contract: PreparedContract }
  | { ok: false; error: PrepareError }
) & {
  /** Bytes of the original code (the loading fee is charged per byte). */
  codeLength: number;
};

const MAX_ENTRIES = 256;

export class ContractCache {
  private readonly entries = new Map<string, PrepareResult>();
  /** Memories for calls, reused (memory-pool.ts). */
  readonly memories: MemoryPool;
  /** The entry of the last call, by its hash's bytes: calls of one contract in a row (view after view) skip
   * making the map key. */
  private last: { hash: Uint8Array; result: PrepareResult } | undefined;

  constructor(private readonly config: RuntimeConfig) {
    const limits = config.wasm.limits;
    this.memories = new MemoryPool(limits.initialMemoryPages, limits.maxMemoryPages);
  }

  /** The prepared form of `code` (whose sha256 is `codeHash`). */
  get(codeHash: Uint8Array, code: () => Uint8Array | undefined): PrepareResult | undefined {
    // Already the most recently used entry: nothing to refresh.
    const last = this.last;
    if (last !== undefined && sameBytes(last.hash, codeHash)) return last.result;
    // The hash's bytes as a string: a cheap map key.
    const key = latin1String(codeHash);
    const hit = this.entries.get(key);
    if (hit) {
      // Refresh its place: the map's order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      this.last = { hash: codeHash.slice(), result: hit };
      return hit;
    }
    const bytes = code();
    if (!bytes) return undefined;
    const result = this.prepare(bytes);
    this.entries.set(key, result);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.last = { hash: codeHash.slice(), result };
    return result;
  }

  private prepare(code: Uint8Array): PrepareResult {
    const w = this.config.wasm;
    const codeLength = code.length;
    try {
      return {
        ok: true,
        codeLength,
        contract: prepareContract(code, {
          regularOpCost: w.regularOpCost,
          linearOpBaseCost: w.linearOpBaseCost,
          linearOpUnitCost: w.linearOpUnitCost,
          limits: w.limits,
        }),
      };
    } catch (e) {
      if (e instanceof PrepareError) return { ok: false, error: e, codeLength };
      throw e;
    }
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
