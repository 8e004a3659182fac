import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '@shadebox/primitives';
import { CryptoHashMap } from './hash-map.js';

describe('CryptoHashMap', () => {
  it('keeps hashes that share their first 30 bits apart', () => {
    const map = new CryptoHashMap<number>();
    const a = new Uint8Array(32);
    const b = new Uint8Array(32);
    b[31] = 1;
    const c = new Uint8Array(32);
    c[3] = 0x40; // differs only in the bits the bucket ignores
    map.set(a, 1);
    map.set(b, 2);
    map.set(c, 3);
    assert.equal(map.size, 3);
    assert.deepEqual([map.get(a), map.get(b), map.get(c)], [1, 2, 3]);
    map.set(b, 20);
    assert.equal(map.get(b), 20);
    assert.equal(map.delete(b), true);
    assert.equal(map.delete(b), false);
    assert.equal(map.get(b), undefined);
    assert.deepEqual([map.get(a), map.get(c)], [1, 3]);
    assert.equal(map.delete(a), true);
    assert.equal(map.get(c), 3);
    assert.equal(map.size, 1);
    assert.deepEqual([...map.values()], [3]);
  });

  it('holds many sha256 hashes', () => {
    const map = new CryptoHashMap<number>();
    const hashes = Array.from({ length: 5000 }, (_, i) => sha256(new Uint8Array([i & 255, i >> 8])));
    for (const [i, h] of hashes.entries()) map.set(h, i);
    assert.equal(map.size, 5000);
    for (const [i, h] of hashes.entries()) assert.equal(map.get(Uint8Array.from(h)), i);
    assert.equal([...map.entries()].length, 5000);
  });
});
