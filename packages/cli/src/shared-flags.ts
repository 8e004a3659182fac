/** Values of flags more than one command takes, checked the same way everywhere. */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
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

/** `--eth-wallet-contract FILE`: the ETH wallet contract of a new chain (a readable file, resolved against
 * the working directory). */
export function ethWalletContractFlag(command: string, value: string, cwd: string): string {
  const path = resolve(cwd, value);
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
  } catch {
    throw new UsageError(command, `--eth-wallet-contract: cannot read '${value}'`, '--eth-wallet-contract');
  }
  return path;
}

/** Help line of `--eth-wallet-contract`. */
export const ETH_WALLET_CONTRACT_HELP = `  --eth-wallet-contract FILE  a new chain holds this ETH wallet contract (e.g. nearcore's
                    wallet_contract_localnet.wasm) as a global contract from genesis, and a transfer to a
                    0x… account creates it using that contract, as on NEAR (an existing chain keeps its own)
`;
