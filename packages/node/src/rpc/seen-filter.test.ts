import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeenFilter } from './seen-filter.js';

/** Distinct, well-spread 32-bit hashes (a multiplicative sequence). */
const hashes = (n: number, salt = 0) =>
  Array.from({ length: n }, (_, i) => Math.imul(i + 1 + salt * 1_000_003, 0x9e3779b1) >>> 0);

describe('SeenFilter', () => {
  it('notes a hash the first time and finds it the second', () => {
    const filter = new SeenFilter(4);
    assert.equal(filter.seenOrNote(0xdeadbeef), false);
    assert.equal(filter.seenOrNote(0xdeadbeef), true);
    assert.equal(filter.seenOrNote(0xdeadbeee), false, 'a different hash is new');
  });

  it('a reset forgets every hash noted before it', () => {
    const filter = new SeenFilter(8);
    for (const h of hashes(50)) filter.seenOrNote(h);
    filter.reset();
    for (const h of hashes(50)) assert.equal(filter.seenOrNote(h), false);
    for (const h of hashes(50)) assert.equal(filter.seenOrNote(h), true);
  });

  it('finds nearly all of a quarter of its size in distinct hashes', () => {
    const filter = new SeenFilter(14);
    const list = hashes(4096);
    for (const h of list) assert.equal(filter.seenOrNote(h), false);
    const found = list.filter((h) => filter.seenOrNote(h)).length;
    assert.ok(found >= 0.98 * list.length, `found ${found} of ${list.length}`);
  });

  it('hashes that share both slots are not starved', () => {
    // A 16-slot table takes the slots from bits 0-3 and bits 4-7: these three all have slots 1 and 2.
    const [a, b, c] = [0x00000021, 0x01000021, 0x02000021];
    const two = new SeenFilter(4);
    two.seenOrNote(a);
    two.seenOrNote(b);
    for (let round = 0; round < 4; round++) {
      assert.equal(two.seenOrNote(a), true);
      assert.equal(two.seenOrNote(b), true);
    }
    // Three in two slots: each is still found on some of its repeats.
    const three = new SeenFilter(4);
    const found = new Map([a, b, c].map((h) => [h, 0]));
    for (let round = 0; round < 8; round++) {
      for (const h of [a, b, c]) if (three.seenOrNote(h)) found.set(h, found.get(h)! + 1);
    }
    for (const [h, n] of found) assert.ok(n > 0, `0x${h.toString(16)} never found`);
  });

  it('a stream of distinct hashes larger than the table leaves it working', () => {
    const filter = new SeenFilter(10);
    for (const h of hashes(100_000, 1)) filter.seenOrNote(h);
    assert.equal(filter.seenOrNote(42), false);
    assert.equal(filter.seenOrNote(42), true);
  });

  it('rejects table sizes whose two slots would overlap', () => {
    assert.throws(() => new SeenFilter(17), RangeError);
    assert.throws(() => new SeenFilter(0), RangeError);
  });
});
