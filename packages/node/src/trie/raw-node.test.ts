// nearcore's core/store/src/trie/raw_node.rs test_encode_decode vectors (memory_usage 42), plus their sha256.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hexEncode, sha256 } from '@shadebox/primitives';
import { memoryUsageDirect } from './memory-usage.js';
import { decodeRawNode, emptyChildren, encodeRawNode, type RawTrieNode, rawNodeHash } from './raw-node.js';
import { TrieNodeDecodeError } from './trie-errors.js';

const value = { length: 3, hash: sha256(new Uint8Array([123, 245, 255])) };
const fill = (b: number) => new Uint8Array(32).fill(b);
const hex = (...parts: string[]) => parts.join('');
const VALUE = hex('03000000', 'c228081840db458456346eaf39c6a5c853edd30bc253fb21918aeae207f2ba49');
const ONES = '01'.repeat(32);
const TWOS = '02'.repeat(32);
const MEM = '2a00000000000000';

function children(entries: [number, Uint8Array][]) {
  const c = emptyChildren();
  for (const [i, h] of entries) c[i] = h;
  return c;
}

const cases: { name: string; node: RawTrieNode; encoded: string; hash: string }[] = [
  {
    name: 'Leaf([1,2,3], value)',
    node: { kind: 'leaf', key: new Uint8Array([1, 2, 3]), value },
    encoded: hex('00', '03000000', '010203', VALUE, MEM),
    hash: '21e294567a711456ac24c40d353467cff1d1d228ea0fac4dd986d0dd87dee3ce',
  },
  {
    name: 'BranchNoValue{3, 5}',
    node: {
      kind: 'branch',
      children: children([
        [3, fill(1)],
        [5, fill(2)],
      ]),
      value: null,
    },
    encoded: hex('01', '2800', ONES, TWOS, MEM),
    hash: '4c2cd607e49b57d4693e964c819d4c701060366e13cdd83c8ed3f023c746113b',
  },
  {
    name: 'BranchNoValue{0}',
    node: { kind: 'branch', children: children([[0, fill(1)]]), value: null },
    encoded: hex('01', '0100', ONES, MEM),
    hash: 'b7e5b01d0f4c8588fb6ecf4466ca81418f8458064908ff0d55394bb9d17e3f30',
  },
  {
    name: 'BranchNoValue{15}',
    node: { kind: 'branch', children: children([[15, fill(1)]]), value: null },
    encoded: hex('01', '0080', ONES, MEM),
    hash: 'e6f48ab663d74faf337b588305a8bd5234c5bad93e0d74b5a21bb639d2613230',
  },
  {
    name: 'BranchWithValue(value, {3})',
    node: { kind: 'branch', children: children([[3, fill(1)]]), value },
    encoded: hex('02', VALUE, '0800', ONES, MEM),
    hash: 'e92d3e375fe5f11dba4935619daac675bace7264e4f534d4a02384922f076dc8',
  },
  {
    name: 'Extension([123,245,255], EMPTY_ROOT)',
    node: { kind: 'extension', key: new Uint8Array([123, 245, 255]), child: new Uint8Array(32) },
    encoded: hex('03', '03000000', '7bf5ff', '00'.repeat(32), MEM),
    hash: '264b15a09bcc81fe8084aeb516fae5586f94b4223fd9b3dbbf996072cec8fae3',
  },
];

describe('RawTrieNodeWithSize (raw_node.rs test_encode_decode)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const encoded = encodeRawNode(c.node, 42);
      assert.equal(hexEncode(encoded), c.encoded);
      assert.equal(hexEncode(rawNodeHash(c.node, 42)), c.hash);
      const decoded = decodeRawNode(encoded);
      assert.equal(decoded.memoryUsage, 42);
      assert.deepEqual(decoded.node, c.node);
      // Garbage after the node fails decoding, as in nearcore's test.
      const garbage = new Uint8Array(encoded.length + 1);
      garbage.set(encoded);
      garbage[encoded.length] = 0x21;
      assert.throws(() => decodeRawNode(garbage), TrieNodeDecodeError);
      assert.throws(() => decodeRawNode(encoded.subarray(0, encoded.length - 1)), TrieNodeDecodeError);
    });
  }

  it('refuses an unknown tag', () => {
    assert.throws(() => decodeRawNode(new Uint8Array([4, 0, 0, 0, 0, 0, 0, 0, 0])), TrieNodeDecodeError);
  });

  it('memory_usage direct: leaf 50 + 2·key + 50 + value, extension 50 + 2·key, branch 50 + value part', () => {
    assert.equal(memoryUsageDirect(cases[0].node), 50 + 6 + 50 + 3);
    assert.equal(memoryUsageDirect(cases[1].node), 50);
    assert.equal(memoryUsageDirect(cases[4].node), 50 + 50 + 3);
    assert.equal(memoryUsageDirect(cases[5].node), 50 + 6);
  });

  it('memory_usage above 2^32 round-trips', () => {
    const mem = 21_304_983_816; // the mainnet root of the reference proof
    assert.equal(decodeRawNode(encodeRawNode(cases[5].node, mem)).memoryUsage, mem);
  });
});
