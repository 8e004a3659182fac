import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latin1String } from './bytes.js';

describe('latin1String', () => {
  it('gives one char per byte, for every size and for views into larger buffers', () => {
    const sizes = [70_000, 0, 1, 4_095, 4_096, 4_097, 65_536, 65_537, 2, 300];
    for (const [i, n] of sizes.entries()) {
      const backing = new Uint8Array(n + 10).map((_, j) => (j * 13 + i) & 0xff);
      const bytes = backing.subarray(5, 5 + n);
      const text = latin1String(bytes);
      assert.equal(text.length, n);
      for (let j = 0; j < n; j += 997) assert.equal(text.charCodeAt(j), bytes[j]);
      assert.deepEqual(new Uint8Array(Buffer.from(text, 'latin1')), bytes, `${n} bytes`);
    }
  });

  it('sorts as the bytes do (unsigned, a prefix first)', () => {
    const ordered = [[], [0], [0, 0], [0, 255], [1], [127], [128], [255], [255, 0]].map((b) =>
      Uint8Array.from(b),
    );
    const texts = ordered.map(latin1String);
    assert.deepEqual([...texts].sort(), texts);
  });
});
