/** A contract's data packed for the view workers, and read back through a worker's index. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContractDataReplica, EntryPacker } from './contract-data-replica.js';

/** The layout, written out here independently: per entry the key's length (u32 LE), the key, the value's length
 * (u32 LE), the value. */
function expectedLayout(all: ReadonlyArray<{ key: Uint8Array; value: Uint8Array }>): Uint8Array {
  const parts: Buffer[] = [];
  for (const { key, value } of all) {
    const keyLength = Buffer.alloc(4);
    keyLength.writeUInt32LE(key.length);
    const valueLength = Buffer.alloc(4);
    valueLength.writeUInt32LE(value.length);
    parts.push(keyLength, Buffer.from(key), valueLength, Buffer.from(value));
  }
  return new Uint8Array(Buffer.concat(parts));
}

function entries(count: number, valueLength: (i: number) => number) {
  return Array.from({ length: count }, (_, i) => ({
    key: Uint8Array.from(Buffer.from(`\u0009contract.near,k${i}`, 'latin1')),
    value: Uint8Array.from({ length: valueLength(i) }, (_, j) => (i * 31 + j) & 0xff),
  }));
}

describe('EntryPacker', () => {
  it('packs entries one by one into the documented layout, growing its buffer', () => {
    // Enough to grow the 4 KiB start several times, with empty and large values among them.
    const all = entries(3000, (i) => (i % 97 === 0 ? 0 : i % 13 === 0 ? 5000 : 32));
    const packer = new EntryPacker();
    for (const { key, value } of all) packer.add(key, value);
    const packed = packer.finish();
    assert.equal(packer.count, all.length);
    assert.equal(packer.size, packed.length);
    assert.equal(
      packed.length,
      all.reduce((n, e) => n + 8 + e.key.length + e.value.length, 0),
    );
    assert.equal(packed.buffer.byteLength, packed.length, 'finish() gives a buffer of its own size');
    assert.deepEqual(packed, expectedLayout(all));
    const replica = new ContractDataReplica(1, packed);
    assert.equal(replica.size, all.length);
    for (const { key, value } of all) assert.deepEqual(replica.get(key), value);
    assert.equal(replica.get(Buffer.from('\u0009contract.near,absent', 'latin1')), undefined);
    // Indexed without the keys' common prefix: looked up by the key as the contract names it.
    const prefix = '\u0009contract.near,'.length;
    const byContractKey = new ContractDataReplica(1, packed, prefix);
    for (const { key, value } of all) assert.deepEqual(byContractKey.get(key.subarray(prefix)), value);
    assert.equal(byContractKey.get(Buffer.from('absent')), undefined);
    assert.equal(byContractKey.get(all[0].key), undefined, 'a full state key is not a contract key');
    // Keys that differ in one byte, that share a prefix, and the empty key (after the prefix).
    const near = [
      Buffer.from('k1'),
      Buffer.from('k10'),
      Buffer.from('k2'),
      Buffer.alloc(0),
      Buffer.from('k1\u0000'),
    ];
    const nearPacker = new EntryPacker();
    for (const [i, key] of near.entries())
      nearPacker.add(Buffer.concat([Buffer.from('P'), key]), Uint8Array.of(i));
    const nearReplica = new ContractDataReplica(3, nearPacker.finish(), 1);
    for (const [i, key] of near.entries())
      assert.deepEqual(nearReplica.get(key), Uint8Array.of(i), key.toString('hex'));
    assert.equal(nearReplica.get(Buffer.from('k3')), undefined);
  });

  it('packs nothing into an empty buffer', () => {
    const packer = new EntryPacker();
    assert.deepEqual([packer.count, packer.size, packer.finish().length], [0, 0, 0]);
    assert.equal(new ContractDataReplica(2, new EntryPacker().finish()).size, 0);
  });
});
