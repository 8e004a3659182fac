/**
 * The `consensus` section of config.json as neard writes and reads it (nearcore nearcore/src/config.rs,
 * `Consensus`), for the part that means something to a single-validator node: how often blocks are made.
 *
 * neard makes a block once `min_block_production_delay` has passed since the last one (with one validator
 * every chunk is there at once), so `near-sandbox run` makes blocks continuously at that interval. The other
 * keys are written as neard writes them and otherwise accepted without effect.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ShadeboxError } from '@shadebox/errors';

/** nearcore MIN_BLOCK_PRODUCTION_DELAY / MAX_BLOCK_PRODUCTION_DELAY (ms). */
export const MIN_BLOCK_PRODUCTION_DELAY_MS = 600;
export const MAX_BLOCK_PRODUCTION_DELAY_MS = 2_000;
/** nearcore's `--fast`: FAST_MIN_BLOCK_PRODUCTION_DELAY, FAST_MAX_BLOCK_PRODUCTION_DELAY (ms), FAST_EPOCH_LENGTH. */
export const FAST_MIN_BLOCK_PRODUCTION_DELAY_MS = 120;
export const FAST_MAX_BLOCK_PRODUCTION_DELAY_MS = 500;
export const FAST_EPOCH_LENGTH = 60;
/** nearcore EXPECTED_EPOCH_LENGTH = 5 minutes of MIN_BLOCK_PRODUCTION_DELAY blocks. */
export const EXPECTED_EPOCH_LENGTH = (5 * 60 * 1000) / MIN_BLOCK_PRODUCTION_DELAY_MS;

/** A config.json value `near-sandbox run` cannot use. */
export class SandboxConfigError extends ShadeboxError<{ file: string; field: string }> {}

interface Duration {
  secs: number;
  nanos: number;
}

const duration = (ms: number): Duration => ({
  secs: Math.floor(ms / 1000),
  nanos: (ms % 1000) * 1_000_000,
});

/** neard's `Consensus::default()`, with `--fast`'s block production delays when asked. */
export function neardConsensus(fast: boolean): Record<string, unknown> {
  return {
    min_num_peers: 3,
    block_production_tracking_delay: duration(100),
    min_block_production_delay: duration(
      fast ? FAST_MIN_BLOCK_PRODUCTION_DELAY_MS : MIN_BLOCK_PRODUCTION_DELAY_MS,
    ),
    max_block_production_delay: duration(
      fast ? FAST_MAX_BLOCK_PRODUCTION_DELAY_MS : MAX_BLOCK_PRODUCTION_DELAY_MS,
    ),
    max_block_wait_delay: duration(6_000),
    produce_empty_blocks: true,
    block_fetch_horizon: 50,
    block_header_fetch_horizon: 50,
    catchup_step_period: duration(100),
    chunk_request_retry_period: duration(400),
    header_sync_initial_timeout: duration(10_000),
    header_sync_progress_timeout: duration(2_000),
    header_sync_stall_ban_timeout: duration(120_000),
    state_sync_external_timeout: duration(60_000),
    state_sync_p2p_timeout: duration(10_000),
    state_sync_retry_backoff: duration(1_000),
    state_sync_external_backoff: duration(60_000),
    header_sync_expected_height_per_second: 10,
    sync_check_period: duration(10_000),
    sync_step_period: duration(10),
    doomslug_step_period: duration(100),
    sync_height_threshold: 1,
  };
}

/** What `run` takes from config.json's consensus section. */
export interface BlockProductionDelays {
  minMs: number;
  maxMs: number;
}

/** Reads the block production delays of the home's config.json (neard's defaults for missing keys). A
 * delay that is not a `{secs, nanos}` duration is an error, as neard's serde would refuse it. */
export async function readBlockProductionDelays(home: string): Promise<BlockProductionDelays> {
  const path = join(home, 'config.json');
  const config = JSON.parse(await readFile(path, 'utf8')) as { consensus?: Record<string, unknown> };
  const consensus = config.consensus ?? {};
  return {
    minMs:
      durationMs(consensus.min_block_production_delay, 'consensus.min_block_production_delay', path) ??
      MIN_BLOCK_PRODUCTION_DELAY_MS,
    maxMs:
      durationMs(consensus.max_block_production_delay, 'consensus.max_block_production_delay', path) ??
      MAX_BLOCK_PRODUCTION_DELAY_MS,
  };
}

function durationMs(value: unknown, field: string, path: string): number | undefined {
  if (value === undefined) return undefined;
  const d = value as Partial<Duration> | null;
  if (
    d === null ||
    typeof d !== 'object' ||
    !Number.isSafeInteger(d.secs) ||
    !Number.isSafeInteger(d.nanos) ||
    (d.secs as number) < 0 ||
    (d.nanos as number) < 0
  ) {
    throw new SandboxConfigError(`${path}: ${field}: expected a duration {"secs": u64, "nanos": u32}`, {
      details: { file: path, field },
    });
  }
  return (d.secs as number) * 1000 + (d.nanos as number) / 1_000_000;
}
