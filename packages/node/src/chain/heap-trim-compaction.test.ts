/** The heap trim's full collection evacuates fragmented pages: the old space it leaves is near what is live. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
import { fullCollection, reduceMemory } from './heap-trim.js';

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

  it('reduceMemory shrinks the young generation that allocations grew, and the thread runs on', async () => {
    const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    // Survivors of young collections make V8 grow the new space, as a node's start does.
    const kept: object[] = [];
    for (let i = 0; i < 300_000; i++) kept.push({ i, text: `record ${i}` });
    const grown = newSpace()?.space_size ?? 0;
    kept.length = 0;
    await new Promise<void>((resolve) => reduceMemory(resolve));
    const after = newSpace()?.space_size ?? 0;
    assert.ok(after < grown, `new space ${grown} -> ${after} bytes`);
    // The inspector session is closed: timers and I/O go on.
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});
