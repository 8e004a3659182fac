/**
 * Where in memory a module's active data segments lie: instantiation (and the reset before each call) writes
 * them, so a reused memory must be zeroed over at least that range before another contract gets it
 * (vm/memory-pool.ts). A segment placed by a global's value has no static extent: the answer is then the
 * whole memory (start 0, end Infinity). No active segment: start Infinity, end 0.
 */
import { Reader } from './binary.js';

export function activeDataExtent(dataSection: Uint8Array | null): { start: number; end: number } {
  const whole = { start: 0, end: Number.POSITIVE_INFINITY };
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  if (!dataSection) return { start, end };
  const r = new Reader(dataSection);
  const count = r.u32();
  for (let i = 0; i < count; i++) {
    const flags = r.u32();
    if (flags === 2) r.u32(); // memory index
    let offset = -1;
    if (flags !== 1) {
      const op = r.byte();
      if (op === 0x41) offset = Number(BigInt.asUintN(32, r.signed(32)));
      else return whole;
      if (r.byte() !== 0x0b) return whole;
    }
    const len = r.u32();
    r.bytesView(len);
    if (offset >= 0) {
      start = Math.min(start, offset);
      end = Math.max(end, offset + len);
    }
  }
  return { start, end };
}
