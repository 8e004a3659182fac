/** Values of flags more than one command takes, checked the same way everywhere. */

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ProductionMode } from '@shadebox/node';
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

/** Most dev accounts `--accounts` may ask for (each is a genesis account with a key). */
export const MAX_DEV_ACCOUNTS = 1000;

/** `--accounts N`: dev accounts a new chain funds, 0 to MAX_DEV_ACCOUNTS. */
export function devAccountsFlag(command: string, value: string): number {
  return integerFlag(command, '--accounts', value, {
    min: 0,
    max: MAX_DEV_ACCOUNTS,
    what: `an integer from 0 to ${MAX_DEV_ACCOUNTS}`,
  });
}

/** `--seed TEXT`: what the dev accounts' keys and the MPC root keys derive from; any non-empty text. */
export function seedFlag(command: string, value: string): string {
  if (value === '') throw new UsageError(command, 'invalid value for --seed: it must not be empty', '--seed');
  return value;
}

/** `--block-time` or `--manual` as a production mode (undefined: as the home's config.json says). */
export function productionFlag(
  command: string,
  blockTime: string | undefined,
  manual: boolean | undefined,
): ProductionMode | undefined {
  if (blockTime !== undefined) return { kind: 'interval', blockTimeMs: blockTimeFlag(command, blockTime) };
  if (manual) return { kind: 'manual' };
  return undefined;
}

/** `--accounts` and `--seed` as StartNodeOptions' `devAccounts` (config/dev-accounts.ts in the node). */
export function devAccountsFromFlags(
  command: string,
  accounts: string | undefined,
  seed: string | undefined,
): { count: number; seed: string } {
  return {
    count: accounts === undefined ? 10 : devAccountsFlag(command, accounts),
    seed: seed === undefined ? 'shadebox' : seedFlag(command, seed),
  };
}

/** The help lines of `--accounts`, `--seed` and `--quiet` (both `up` and `node`). */
export const DEV_ACCOUNT_HELP = `  --accounts N      dev accounts a new chain funds at genesis, 0 to ${MAX_DEV_ACCOUNTS} (default 10):
                    dev-0.test.near, dev-1.test.near, ..., 10000 NEAR each, one full-access key each,
                    printed in the summary (an existing home keeps the accounts it has)
  --seed TEXT       what the dev accounts' keys and the MPC root keys derive from (default 'shadebox'): the
                    same seed gives the same keys and agent addresses (a home keeps the keys it has). TEST
                    keys: anyone can derive them (docs/cli.md, docs/chain-signatures.md)
  --quiet           no live transaction log on stderr (without --json it is on: one entry per
                    transaction and receipt; with --json there is none)
`;

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
