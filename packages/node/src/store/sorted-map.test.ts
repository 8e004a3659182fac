import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom as random } from './seeded-random.js';
import { iterateSnapshot, SortedMap } from './sorted-map.js';

function modelRange(model: Map<string, number>, start?: string, end?: string, reverse?: boolean) {
  const keys = [...model.keys()]
    .filter((key) => (start === undefined || key >= start) && (end === undefined || key < end))
    .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  if (reverse) keys.reverse();
  return keys.map((key) => [key, model.get(key)]);
}

describe('SortedMap', () => {
  it('matches a reference model through inserts, updates, deletes, splits and snapshots', (t) => {
    t.diagnostic('seed 42 (fixed)');
    const next = random(42);
    const map = new SortedMap<number>();
    const model = new Map<string, number>();
    const snapshots: { snapshot: ReturnType<SortedMap<number>['snapshot']>; model: Map<string, number> }[] =
      [];
    const randomKey = () =>
      String.fromCharCode(
        ...Array.from({ length: 1 + Math.floor(next() * 3) }, () => Math.floor(next() * 40)),
      );
    for (let step = 0; step < 30_000; step++) {
      const key = randomKey();
      const r = next();
      if (r < 0.6) {
        assert.equal(map.set(key, step), !model.has(key));
        model.set(key, step);
      } else if (r < 0.9) {
        assert.equal(map.delete(key), model.delete(key));
      } else if (r < 0.902) {
        snapshots.push({ snapshot: map.snapshot(), model: new Map(model) });
      } else if (r < 0.904 && snapshots.length > 0) {
        snapshots.shift();
        map.release();
      } else {
        assert.equal(map.get(key), model.get(key));
      }
      assert.equal(map.size, model.size);
      if (step % 1000 === 0) {
        const start = next() < 0.3 ? undefined : randomKey();
        const end = next() < 0.3 ? undefined : randomKey();
        const reverse = next() < 0.5;
        assert.deepEqual([...map.entries({ start, end, reverse })], modelRange(model, start, end, reverse));
      }
    }
    assert.deepEqual([...map.entries()], modelRange(model));
    // Empty whole leaves in the middle, then refill.
    for (const [key] of modelRange(model, '\u0005', '\u0020')) {
      map.delete(key as string);
      model.delete(key as string);
    }
    assert.deepEqual([...map.entries()], modelRange(model));
    assert.deepEqual(
      [...map.entries({ start: '\u0004', end: '\u0021', reverse: true })],
      modelRange(model, '\u0004', '\u0021', true),
    );
    for (let i = 0; i < 2000; i++) {
      const key = `\u0010${i}`;
      map.set(key, i);
      model.set(key, i);
    }
    assert.deepEqual([...map.entries()], modelRange(model));
    assert.equal(map.size, model.size);
    for (const { snapshot, model: old } of snapshots) {
      assert.deepEqual([...iterateSnapshot(snapshot, {})], modelRange(old));
      assert.deepEqual(
        [...iterateSnapshot(snapshot, { reverse: true })],
        modelRange(old, undefined, undefined, true),
      );
    }
  });

  it('handles an emptied map and inverted bounds', () => {
    const map = new SortedMap<number>();
    assert.deepEqual([...map.entries()], []);
    map.set('a', 1);
    map.delete('a');
    assert.deepEqual([...map.entries({ reverse: true })], []);
    map.set('b', 2);
    assert.deepEqual([...map.entries({ start: 'c', end: 'a' })], []);
    assert.deepEqual([...map.entries({ start: 'b', end: 'b' })], []);
    assert.deepEqual([...map.entries({ start: 'b', end: 'b\u0000' })], [['b', 2]]);
  });
});
