/** Values of flags more than one command takes, checked the same way everywhere. */
import { isValidAccountId } from '@shadebox/primitives';
import { integerFlag } from './args.js';
import { UsageError } from './usage-error.js';

/** Most shards a new chain may have from the command line. */
export const MAX_SHARDS = 64;

export function numShardsFlag(command: string, value: string): number {
  return integerFlag(command, '--num-shards', value, {
    min: 1,
    max: MAX_SHARDS,
    what: `an integer from 1 to ${MAX_SHARDS}`,
  });
}

/** `--block-time`: milliseconds between blocks, at least 1 (and at most what a timer can wait, ~24.8 days). */
export function blockTimeFlag(command: string, value: string): number {
  return integerFlag(command, '--block-time', value, {
    min: 1,
    max: 2_147_483_647,
    what: 'a positive whole number of milliseconds',
  });
}

/** `--yield-block-time`: automine's milliseconds between blocks while a yield waits, as `--block-time`. */
export function yieldBlockTimeFlag(command: string, value: string): number {
  return integerFlag(command, '--yield-block-time', value, {
    min: 1,
    max: 2_147_483_647,
    what: 'a positive whole number of milliseconds',
  });
}

/** A flag naming a NEAR account (`--mpc-contract-id`). */
export function accountIdFlag(command: string, flag: string, value: string): string {
  if (!isValidAccountId(value)) {
    throw new UsageError(command, `invalid value '${value}' for ${flag}: not a valid NEAR account id`, flag);
  }
  return value;
}
