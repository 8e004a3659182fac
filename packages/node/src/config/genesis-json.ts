/** Reading and writing genesis.json: nearcore's defaults filled in, nearcore's field order, its formatting. */
import { type GenesisConfig, OPTIONAL_DEFAULTS } from './genesis.js';
import { InvalidGenesisError, validateGenesis } from './genesis-validation.js';

type JsonObject = Record<string, unknown>;

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
