/**
 * The result of `EXPERIMENTAL_protocol_config`: nearcore's `ProtocolConfigView`
 * (core/chain-configs/src/genesis_config.rs) with its `runtime_config: RuntimeConfigView`
 * (core/parameters/src/view.rs), as a plain JSON-ready object.
 *
 * Encodings are nearcore's: balances (`storage_amount_per_byte`, `min_gas_price`, `max_gas_price`,
 * `fishermen_threshold`, `min_gas_purchase_price`, `account_creation_charge`) are decimal strings; gas amounts
 * and every other integer are JSON numbers; fees are `{send_sir, send_not_sir, execution}`; ratios are
 * `[numerator, denominator]`. The genesis/epoch part has the 33 fields of nearcore's openapi
 * `RpcProtocolConfigResponse`; for a localnet (`use_production_config: false`) the epoch config equals the
 * genesis values, so they are taken from genesis.
 *
 * One deliberate addition: `runtime_config.wasm_config.saturating_float_to_int: true`. nearcore stopped
 * emitting that field after the feature became unconditional (protocol 78), but @near-js/jsonrpc-types 1.4.0
 * still requires it in `VMConfigViewSchema`, so a validating client would reject nearcore's own answer. The
 * value is what nearcore reported while the field existed; serde-based clients ignore unknown fields.
 */
import type { Fee } from './fees.js';
import type { GenesisConfig, Ratio } from './genesis.js';
import { formatGenesisTime, parseGenesisTime } from './genesis-time.js';
import {
  CONGESTION_CONTROL_FIELDS,
  type FieldTable,
  type Rational,
  type RuntimeConfig,
  viewLayout,
  WITNESS_FIELDS,
} from './runtime-config.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A u64 as a JSON number; refuses a value that a double cannot carry exactly. */
export function jsonNumber(value: bigint): number {
  const n = Number(value);
  if (BigInt(n) !== value) {
    throw new RangeError(`${value} cannot be written exactly as a JSON number by JSON.stringify`);
  }
  return n;
}

function feeView(fee: Fee): JsonObject {
  return {
    send_sir: jsonNumber(fee.sendSir),
    send_not_sir: jsonNumber(fee.sendNotSir),
    execution: jsonNumber(fee.execution),
  };
}

function rationalView(ratio: Rational): JsonValue[] {
  return [jsonNumber(ratio.numerator), jsonNumber(ratio.denominator)];
}

function tableView(
  source: object,
  table: FieldTable,
  insertAfter: Record<string, JsonObject> = {},
): JsonObject {
  const view: JsonObject = {};
  for (const [jsonName, name] of table) {
    const value = (source as Record<string, bigint | number | boolean | undefined>)[name];
    // An unset `Option` field is left out, as serde's `skip_serializing_if = "Option::is_none"` does.
    if (value !== undefined) view[jsonName] = typeof value === 'bigint' ? jsonNumber(value) : value;
    Object.assign(view, insertAfter[jsonName]);
  }
  return view;
}

/**
 * `RuntimeConfigView` of `runtimeConfig`, field for field as nearcore serialises it: for 83..86 as nearcore
 * 2.13.1 does, for 87 as nearcore 2.14 does (`viewLayout`: 2.14 shows the SHA3-384/512, ML-DSA and
 * universal-state-init costs, `sha3_host_fns` for 2.13's `sha3_256_host_fn`, `ml_dsa_verify_host_fn`,
 * `universal_accounts`, `max_receipt_total_input_size` and `min_contract_size_per_local`).
 */
export function runtimeConfigView(runtimeConfig: RuntimeConfig): JsonObject {
  const fees = runtimeConfig.fees;
  const layout = viewLayout(runtimeConfig.protocolVersion);
  const extCosts: JsonObject = {};
  for (const name of layout.extCosts) extCosts[name] = jsonNumber(runtimeConfig.wasm.extCosts[name]);
  const wasm = runtimeConfig.wasm;
  // vm_kind and storage_get_mode sit between the table's fields in nearcore's VMConfigView.
  const wasmFields = tableView(wasm, layout.wasmFields, {
    linear_op_unit_cost: { vm_kind: wasm.vmKind },
    discard_custom_sections: { saturating_float_to_int: true },
    [layout.storageGetModeAfter]: { storage_get_mode: wasm.storageGetMode },
  });
  return {
    storage_amount_per_byte: runtimeConfig.storageAmountPerByte.toString(),
    transaction_costs: {
      action_receipt_creation_config: feeView(fees.new_action_receipt),
      data_receipt_creation_config: {
        base_cost: feeView(fees.new_data_receipt_base),
        cost_per_byte: feeView(fees.new_data_receipt_byte),
      },
      action_creation_config: {
        create_account_cost: feeView(fees.create_account),
        deploy_contract_cost: feeView(fees.deploy_contract_base),
        deploy_contract_cost_per_byte: feeView(fees.deploy_contract_byte),
        function_call_cost: feeView(fees.function_call_base),
        function_call_cost_per_byte: feeView(fees.function_call_byte),
        transfer_cost: feeView(fees.transfer),
        stake_cost: feeView(fees.stake),
        add_key_cost: {
          full_access_cost: feeView(fees.add_full_access_key),
          function_call_cost: feeView(fees.add_function_call_key_base),
          function_call_cost_per_byte: feeView(fees.add_function_call_key_byte),
        },
        delete_key_cost: feeView(fees.delete_key),
        delete_account_cost: feeView(fees.delete_account),
        delegate_cost: feeView(fees.delegate),
      },
      storage_usage_config: {
        num_bytes_account: jsonNumber(runtimeConfig.storageUsage.numBytesAccount),
        num_extra_bytes_record: jsonNumber(runtimeConfig.storageUsage.numExtraBytesRecord),
      },
      burnt_gas_reward: rationalView(runtimeConfig.burntGasReward),
      pessimistic_gas_price_inflation_ratio: rationalView(runtimeConfig.pessimisticGasPriceInflationRatio),
      ml_dsa_65_verification_cost: jsonNumber(runtimeConfig.mlDsa65VerificationCost),
    },
    wasm_config: {
      ext_costs: extCosts,
      ...wasmFields,
      limit_config: tableView(wasm.limits, layout.limitFields),
    },
    account_creation_config: {
      min_allowed_top_level_account_length: runtimeConfig.accountCreation.minAllowedTopLevelAccountLength,
      registrar_account_id: runtimeConfig.accountCreation.registrarAccountId,
    },
    congestion_control_config: tableView(runtimeConfig.congestionControl, CONGESTION_CONTROL_FIELDS),
    witness_config: tableView(runtimeConfig.witness, WITNESS_FIELDS),
    min_gas_purchase_price: runtimeConfig.minGasPurchasePrice.toString(),
    account_creation_charge: runtimeConfig.accountCreationCharge.toString(),
  };
}

function ratio(value: Ratio): JsonValue[] {
  return [value[0], value[1]];
}

/**
 * The `EXPERIMENTAL_protocol_config` result for a chain started from `genesis` and running `runtimeConfig`.
 * `genesis_time` is re-serialised as nearcore does (a parsed `DateTime<Utc>` written back with AutoSi digits).
 */
export function protocolConfigView(genesis: GenesisConfig, runtimeConfig: RuntimeConfig): JsonObject {
  return {
    protocol_version: runtimeConfig.protocolVersion,
    genesis_time: formatGenesisTime(parseGenesisTime(genesis.genesis_time)),
    chain_id: genesis.chain_id,
    genesis_height: genesis.genesis_height,
    num_block_producer_seats: genesis.num_block_producer_seats,
    num_block_producer_seats_per_shard: [...genesis.num_block_producer_seats_per_shard],
    avg_hidden_validator_seats_per_shard: [...genesis.avg_hidden_validator_seats_per_shard],
    dynamic_resharding: genesis.dynamic_resharding,
    protocol_upgrade_stake_threshold: ratio(genesis.protocol_upgrade_stake_threshold),
    epoch_length: genesis.epoch_length,
    gas_limit: genesis.gas_limit,
    min_gas_price: genesis.min_gas_price,
    max_gas_price: genesis.max_gas_price,
    block_producer_kickout_threshold: genesis.block_producer_kickout_threshold,
    chunk_producer_kickout_threshold: genesis.chunk_producer_kickout_threshold,
    chunk_validator_only_kickout_threshold: genesis.chunk_validator_only_kickout_threshold,
    target_validator_mandates_per_shard: genesis.target_validator_mandates_per_shard,
    online_min_threshold: ratio(genesis.online_min_threshold),
    online_max_threshold: ratio(genesis.online_max_threshold),
    gas_price_adjustment_rate: ratio(genesis.gas_price_adjustment_rate),
    runtime_config: runtimeConfigView(runtimeConfig),
    transaction_validity_period: genesis.transaction_validity_period,
    protocol_reward_rate: ratio(genesis.protocol_reward_rate),
    max_inflation_rate: ratio(genesis.max_inflation_rate),
    num_blocks_per_year: genesis.num_blocks_per_year,
    protocol_treasury_account: genesis.protocol_treasury_account,
    fishermen_threshold: genesis.fishermen_threshold,
    minimum_stake_divisor: genesis.minimum_stake_divisor,
    max_kickout_stake_perc: genesis.max_kickout_stake_perc,
    minimum_stake_ratio: ratio(genesis.minimum_stake_ratio),
    minimum_validators_per_shard: genesis.minimum_validators_per_shard,
    shard_layout: {
      V0: { num_shards: genesis.shard_layout.V0.num_shards, version: genesis.shard_layout.V0.version },
    },
    shuffle_shard_assignment_for_chunk_producers: genesis.shuffle_shard_assignment_for_chunk_producers,
  };
}
