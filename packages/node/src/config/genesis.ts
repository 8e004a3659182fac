/**
 * genesis.json: nearcore's `Genesis` (core/chain-configs/src/genesis_config.rs: `GenesisConfig` flattened with
 * `records`) as types, the serde defaults of its optional fields, and the shard layout it describes.
 *
 * Field names and encodings are nearcore's: balances are decimal strings (`dec_format`), u64 values are JSON
 * numbers, ratios are `[numerator, denominator]` (`Rational32`, reduced), `genesis_time` is RFC 3339 in UTC
 * (genesis-time.ts). The rest of genesis is beside this file: the default localnet genesis
 * (genesis-defaults.ts), storage usage and supply of the records (genesis-storage.ts), validation
 * (genesis-validation.ts) and reading/writing the file (genesis-json.ts).
 */
import { type AccessKeyPermissionView, accountIdToShardId as shardOfAccount } from '@shadebox/primitives';

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
  /** NEP-655: an uninitialized universal account (a state dump's); omitted when initialized. */
  state?: 'initialized' | 'uninitialized';
  /** The nonce an uninitialized account's self-signed state init follows; present exactly when uninitialized. */
  bootstrap_nonce?: number;
}

export type AccessKeyPermission =
  | 'FullAccess'
  | { FunctionCall: { allowance: string | null; receiver_id: string; method_names: string[] } }
  | Exclude<AccessKeyPermissionView, 'FullAccess' | { FunctionCall: unknown }>;

export interface AccessKeyValue {
  nonce: number;
  permission: AccessKeyPermission;
}

/** `StateRecord` in JSON (core/primitives/src/state_record.rs). */
export type StateRecord =
  | { Account: { account_id: string; account: AccountRecordValue } }
  | { AccessKey: { account_id: string; public_key: string; access_key: AccessKeyValue } }
  | { Contract: { account_id: string; code: string } }
  | { Data: { account_id: string; data_key: string; value: string } }
  | { GasKeyNonce: { account_id: string; public_key: string; index: number; nonce: number } };

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

/** The fields nearcore gives a default when genesis.json leaves them out (serde defaults of `GenesisConfig`). */
export const OPTIONAL_DEFAULTS: Partial<GenesisConfig> = {
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
