import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareContract } from './prepare-contract.js';
import { config, instantiate, wat } from './test-helpers.js';
import { classifyTrap } from './traps.js';

const src = `(module
  (type $v (func)) (type $i (func (param i32)))
  (table 3 funcref) (elem (i32.const 0) $ok $takes)
  (memory 1)
  (func $ok) (func $takes (param i32))
  (func (export "unreachable") unreachable)
  (func (export "oob") (drop (i32.load (i32.const -1))))
  (func (export "div0") (drop (i32.div_s (i32.const 1) (i32.const 0))))
  (func (export "overflow") (drop (i32.div_s (i32.const 0x80000000) (i32.const -1))))
  (func (export "trunc") (drop (i32.trunc_f32_s (f32.const nan))))
  (func (export "null") (call_indirect (type $v) (i32.const 2)))
  (func (export "mismatch") (call_indirect (type $v) (i32.const 1)))
  (func (export "table_oob") (call_indirect (type $v) (i32.const 7)))
  (func (export "fine") (call_indirect (type $v) (i32.const 0))))`;

test('every trap kind is classified as nearcore reports it', () => {
  const inst = instantiate(prepareContract(wat(src), config));
  (inst.exports.remaining_gas as WebAssembly.Global).value = 10n ** 15n;
  const trapOf = (name: string) => {
    try {
      (inst.exports[`\0${name}`] as () => void)();
    } catch (e) {
      return classifyTrap(
        e,
        inst.instance,
        (inst.exports.indirect_index as WebAssembly.Global).value as number,
      )?.kind;
    }
    return 'none';
  };
  assert.equal(trapOf('unreachable'), 'Unreachable');
  assert.equal(trapOf('oob'), 'MemoryOutOfBounds');
  assert.equal(trapOf('div0'), 'IllegalArithmetic');
  assert.equal(trapOf('overflow'), 'IllegalArithmetic');
  assert.equal(trapOf('trunc'), 'IllegalArithmetic');
  assert.equal(trapOf('null'), 'IndirectCallToNull');
  assert.equal(trapOf('mismatch'), 'IncorrectCallIndirectSignature');
  assert.equal(trapOf('table_oob'), 'MemoryOutOfBounds');
  assert.equal(trapOf('fine'), 'none');
});

test('native stack overflow and non-trap errors', () => {
  const inst = instantiate(prepareContract(wat('(module (func (export "x")))'), config));
  assert.equal(
    classifyTrap(new RangeError('Maximum call stack size exceeded'), inst.instance, 0)?.kind,
    'StackOverflow',
  );
  assert.equal(classifyTrap(new Error('host'), inst.instance, 0), undefined);
});
