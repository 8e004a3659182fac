/**
 * Makes every active data segment passive and remembers where it belonged, so the instrumented module can
 * (re)initialise its memory from its own `\0reset` function: instantiation then writes nothing, and the host
 * can run call after call on one instance, resetting it in between (vm/run-contract.ts).
 */
import { Reader, Writer } from './binary.js';
import { copyConstExpr } from './module-parser.js';

export interface ActiveSegment {
  index: number;
  /** The offset expression, with its `end`. */
  offset: Uint8Array;
  length: number;
}

export interface PassiveData {
  section: Uint8Array | null;
  count: number;
  active: ActiveSegment[];
}

export function passiveData(dataSection: Uint8Array | null): PassiveData {
  if (!dataSection) return { section: null, count: 0, active: [] };
  const r = new Reader(dataSection);
  const out = new Writer();
  const active: ActiveSegment[] = [];
  const count = r.u32();
  out.u32(count);
  for (let i = 0; i < count; i++) {
    const flags = r.u32();
    if (flags === 1) {
      out.u32(1);
    } else {
      if (flags === 2) r.u32(); // memory 0, the only one
      const expr = new Writer();
      copyConstExpr(r, expr);
      out.u32(1);
      const offset = expr.finish();
      active.push({ index: i, offset, length: 0 });
    }
    const len = r.u32();
    out.u32(len).bytes(r.bytesView(len));
    if (flags !== 1) active[active.length - 1].length = len;
  }
  return { section: out.finish(), count, active };
}
