import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareContract } from './prepare-contract.js';
import { config, instantiate, type TestInstance, wat } from './test-helpers.js';
import { classifyTrap } from './traps.js';

// A reused memory may be physically larger than the logical size a call starts with (an earlier call grew it):
// the contract must see exactly what a fresh memory of the initial size shows it.
const INITIAL = config.limits.initialMemoryPages;
const MAX = config.limits.maxMemoryPages;
const PAGE = 65_536;
const END = INITIAL * PAGE;

const src = `(module
  (memory 1)
  (func (export "size") (result i32) memory.size)
  (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0)))
  (func (export "load") (param i32) (result i32) (i32.load (local.get 0)))
  (func (export "load8_off") (param i32) (result i32) (i32.load8_u offset=16 (local.get 0)))
  (func (export "load64") (param i32) (result i64) (i64.load (local.get 0)))
  (func (export "store") (param i32 i32) (i32.store (local.get 0) (local.get 1)))
  (func (export "store64") (param i32) (i64.store (local.get 0) (i64.const -1)))
  (func (export "fill") (param i32 i32) (memory.fill (local.get 0) (i32.const 7) (local.get 1)))
  (func (export "copy") (param i32 i32 i32) (memory.copy (local.get 0) (local.get 1) (local.get 2))))`;

function onGrownMemory(extraPages = 40): { inst: TestInstance; memory: WebAssembly.Memory } {
  const memory = new WebAssembly.Memory({ initial: INITIAL, maximum: MAX });
  memory.grow(extraPages);
  const inst = instantiate(prepareContract(wat(src, { bulk_memory: true }), config), {}, memory);
  (inst.exports.remaining_gas as WebAssembly.Global).value = 10n ** 15n;
  return { inst, memory };
}

function call(inst: TestInstance, name: string, ...args: number[]): unknown {
  // memory.grow is a linear op (it pays per page asked for): enough gas for any of these.
  (inst.exports.remaining_gas as WebAssembly.Global).value = 10n ** 18n;
  return (inst.exports[`\0${name}`] as (...a: number[]) => unknown)(...args);
}

function trapOf(inst: TestInstance, name: string, ...args: number[]): string {
  try {
    call(inst, name, ...args);
  } catch (e) {
    return classifyTrap(e, inst.instance, 0)?.kind ?? `not a trap: ${e}`;
  }
  return 'none';
}

test('memory.size is the logical size, not the physical one', () => {
  const { inst, memory } = onGrownMemory();
  assert.equal(memory.buffer.byteLength, (INITIAL + 40) * PAGE);
  assert.equal(call(inst, 'size'), INITIAL);
});

test('memory.grow returns the logical size and grows it; the physical memory grows only when outgrown', () => {
  const { inst, memory } = onGrownMemory(40);
  assert.equal(call(inst, 'grow', 10), INITIAL);
  assert.equal(call(inst, 'size'), INITIAL + 10);
  assert.equal(memory.buffer.byteLength, (INITIAL + 40) * PAGE, 'still inside the physical memory');
  assert.equal(call(inst, 'grow', 50), INITIAL + 10);
  assert.equal(call(inst, 'size'), INITIAL + 60);
  assert.equal(memory.buffer.byteLength, (INITIAL + 60) * PAGE);
  assert.equal(call(inst, 'load', (INITIAL + 60) * PAGE - 4), 0, 'the grown pages are readable');
  assert.equal(call(inst, 'grow', 0), INITIAL + 60);
});

test('memory.grow past the maximum returns -1 and changes nothing', () => {
  const { inst } = onGrownMemory();
  assert.equal(call(inst, 'grow', MAX - INITIAL + 1), -1);
  assert.equal(call(inst, 'grow', 2 ** 31), -1, 'a delta of 2^31 pages');
  assert.equal(call(inst, 'size'), INITIAL);
  assert.equal(call(inst, 'grow', MAX - INITIAL), INITIAL);
  assert.equal(call(inst, 'size'), MAX);
  assert.equal(call(inst, 'grow', 1), -1);
});

test('loads past the logical size trap as out of bounds, though the physical memory is there', () => {
  const { inst } = onGrownMemory();
  assert.equal(call(inst, 'load', END - 4), 0);
  assert.equal(trapOf(inst, 'load', END - 3), 'MemoryOutOfBounds');
  assert.equal(trapOf(inst, 'load', END), 'MemoryOutOfBounds');
  assert.equal(trapOf(inst, 'load64', END - 4), 'MemoryOutOfBounds');
  assert.equal(call(inst, 'load8_off', END - 17), 0, 'the offset counts');
  assert.equal(trapOf(inst, 'load8_off', END - 16), 'MemoryOutOfBounds');
  assert.equal(trapOf(inst, 'load', -1), 'MemoryOutOfBounds');
});

test('stores and bulk writes past the logical size trap before writing anything', () => {
  const { inst, memory } = onGrownMemory();
  const bytes = () => new Uint8Array(memory.buffer);
  call(inst, 'store', END - 4, 0x01020304);
  assert.equal(new DataView(memory.buffer).getUint32(END - 4, true), 0x01020304);
  assert.equal(trapOf(inst, 'store', END - 2, -1), 'MemoryOutOfBounds');
  assert.equal(trapOf(inst, 'store64', END - 4), 'MemoryOutOfBounds');
  assert.equal(trapOf(inst, 'fill', END - 8, 9), 'MemoryOutOfBounds');
  assert.equal(trapOf(inst, 'copy', END - 8, 0, 9), 'MemoryOutOfBounds', 'destination past the end');
  assert.equal(trapOf(inst, 'copy', 0, END - 8, 9), 'MemoryOutOfBounds', 'source past the end');
  assert.equal(trapOf(inst, 'fill', END + 1, 0), 'MemoryOutOfBounds', 'zero length, but past the end');
  assert.equal(call(inst, 'fill', END, 0), undefined, 'zero length at the end is fine');
  assert.ok(
    bytes()
      .subarray(END - 2, END + 16)
      .every((b, i) => (i < 2 ? b === 0x01 || b === 0x02 : b === 0)),
    'nothing was written past the end',
  );
  assert.equal(Number((inst.exports.dirty_end as WebAssembly.Global).value), END);
});

test('after a grow, the new pages are inside the logical memory', () => {
  const { inst } = onGrownMemory();
  call(inst, 'grow', 1);
  call(inst, 'store', END + PAGE - 4, 5);
  call(inst, 'fill', END, 3);
  assert.equal(call(inst, 'load', END + PAGE - 4), 5);
  assert.equal(
    Number((inst.exports.dirty_end as WebAssembly.Global).value),
    0,
    'writes into grown pages leave dirty_end alone',
  );
  assert.equal(
    Number((inst.exports.grown_end as WebAssembly.Global).value),
    END + PAGE,
    'they raise grown_end to the end of the furthest (the store, not the fill before it)',
  );
  call(inst, 'store', END - 2, 1);
  assert.equal(
    Number((inst.exports.dirty_end as WebAssembly.Global).value),
    END + 2,
    'a write across the line counts',
  );
  assert.equal(trapOf(inst, 'load', END + PAGE - 3), 'MemoryOutOfBounds');
});

test('an active data segment must fit the logical memory when the instance is reset', () => {
  const seg = wat(`(module (memory 1) (data (i32.const ${END - 2}) "abcd") (func (export "f")))`);
  const memory = new WebAssembly.Memory({ initial: INITIAL, maximum: MAX });
  memory.grow(1);
  const inst = instantiate(prepareContract(seg, config), {}, memory);
  assert.throws(() => (inst.exports['\0reset'] as () => void)(), /memory access out of bounds/);
  const fits = wat(`(module (memory 1) (data (i32.const ${END - 4}) "abcd") (func (export "f")))`);
  const ok = instantiate(prepareContract(fits, config), {}, memory);
  (ok.exports['\0reset'] as () => void)();
  assert.equal(new TextDecoder().decode(new Uint8Array(memory.buffer, END - 4, 4)), 'abcd');
});

test('the pool zeroes the initial memory up to dirty_end and the grown pages up to grown_end, and reuses grown memories', async () => {
  const { MemoryPool } = await import('../memory-pool.js');
  const pool = new MemoryPool(INITIAL, MAX, 1);
  const memory = pool.acquire();
  memory.grow(2);
  const bytes = new Uint8Array(memory.buffer);
  bytes[10] = 1;
  bytes[END + 5] = 1;
  bytes[END + PAGE + 5] = 1;
  pool.release(memory, 10, 11, END + PAGE + 6);
  assert.ok(bytes.every((b) => b === 0));
  assert.equal(pool.acquire(), memory, 'the grown memory serves the next call');
});
