/**
 * The default localnet genesis this node creates. It mirrors `neard init --chain-id localnet` (`init_configs` in
 * nearcore/src/config.rs): the validator account from validator_key.json holds TESTING_INIT_BALANCE (1e9 NEAR)
 * and has TESTING_INIT_STAKE (5e7 NEAR) locked and staked, with its key as the only full-access key; it is also
 * the protocol treasury. nearcore also adds an account `near` whose key is derived from the public seed "near";
 * we leave that account out (a key anyone can derive), so the validator holds the whole supply.
 */
import { base58Encode, base64Encode, ONE_NEAR as NEAR, sha256 } from '@shadebox/primitives';
import {
  EMPTY_CODE_HASH,
  type GenesisConfig,
  numSeatsPerShard,
  type Ratio,
  type StateRecord,
} from './genesis.js';
import { computeGenesisStorageUsage, totalSupplyOf } from './genesis-storage.js';
import { formatGenesisTime } from './genesis-time.js';
import { InvalidGenesisError, validateGenesis } from './genesis-validation.js';
import type { RuntimeConfig } from './runtime-config.js';

export { NEAR };

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
  /** near_chain_configs::TRANSACTION_VALIDITY_PERIOD (what `neard init` writes for localnet) */
  transactionValidityPeriod: 100,
  /** The genesis value of NEAR mainnet and testnet, kept by a chain that presents itself as one of them (a
   * testnet twin): a day of blocks there, so a client's block hash stays valid as long as it would on testnet,
   * however fast automine makes blocks. */
  networkTransactionValidityPeriod: 86_400,
  /** near_chain_configs::NUM_BLOCKS_PER_YEAR */
  numBlocksPerYear: 365 * 24 * 60 * 60,
  /** near_chain_configs::FISHERMEN_THRESHOLD */
  fishermenThreshold: 10n * NEAR,
} as const;

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
  /** Contracts deployed at genesis on accounts above (a testnet twin's registrar on `testnet`). */
  contracts?: readonly GenesisContract[];
}

/** Code deployed on a genesis account (a `Contract` record; the account's code_hash is set to match). */
export interface GenesisContract {
  accountId: string;
  code: Uint8Array;
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
  for (const contract of options.contracts ?? []) {
    const record = records.find((r) => 'Account' in r && r.Account.account_id === contract.accountId);
    if (record === undefined || !('Account' in record)) {
      throw new RangeError(`a genesis contract needs a genesis account: ${contract.accountId} is not one`);
    }
    record.Account.account.code_hash = base58Encode(sha256(contract.code));
    records.push({ Contract: { account_id: contract.accountId, code: base64Encode(contract.code) } });
  }

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
    protocol_version: options.runtimeConfig.protocolVersion,
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
    transaction_validity_period:
      options.chainId === 'testnet' || options.chainId === 'mainnet'
        ? d.networkTransactionValidityPeriod
        : d.transactionValidityPeriod,
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
