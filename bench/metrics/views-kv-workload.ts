/**
 * The view-call workload, the same kind on both sides: a minimal contract whose view reads the storage entry
 * named by its arguments, over `VIEW_KEYS` distinct entries (one request body each, taken in turn), every
 * answer checked against the value stored under that key.
 *
 * Shadebox: `KV_WAT`, hand-written WAT (compiled with wabt), deployed on `kv.<root>`. `fill` (args: from and
 * count, two u32 little-endian) writes `count` entries: key = the index as 4 bytes little-endian, value = 32
 * bytes (`entryWord`). The view `get` takes the 4-byte key as its raw arguments, reads it with
 * `storage_read` and returns the 32 bytes (`value_return`); a missing key panics.
 * anvil: the slot-reading contract of bench/evm.ts, its slots set with `anvil_setStorageAt` to the same
 * 32-byte values (as a big-endian word).
 */
import wabtInit from 'wabt';

/** Distinct view requests per side: eight times the node's per-head read cache (4,096 entries). */
export const VIEW_KEYS = 32_768;
/** Entries written by one `fill` call (about 70 Ggas each). */
export const FILL_BATCH = 2048;

export const KV_WAT = `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "storage_read" (func $storage_read (param i64 i64 i64) (result i64)))
  (import "env" "storage_write" (func $storage_write (param i64 i64 i64 i64 i64) (result i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (import "env" "panic_utf8" (func $panic_utf8 (param i64 i64)))
  (memory (export "memory") 1)
  (data (i32.const 1024) "key must be 4 bytes")
  (data (i32.const 1056) "no such key")
  (data (i32.const 1088) "fill takes 8 bytes")
  (func (export "get")
    (call $input (i64.const 0))
    (if (i64.ne (call $register_len (i64.const 0)) (i64.const 4))
      (then (call $panic_utf8 (i64.const 19) (i64.const 1024))))
    (call $read_register (i64.const 0) (i64.const 0))
    (if (i64.eqz (call $storage_read (i64.const 4) (i64.const 0) (i64.const 1)))
      (then (call $panic_utf8 (i64.const 11) (i64.const 1056))))
    (call $read_register (i64.const 1) (i64.const 64))
    (call $value_return (call $register_len (i64.const 1)) (i64.const 64)))
  (func (export "fill") (local $i i32) (local $end i32) (local $j i32)
    (call $input (i64.const 0))
    (if (i64.ne (call $register_len (i64.const 0)) (i64.const 8))
      (then (call $panic_utf8 (i64.const 18) (i64.const 1088))))
    (call $read_register (i64.const 0) (i64.const 0))
    (local.set $i (i32.load (i32.const 0)))
    (local.set $end (i32.add (local.get $i) (i32.load (i32.const 4))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (i32.store (i32.const 16) (local.get $i))
        (local.set $j (i32.const 0))
        (loop $word
          (i32.store (i32.add (i32.const 32) (local.get $j)) (i32.xor (local.get $i) (i32.const 0x5eed5eed)))
          (local.set $j (i32.add (local.get $j) (i32.const 4)))
          (br_if $word (i32.lt_u (local.get $j) (i32.const 32))))
        (drop (call $storage_write (i64.const 4) (i64.const 16) (i64.const 32) (i64.const 32) (i64.const 2)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))))`;

/** The Wasm of `KV_WAT`. */
export async function kvContractWasm(): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const mod = wabt.parseWat('kv.wat', KV_WAT);
  try {
    mod.validate();
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

/** The 4 bytes of key `k` (u32 little-endian). */
export function entryKey(k: number): Buffer {
  const key = Buffer.alloc(4);
  key.writeUInt32LE(k);
  return key;
}

/** The 32 bytes stored under key `k`: eight times the u32 `k ^ 0x5eed5eed`, little-endian. */
export function entryWord(k: number): Buffer {
  const word = Buffer.alloc(32);
  for (let j = 0; j < 32; j += 4) word.writeUInt32LE((k ^ 0x5eed5eed) >>> 0, j);
  return word;
}

/** `fill` arguments: from, count (u32 little-endian each). */
export function fillArgs(from: number, count: number): Uint8Array {
  const args = Buffer.alloc(8);
  args.writeUInt32LE(from, 0);
  args.writeUInt32LE(count, 4);
  return new Uint8Array(args);
}

export function kvViewBody(contract: string, k: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 'bench',
    method: 'query',
    params: {
      request_type: 'call_function',
      finality: 'final',
      account_id: contract,
      method_name: 'get',
      args_base64: entryKey(k).toString('base64'),
    },
  });
}

/** Throws unless a `call_function` answer is the 32 bytes stored under key `k` (and carries no error). */
export function checkKvAnswer(result: unknown, k: number): void {
  const r = result as { result?: unknown; error?: unknown };
  const bytes = r.result;
  if (r.error !== undefined || !Array.isArray(bytes) || bytes.length !== 32) {
    throw new Error(`call_function get(${k}): ${JSON.stringify(r).slice(0, 200)}`);
  }
  const want = (k ^ 0x5eed5eed) >>> 0;
  const b = bytes as number[];
  for (let j = 0; j < 32; j += 4) {
    if ((b[j] | (b[j + 1] << 8) | (b[j + 2] << 16) | (b[j + 3] << 24)) >>> 0 !== want) {
      throw new Error(`call_function get(${k}) answered ${JSON.stringify(b)}`);
    }
  }
}

/** The slot's value on anvil: `entryWord(k)` read as a big-endian word. */
export const slotValue = (k: number) => `0x${entryWord(k).toString('hex')}`;
