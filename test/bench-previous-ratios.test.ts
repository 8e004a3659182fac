import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { compareRatios, readPreviousRatios } from '../bench/previous-ratios.js';

const WORKLOAD = 'kv';
const full = { read: {}, transfers: {}, contractCalls: {} };

function folder(reports: Record<string, object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-previous-'));
  for (const [name, report] of Object.entries(reports))
    writeFileSync(join(dir, name), JSON.stringify(report));
  writeFileSync(join(dir, 'latest.json'), '{"ratios": {"readPerSecond": 99}}');
  writeFileSync(join(dir, 'bench-2026-11-24T09-00-00-000Z.json'), 'not json');
  return dir;
}

test('each ratio comes from the newest earlier run that has it, of the same view workload and a full server run', () => {
  const dir = folder({
    'bench-2026-11-24T08-30-00-000Z.json': {
      startedAt: 'aborted',
      abortedAtDeadlineMs: 1000,
      ratios: { coldStartFirstAnswerMs: 30, readPerSecond: 0.1 },
    },
    'bench-2026-11-24T08-00-00-000Z.json': {
      startedAt: 'newest',
      machine: { loadAverageAtStart: 0.4 },
      ratios: { coldStartFirstAnswerMs: 3, rssAfterRunBytes: 2 },
      shadebox: { viewCalls: { workload: 'hello' } },
    },
    'bench-2026-11-24T07-00-00-000Z.json': {
      startedAt: 'middle',
      ratios: { viewCallsPerSecond: 0.3, readPerSecond: 1.1 },
      shadebox: { viewCalls: { workload: 'hello' } },
    },
    'bench-2026-11-24T06-00-00-000Z.json': {
      startedAt: 'oldest',
      ratios: { viewCallsPerSecond: 0.5, readPerSecond: 0.9, rssAfterRunBytes: 4 },
      shadebox: { ...full, viewCalls: { workload: WORKLOAD } },
    },
  });
  try {
    const previous = readPreviousRatios(dir, WORKLOAD);
    assert.equal(previous.coldStartFirstAnswerMs?.ratio, 3);
    assert.equal(previous.coldStartFirstAnswerMs?.startedAt, 'newest');
    assert.equal(previous.coldStartFirstAnswerMs?.loadAverageAtStart, 0.4);
    assert.equal(previous.readPerSecond?.ratio, 1.1);
    // The newer view ratio is of another workload, the newer RSS of a partial run: both skipped.
    assert.equal(previous.viewCallsPerSecond?.ratio, 0.5);
    assert.equal(previous.rssAfterRunBytes?.ratio, 4);
    assert.equal(previous.transfersPerSecond, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a ratio is flagged worse only when it moved the wrong way by more than the noise', () => {
  const at = (ratio: number) => ({ ratio, startedAt: 'then', file: 'f', loadAverageAtStart: 1 });
  const changes = compareRatios(
    {
      readPerSecond: 0.85,
      transfersPerSecond: 0.95,
      coldStartFirstAnswerMs: 1.2,
      rssIdleBytes: 0.5,
      rssAfterRunBytes: 9,
    },
    {
      readPerSecond: at(1),
      transfersPerSecond: at(1),
      coldStartFirstAnswerMs: at(1),
      rssIdleBytes: at(1),
      rssAfterRunBytes: at(1),
      viewCallsPerSecond: at(1),
    },
    0.1,
    false,
  );
  assert.equal(changes.readPerSecond?.worse, true);
  assert.equal(changes.transfersPerSecond?.worse, false);
  assert.equal(changes.coldStartFirstAnswerMs?.worse, true);
  assert.equal(changes.rssIdleBytes?.worse, false);
  assert.equal(changes.rssIdleBytes?.change, 0.5);
  // Not a full server run: the RSS after the run is not compared; no current view ratio: nothing to compare.
  assert.equal(changes.rssAfterRunBytes, undefined);
  assert.equal(changes.viewCallsPerSecond, undefined);
});
