/**
 * genesis.json: nearcore's `Genesis` (core/chain-configs/src/genesis_config.rs: `GenesisConfig` flattened with
 * `records`), the default localnet genesis this node creates, and its validation.
 *
 * Field names, encodings and defaults are nearcore's: balances are decimal strings (`dec_format`), u64 values
 * are JSON numbers, ratios are `[numerator, denominator]` (`Rational32`, reduced), `genesis_time` is RFC 3339
 * in UTC with as many fraction digits as needed (chrono's `SecondsFormat::AutoSi`: 0, 3, 6 or 9).
 *
 * The default genesis mirrors `neard init --chain-id localnet` (`init_configs` in nearcore/src/config.rs):
 * the validator account from validator_key.json holds TESTING_INIT_BALANCE (1e9 NEAR) and has
 * TESTING_INIT_STAKE (5e7 NEAR) locked and staked, with its key as the only full-access key; it is also the
 * protocol treasury. nearcore also adds an account `near` whose key is derived from the public seed "near";
 * we leave that account out (a key anyone can derive), so the validator holds the whole supply.
 */
import { isValidAccountId, parsePublicKey, accountIdToShardId as shardOfAccount } from '@shadebox/primitives';
import { PROTOCOL_VERSION, type RuntimeConfig } from './runtime-config.js';

/** One NEAR in yoctoNEAR. */
export const NEAR = 10n ** 24n;

/** Defaults of `neard init` for localnet, with where nearcore defines them. */
export const LOCALNET_DEFAULTS = {
  chainId: 'localnet',
  validatorAccountId: 'test.near',
  /** near_chain_configs::test_utils::TESTING_INIT_BALANCE */
  balance: 1_000_000_000n * NEAR,
  /** near_chain_configs::test_utils::TESTING_INIT_STAKE */
  stake: 50_000_000n * NEAR,
  genesisHeight: 0,
  /** near_chain_configs::NUM_BLOCK_PRODUCER_SEATS */
  numBlockProducerSeats: 50,
  /** near_chain_configs::EXPECTED_EPOCH_LENGTH = 5 min / MIN_BLOCK_PRODUCTION_DELAY (600 ms) */
  epochLength: 500,
  /** near_chain_configs::INITIAL_GAS_LIMIT (per chunk) */
  gasLimit: 1_000_000_000_000_000,
  /** near_chain_configs::MIN_GAS_PRICE (NEP-92 value) */
  minGasPrice: 100_000_000n,
  /** MAX_GAS_PRICE in genesis_config.rs (the serde/SmartDefault default) */
  maxGasPrice: 10_000_000_000_000_000_000_000n,
  /** BLOCK_PRODUCER_KICKOUT_THRESHOLD, CHUNK_PRODUCER_KICKOUT_THRESHOLD, CHUNK_VALIDATOR_ONLY_KICKOUT_THRESHOLD */
  blockProducerKickoutThreshold: 90,
  chunkProducerKickoutThreshold: 90,
  chunkValidatorOnlyKickoutThreshold: 80,
  /** near_chain_configs::TRANSACTION_VALIDITY_PERIOD */
  transactionValidityPeriod: 100,
  /** near_chain_configs::NUM_BLOCKS_PER_YEAR */
  numBlocksPerYear: 365 * 24 * 60 * 60,
  /** near_chain_configs::FISHERMEN_THRESHOLD */
  fishermenThreshold: 10n * NEAR,
} as const;

export type Ratio = [numerator: number, denominator: number];

/** nearcore's `ShardLayout`; this node supports the hash-based V0 layout only. */
export interface ShardLayoutV0 {
  V0: { num_shards: number; version: number };
}
export type ShardLayout = ShardLayoutV0;

/** `AccountInfo`: a genesis validator and its stake. */
export interface AccountInfo {
  account_id: string;
  public_key: string;
  /** Staked yoctoNEAR (decimal string). */
  amount: string;
}

/** nearcore's `Account` in JSON (`SerdeAccount`, core/primitives-core/src/account.rs). */
export interface AccountRecordValue {
  amount: string;
  locked: string;
  code_hash: string;
  storage_usage: number;
  version?: 'V1' | 'V2';
  global_contract_hash?: string;
  global_contract_account_id?: string;
}

export type AccessKeyPermission =
  | 'FullAccess'
  | { FunctionCall: { allowance: string | null; receiver_id: string; method_names: string[] } };

export interface AccessKeyValue {
  nonce: number;
  permission: AccessKeyPermission;
}

/** `StateRecord` in JSON (core/primitives/src/state_record.rs). */
export type StateRecord =
  | { Account: { account_id: string; account: AccountRecordValue } }
  | { AccessKey: { account_id: string; public_key: string; access_key: AccessKeyValue } }
  | { Contract: { account_id: string; code: string } }
  | { Data: { account_id: string; data_key: string; value: string } };

/** genesis.json, with nearcore's field names (config and records in one file). */
export interface GenesisConfig {
  protocol_version: number;
  /** RFC 3339, UTC, nanosecond precision as nearcore writes it. */
  genesis_time: string;
  chain_id: string;
  genesis_height: number;
  num_block_producer_seats: number;
  num_block_producer_seats_per_shard: number[];
  avg_hidden_validator_seats_per_shard: number[];
  dynamic_resharding: boolean;
  protocol_upgrade_stake_threshold: Ratio;
  epoch_length: number;
  /** Gas limit of a chunk. */
  gas_limit: number;
  /** yocto per gas, decimal string; also the initial gas price. */
  min_gas_price: string;
  max_gas_price: string;
  block_producer_kickout_threshold: number;
  chunk_producer_kickout_threshold: number;
  chunk_validator_only_kickout_threshold: number;
  online_min_threshold: Ratio;
  online_max_threshold: Ratio;
  gas_price_adjustment_rate: Ratio;
  validators: AccountInfo[];
  transaction_validity_period: number;
  protocol_reward_rate: Ratio;
  max_inflation_rate: Ratio;
  /** Sum of `amount + locked` of every Account record, decimal string. */
  total_supply: string;
  num_blocks_per_year: number;
  protocol_treasury_account: string;
  fishermen_threshold: string;
  minimum_stake_divisor: number;
  shard_layout: ShardLayout;
  num_chunk_only_producer_seats: number;
  minimum_validators_per_shard: number;
  max_kickout_stake_perc: number;
  minimum_stake_ratio: Ratio;
  use_production_config: boolean;
  num_chunk_producer_seats: number;
  num_chunk_validator_seats: number;
  chunk_producer_assignment_changes_limit: number;
  shuffle_shard_assignment_for_chunk_producers: boolean;
  target_validator_mandates_per_shard: number;
  records: StateRecord[];
}

/** The hash of empty code: an account without a contract (`CryptoHash::default()`, 32 zero bytes in base58). */
export const EMPTY_CODE_HASH = '11111111111111111111111111111111';

const U128_MAX = (1n << 128n) - 1n;

// ---------------------------------------------------------------------------------------------------------------
// genesis_time

/** Formats nanoseconds since the Unix epoch as chrono serialises a `DateTime<Utc>` (RFC 3339, AutoSi fraction). */
export function formatGenesisTime(nanos: bigint): string {
  if (nanos < 0n) throw new RangeError('genesis time before 1970 is not supported');
  const millis = nanos / 1_000_000n;
  const subSecond = nanos % 1_000_000_000n;
  const base = new Date(Number(millis)).toISOString().slice(0, 19);
  if (subSecond === 0n) return `${base}Z`;
  const digits = subSecond.toString().padStart(9, '0');
  if (subSecond % 1_000_000n === 0n) return `${base}.${digits.slice(0, 3)}Z`;
  if (subSecond % 1_000n === 0n) return `${base}.${digits.slice(0, 6)}Z`;
  return `${base}.${digits}Z`;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Parses an RFC 3339 time (any offset, up to 9 fraction digits) into nanoseconds since the Unix epoch. */
export function parseGenesisTime(text: string): bigint {
  const m = RFC3339.exec(text);
  if (m === null) throw new RangeError(`not an RFC 3339 time: ${JSON.stringify(text)}`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    throw new RangeError(`not a valid date/time: ${JSON.stringify(text)}`);
  }
  const millis = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(millis).getUTCDate() !== day)
    throw new RangeError(`not a valid date: ${JSON.stringify(text)}`);
  let offsetMinutes = 0;
  if (m[9] !== undefined) offsetMinutes = (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const fraction = BigInt((m[7] ?? '').padEnd(9, '0'));
  const nanos = (BigInt(millis) - BigInt(offsetMinutes) * 60_000n) * 1_000_000n + fraction;
  if (nanos < 0n) throw new RangeError('genesis time before 1970 is not supported');
  return nanos;
}

// ---------------------------------------------------------------------------------------------------------------
// shards and storage

/**
 * The shard of an account under a V0 layout (`ShardLayoutV0::account_id_to_shard_id` in
 * core/primitives/src/shard_layout.rs): the first 8 bytes of sha256(account id), little-endian, modulo
 * `num_shards`.
 */
export function accountIdToShardId(layout: ShardLayout, accountId: string): number {
  return shardOfAccount(accountId, layout.V0.num_shards);
}

/** `get_num_seats_per_shard` (core/primitives/src/utils.rs): seats spread evenly, at least one per shard. */
export function numSeatsPerShard(numShards: number, numSeats: number): number[] {
  return Array.from({ length: numShards }, (_, shard) => {
    const perShard = Math.floor(numSeats / numShards) + (shard < numSeats % numShards ? 1 : 0);
    return Math.max(perShard, 1);
  });
}

function base64Length(text: string): number {
  return Buffer.from(text, 'base64').length;
}

/** Borsh length of an `AccessKey` (nonce u64 + permission enum). */
function accessKeyBorshLength(accessKey: AccessKeyValue): number {
  const permission = accessKey.permission;
  if (permission === 'FullAccess') return 8 + 1;
  const { allowance, receiver_id, method_names } = permission.FunctionCall;
  let length = 8 + 1 + (allowance === null ? 1 : 17) + 4 + Buffer.byteLength(receiver_id, 'utf8') + 4;
  for (const name of method_names) length += 4 + Buffer.byteLength(name, 'utf8');
  return length;
}

/**
 * The storage usage of every genesis account, computed as nearcore's genesis `StorageComputer`
 * (runtime/runtime/src/genesis.rs) does; nearcore ignores the `storage_usage` written in the records and uses
 * these. Account: `num_bytes_account`; access key: borsh(public key) + borsh(access key) +
 * `num_extra_bytes_record`; contract: code length; data: key + value + `num_extra_bytes_record`.
 */
export function computeGenesisStorageUsage(
  records: StateRecord[],
  runtimeConfig: RuntimeConfig,
): Map<string, bigint> {
  const { numBytesAccount, numExtraBytesRecord } = runtimeConfig.storageUsage;
  const usage = new Map<string, bigint>();
  const add = (accountId: string, bytes: bigint) =>
    usage.set(accountId, (usage.get(accountId) ?? 0n) + bytes);
  for (const record of records) {
    if ('Account' in record) add(record.Account.account_id, numBytesAccount);
    else if ('AccessKey' in record) {
      const { account_id, public_key, access_key } = record.AccessKey;
      const publicKeyLength = 1 + parsePublicKey(public_key).data.length;
      add(account_id, BigInt(publicKeyLength + accessKeyBorshLength(access_key)) + numExtraBytesRecord);
    } else if ('Contract' in record)
      add(record.Contract.account_id, BigInt(base64Length(record.Contract.code)));
    else if ('Data' in record) {
      const { account_id, data_key, value } = record.Data;
      add(account_id, BigInt(base64Length(data_key) + base64Length(value)) + numExtraBytesRecord);
    }
  }
  return usage;
}

/** Sum of `amount + locked` over the Account records (`get_initial_supply`). */
export function totalSupplyOf(records: StateRecord[]): bigint {
  let total = 0n;
  for (const record of records) {
    if ('Account' in record)
      total += BigInt(record.Account.account.amount) + BigInt(record.Account.account.locked);
  }
  return total;
}

// ---------------------------------------------------------------------------------------------------------------
// default genesis

export interface CreateDefaultGenesisOptions {
  /** The validator: its account id and public key become the validator, its account and full-access key. */
  validatorKey: { account_id: string; public_key: string };
  /** Needed to compute the genesis accounts' storage usage. */
  runtimeConfig: RuntimeConfig;
  /** Chain id. Default `localnet`. */
  chainId?: string;
  /** Number of shards of the V0 layout. Default 1. */
  numShards?: number;
  /** Blocks per epoch. Default 500 (localnet's EXPECTED_EPOCH_LENGTH). */
  epochLength?: number;
  /** Genesis time: a Date (millisecond precision) or nanoseconds since the epoch. Default now. */
  genesisTime?: Date | bigint;
  /** Liquid balance of the validator account, yoctoNEAR. Default 1e9 NEAR (nearcore's TESTING_INIT_BALANCE). */
  balance?: bigint;
  /** Locked and staked balance of the validator, yoctoNEAR. Default 5e7 NEAR (TESTING_INIT_STAKE). */
  stake?: bigint;
  /** More accounts, each with one full-access key. */
  accounts?: readonly { accountId: string; publicKey: string; amount: bigint }[];
}

function ratio(numerator: number, denominator: number): Ratio {
  return [numerator, denominator];
}

/** A localnet genesis as `neard init --chain-id localnet` writes it (see the module comment). */
export function createDefaultGenesis(options: CreateDefaultGenesisOptions): GenesisConfig {
  const d = LOCALNET_DEFAULTS;
  const numShards = options.numShards ?? 1;
  if (!Number.isSafeInteger(numShards) || numShards < 1) {
    throw new RangeError(`numShards must be a positive integer, got ${numShards}`);
  }
  const validatorId = options.validatorKey.account_id;
  const validatorPublicKey = options.validatorKey.public_key;
  const stake = options.stake ?? d.stake;
  const balance = options.balance ?? d.balance;
  if (stake <= 0n) throw new RangeError('the validator stake must be positive');
  if (balance < 0n) throw new RangeError('the validator balance must not be negative');

  const records: StateRecord[] = [];
  const addAccount = (accountId: string, publicKey: string, amount: bigint, locked: bigint) => {
    records.push({
      Account: {
        account_id: accountId,
        account: {
          amount: amount.toString(),
          locked: locked.toString(),
          code_hash: EMPTY_CODE_HASH,
          storage_usage: 0,
          version: 'V1',
        },
      },
    });
    records.push({
      AccessKey: {
        account_id: accountId,
        public_key: publicKey,
        access_key: { nonce: 0, permission: 'FullAccess' },
      },
    });
  };
  addAccount(validatorId, validatorPublicKey, balance, stake);
  for (const account of options.accounts ?? [])
    addAccount(account.accountId, account.publicKey, account.amount, 0n);

  const usage = computeGenesisStorageUsage(records, options.runtimeConfig);
  for (const record of records) {
    if ('Account' in record)
      record.Account.account.storage_usage = Number(usage.get(record.Account.account_id));
  }

  let genesisTimeNanos: bigint;
  if (options.genesisTime === undefined) genesisTimeNanos = BigInt(Date.now()) * 1_000_000n;
  else if (options.genesisTime instanceof Date)
    genesisTimeNanos = BigInt(options.genesisTime.getTime()) * 1_000_000n;
  else genesisTimeNanos = options.genesisTime;

  const genesis: GenesisConfig = {
    protocol_version: PROTOCOL_VERSION,
    genesis_time: formatGenesisTime(genesisTimeNanos),
    chain_id: options.chainId ?? d.chainId,
    genesis_height: d.genesisHeight,
    num_block_producer_seats: d.numBlockProducerSeats,
    num_block_producer_seats_per_shard: numSeatsPerShard(numShards, d.numBlockProducerSeats),
    avg_hidden_validator_seats_per_shard: Array.from({ length: numShards }, () => 0),
    dynamic_resharding: false,
    // PROTOCOL_UPGRADE_STAKE_THRESHOLD
    protocol_upgrade_stake_threshold: ratio(4, 5),
    epoch_length: options.epochLength ?? d.epochLength,
    gas_limit: d.gasLimit,
    min_gas_price: d.minGasPrice.toString(),
    max_gas_price: d.maxGasPrice.toString(),
    block_producer_kickout_threshold: d.blockProducerKickoutThreshold,
    chunk_producer_kickout_threshold: d.chunkProducerKickoutThreshold,
    chunk_validator_only_kickout_threshold: d.chunkValidatorOnlyKickoutThreshold,
    // init_configs: Rational32::new(BLOCK_PRODUCER_KICKOUT_THRESHOLD, 100), reduced; and 99/100
    online_min_threshold: ratio(9, 10),
    online_max_threshold: ratio(99, 100),
    // GAS_PRICE_ADJUSTMENT_RATE
    gas_price_adjustment_rate: ratio(1, 100),
    validators: [{ account_id: validatorId, public_key: validatorPublicKey, amount: stake.toString() }],
    transaction_validity_period: d.transactionValidityPeriod,
    // PROTOCOL_REWARD_RATE, MAX_INFLATION_RATE
    protocol_reward_rate: ratio(1, 10),
    max_inflation_rate: ratio(1, 20),
    total_supply: totalSupplyOf(records).toString(),
    num_blocks_per_year: d.numBlocksPerYear,
    protocol_treasury_account: validatorId,
    fishermen_threshold: d.fishermenThreshold.toString(),
    // The remaining values are GenesisConfig's serde defaults (genesis_config.rs).
    minimum_stake_divisor: 10,
    shard_layout: { V0: { num_shards: numShards, version: 0 } },
    num_chunk_only_producer_seats: 300,
    minimum_validators_per_shard: 1,
    max_kickout_stake_perc: 100,
    minimum_stake_ratio: ratio(1, 6250),
    use_production_config: false,
    num_chunk_producer_seats: 100,
    num_chunk_validator_seats: 300,
    chunk_producer_assignment_changes_limit: 5,
    shuffle_shard_assignment_for_chunk_producers: false,
    target_validator_mandates_per_shard: 68,
    records,
  };
  const issues = validateGenesis(genesis);
  if (issues.length > 0) throw new InvalidGenesisError(issues);
  return genesis;
}

// ---------------------------------------------------------------------------------------------------------------
// validation

/** One problem in a genesis file: where (`records[3].Account.account.amount`) and what. */
export interface GenesisIssue {
  path: string;
  message: string;
}

export class InvalidGenesisError extends Error {
  constructor(readonly issues: readonly GenesisIssue[]) {
    super(`invalid genesis: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
    this.name = 'InvalidGenesisError';
  }
}

type Json = unknown;
type JsonObject = Record<string, Json>;

function isObject(value: Json): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: Json): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (isObject(value)) return 'an object';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The fields nearcore gives a default when genesis.json leaves them out (serde defaults of `GenesisConfig`). */
const OPTIONAL_DEFAULTS: Partial<GenesisConfig> = {
  protocol_upgrade_stake_threshold: [4, 5],
  online_min_threshold: [9, 10],
  online_max_threshold: [99, 100],
  minimum_stake_divisor: 10,
  shard_layout: { V0: { num_shards: 1, version: 0 } },
  num_chunk_only_producer_seats: 300,
  minimum_validators_per_shard: 1,
  max_kickout_stake_perc: 100,
  minimum_stake_ratio: [1, 6250],
  use_production_config: false,
  num_chunk_producer_seats: 100,
  num_chunk_validator_seats: 300,
  chunk_producer_assignment_changes_limit: 5,
  shuffle_shard_assignment_for_chunk_producers: false,
  target_validator_mandates_per_shard: 68,
  chunk_validator_only_kickout_threshold: 80,
};

class Checker {
  readonly issues: GenesisIssue[] = [];

  issue(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  /** A u64 written as a JSON number (must also be a safe integer here). */
  u64(value: Json, path: string, min = 0): value is number {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.issue(path, `expected an integer, got ${show(value)}`);
      return false;
    }
    if (!Number.isSafeInteger(value)) {
      this.issue(path, `${value} is too large to be read exactly (above 2^53)`);
      return false;
    }
    if (value < min) {
      this.issue(path, `must be at least ${min}, got ${value}`);
      return false;
    }
    return true;
  }

  u8(value: Json, path: string, max = 255): value is number {
    if (!this.u64(value, path)) return false;
    if (value > max) {
      this.issue(path, `must be at most ${max}, got ${value}`);
      return false;
    }
    return true;
  }

  /** A u128 written as a decimal string; returns it as bigint, or null after recording an issue. */
  u128(value: Json, path: string): bigint | null {
    if (typeof value !== 'string' || !/^(0|[1-9]\d*)$/.test(value)) {
      this.issue(path, `expected a decimal string of yoctoNEAR, got ${show(value)}`);
      return null;
    }
    const amount = BigInt(value);
    if (amount > U128_MAX) {
      this.issue(path, `${value} does not fit in a u128`);
      return null;
    }
    return amount;
  }

  bool(value: Json, path: string): value is boolean {
    if (typeof value !== 'boolean') {
      this.issue(path, `expected true or false, got ${show(value)}`);
      return false;
    }
    return true;
  }

  accountId(value: Json, path: string): value is string {
    if (typeof value !== 'string' || !isValidAccountId(value)) {
      this.issue(path, `invalid account id ${show(value)}`);
      return false;
    }
    return true;
  }

  publicKey(value: Json, path: string): value is string {
    if (typeof value !== 'string') {
      this.issue(path, `expected a public key string, got ${show(value)}`);
      return false;
    }
    try {
      parsePublicKey(value);
      return true;
    } catch (error) {
      this.issue(path, `${(error as Error).message} (${show(value)})`);
      return false;
    }
  }

  ratio(value: Json, path: string): value is Ratio {
    if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isInteger(n))) {
      this.issue(path, `expected [numerator, denominator], got ${show(value)}`);
      return false;
    }
    if (value[1] === 0) {
      this.issue(path, 'denominator is 0');
      return false;
    }
    if (Math.abs(value[0]) > 2 ** 31 - 1 || Math.abs(value[1]) > 2 ** 31 - 1) {
      this.issue(path, 'numerator and denominator must fit in an i32');
      return false;
    }
    return true;
  }

  u64Array(value: Json, path: string): value is number[] {
    if (!Array.isArray(value)) {
      this.issue(path, `expected an array of integers, got ${show(value)}`);
      return false;
    }
    return value.map((n, i) => this.u64(n, `${path}[${i}]`)).every(Boolean);
  }

  base58Hash(value: Json, path: string): boolean {
    if (typeof value !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) {
      this.issue(path, `expected a base58 hash, got ${show(value)}`);
      return false;
    }
    return true;
  }

  base64(value: Json, path: string): boolean {
    if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) {
      this.issue(path, `expected base64, got ${show(value)}`);
      return false;
    }
    return true;
  }
}

function ratioValue([numerator, denominator]: Ratio): number {
  return numerator / denominator;
}

/** Checks the records; `balancesOk` is false when some balance could not be read (no supply to compare then). */
function checkRecords(
  c: Checker,
  records: Json,
): { supply: bigint; staked: Map<string, bigint>; balancesOk: boolean } {
  const supply = { value: 0n, balancesOk: true };
  const staked = new Map<string, bigint>();
  if (!Array.isArray(records)) {
    c.issue('records', `expected an array of state records, got ${show(records)}`);
    return { supply: supply.value, staked, balancesOk: false };
  }
  const accounts = new Set<string>();
  const keyOwners: [string, string][] = [];
  const contracts = new Set<string>();
  const contractOwners: [string, string][] = [];
  const dataOwners: [string, string][] = [];
  records.forEach((record, index) => {
    const at = `records[${index}]`;
    const kinds = isObject(record) ? Object.keys(record) : [];
    if (!isObject(record) || kinds.length !== 1) {
      c.issue(at, 'expected an object with one key: Account, AccessKey, Contract or Data');
      return;
    }
    const kind = kinds[0];
    const body = record[kind];
    const path = `${at}.${kind}`;
    if (!isObject(body)) {
      c.issue(path, `expected an object, got ${show(body)}`);
      return;
    }
    const idOk = c.accountId(body.account_id, `${path}.account_id`);
    const id = body.account_id as string;
    switch (kind) {
      case 'Account': {
        const account = body.account;
        if (!isObject(account)) {
          c.issue(`${path}.account`, `expected an object, got ${show(account)}`);
          supply.balancesOk = false;
          return;
        }
        const amount = c.u128(account.amount, `${path}.account.amount`);
        const locked = c.u128(account.locked, `${path}.account.locked`);
        const hasLocalCode = account.code_hash !== undefined && account.code_hash !== EMPTY_CODE_HASH;
        c.base58Hash(account.code_hash, `${path}.account.code_hash`);
        c.u64(account.storage_usage, `${path}.account.storage_usage`);
        if (account.version !== undefined && account.version !== 'V1' && account.version !== 'V2') {
          c.issue(`${path}.account.version`, `expected "V1" or "V2", got ${show(account.version)}`);
        }
        if (account.global_contract_hash !== undefined) {
          c.base58Hash(account.global_contract_hash, `${path}.account.global_contract_hash`);
        }
        if (account.global_contract_account_id !== undefined) {
          c.accountId(account.global_contract_account_id, `${path}.account.global_contract_account_id`);
        }
        if (
          hasLocalCode &&
          (account.global_contract_hash !== undefined || account.global_contract_account_id !== undefined)
        ) {
          c.issue(`${path}.account`, 'an account cannot have both a local and a global contract');
        }
        if (!idOk) return;
        if (accounts.has(id)) c.issue(`${path}.account_id`, `duplicate account id ${id} in genesis records`);
        accounts.add(id);
        if (amount !== null && locked !== null) {
          supply.value += amount + locked;
          if (locked > 0n) staked.set(id, locked);
        } else supply.balancesOk = false;
        return;
      }
      case 'AccessKey': {
        c.publicKey(body.public_key, `${path}.public_key`);
        const accessKey = body.access_key;
        if (!isObject(accessKey)) {
          c.issue(`${path}.access_key`, `expected an object, got ${show(accessKey)}`);
        } else {
          c.u64(accessKey.nonce, `${path}.access_key.nonce`);
          const permission = accessKey.permission;
          if (permission !== 'FullAccess') {
            const call = isObject(permission) ? permission.FunctionCall : undefined;
            if (!isObject(call)) {
              c.issue(
                `${path}.access_key.permission`,
                `expected "FullAccess" or {FunctionCall}, got ${show(permission)}`,
              );
            } else {
              if (call.allowance !== null && call.allowance !== undefined) {
                c.u128(call.allowance, `${path}.access_key.permission.FunctionCall.allowance`);
              }
              c.accountId(call.receiver_id, `${path}.access_key.permission.FunctionCall.receiver_id`);
              if (
                !Array.isArray(call.method_names) ||
                !call.method_names.every((m) => typeof m === 'string')
              ) {
                c.issue(
                  `${path}.access_key.permission.FunctionCall.method_names`,
                  'expected an array of strings',
                );
              }
            }
          }
        }
        if (idOk) keyOwners.push([id, path]);
        return;
      }
      case 'Contract': {
        c.base64(body.code, `${path}.code`);
        if (!idOk) return;
        if (contracts.has(id))
          c.issue(`${path}.account_id`, `account ${id} has more than one contract deployed`);
        contracts.add(id);
        contractOwners.push([id, path]);
        return;
      }
      case 'Data': {
        c.base64(body.data_key, `${path}.data_key`);
        c.base64(body.value, `${path}.value`);
        if (idOk) dataOwners.push([id, path]);
        return;
      }
      default:
        c.issue(
          at,
          `unsupported state record kind ${JSON.stringify(kind)} (Account, AccessKey, Contract, Data)`,
        );
    }
  });
  for (const [id, path] of keyOwners) {
    if (!accounts.has(id)) c.issue(`${path}.account_id`, `access key account ${id} does not exist`);
  }
  for (const [id, path] of contractOwners) {
    if (!accounts.has(id)) c.issue(`${path}.account_id`, `contract account ${id} does not exist`);
  }
  for (const [id, path] of dataOwners) {
    if (!accounts.has(id)) c.issue(`${path}.account_id`, `data account ${id} does not exist`);
  }
  return { supply: supply.value, staked, balancesOk: supply.balancesOk };
}

/**
 * Checks a parsed genesis.json: every field nearcore requires, with the right type and encoding; the optional
 * ones when present; nearcore's semantic checks (`genesis_validate.rs`: total supply, validators = staked
 * accounts, keys/contracts of existing accounts, thresholds); and what this node needs (protocol 85, a V0
 * shard layout with at least one shard). Returns every problem found (empty when valid).
 */
export function validateGenesis(json: unknown): GenesisIssue[] {
  const c = new Checker();
  if (!isObject(json)) {
    c.issue('$', `expected a JSON object, got ${show(json)}`);
    return c.issues;
  }
  const g: JsonObject = { ...OPTIONAL_DEFAULTS, ...json };
  const required = (name: string): boolean => {
    if (json[name] === undefined) {
      c.issue(name, 'missing');
      return false;
    }
    return true;
  };

  if (required('protocol_version') && c.u64(g.protocol_version, 'protocol_version')) {
    if (g.protocol_version !== PROTOCOL_VERSION) {
      c.issue(
        'protocol_version',
        `this node runs protocol ${PROTOCOL_VERSION} only, got ${g.protocol_version}`,
      );
    }
  }
  if (required('genesis_time')) {
    if (typeof g.genesis_time !== 'string')
      c.issue('genesis_time', `expected an RFC 3339 string, got ${show(g.genesis_time)}`);
    else {
      try {
        parseGenesisTime(g.genesis_time);
      } catch (error) {
        c.issue('genesis_time', (error as Error).message);
      }
    }
  }
  if (required('chain_id') && (typeof g.chain_id !== 'string' || g.chain_id === '')) {
    c.issue('chain_id', `expected a non-empty string, got ${show(g.chain_id)}`);
  }
  for (const name of [
    'genesis_height',
    'num_block_producer_seats',
    'transaction_validity_period',
    'num_blocks_per_year',
    'minimum_stake_divisor',
    'num_chunk_only_producer_seats',
    'minimum_validators_per_shard',
    'num_chunk_producer_seats',
    'num_chunk_validator_seats',
    'chunk_producer_assignment_changes_limit',
    'target_validator_mandates_per_shard',
  ]) {
    if (name in OPTIONAL_DEFAULTS || required(name)) c.u64(g[name], name);
  }
  if (required('epoch_length')) c.u64(g.epoch_length, 'epoch_length', 1);
  if (required('gas_limit')) c.u64(g.gas_limit, 'gas_limit', 1);
  for (const name of [
    'block_producer_kickout_threshold',
    'chunk_producer_kickout_threshold',
    'chunk_validator_only_kickout_threshold',
    'max_kickout_stake_perc',
  ]) {
    if (name in OPTIONAL_DEFAULTS || required(name)) c.u8(g[name], name, 100);
  }
  for (const name of [
    'dynamic_resharding',
    'use_production_config',
    'shuffle_shard_assignment_for_chunk_producers',
  ]) {
    if (name in OPTIONAL_DEFAULTS || required(name)) c.bool(g[name], name);
  }
  const ratiosOk: Record<string, boolean> = {};
  for (const name of [
    'protocol_upgrade_stake_threshold',
    'online_min_threshold',
    'online_max_threshold',
    'gas_price_adjustment_rate',
    'protocol_reward_rate',
    'max_inflation_rate',
    'minimum_stake_ratio',
  ]) {
    ratiosOk[name] = (name in OPTIONAL_DEFAULTS || required(name)) && c.ratio(g[name], name);
  }
  if (ratiosOk.online_min_threshold && ratiosOk.online_max_threshold) {
    const min = ratioValue(g.online_min_threshold as Ratio);
    const max = ratioValue(g.online_max_threshold as Ratio);
    if (max <= min) c.issue('online_max_threshold', 'must be greater than online_min_threshold');
    if (max > 1) c.issue('online_max_threshold', 'must be at most 1');
  }
  if (ratiosOk.gas_price_adjustment_rate && ratioValue(g.gas_price_adjustment_rate as Ratio) >= 1) {
    c.issue('gas_price_adjustment_rate', 'must be less than 1');
  }

  const minGasPrice = required('min_gas_price') ? c.u128(g.min_gas_price, 'min_gas_price') : null;
  const maxGasPrice = required('max_gas_price') ? c.u128(g.max_gas_price, 'max_gas_price') : null;
  if (minGasPrice !== null && maxGasPrice !== null && minGasPrice > maxGasPrice) {
    c.issue('min_gas_price', 'must not be greater than max_gas_price');
  }
  if (required('fishermen_threshold')) c.u128(g.fishermen_threshold, 'fishermen_threshold');
  if (required('protocol_treasury_account'))
    c.accountId(g.protocol_treasury_account, 'protocol_treasury_account');

  // Shard layout.
  let numShards: number | null = null;
  const layout = g.shard_layout;
  if (!isObject(layout) || !isObject(layout.V0) || Object.keys(layout).length !== 1) {
    const kind = isObject(layout) ? Object.keys(layout).join(', ') : show(layout);
    c.issue(
      'shard_layout',
      `expected {"V0": {"num_shards": n, "version": 0}} (only V0 is supported), got ${kind}`,
    );
  } else if (typeof layout.V0.num_shards !== 'number' || layout.V0.num_shards < 1) {
    c.issue('shard_layout.V0.num_shards', `must be at least 1, got ${show(layout.V0.num_shards)}`);
  } else if (
    c.u64(layout.V0.num_shards, 'shard_layout.V0.num_shards', 1) &&
    c.u64(layout.V0.version, 'shard_layout.V0.version')
  ) {
    numShards = layout.V0.num_shards;
  }
  for (const name of ['num_block_producer_seats_per_shard', 'avg_hidden_validator_seats_per_shard']) {
    if (!required(name) || !c.u64Array(g[name], name)) continue;
    const length = (g[name] as number[]).length;
    if (numShards !== null && length !== numShards) {
      c.issue(name, `has ${length} entries but the shard layout has ${numShards} shards`);
    }
  }

  // Records and supply.
  const { supply, staked, balancesOk } = required('records')
    ? checkRecords(c, g.records)
    : { supply: 0n, staked: new Map<string, bigint>(), balancesOk: false };
  if (required('total_supply')) {
    const totalSupply = c.u128(g.total_supply, 'total_supply');
    if (totalSupply !== null && balancesOk && totalSupply !== supply) {
      c.issue(
        'total_supply',
        `is ${totalSupply} but the Account records hold ${supply} (sum of amount + locked); they must be equal`,
      );
    }
  }

  // Validators.
  if (required('validators')) {
    if (!Array.isArray(g.validators)) c.issue('validators', `expected an array, got ${show(g.validators)}`);
    else if (g.validators.length === 0) c.issue('validators', 'no validators in genesis');
    else {
      const stakes = new Map<string, bigint>();
      g.validators.forEach((validator: Json, i: number) => {
        const path = `validators[${i}]`;
        if (!isObject(validator)) {
          c.issue(path, `expected {account_id, public_key, amount}, got ${show(validator)}`);
          return;
        }
        const idOk = c.accountId(validator.account_id, `${path}.account_id`);
        if (c.publicKey(validator.public_key, `${path}.public_key`)) {
          if (parsePublicKey(validator.public_key).keyType !== 0) {
            c.issue(`${path}.public_key`, 'a validator staking key must be ed25519');
          }
        }
        const amount = c.u128(validator.amount, `${path}.amount`);
        if (!idOk || amount === null) return;
        if (stakes.has(validator.account_id as string)) {
          c.issue(`${path}.account_id`, `duplicate validator ${validator.account_id}`);
        }
        stakes.set(validator.account_id as string, amount);
      });
      if (balancesOk && c.issues.every((issue) => !issue.path.startsWith('validators'))) {
        const same =
          stakes.size === staked.size && [...stakes].every(([id, amount]) => staked.get(id) === amount);
        if (!same) {
          c.issue(
            'validators',
            'validator accounts do not match staked accounts: every validator needs an Account record whose ' +
              '`locked` equals its `amount`, and every account with a non-zero `locked` must be a validator',
          );
        }
      }
    }
  }
  return c.issues;
}

/**
 * Validates a parsed genesis.json and returns it with nearcore's defaults filled in for the optional fields,
 * in nearcore's field order. Throws {@link InvalidGenesisError} listing every problem.
 */
export function parseGenesis(json: unknown): GenesisConfig {
  const issues = validateGenesis(json);
  if (issues.length > 0) throw new InvalidGenesisError(issues);
  const g = { ...OPTIONAL_DEFAULTS, ...(json as JsonObject) } as unknown as GenesisConfig;
  const ordered: Record<string, unknown> = {};
  for (const key of GENESIS_FIELD_ORDER) ordered[key] = g[key];
  return ordered as unknown as GenesisConfig;
}

/** The order in which genesis fields are written (nearcore's struct order, newer fields after). */
export const GENESIS_FIELD_ORDER: readonly (keyof GenesisConfig)[] = [
  'protocol_version',
  'genesis_time',
  'chain_id',
  'genesis_height',
  'num_block_producer_seats',
  'num_block_producer_seats_per_shard',
  'avg_hidden_validator_seats_per_shard',
  'dynamic_resharding',
  'protocol_upgrade_stake_threshold',
  'epoch_length',
  'gas_limit',
  'min_gas_price',
  'max_gas_price',
  'block_producer_kickout_threshold',
  'chunk_producer_kickout_threshold',
  'chunk_validator_only_kickout_threshold',
  'online_min_threshold',
  'online_max_threshold',
  'gas_price_adjustment_rate',
  'validators',
  'transaction_validity_period',
  'protocol_reward_rate',
  'max_inflation_rate',
  'total_supply',
  'num_blocks_per_year',
  'protocol_treasury_account',
  'fishermen_threshold',
  'minimum_stake_divisor',
  'shard_layout',
  'num_chunk_only_producer_seats',
  'minimum_validators_per_shard',
  'max_kickout_stake_perc',
  'minimum_stake_ratio',
  'use_production_config',
  'num_chunk_producer_seats',
  'num_chunk_validator_seats',
  'chunk_producer_assignment_changes_limit',
  'shuffle_shard_assignment_for_chunk_producers',
  'target_validator_mandates_per_shard',
  'records',
];

/** genesis.json text: nearcore's field order, 2-space indent (as `serde_json::to_vec_pretty`), final newline. */
export function serializeGenesis(genesis: GenesisConfig): string {
  const ordered: Record<string, unknown> = {};
  for (const key of GENESIS_FIELD_ORDER) ordered[key] = genesis[key];
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
