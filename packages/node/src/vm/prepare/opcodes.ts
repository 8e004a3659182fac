/**
 * Decoding of one instruction with its immediates, restricted to the Wasm features nearcore enables at
 * protocol 85: MVP, mutable globals, sign extension, saturating float→int, bulk memory and reference types
 * (funcref only: nearcore runs wasmparser without GC types, so `externref` is invalid). Everything else —
 * SIMD (0xFD), threads (0xFE), tail calls, exceptions, typed function references, GC (0xFB), multi-value
 * block types — is `Deserialization`, as wasmparser's feature-gated validator reports it.
 */
import { malformed, type Reader } from './binary.js';

export const I32 = 0x7f;
export const I64 = 0x7e;
export const F32 = 0x7d;
export const F64 = 0x7c;
export const FUNCREF = 0x70;
/** The empty block type. */
export const EMPTY = 0x40;

/** Reads a value type, rejecting v128, externref and every GC/typed-reference encoding. */
export function readValType(r: Reader): number {
  const t = r.byte();
  if (t === I32 || t === I64 || t === F32 || t === F64 || t === FUNCREF) return t;
  return malformed(`value type 0x${t.toString(16)} not enabled`);
}

/** Bytes a value occupies in finite-wasm's operand-stack model (nearcore's `SimpleMaxStackCfg`). */
export function valSize(t: number): number {
  return t === I32 || t === F32 ? 4 : 8;
}

/** Opcodes behind the 0xFC prefix are numbered 0xFC00 + sub-opcode. */
export const FC = 0xfc00;

export interface Op {
  code: number;
  /** Offset of the opcode byte and just past the last immediate, within the module bytes. */
  start: number;
  end: number;
  /** The index immediate: function, type, local, global, table, data, element, label depth, or ref type. */
  imm: number;
  /** Block type of block/loop/if (EMPTY or a value type). */
  bt: number;
  /** br_table: label depths, default last. */
  targets?: number[];
}

function blockType(r: Reader): number {
  const b = r.bytes[r.pos];
  if (b === EMPTY) {
    r.pos++;
    return EMPTY;
  }
  // Only single-byte block types exist without multi-value; a type index is multi-value.
  if (b !== undefined && (b & 0xc0) === 0x40) return readValType(r);
  return malformed('type-index block types (multi-value) are not enabled');
}

function memarg(r: Reader): void {
  const align = r.u32();
  // Bit 6 of the alignment would select a memory index (multi-memory).
  if (align >= 0x40) malformed('multi-memory memarg');
  r.u32();
}

function zeroByte(r: Reader): void {
  if (r.byte() !== 0) malformed('reserved byte must be zero (multi-memory)');
}

/** Decodes the instruction at `r.pos`. */
export function decodeOp(r: Reader): Op {
  const start = r.pos;
  const first = r.byte();
  let code = first;
  let imm = 0;
  let bt = EMPTY;
  let targets: number[] | undefined;
  switch (first) {
    case 0x00: // unreachable
    case 0x01: // nop
    case 0x05: // else
    case 0x0b: // end
    case 0x0f: // return
    case 0x1a: // drop
    case 0x1b: // select
    case 0xd1: // ref.is_null
      break;
    case 0x02:
    case 0x03:
    case 0x04:
      bt = blockType(r);
      break;
    case 0x0c:
    case 0x0d:
    case 0x10: // call
    case 0x20:
    case 0x21:
    case 0x22:
    case 0x23:
    case 0x24:
    case 0x25: // table.get
    case 0x26: // table.set
    case 0xd2: // ref.func
      imm = r.u32();
      break;
    case 0x0e: {
      const n = r.u32();
      if (n > 131072) malformed('br_table too large');
      targets = [];
      for (let i = 0; i <= n; i++) targets.push(r.u32());
      break;
    }
    case 0x11:
      imm = r.u32();
      r.u32(); // table index; the validator checks it against the table count
      break;
    case 0x1c: {
      if (r.u32() !== 1) malformed('typed select must have exactly one type');
      imm = readValType(r);
      break;
    }
    case 0x3f:
    case 0x40:
      zeroByte(r);
      break;
    case 0x41:
      r.signed(32);
      break;
    case 0x42:
      r.signed(64);
      break;
    case 0x43:
      r.bytesView(4);
      break;
    case 0x44:
      r.bytesView(8);
      break;
    case 0xd0: {
      const t = r.byte();
      if (t !== FUNCREF) malformed('ref.null of a type other than funcref');
      imm = t;
      break;
    }
    case 0xfc: {
      const sub = r.u32();
      code = FC + sub;
      if (sub <= 7) break; // saturating truncations
      if (sub === 8) {
        imm = r.u32();
        zeroByte(r);
      } else if (sub === 9 || sub === 13) imm = r.u32();
      else if (sub === 10) {
        zeroByte(r);
        zeroByte(r);
      } else if (sub === 11) zeroByte(r);
      else if (sub === 12 || sub === 14) {
        imm = r.u32();
        r.u32();
      } else if (sub >= 15 && sub <= 17) imm = r.u32();
      else malformed(`0xfc ${sub} not enabled`);
      break;
    }
    default:
      if (first >= 0x28 && first <= 0x3e) memarg(r);
      else if (!(first >= 0x45 && first <= 0xc4))
        malformed(`opcode 0x${first.toString(16)} not enabled at this protocol version`);
  }
  return { code, start, end: r.pos, imm, bt, targets };
}

/** Result type of a load (0x28..0x35). */
export function loadType(code: number): number {
  if (code === 0x28 || (code >= 0x2c && code <= 0x2f)) return I32;
  if (code === 0x2a) return F32;
  if (code === 0x2b) return F64;
  return I64;
}

/** Result type of a conversion (0xA7..0xBF) or saturating truncation (0xFC00..0xFC07). */
export function convertType(code: number): number {
  if (code >= FC) return code - FC < 4 ? I32 : I64;
  if (code <= 0xab || code === 0xbc) return I32;
  if (code <= 0xb1 || code === 0xbd) return I64;
  if (code <= 0xb6 || code === 0xbe) return F32;
  return F64;
}

/** Integer division/remainder and trapping float→int conversions: they may trap, so they end a gas range. */
export function isTrappingNumeric(code: number): boolean {
  return (
    (code >= 0x6d && code <= 0x70) ||
    (code >= 0x7f && code <= 0x82) ||
    (code >= 0xa8 && code <= 0xab) ||
    (code >= 0xae && code <= 0xb1)
  );
}

/** The eight operators whose fee is linear in their top (count) operand. */
export function isLinearOp(code: number): boolean {
  return (
    code === 0x40 ||
    code === FC + 8 ||
    code === FC + 10 ||
    code === FC + 11 ||
    code === FC + 12 ||
    code === FC + 14 ||
    code === FC + 15 ||
    code === FC + 17
  );
}
