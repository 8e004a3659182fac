import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { sliceProfile, summarizeProfile } from '../bench/profile-summary.js';

const frame = (functionName: string, url = '') => ({
  functionName,
  url,
  lineNumber: 0,
  columnNumber: 0,
  scriptId: '0',
});

test('a profile cut to a window keeps only the samples taken inside it, timed from the window start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  try {
    const file = join(dir, 'CPU.1.2.3.0.001.cpuprofile');
    const root = '/repo';
    writeFileSync(
      file,
      JSON.stringify({
        nodes: [
          { id: 1, callFrame: frame('(root)'), children: [2, 3] },
          { id: 2, callFrame: frame('setup', 'file:///repo/packages/node/dist/a.js') },
          { id: 3, callFrame: frame('view', 'file:///repo/packages/node/dist/b.js') },
        ],
        startTime: 1000,
        endTime: 2000,
        // Samples at 1100, 1300 (setup), 1500, 1600 (view), 1900 (setup).
        samples: [2, 2, 3, 3, 2],
        timeDeltas: [100, 200, 200, 100, 300],
      }),
    );
    const cut = sliceProfile(file, 1400, 1700, 'view-window');
    assert.ok(cut);
    assert.equal(basename(cut), `view-window.${basename(file)}`);
    const sliced = JSON.parse(readFileSync(cut, 'utf8'));
    assert.deepEqual(sliced.samples, [3, 3]);
    assert.deepEqual(sliced.timeDeltas, [100, 100]);
    assert.equal(sliced.startTime, 1400);
    assert.equal(sliced.endTime, 1700);
    const summary = summarizeProfile(cut, root);
    assert.equal(summary.sampledMs, 0.2);
    assert.deepEqual(
      summary.projectByTotal.map((h) => h.where),
      ['packages/node/dist/b.js:1 view'],
    );
    assert.equal(sliceProfile(file, 3000, 4000, 'late'), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
