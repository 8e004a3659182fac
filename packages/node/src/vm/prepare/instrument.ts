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
 *   memory:   every store and memory.fill/copy/init that starts below the initial memory size raises
 *             `dirty_end` to the end of what it wrote and lowers `dirty_start` to its start, one that starts
 *             in the grown pages raises `grown_end`, so the host can hand the same memory to the next call
 *             after zeroing only that much: the initial memory from `dirty_start` to `dirty_end` (a Rust
 *             contract's stack sits below its data and grows down from there: its calls write the top of
 *             it only), the grown pages up to `grown_end`. Every load,
 *             store and bulk operation first checks its end against `memory_limit` (the logical size) and
 *             traps as an out-of-bounds access when past it; `memory.size` reads `memory_pages` and
 *             `memory.grow` calls the module's grow function. The physical memory may be larger than the
 *             logical one (a reused memory that an earlier call grew): the contract cannot tell.
 *
 * A charge of C is `if remaining_gas < C (unsigned) then gas_exhausted(C) else remaining_gas -= C`.
 */

import type { FunctionAnalysis } from './analysis.js';
import type { Writer } from './binary.js';
import { INJECTED_FUNCS, INJECTED_GLOBALS } from './module-parser.js';
import { EMPTY, FC, I32 } from './opcodes.js';

/** Where the instrumentation's own functions and globals sit in the output module. */
export interface Layout {
  gasExhausted: number;
  stackExhausted: number;
  linearHelper: number;
  gasGlobal: number;
  stackGlobal: number;
  indirectGlobal: number;
  dirtyGlobal: number;
  pagesGlobal: number;
  limitGlobal: number;
  /** How far into the grown pages (at or past `initialBytes`) the instance wrote. */
  grownGlobal: number;
  /** Where the lowest write into the initial memory started (the host sets it to `initialBytes`). */
  dirtyStartGlobal: number;
  /** The injected `(pages: i32) -> i32` function standing for `memory.grow`. */
  memoryGrow: number;
  maxMemoryPages: number;
  /** initial_memory_pages × 64 KiB: writes starting at or past it are in grown pages: grown_end, not dirty_end. */
  initialBytes: number;
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
  /** Number of params + declared locals: the index of the first appended scratch local (see SCRATCH). */
  scratch: number;
  frame: number;
  /** The function's single result type, or EMPTY. */
  result: number;
}

/** Writes the body (local declarations and code) without its size prefix. */
export function emitBody(w: Writer, l: Layout, f: BodyInput): void {
  const { ops, points, maxStack } = f.analysis;
  w.u32(f.locals.length + SCRATCH.length);
  for (const [count, type] of f.locals) w.u32(count).byte(type);
  for (const type of SCRATCH) w.u32(1).byte(type);
  const s = f.scratch;

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
      case 0x23:
      case 0x24:
        w.byte(op.code).u32(op.imm + INJECTED_GLOBALS);
        break;
      case 0x11:
        w.byte(0x22).u32(f.scratch).byte(0x24).u32(l.indirectGlobal).byte(0x20).u32(f.scratch);
        w.bytes(f.bytes.subarray(op.start, op.end));
        break;
      case 0x0f:
        emitStackAdjust(w, l, stackCharge, 0x7c);
        w.byte(0x0f);
        break;
      case 0x28:
      case 0x29:
      case 0x2a:
      case 0x2b:
      case 0x2c:
      case 0x2d:
      case 0x2e:
      case 0x2f:
      case 0x30:
      case 0x31:
      case 0x32:
      case 0x33:
      case 0x34:
      case 0x35: {
        // [addr]: trap unless addr + offset + size fits the logical memory, then load.
        w.byte(0x22)
          .u32(s + ADDR)
          .byte(0xad);
        i64const(w, memargOffset(f.bytes, op.start + 1) + BigInt(LOAD_SIZES[op.code - 0x28]));
        w.byte(0x7c);
        emitBoundsCheck(w, l);
        w.byte(0x20).u32(s + ADDR);
        w.bytes(f.bytes.subarray(op.start, op.end));
        break;
      }
      case 0x3f:
        w.byte(0x23).u32(l.pagesGlobal);
        break;
      case 0x40:
        w.byte(0x10).u32(l.memoryGrow);
        break;
      case 0x36:
      case 0x37:
      case 0x38:
      case 0x39:
      case 0x3a:
      case 0x3b:
      case 0x3c:
      case 0x3d:
      case 0x3e: {
        // [addr, value]: end = addr + offset + size; trap past the logical memory; store; raise dirty_end.
        const store = STORES[op.code];
        w.byte(0x21)
          .u32(s + store.scratch)
          .byte(0x22)
          .u32(s + ADDR)
          .byte(0xad);
        i64const(w, memargOffset(f.bytes, op.start + 1) + BigInt(store.size));
        w.byte(0x7c)
          .byte(0x22)
          .u32(s + END);
        emitBoundsCheck(w, l);
        w.byte(0x20)
          .u32(s + ADDR)
          .byte(0x20)
          .u32(s + store.scratch);
        w.bytes(f.bytes.subarray(op.start, op.end));
        // A write that starts below the initial size raises dirty_end, one in the grown pages grown_end:
        // start < initial ⇔ end < initial + size.
        w.byte(0x20).u32(s + END);
        i64const(w, BigInt(l.initialBytes + store.size));
        w.byte(0x54)
          .byte(0x04)
          .byte(EMPTY)
          .byte(0x20)
          .u32(s + END);
        emitRaiseDirty(w, l.dirtyGlobal, s);
        w.byte(0x20).u32(s + END);
        i64const(w, BigInt(store.size));
        w.byte(0x7d); // i64.sub: the start
        emitLowerDirtyStart(w, l, s);
        w.byte(0x05)
          .byte(0x20)
          .u32(s + END);
        emitRaiseDirty(w, l.grownGlobal, s);
        w.byte(0x0b);
        break;
      }
      case FC + 8:
      case FC + 10:
      case FC + 11: {
        // memory.init / copy / fill: [dest, x, n]: trap when dest + n (and for copy src + n) is past the
        // logical memory, run it, then dirty_end = max(dirty_end, dest + n).
        w.byte(0x21)
          .u32(s + ADDR)
          .byte(0x21)
          .u32(s)
          .byte(0x21)
          .u32(s + DEST);
        if (op.code === FC + 10) {
          w.byte(0x20)
            .u32(s)
            .byte(0xad)
            .byte(0x20)
            .u32(s + ADDR)
            .byte(0xad)
            .byte(0x7c);
          emitBoundsCheck(w, l);
        }
        w.byte(0x20)
          .u32(s + DEST)
          .byte(0xad)
          .byte(0x20)
          .u32(s + ADDR)
          .byte(0xad)
          .byte(0x7c)
          .byte(0x22)
          .u32(s + END);
        emitBoundsCheck(w, l);
        w.byte(0x20)
          .u32(s + DEST)
          .byte(0x20)
          .u32(s)
          .byte(0x20)
          .u32(s + ADDR);
        w.bytes(f.bytes.subarray(op.start, op.end));
        w.byte(0x20)
          .u32(s + DEST)
          .byte(0x41)
          .sleb(BigInt(l.initialBytes))
          .byte(0x49)
          .byte(0x04)
          .byte(EMPTY); // dest < initial (unsigned)
        w.byte(0x20).u32(s + END);
        emitRaiseDirty(w, l.dirtyGlobal, s);
        w.byte(0x20)
          .u32(s + DEST)
          .byte(0xad);
        emitLowerDirtyStart(w, l, s);
        w.byte(0x05)
          .byte(0x20)
          .u32(s + END);
        emitRaiseDirty(w, l.grownGlobal, s);
        w.byte(0x0b);
        break;
      }
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

/** Scratch locals appended to every function: i32 (linear ops), i64, f32, f64 (a stored value), i32
 * (an address), i32 (a destination), i64 (the end of an access). */
const SCRATCH = [I32, 0x7e, 0x7d, 0x7c, I32, I32, 0x7e];
const ADDR = 4;
const DEST = 5;
const END = 6;
/** Bytes read by the loads 0x28 (i32.load) .. 0x35 (i64.load32_u). */
const LOAD_SIZES = [4, 8, 4, 8, 1, 1, 2, 2, 1, 1, 2, 2, 4, 4];
/** Store opcodes: which scratch local holds the value, and how many bytes they write. */
const STORES: Record<number, { scratch: number; size: number }> = {
  54: { scratch: 0, size: 4 },
  55: { scratch: 1, size: 8 },
  56: { scratch: 2, size: 4 },
  57: { scratch: 3, size: 8 },
  58: { scratch: 0, size: 1 },
  59: { scratch: 0, size: 2 },
  60: { scratch: 1, size: 1 },
  61: { scratch: 1, size: 2 },
  62: { scratch: 1, size: 4 },
};

/** The offset immediate of a load or store (after its alignment), both unsigned LEB128. */
function memargOffset(bytes: Uint8Array, at: number): bigint {
  let p = at;
  while (bytes[p] & 0x80) p++;
  p++;
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const b = bytes[p++];
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return result;
    shift += 7n;
  }
}

/**
 * With an i64 end address on the stack: when it is past `memory_limit`, trap as an out-of-bounds access does
 * (a load at 0xffffffff, outside any memory), so the error is the one a fresh memory of the logical size gives.
 */
export function emitBoundsCheck(w: Writer, l: Layout): void {
  w.byte(0x23).u32(l.limitGlobal).byte(0x56).byte(0x04).byte(EMPTY); // global.get; i64.gt_u; if
  w.byte(0x41).sleb(-1n).byte(0x28).u32(0).u32(0).byte(0x1a); // i32.const -1; i32.load; drop
  w.byte(0x0b);
}

/**
 * `memory.grow` on the logical memory, `(delta: i32) -> i32`: the old size in pages, or -1 past
 * `max_memory_pages` (nothing changes then). The physical memory grows only when the logical one outgrows it.
 */
export function emitMemoryGrow(w: Writer, l: Layout): void {
  w.u32(1).u32(1).byte(0x7e); // one i64 local: the new size
  // new = pages + delta (as u64); past the maximum → -1
  w.byte(0x23).u32(l.pagesGlobal).byte(0xad).byte(0x20).u32(0).byte(0xad).byte(0x7c).byte(0x22).u32(1);
  i64const(w, BigInt(l.maxMemoryPages));
  w.byte(0x56).byte(0x04).byte(EMPTY).byte(0x41).sleb(-1n).byte(0x0f).byte(0x0b);
  // physical memory smaller than new → grow it by the difference
  w.byte(0x20).u32(1).byte(0x3f).byte(0x00).byte(0xad).byte(0x56).byte(0x04).byte(EMPTY);
  w.byte(0x20).u32(1).byte(0xa7).byte(0x3f).byte(0x00).byte(0x6b).byte(0x40).byte(0x00);
  w.byte(0x41).sleb(-1n).byte(0x46).byte(0x04).byte(EMPTY).byte(0x41).sleb(-1n).byte(0x0f).byte(0x0b);
  w.byte(0x0b);
  // the old size is the result; limit = new × 65536; pages = new
  w.byte(0x23).u32(l.pagesGlobal);
  w.byte(0x20).u32(1).byte(0x42).sleb(16n).byte(0x86).byte(0x24).u32(l.limitGlobal);
  w.byte(0x20).u32(1).byte(0xa7).byte(0x24).u32(l.pagesGlobal);
  w.byte(0x0b);
}

/** With an i64 start address on the stack: dirty_start = min(dirty_start, start). */
function emitLowerDirtyStart(w: Writer, l: Layout, s: number): void {
  w.byte(0x22)
    .u32(s + 1)
    .byte(0x23)
    .u32(l.dirtyStartGlobal)
    .byte(0x54)
    .byte(0x04)
    .byte(EMPTY);
  w.byte(0x20)
    .u32(s + 1)
    .byte(0x24)
    .u32(l.dirtyStartGlobal)
    .byte(0x0b);
}

/** With an i64 end address on the stack: global = max(global, end) (dirty_end or grown_end). */
function emitRaiseDirty(w: Writer, global: number, s: number): void {
  w.byte(0x22)
    .u32(s + 1)
    .byte(0x23)
    .u32(global)
    .byte(0x56)
    .byte(0x04)
    .byte(EMPTY);
  w.byte(0x20)
    .u32(s + 1)
    .byte(0x24)
    .u32(global)
    .byte(0x0b);
}

/**
 * The dispatcher `(param $method i32)`: calls the `$method`-th callable method. The instance exports only
 * this function (every named export would cost V8 a wrapper at each instantiation); it burns no gas itself,
 * as the host calling an export directly would not.
 */
export function emitDispatcher(w: Writer, functionIndices: number[]): void {
  const k = functionIndices.length;
  w.u32(0);
  for (let i = 0; i <= k; i++) w.byte(0x02).byte(EMPTY);
  w.byte(0x20).u32(0).byte(0x0e).u32(k);
  for (let i = 0; i < k; i++) w.u32(i);
  w.u32(k).byte(0x0b);
  for (const f of functionIndices) w.byte(0x10).u32(f).byte(0x0f).byte(0x0b);
  w.byte(0x00).byte(0x0b);
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
