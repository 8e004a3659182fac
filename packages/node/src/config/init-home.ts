/**
 * The node's home directory: genesis.json, config.json, validator_key.json and node_key.json, as
 * `neard init --chain-id localnet` lays them out. `initHome` writes a new home, `loadHome` reads one back and
 * checks every file (and that the validator key is the genesis validator's), `createEphemeralHome` builds the
 * same objects in memory for `--memory` runs.
 */

// fs.promises is read on use: importing node:fs/promises loads it (and readline) at every start of a node.
import { constants, promises as fsPromises } from 'node:fs';
import { join, resolve } from 'node:path';
import { ShadeboxError } from '@shadebox/errors';
import { KeyPair } from '@shadebox/primitives';
import { ConfigFileError } from './config-file-error.js';
import { DEV_ACCOUNT_BALANCE, DEV_ACCOUNTS_FILE, serializeDevAccounts } from './dev-accounts.js';
import type { GenesisConfig } from './genesis.js';
import { genesisAccountIdFor } from './genesis-account.js';
import { createDefaultGenesis, type GenesisContract } from './genesis-defaults.js';
import { parseGenesis, serializeGenesis } from './genesis-json.js';
import { InvalidGenesisError } from './genesis-validation.js';
import { assertHomeFree } from './home-lock.js';
import {
  createKeyFile,
  defaultNodeConfig,
  type KeyFile,
  NODE_KEY_ACCOUNT_ID,
  type NodeConfig,
  normalizePublicKey,
  type ProductionMode,
  parseKeyFile,
  parseNodeConfig,
  serializeKeyFile,
  serializeNodeConfig,
} from './node-config.js';
import { loadRuntimeConfig } from './runtime-config.js';

export const CONFIG_FILE = 'config.json';

/** Everything a node needs from its home, checked. */
export interface Home {
  /** The home directory, or null for an in-memory home. */
  dir: string | null;
  genesis: GenesisConfig;
  config: NodeConfig;
  validatorKey: KeyFile;
  nodeKey: KeyFile;
  /** The funded dev accounts genesis created, with their keys (dev_accounts.json; config/dev-accounts.ts). */
  devAccounts: KeyFile[];
}

export interface HomeOptions {
  /** Chain id. Default `localnet`. `testnet` makes a testnet twin: its genesis account is `testnet`
   * (config/genesis-account.ts). */
  chainId?: string;
  /** Shards of the V0 layout. Default 1. */
  numShards?: number;
  /** Blocks per epoch. Default 500. */
  epochLength?: number;
  /** The validator account. Default `testnet` for chain id `testnet`, else `test.near`. */
  accountId?: string;
  /** Reuse this validator secret key (`ed25519:...`) instead of generating one. */
  validatorSecretKey?: string;
  /** Genesis time. Default now. */
  genesisTime?: Date | bigint;
  /** `rpc.addr`. Default `127.0.0.1:3030`. */
  rpcAddr?: string;
  /** `shadebox.production`. Default `automine`. */
  production?: ProductionMode;
  /** `shadebox.block_time_ms`. Default 1000. */
  blockTimeMs?: number;
  /** `archive`. Default false. */
  archive?: boolean;
  /** Genesis `protocol_version`: the rules the chain runs. Default the version mainnet runs (86). */
  protocolVersion?: number;
  /** Dev accounts genesis funds (config/dev-accounts.ts). Default none. */
  devAccounts?: readonly KeyFile[];
  /** A file with the ETH wallet contract: copied into the home as `eth_wallet_contract.wasm` and named by
   * `shadebox.eth_wallet_contract` (an in-memory home names the file itself). */
  ethWalletContract?: string;
  /** Code genesis deploys on genesis accounts (a testnet twin's registrar on `testnet`). Default none. */
  genesisContracts?: readonly GenesisContract[];
}

export interface InitHomeOptions extends HomeOptions {
  /** Overwrite the files of an existing home. Default false. */
  force?: boolean;
}

/** Where initHome puts the ETH wallet contract it is given. */
export const ETH_WALLET_CONTRACT_FILE = 'eth_wallet_contract.wasm';

/** initHome found files of an existing home and was not told to overwrite them. */
export class HomeExistsError extends ShadeboxError<{ dir: string; existing: readonly string[] }> {
  constructor(
    readonly dir: string,
    readonly existing: readonly string[],
  ) {
    super(`${dir} already holds a node home (${existing.join(', ')}); pass force to overwrite it`, {
      details: { dir, existing },
    });
  }
}

/** A new home's contents, in memory: fresh validator and node keys, the default genesis and config. */
export function createEphemeralHome(options: HomeOptions = {}): Home {
  const accountId = options.accountId ?? genesisAccountIdFor(options.chainId);
  const validatorKeyPair =
    options.validatorSecretKey === undefined
      ? KeyPair.fromRandom('ed25519')
      : KeyPair.fromString(options.validatorSecretKey);
  const validatorKey = createKeyFile(accountId, validatorKeyPair);
  const nodeKey = createKeyFile(NODE_KEY_ACCOUNT_ID);
  const genesis = createDefaultGenesis({
    validatorKey,
    runtimeConfig: loadRuntimeConfig(options.protocolVersion),
    chainId: options.chainId,
    numShards: options.numShards,
    epochLength: options.epochLength,
    genesisTime: options.genesisTime,
    accounts: (options.devAccounts ?? []).map((a) => ({
      accountId: a.account_id,
      publicKey: a.public_key,
      amount: DEV_ACCOUNT_BALANCE,
    })),
    contracts: options.genesisContracts,
  });
  const config = defaultNodeConfig({
    rpcAddr: options.rpcAddr,
    production: options.production,
    blockTimeMs: options.blockTimeMs,
    archive: options.archive,
  });
  if (options.ethWalletContract) config.shadebox.eth_wallet_contract = resolve(options.ethWalletContract);
  return { dir: null, genesis, config, validatorKey, nodeKey, devAccounts: [...(options.devAccounts ?? [])] };
}

async function exists(path: string): Promise<boolean> {
  try {
    await fsPromises.access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/** Writes through a temporary file so a crash never leaves half a file behind. */
async function writeFileAtomic(path: string, text: string, mode: number): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  await fsPromises.writeFile(temporary, text, { mode });
  await fsPromises.chmod(temporary, mode);
  await fsPromises.rename(temporary, path);
}

/**
 * Creates `dir` (if needed) and writes genesis.json, config.json, validator_key.json and node_key.json
 * (key files with mode 0600). Refuses with {@link HomeExistsError} when any of them exists, unless `force`.
 */
export async function initHome(dir: string, options: InitHomeOptions = {}): Promise<Home> {
  const home = { ...createEphemeralHome(options), dir };
  const files = {
    config: join(dir, CONFIG_FILE),
    genesis: join(dir, home.config.genesis_file),
    validatorKey: join(dir, home.config.validator_key_file),
    nodeKey: join(dir, home.config.node_key_file),
  };
  // Overwriting the home of a running node would pull its chain from under it.
  if (options.force) assertHomeFree(dir);
  else {
    const existing: string[] = [];
    for (const path of Object.values(files)) if (await exists(path)) existing.push(path);
    if (existing.length > 0) throw new HomeExistsError(dir, existing);
  }
  await fsPromises.mkdir(dir, { recursive: true });
  if (options.ethWalletContract) {
    await fsPromises.copyFile(options.ethWalletContract, join(dir, ETH_WALLET_CONTRACT_FILE));
    home.config.shadebox.eth_wallet_contract = ETH_WALLET_CONTRACT_FILE;
  }
  // Keys first, config.json last: a home is only complete once config.json is there.
  await writeFileAtomic(files.validatorKey, serializeKeyFile(home.validatorKey), 0o600);
  await writeFileAtomic(files.nodeKey, serializeKeyFile(home.nodeKey), 0o600);
  if (home.devAccounts.length > 0) {
    await writeFileAtomic(join(dir, DEV_ACCOUNTS_FILE), serializeDevAccounts(home.devAccounts), 0o600);
  }
  await writeFileAtomic(files.genesis, serializeGenesis(home.genesis), 0o644);
  await writeFileAtomic(files.config, serializeNodeConfig(home.config), 0o644);
  return home;
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await fsPromises.readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw ConfigFileError.single(path, '$', code === 'ENOENT' ? 'file not found' : `cannot read (${code})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw ConfigFileError.single(path, '$', `not valid JSON (${(error as Error).message})`);
  }
}

/**
 * Reads a home written by {@link initHome} (or by `neard init`, for the fields we use) and checks every file;
 * the validator key must be the one genesis stakes. Throws {@link ConfigFileError} naming the file and field.
 */
export async function loadHome(dir: string): Promise<Home> {
  const configPath = join(dir, CONFIG_FILE);
  if (!(await exists(configPath))) {
    throw ConfigFileError.single(configPath, '$', `file not found: ${dir} is not an initialised node home`);
  }
  const config = parseNodeConfig(await readJson(configPath), configPath);

  const genesisPath = join(dir, config.genesis_file);
  let genesis: GenesisConfig;
  try {
    genesis = parseGenesis(await readJson(genesisPath));
  } catch (error) {
    if (error instanceof InvalidGenesisError) {
      throw new ConfigFileError(
        genesisPath,
        error.issues.map((issue) => ({ field: issue.path, message: issue.message })),
      );
    }
    throw error;
  }

  const validatorKeyPath = join(dir, config.validator_key_file);
  const validatorKey = parseKeyFile(await readJson(validatorKeyPath), validatorKeyPath);
  const nodeKeyPath = join(dir, config.node_key_file);
  const nodeKey = parseKeyFile(await readJson(nodeKeyPath), nodeKeyPath);

  const validator = genesis.validators.find((v) => v.account_id === validatorKey.account_id);
  if (validator === undefined) {
    throw ConfigFileError.single(
      validatorKeyPath,
      'account_id',
      `${validatorKey.account_id} is not a validator in ${config.genesis_file} ` +
        `(validators: ${genesis.validators.map((v) => v.account_id).join(', ')}); this node could not produce blocks`,
    );
  }
  if (normalizePublicKey(validator.public_key) !== normalizePublicKey(validatorKey.public_key)) {
    throw ConfigFileError.single(
      validatorKeyPath,
      'public_key',
      `${validatorKey.public_key} is not the staking key of ${validator.account_id} in ${config.genesis_file} ` +
        `(${validator.public_key})`,
    );
  }
  return { dir, genesis, config, validatorKey, nodeKey, devAccounts: await readDevAccounts(dir) };
}

/** The home's dev accounts (dev_accounts.json), or none for a home without that file. */
async function readDevAccounts(dir: string): Promise<KeyFile[]> {
  const path = join(dir, DEV_ACCOUNTS_FILE);
  if (!(await exists(path))) return [];
  const json = await readJson(path);
  if (!Array.isArray(json)) throw ConfigFileError.single(path, '$', 'expected an array of key files');
  return json.map((entry, i) => parseKeyFile(entry, `${path} [${i}]`));
}
