/**
 * Rewrites one function body with the gas and stack instrumentation (the behaviour of nearcore's
 * instrument_v3, written for V8):
 *
 *   prologue: remaining_stack -= op_stack_max + frame (stack_exhausted() when it would go below 0),
 *             then a charge of ceil(frame / 8) × regular_op_cost;
 *   body:     wrapped in a block so a branch to the function label lands on the epilogue; a charge
 *             before each charge point; `return` restores the stack first; `call_indirect` records its
 *             table index in `indirect_index` (to tell a null entry from a signature mismatch);
 *   epilogue: remaining_stack += the same amount.
 *
 * A charge of C is `if remaining_gas < C (unsigned) then gas_exhausted(C) else remaining_gas -= C`.
 */

import type { FunctionAnalysis } from './analysis.js';
import type { Writer } from './binary.js';
import { INJECTED_FUNCS } from './module-parser.js';
import { EMPTY, I32 } from './opcodes.js';

/** Where the instrumentation's own functions and globals sit in the output module. */
export interface Layout {
  gasExhausted: number;
  stackExhausted: number;
  linearHelper: number;
  gasGlobal: number;
  stackGlobal: number;
  indirectGlobal: number;
  regular: bigint;
  linearBase: bigint;
  linearUnit: bigint;
}

const U64_MAX = (1n << 64n) - 1n;

function i64const(w: Writer, v: bigint): void {
  w.byte(0x42).sleb(BigInt.asIntN(64, v > U64_MAX ? U64_MAX : v));
}

/** Inline constant charge against the remaining-gas global. */
export function emitCharge(w: Writer, l: Layout, cost: bigint): void {
  if (cost === 0n) return;
  w.byte(0x23).u32(l.gasGlobal);
  i64const(w, cost);
  w.byte(0x54).byte(0x04).byte(EMPTY); // i64.lt_u; if
  i64const(w, cost);
  w.byte(0x10).u32(l.gasExhausted).byte(0x00).byte(0x0b); // call; unreachable; end
  w.byte(0x23).u32(l.gasGlobal);
  i64const(w, cost);
  w.byte(0x7d).byte(0x24).u32(l.gasGlobal); // i64.sub; global.set
}

function emitStackAdjust(w: Writer, l: Layout, amount: bigint, op: 0x7c | 0x7d): void {
  w.byte(0x23).u32(l.stackGlobal);
  i64const(w, amount);
  w.byte(op).byte(0x24).u32(l.stackGlobal);
}

export interface BodyInput {
  bytes: Uint8Array;
  analysis: FunctionAnalysis;
  locals: [number, number][];
  /** Number of params + declared locals: the index of the appended i32 scratch local. */
  scratch: number;
  frame: number;
  /** The function's single result type, or EMPTY. */
  result: number;
}

/** Writes the body (local declarations and code) without its size prefix. */
export function emitBody(w: Writer, l: Layout, f: BodyInput): void {
  const { ops, points, maxStack } = f.analysis;
  w.u32(f.locals.length + 1);
  for (const [count, type] of f.locals) w.u32(count).byte(type);
  w.u32(1).byte(I32);

  const stackCharge = BigInt(maxStack + f.frame);
  w.byte(0x23).u32(l.stackGlobal);
  i64const(w, stackCharge);
  w.byte(0x54).byte(0x04).byte(EMPTY);
  w.byte(0x10).u32(l.stackExhausted).byte(0x00).byte(0x0b);
  emitStackAdjust(w, l, stackCharge, 0x7d);
  emitCharge(w, l, BigInt(Math.ceil(f.frame / 8)) * l.regular);

  w.byte(0x02).byte(f.result);
  let p = 0;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    for (; p < points.length && points[p].at === i; p++) {
      const pt = points[p];
      if (pt.linear === 0n) emitCharge(w, l, pt.constant);
      else {
        // A linear point may carry a merged loop fee on top of the base: charge that part first.
        emitCharge(w, l, pt.constant - l.linearBase);
        w.byte(0x22).u32(f.scratch).byte(0x20).u32(f.scratch).byte(0x10).u32(l.linearHelper);
      }
    }
    switch (op.code) {
      case 0x10:
        w.byte(0x10).u32(op.imm + INJECTED_FUNCS);
        break;
      case 0xd2:
        w.byte(0xd2).u32(op.imm + INJECTED_FUNCS);
        break;
      case 0x11:
        w.byte(0x22).u32(f.scratch).byte(0x24).u32(l.indirectGlobal).byte(0x20).u32(f.scratch);
        w.bytes(f.bytes.subarray(op.start, op.end));
        break;
      case 0x0f:
        emitStackAdjust(w, l, stackCharge, 0x7c);
        w.byte(0x0f);
        break;
      default:
        w.bytes(f.bytes.subarray(op.start, op.end));
        if (i === ops.length - 1) {
          // That was the function's own `end`, now closing the wrapping block.
          emitStackAdjust(w, l, stackCharge, 0x7c);
          w.byte(0x0b);
        }
    }
  }
}

/**
 * The linear-fee helper `(param $n i32)`: charges linear_op_base + linear_op_unit × n; a cost that does not
 * fit in u64 calls gas_exhausted with u64::MAX.
 */
export function emitLinearHelper(w: Writer, l: Layout): void {
  w.u32(1).u32(1).byte(0x7e); // one local: i64 cost
  if (l.linearUnit > 0n) {
    const maxN = (U64_MAX - l.linearBase) / l.linearUnit;
    if (maxN < 0xffffffffn) {
      w.byte(0x20).u32(0).byte(0x41).sleb(BigInt.asIntN(32, maxN)).byte(0x4b); // i32.gt_u
      w.byte(0x04).byte(EMPTY);
      i64const(w, U64_MAX);
      w.byte(0x10).u32(l.gasExhausted).byte(0x00).byte(0x0b);
    }
  }
  w.byte(0x20).u32(0).byte(0xad); // i64.extend_i32_u
  i64const(w, l.linearUnit);
  w.byte(0x7e); // i64.mul
  i64const(w, l.linearBase);
  w.byte(0x7c).byte(0x21).u32(1); // i64.add; local.set
  w.byte(0x23).u32(l.gasGlobal).byte(0x20).u32(1).byte(0x54).byte(0x04).byte(EMPTY);
  w.byte(0x20).u32(1).byte(0x10).u32(l.gasExhausted).byte(0x00).byte(0x0b);
  w.byte(0x23).u32(l.gasGlobal).byte(0x20).u32(1).byte(0x7d).byte(0x24).u32(l.gasGlobal);
  w.byte(0x0b);
}
