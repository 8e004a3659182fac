/** The heap trim's full collection evacuates fragmented pages: the old space it leaves is near what is live. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
import { fullCollection } from './heap-trim.js';

const MiB = 1024 * 1024;

function oldSpace(): { resident: number; used: number } {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
  assert.ok(space, 'V8 reports an old space');
  return { resident: space.physical_space_size, used: space.space_used_size };
}

/** Fills old-space pages with small objects, then drops all but one in `keepEvery`: pages stay mostly empty
 * but none is empty, the pattern a cache of records evicted in arrival order leaves behind. */
function fragment(keepEvery: number): object[] {
  const all: object[] = [];
  for (let i = 0; i < 400_000; i++) all.push({ i, text: `record ${i}`, list: [i, i + 1] });
  const collect = fullCollection();
  collect(); // promoted: they are in the old space now
  return all.filter((_, i) => i % keepEvery === 0);
}

describe('HeapTrim full collection', () => {
  it('leaves the old space near its live size after a fragmenting churn', () => {
    const collect = fullCollection();
    collect();
    const kept = fragment(8);
    collect();
    const after = oldSpace();
    // Without evacuation the pages of the dropped objects stay resident: ~7/8 of them would be free space.
    const free = after.resident - after.used;
    assert.ok(
      free < 8 * MiB,
      `old space ${(after.resident / MiB).toFixed(1)} MiB resident, ${(after.used / MiB).toFixed(1)} MiB used`,
    );
    assert.equal(kept.length, 50_000);
  });

  it('is the same function on every call (the flag is set and restored around each collection)', () => {
    assert.equal(fullCollection(), fullCollection());
  });
});
