/**
 * How far into memory a module's active data segments reach: instantiation writes them, so a reused memory
 * must be zeroed at least that far (vm/memory-pool.ts). A segment placed by a global's value has no static
 * extent: the answer is then Infinity (zero everything).
 */
import { Reader } from './binary.js';

export function activeDataEnd(dataSection: Uint8Array | null): number {
  if (!dataSection) return 0;
  const r = new Reader(dataSection);
  let end = 0;
  const count = r.u32();
  for (let i = 0; i < count; i++) {
    const flags = r.u32();
    if (flags === 2) r.u32(); // memory index
    let offset = -1;
    if (flags !== 1) {
      const op = r.byte();
      if (op === 0x41) offset = Number(BigInt.asUintN(32, r.signed(32)));
      else return Number.POSITIVE_INFINITY;
      if (r.byte() !== 0x0b) return Number.POSITIVE_INFINITY;
    }
    const len = r.u32();
    r.bytesView(len);
    if (offset >= 0) end = Math.max(end, offset + len);
  }
  return end;
}
