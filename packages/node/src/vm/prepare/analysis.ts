/**
 * finite-wasm's two static analyses of one function body, as nearcore configures them at protocol 85:
 *
 * - Gas: every operator has a fee (`block`/`end`/`else` 0, the eight linear ops `base + unit × n`, all
 *   others `regular_op_cost`). Fees are grouped into charge points: each live operator's fee is paid at the
 *   start of the straight-line run containing it, runs being broken at potential traps, calls, branches,
 *   branch targets (targeted `block` ends, every `if`/`else`, targeted `loop` headers) and linear ops.
 *   Dead code (after `br`, `br_table`, `return`, `unreachable`) is never charged. A `loop`'s own fee is
 *   charged with the first operator of its body, so a targeted loop pays it on every iteration.
 * - Stack: the maximum operand-stack size in bytes over a linear walk of the body (i32/f32 4, i64/f64/ref 8),
 *   ignoring dead code, resetting at block ends; quirk kept: `call_indirect` leaves its index counted.
 */
import { Reader } from './binary.js';
import type { CodeEntry, ParsedModule } from './module-parser.js';
import {
  convertType,
  decodeOp,
  EMPTY,
  F32,
  F64,
  FC,
  FUNCREF,
  I32,
  I64,
  isLinearOp,
  isTrappingNumeric,
  loadType,
  type Op,
  valSize,
} from './opcodes.js';

export const PURE = 0;
export const UNREACHABLE = 1;
export const PRE_CONTROL = 2;
export const POST_CONTROL = 3;
export const AGGREGATE = 4;

export interface GasCosts {
  regular: bigint;
  linearBase: bigint;
  linearUnit: bigint;
}

/** A charge before the operator `ops[at]`: `constant + linear × (top operand)`. */
export interface ChargePoint {
  at: number;
  constant: bigint;
  linear: bigint;
}

export interface FunctionAnalysis {
  ops: Op[];
  points: ChargePoint[];
  maxStack: number;
  blocks: number;
}

type TargetKind = 'untaken' | 'forward' | number; // a number: backward, the index of the loop's entry

export function decodeBody(bytes: Uint8Array, entry: CodeEntry): Op[] {
  const r = new Reader(bytes, entry.opsStart, entry.end);
  const ops: Op[] = [];
  while (!r.eof) ops.push(decodeOp(r));
  return ops;
}

function gasPoints(ops: Op[], cost: GasCosts): ChargePoint[] {
  const at: number[] = [];
  const cs: bigint[] = [];
  const ls: bigint[] = [];
  const kinds: number[] = [];
  const frames: { poly: boolean; kind: TargetKind }[] = [];
  let cur: { poly: boolean; kind: TargetKind } = { poly: false, kind: 'untaken' };
  let pending: bigint | null = null;
  let i = 0;
  const before = (kind: number, c: bigint, l = 0n) => {
    let k = kind;
    let total = c;
    if (pending !== null) {
      total += pending; // a pending (pure) loop fee joins whatever comes next
      pending = null;
    }
    if (cur.poly) k = UNREACHABLE;
    at.push(i);
    cs.push(total);
    ls.push(l);
    kinds.push(k);
  };
  const enter = (kind: TargetKind) => {
    frames.push(cur);
    cur = { poly: cur.poly, kind };
  };
  const leave = () => {
    const f = frames.pop();
    if (f) cur = f;
  };
  const branch = (depth: number) => {
    const f = depth === 0 ? cur : frames[frames.length - depth];
    if (f.kind === 'untaken') f.kind = 'forward';
    else if (typeof f.kind === 'number') kinds[f.kind] = POST_CONTROL;
  };
  for (; i < ops.length; i++) {
    const op = ops[i];
    const code = op.code;
    if (code === 0x03) {
      const index = kinds.length;
      if (pending !== null) before(PURE, 0n);
      pending = cost.regular;
      enter(index);
    } else if (code === 0x0b) {
      const kind = cur.kind === 'forward' ? PRE_CONTROL : PURE;
      leave();
      before(kind, 0n);
    } else if (code === 0x04) {
      before(PRE_CONTROL, cost.regular);
      enter('forward');
    } else if (code === 0x05) {
      leave();
      before(PRE_CONTROL, 0n);
      enter('forward');
    } else if (code === 0x02) {
      before(PURE, 0n);
      enter('untaken');
    } else if (code === 0x0c || code === 0x0d) {
      before(PRE_CONTROL, cost.regular);
      branch(op.imm);
      if (code === 0x0c) cur.poly = true;
    } else if (code === 0x0e) {
      before(PRE_CONTROL, cost.regular);
      for (const t of op.targets!) branch(t);
      cur.poly = true;
    } else if (code === 0x0f) {
      before(PRE_CONTROL, cost.regular);
      branch(frames.length);
      cur.poly = true;
    } else if (code === 0x00) {
      before(PRE_CONTROL, cost.regular);
      cur.poly = true;
    } else if (isLinearOp(code)) {
      before(AGGREGATE, cost.linearBase, cost.linearUnit);
    } else if (
      (code >= 0x28 && code <= 0x3e) ||
      code === 0x10 ||
      code === 0x11 ||
      code === 0x25 ||
      code === 0x26 ||
      isTrappingNumeric(code)
    ) {
      before(PRE_CONTROL, cost.regular);
    } else {
      before(PURE, cost.regular);
    }
  }
  // Merge neighbouring entries whose gas use cannot be observed in between.
  const n = kinds.length;
  let out = 0;
  let prev = n > 0 ? kinds[0] : PRE_CONTROL;
  for (let j = 1; j < n; j++) {
    const k = kinds[j];
    const merge =
      (prev === PURE && (k === PURE || k === PRE_CONTROL)) ||
      (prev === UNREACHABLE && k === UNREACHABLE) ||
      (prev === POST_CONTROL && k === PURE);
    if (merge) {
      kinds[out] = k;
      cs[out] += cs[j];
      ls[out] += ls[j];
    } else {
      out++;
      kinds[out] = k;
      cs[out] = cs[j];
      ls[out] = ls[j];
      at[out] = at[j];
    }
    prev = k;
  }
  const points: ChargePoint[] = [];
  for (let j = 0; j < Math.min(n, out + 1); j++) {
    if (kinds[j] === UNREACHABLE || (cs[j] === 0n && ls[j] === 0n)) continue;
    points.push({ at: at[j], constant: cs[j], linear: ls[j] });
  }
  return points;
}

function maxStack(m: ParsedModule, ops: Op[], localTypes: number[]): number {
  const operands: number[] = [];
  let size = 0;
  let max = 0;
  const frames: { height: number; poly: boolean; bt: number }[] = [];
  let cur = { height: 0, poly: false, bt: EMPTY };
  const push = (t: number) => {
    if (cur.poly) return;
    const s = valSize(t);
    operands.push(s);
    size += s;
    if (size > max) max = size;
  };
  const pop = (count = 1) => {
    if (cur.poly) return;
    for (let k = 0; k < count; k++) {
      const s = operands.pop();
      if (s === undefined) throw new Error('operand stack underflow');
      size -= s;
    }
  };
  const enter = (bt: number) => {
    frames.push(cur);
    cur = { height: operands.length, poly: cur.poly, bt };
  };
  const leave = () => {
    const f = cur;
    cur = frames.pop()!;
    pop(operands.length - f.height);
    return f;
  };
  const call = (typeIndex: number) => {
    const t = m.types[typeIndex];
    pop(t.params.length);
    for (const r of t.results) push(r);
  };
  for (const op of ops) {
    const c = op.code;
    if (c === 0x00 || c === 0x0c || c === 0x0e || c === 0x0f) cur.poly = true;
    else if (c === 0x02 || c === 0x03) enter(op.bt);
    else if (c === 0x04) {
      pop();
      enter(op.bt);
    } else if (c === 0x05) enter(leave().bt);
    else if (c === 0x0b) {
      if (frames.length === 0) break; // the function's own end
      const f = leave();
      if (f.bt !== EMPTY) push(f.bt);
    } else if (c === 0x0d || c === 0x1a || c === 0x21 || c === 0x24) pop();
    else if (c === 0x10) call(m.funcTypes[op.imm]);
    else if (c === 0x11) call(op.imm);
    else if (c === 0x1b || c === 0x1c || c === 0x26) pop(2);
    else if (c === 0x20) push(localTypes[op.imm]);
    else if (c === 0x23) push(m.globalTypes[op.imm]);
    else if (c === 0x25) {
      pop();
      push(FUNCREF);
    } else if (c >= 0x28 && c <= 0x35) {
      pop();
      push(loadType(c));
    } else if (c >= 0x36 && c <= 0x3e) pop(2);
    else if (c === 0x3f || c === 0x41 || c === FC + 16) push(I32);
    else if (c === 0x42) push(I64);
    else if (c === 0x43) push(F32);
    else if (c === 0x44) push(F64);
    else if (c === 0x45 || c === 0x50 || c === 0xd1) {
      pop();
      push(I32);
    } else if ((c >= 0x46 && c <= 0x4f) || (c >= 0x51 && c <= 0x66)) {
      pop(2);
      push(I32);
    } else if (
      (c >= 0x6a && c <= 0x78) ||
      (c >= 0x7c && c <= 0x8a) ||
      (c >= 0x92 && c <= 0x98) ||
      (c >= 0xa0 && c <= 0xa6)
    )
      pop();
    else if ((c >= 0xa7 && c <= 0xbf) || (c >= FC && c <= FC + 7)) {
      pop();
      push(convertType(c));
    } else if (c === 0xd0 || c === 0xd2) push(FUNCREF);
    else if (
      c === FC + 8 ||
      c === FC + 10 ||
      c === FC + 11 ||
      c === FC + 12 ||
      c === FC + 14 ||
      c === FC + 17
    )
      pop(3);
    else if (c === FC + 15) {
      pop(2);
      push(I32);
    }
    // Everything else (nop, local.tee, memory.grow, unary numeric ops, data/elem.drop) leaves the size as is.
  }
  return max;
}

export function analyseFunction(
  m: ParsedModule,
  index: number,
  localTypes: number[],
  cost: GasCosts,
): FunctionAnalysis {
  const ops = decodeBody(m.bytes, m.code[index]);
  let blocks = 0;
  for (const op of ops) if (op.code >= 0x02 && op.code <= 0x04) blocks++;
  return { ops, points: gasPoints(ops, cost), maxStack: maxStack(m, ops, localTypes), blocks };
}
