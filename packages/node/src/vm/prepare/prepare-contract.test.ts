import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PrepareError } from '../vm-errors.js';
import { prepareContract } from './prepare-contract.js';
import { config, GasExhausted, gasUsed, instantiate, R, StackExhausted, wat } from './test-helpers.js';

function kindOf(code: Uint8Array, cfg = config): string {
  try {
    prepareContract(code, cfg);
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof PrepareError, String(e));
    return e.kind;
  }
}

const B = config.linearOpBaseCost;
const U = config.linearOpUnitCost;

test('metered blocks: straight-line body and frame gas', () => {
  const p = prepareContract(wat('(module (func (export "f") i32.const 1 drop))'), config);
  // frame 64 → ceil(64/8) = 8 R at entry; body const + drop = 2 R.
  assert.equal(gasUsed(instantiate(p), 'f'), 10n * R);
});

test('metered blocks: a targeted loop pays its whole body every iteration', () => {
  const src = `(module (func (export "g") (local i32)
    (loop $l local.get 0 i32.const 1 i32.add local.tee 0 i32.const 3 i32.lt_u br_if $l)))`;
  const p = prepareContract(wat(src), config);
  // frame 68 → 9 R; each iteration: loop + 6 ops + br_if = 8 R, 3 iterations.
  assert.equal(gasUsed(instantiate(p), 'g'), 9n * R + 3n * 8n * R);
});

test('metered blocks: if/else charges only the taken arm, dead code is free', () => {
  const src = `(module (func (export "h") (param i32) (result i32)
    local.get 0 (if (result i32) (then i32.const 1 i32.const 2 i32.add) (else i32.const 7))
    return i32.const 9 drop))`;
  const p = prepareContract(wat(src), config);
  const inst = instantiate(p);
  // frame 68 → 9 R; local.get + if = 2 R; then-arm 3 R or else-arm 1 R; after end: return 1 R.
  assert.equal(gasUsed(inst, 'h', 10n ** 15n, 1), 9n * R + 2n * R + 3n * R + R);
  assert.equal(gasUsed(inst, 'h', 10n ** 15n, 0), 9n * R + 2n * R + R + R);
});

test('infinite loop ends in gas_exhausted', () => {
  const p = prepareContract(wat('(module (func (export "spin") (loop $l br $l)))'), config);
  assert.throws(() => gasUsed(instantiate(p), 'spin', 10n ** 12n), GasExhausted);
});

test('linear ops charge base + unit × count', () => {
  const src = `(module (memory 1) (func (export "fill") i32.const 0 i32.const 7 i32.const 100 memory.fill)
    (func (export "grow") (result i32) i32.const 3 memory.grow))`;
  const p = prepareContract(wat(src), config);
  const inst = instantiate(p);
  // 8 R frame + 3 consts (3 R) + fill (B + 100 U).
  assert.equal(gasUsed(inst, 'fill'), 8n * R + 3n * R + B + 100n * U);
  assert.equal(gasUsed(inst, 'grow'), 8n * R + R + B + 3n * U);
  const mem = inst.exports.memory as WebAssembly.Memory;
  assert.equal(mem.buffer.byteLength, (1024 + 3) * 65536);
});

test('deep recursion ends in stack_exhausted, not a native overflow', () => {
  const p = prepareContract(wat('(module (func $r (export "r") call $r))'), config);
  assert.throws(() => gasUsed(instantiate(p), 'r'), StackExhausted);
  const q = prepareContract(wat('(module (func $r (export "r") (param i32) local.get 0 call $r))'), config);
  assert.throws(() => gasUsed(instantiate(q), 'r', 10n ** 15n, 0), StackExhausted);
});

test('the stack budget is restored on return and branch exits', () => {
  const src = `(module (func $a (param i32) (result i32) local.get 0 (if (then i32.const 1 return)) (block (br 1 (i32.const 5))) i32.const 2)
    (func (export "run") (local i32) (loop $l (drop (call $a (i32.const 1))) (drop (call $a (i32.const 0)))
      local.get 0 i32.const 1 i32.add local.tee 0 i32.const 10000 i32.lt_u br_if $l)))`;
  const p = prepareContract(wat(src), config);
  const inst = instantiate(p);
  gasUsed(inst, 'run');
  assert.equal(
    (inst.exports.remaining_stack as WebAssembly.Global).value,
    BigInt(config.limits.maxStackHeight),
  );
});

test('memory is normalised to 1024..2048 pages and exports are prefixed', () => {
  const p = prepareContract(
    wat(
      '(module (memory (export "m") 1 2) (global (export "g") i32 (i32.const 0)) (func (export "a") (param i32)) (func (export "b")))',
    ),
    config,
  );
  const inst = instantiate(p);
  assert.equal((inst.exports.memory as WebAssembly.Memory).buffer.byteLength, 1024 * 65536);
  assert.deepEqual(
    [...p.methods],
    [
      ['a', false],
      ['b', true],
    ],
  );
  assert.deepEqual(
    WebAssembly.Module.imports(p.module).find((i) => i.kind === 'memory'),
    { module: 'internal', name: 'memory', kind: 'memory' },
  );
  const names = WebAssembly.Module.exports(p.module).map((e) => e.name);
  assert.deepEqual(names.sort(), ['\0a', '\0b', '\0dispatch', '\0reset']);
  // Without exportAll (the node's setting) the dispatcher is the only function exported.
  const lean = prepareContract(wat('(module (func (export "a")) (func (export "b")))'), {
    ...config,
    exportAll: false,
  });
  assert.deepEqual(
    WebAssembly.Module.exports(lean.module).map((e) => e.name),
    ['\0dispatch', '\0reset'],
  );
  assert.deepEqual(
    [...lean.methodIndex],
    [
      ['a', 0],
      ['b', 1],
    ],
  );
});

test('imports: env functions kept, other modules and kinds refused', () => {
  const p = prepareContract(
    wat('(module (import "env" "a" (func)) (import "env" "a" (func (param i32))) (import "env" "b" (func)))'),
    config,
  );
  assert.deepEqual(p.envImports, [
    { name: 'a', params: '', result: '' },
    { name: 'a', params: 'i', result: '' },
    { name: 'b', params: '', result: '' },
  ]);
  assert.equal(kindOf(wat('(module (import "other" "a" (func)))')), 'Instantiate');
  assert.equal(kindOf(wat('(module (import "env" "t" (table 1 funcref)))')), 'Instantiate');
  assert.equal(kindOf(wat('(module (import "env" "g" (global i32)))')), 'Instantiate');
  assert.equal(kindOf(wat('(module (import "env" "memory" (memory 1)))')), 'Memory');
});

test('forbidden features are Deserialization', () => {
  const all = {
    simd: true,
    threads: true,
    tail_call: true,
    exceptions: true,
    multi_value: true,
    memory64: true,
    multi_memory: true,
  };
  const cases = [
    '(module (func (drop (v128.const i64x2 0 0))))',
    '(module (memory 1 1 shared) (func (drop (i32.atomic.load (i32.const 0)))))',
    '(module (func $f return_call $f))',
    '(module (func (result i32 i32) i32.const 0 i32.const 0))',
    '(module (func (block (result i32 i32) i32.const 0 i32.const 0) drop drop))',
    '(module (memory i64 1))',
    '(module (memory 1) (memory 1))',
    '(module (tag $e) (func throw $e))',
    '(module (func (param externref)))',
  ];
  for (const c of cases) assert.equal(kindOf(wat(c, all)), 'Deserialization', c);
  assert.equal(kindOf(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1])), 'Deserialization');
  assert.equal(kindOf(wat('(module (func (result i32) i64.const 0))')), 'Deserialization');
});

test('limits map to nearcore error kinds', () => {
  const lim = (o: Record<string, number>) => ({ ...config, limits: { ...config.limits, ...o } });
  assert.equal(
    kindOf(wat('(module (func) (func) (func))'), lim({ maxFunctionsNumberPerContract: 2 })),
    'TooManyFunctions',
  );
  assert.equal(
    kindOf(wat('(module (func (local i32 i64 i32)))'), lim({ maxLocalsPerContract: 2 })),
    'TooManyLocals',
  );
  assert.equal(kindOf(wat('(module (table 10001 funcref))')), 'TooManyTableElements');
  assert.equal(
    kindOf(wat('(module (table 1 funcref) (table 1 funcref))', { reference_types: true })),
    'TooManyTables',
  );
  assert.equal(
    kindOf(wat('(module (type (func)) (type (func (param i32))))'), lim({ maxTypesPerContract: 1 })),
    'TooManyTypes',
  );
  assert.equal(
    kindOf(wat('(module (func nop nop nop))'), lim({ maxFunctionBodySize: 3 })),
    'FunctionBodyTooLarge',
  );
  assert.equal(
    kindOf(wat('(module (func (param i32 i32)))'), lim({ maxParamsPerFunction: 1 })),
    'TooManyParamsPerFunction',
  );
  assert.equal(
    kindOf(wat('(module (func (block) (block)))'), lim({ maxBlocksPerFunction: 1 })),
    'TooManyBlocksPerFunction',
  );
  const push16 = `(module (func ${'(i64.const 0) '.repeat(16)}${'(drop) '.repeat(16)}))`;
  assert.equal(kindOf(wat(push16), lim({ maxOperandStackBytesPerFunction: 127 })), 'OperandStackTooLarge');
  assert.equal(kindOf(wat(push16), lim({ maxOperandStackBytesPerFunction: 128 })), 'ok');
});

test('real contracts prepare and compile', (t) => {
  const files = ['node_modules/near-hello/dist/main.wasm'];
  const dir = 'node_modules/near-sdk-simulator/build/release';
  for (const f of readdirSync(dir))
    if (f.endsWith('.wasm') && f !== 'near-sdk-simulator.wasm') files.push(`${dir}/${f}`);
  for (const f of files) {
    const code = new Uint8Array(readFileSync(f));
    const t0 = performance.now();
    const p = prepareContract(code, config);
    t.diagnostic(
      `${f}: ${code.length} → ${p.instrumentedSize} bytes in ${(performance.now() - t0).toFixed(1)} ms, ${p.methods.size} methods`,
    );
    assert.ok(p.methods.size > 0 || f.includes('empty'));
  }
});

test('dirty_end covers every store and bulk write, so a reused memory can be zeroed that far', () => {
  const p = prepareContract(
    wat(`(module (memory 1)
      (func (export "store") (i64.store offset=8 (i32.const 1000) (i64.const -1)))
      (func (export "byte") (i32.store8 (i32.const 70000) (i32.const 1)))
      (func (export "fill") (memory.fill (i32.const 5000) (i32.const 7) (i32.const 300)))
      (func (export "copy") (memory.copy (i32.const 9000) (i32.const 0) (i32.const 16))))`),
    config,
  );
  const dirty = (name: string) => {
    const inst = instantiate(p);
    gasUsed(inst, name);
    return Number((inst.exports.dirty_end as WebAssembly.Global).value);
  };
  assert.equal(dirty('store'), 1000 + 8 + 8);
  assert.equal(dirty('byte'), 70001);
  assert.equal(dirty('fill'), 5300);
  assert.equal(dirty('copy'), 9016);
  assert.equal(p.dataEnd, 0);
  assert.equal(p.dataStart, Number.POSITIVE_INFINITY);
  const withData = prepareContract(wat('(module (memory 1) (data (i32.const 100) "abcdef"))'), config);
  assert.equal(withData.dataEnd, 106);
  assert.equal(withData.dataStart, 100);
});

test('dirty_start is where the lowest write into the initial memory started; none leaves it as the host set it', () => {
  const p = prepareContract(
    wat(`(module (memory 1)
      (func (export "two") (i64.store offset=8 (i32.const 1000) (i64.const -1)) (i32.store8 (i32.const 70000) (i32.const 1)))
      (func (export "fill") (memory.fill (i32.const 5000) (i32.const 7) (i32.const 300)))
      (func (export "copy") (memory.copy (i32.const 9000) (i32.const 0) (i32.const 16)))
      (func (export "none") (drop (i32.load (i32.const 4)))))`),
    config,
  );
  const start = (name: string) => {
    const inst = instantiate(p);
    gasUsed(inst, name);
    return Number((inst.exports.dirty_start as WebAssembly.Global).value);
  };
  assert.equal(start('two'), 1008);
  assert.equal(start('fill'), 5000);
  assert.equal(start('copy'), 9000);
  assert.equal(start('none'), config.limits.initialMemoryPages * 65_536);
});
