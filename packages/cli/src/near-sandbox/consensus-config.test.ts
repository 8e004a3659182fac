import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  EXPECTED_EPOCH_LENGTH,
  neardConsensus,
  readBlockProductionDelays,
  SandboxConfigError,
} from './consensus-config.js';

let dir = '';

async function delaysOf(config: unknown) {
  await writeFile(join(dir, 'config.json'), JSON.stringify(config));
  return readBlockProductionDelays(dir);
}

describe("config.json's consensus section", () => {
  // The suite's own hooks bind the directory to its tests: made and removed by file-level hooks, it was once
  // gone when the last test wrote to it (a fresh-clone CI run, 2026-11-28).
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'consensus-config-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test("neard's defaults and --fast's delays, as serde durations", () => {
    assert.deepEqual(neardConsensus(false).min_block_production_delay, { secs: 0, nanos: 600_000_000 });
    assert.deepEqual(neardConsensus(false).max_block_production_delay, { secs: 2, nanos: 0 });
    assert.deepEqual(neardConsensus(true).min_block_production_delay, { secs: 0, nanos: 120_000_000 });
    assert.deepEqual(neardConsensus(true).max_block_production_delay, { secs: 0, nanos: 500_000_000 });
    assert.equal(EXPECTED_EPOCH_LENGTH, 500);
  });

  test('run reads the delays a harness merged in, and the defaults when there are none', async () => {
    assert.deepEqual(await delaysOf({}), { minMs: 600, maxMs: 2000 });
    assert.deepEqual(
      await delaysOf({ consensus: { min_block_production_delay: { secs: 1, nanos: 250_000_000 } } }),
      { minMs: 1250, maxMs: 2000 },
    );
  });

  test('a delay that is not a duration is refused, naming the field', async () => {
    await assert.rejects(
      delaysOf({ consensus: { max_block_production_delay: 100 } }),
      (error: unknown) =>
        error instanceof SandboxConfigError && error.details.field === 'consensus.max_block_production_delay',
    );
  });
});
