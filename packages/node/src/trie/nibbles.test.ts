// nearcore's core/store/src/trie/nibble_slice.rs tests, case by case.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeNibbles, encodeNibbles, NibbleSlice, nibblesToBytes } from './nibbles.js';

const D = new Uint8Array([0x01, 0x23, 0x45]);
const bytes = (...b: number[]): Uint8Array => new Uint8Array(b);

describe('NibbleSlice (nibble_slice.rs)', () => {
  it('basics', () => {
    const n = new NibbleSlice(D);
    assert.equal(n.length, 6);
    assert.equal(n.isEmpty(), false);
    assert.equal(new NibbleSlice(D, 6).isEmpty(), true);
    const m = new NibbleSlice(D, 3);
    assert.equal(m.length, 3);
    for (let i = 0; i < 3; i++) assert.equal(m.at(i), i + 3);
  });

  it('iterator', () => {
    assert.deepEqual([...new NibbleSlice(D).toNibbles()], [0, 1, 2, 3, 4, 5]);
  });

  it('mid', () => {
    const n = new NibbleSlice(D);
    for (let i = 0; i < 4; i++) assert.equal(n.mid(2).at(i), i + 2);
    for (let i = 0; i < 3; i++) assert.equal(n.mid(3).at(i), i + 3);
  });

  it('encoded', () => {
    const n = new NibbleSlice(D);
    assert.deepEqual(n.encoded(false), bytes(0x00, 0x01, 0x23, 0x45));
    assert.deepEqual(n.encoded(true), bytes(0x20, 0x01, 0x23, 0x45));
    assert.deepEqual(n.mid(1).encoded(false), bytes(0x11, 0x23, 0x45));
    assert.deepEqual(n.mid(1).encoded(true), bytes(0x31, 0x23, 0x45));
  });

  it('from_encoded', () => {
    const n = new NibbleSlice(D);
    const check = (encoded: Uint8Array, expected: NibbleSlice, leaf: boolean) => {
      const [slice, isLeaf] = NibbleSlice.fromEncoded(encoded);
      assert.ok(slice.equals(expected));
      assert.equal(isLeaf, leaf);
    };
    check(bytes(0x00, 0x01, 0x23, 0x45), n, false);
    check(bytes(0x20, 0x01, 0x23, 0x45), n, true);
    check(bytes(0x11, 0x23, 0x45), n.mid(1), false);
    check(bytes(0x31, 0x23, 0x45), n.mid(1), true);
  });

  it('shared', () => {
    const n = new NibbleSlice(D);
    const m = new NibbleSlice(bytes(0x01, 0x23, 0x01, 0x23, 0x45, 0x67));
    assert.equal(n.commonPrefix(m), 4);
    assert.equal(m.commonPrefix(n), 4);
    assert.equal(n.mid(1).commonPrefix(m.mid(1)), 3);
    assert.equal(n.mid(1).commonPrefix(m.mid(2)), 0);
    assert.equal(n.commonPrefix(m.mid(4)), 6);
    assert.equal(n.startsWith(m.mid(4)), false);
    assert.equal(m.mid(4).startsWith(n), true);
  });

  it('compare', () => {
    const n = new NibbleSlice(D);
    const m = new NibbleSlice(bytes(0x01, 0x23, 0x01, 0x23, 0x45));
    assert.equal(n.equals(m), false);
    assert.equal(n.compare(m), 1);
    assert.equal(m.compare(n), -1);
    assert.equal(n.equals(m.mid(4)), true);
    assert.equal(n.compare(m.mid(4)), 0);
  });

  it('nibble_indexing', () => {
    const [n] = NibbleSlice.fromEncoded(bytes(32, 116, 101, 115, 116));
    assert.deepEqual([...n.toNibbles()], [7, 4, 6, 5, 7, 3, 7, 4]);
  });
});

describe('hex-prefix helpers', () => {
  it('an empty leaf path is the single byte 0x20, an empty extension path 0x00', () => {
    assert.deepEqual(encodeNibbles([], true), bytes(0x20));
    assert.deepEqual(encodeNibbles([], false), bytes(0x00));
  });

  it('encode and decode are inverse for every length up to 9', () => {
    for (let length = 0; length < 10; length++) {
      const nibbles = Array.from({ length }, (_, i) => (i * 7 + 3) % 16);
      for (const leaf of [true, false]) {
        const encoded = encodeNibbles(nibbles, leaf);
        assert.deepEqual([...decodeNibbles(encoded)], nibbles);
        assert.equal(NibbleSlice.fromEncoded(encoded)[1], leaf);
      }
    }
  });

  it('packs nibbles into bytes', () => {
    assert.deepEqual(nibblesToBytes([7, 4, 6, 5]), bytes(0x74, 0x65));
  });
});
