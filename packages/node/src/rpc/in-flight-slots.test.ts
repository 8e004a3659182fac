import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InFlightSlots } from './in-flight-slots.js';

describe('InFlightSlots', () => {
  it('hands out free slot ids, gives each value back once, and reuses freed slots', () => {
    const slots = new InFlightSlots<string>(4);
    const a = slots.add('a');
    const b = slots.add('b');
    assert.deepEqual([a, b], [0, 1]);
    assert.equal(slots.size, 2);
    assert.equal(slots.get(a), 'a');
    assert.equal(slots.take(a), 'a');
    assert.equal(slots.take(a), undefined, 'a second take of the same id finds nothing');
    assert.equal(slots.get(a), undefined);
    assert.equal(slots.size, 1);
    assert.equal(slots.add('c'), a, 'the freed slot is reused first');
    assert.equal(slots.get(b), 'b');
  });

  it('refuses a value when every slot is taken, and holds again once one is freed', () => {
    const slots = new InFlightSlots<number>(3);
    const ids = [slots.add(10), slots.add(11), slots.add(12)];
    assert.equal(new Set(ids).size, 3);
    assert.throws(() => slots.add(13), RangeError);
    assert.equal(slots.take(ids[1]), 11);
    assert.equal(slots.add(13), ids[1]);
    assert.equal(slots.size, 3);
  });

  it('answers nothing for ids that are not slots (a stray or malformed id in a message)', () => {
    const slots = new InFlightSlots<string>(2);
    slots.add('x');
    for (const id of [-1, 2, 1.5, Number.NaN, 99]) {
      assert.equal(slots.get(id), undefined);
      assert.equal(slots.take(id), undefined);
    }
    assert.equal(slots.size, 1);
  });

  it('takeAll empties every slot and returns what they held', () => {
    const slots = new InFlightSlots<string>(5);
    const ids = ['p', 'q', 'r'].map((v) => slots.add(v));
    slots.take(ids[1]);
    assert.deepEqual(slots.takeAll().sort(), ['p', 'r']);
    assert.equal(slots.size, 0);
    assert.deepEqual(slots.takeAll(), []);
    const again = [slots.add('s'), slots.add('t')];
    assert.equal(new Set(again).size, 2);
    assert.ok(again.every((id) => id >= 0 && id < 5));
    assert.equal(slots.size, 2);
  });

  it('stays consistent over many add/take cycles in any order', () => {
    const slots = new InFlightSlots<number>(64);
    const held = new Map<number, number>();
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let step = 0; step < 20_000; step++) {
      if (held.size < 64 && (held.size === 0 || random() < 0.5)) {
        const id = slots.add(step);
        assert.ok(!held.has(id), 'an id in use is never handed out twice');
        held.set(id, step);
      } else {
        const ids = [...held.keys()];
        const id = ids[Math.floor(random() * ids.length)];
        assert.equal(slots.take(id), held.get(id));
        held.delete(id);
      }
      assert.equal(slots.size, held.size);
    }
  });
});
