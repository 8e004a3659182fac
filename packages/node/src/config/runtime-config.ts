/**
 * The runtime parameters: THE one place fees, limits and economic constants come from. Nothing else in the
 * node may hard-code a fee or a limit.
 *
 * The parameters depend on the protocol version. `loadRuntimeConfig(version)` gives the typed, frozen
 * {@link RuntimeConfig} of a version (every gas amount and yoctoNEAR amount a `bigint`), resolved by the
 * runtime-config store (runtime-config-store.ts) from the base table and the per-version diffs in
 * runtime-parameters/, as nearcore keeps them. Supported versions: protocol-version.ts.
 *
 * This module also reads nearcore's `RuntimeConfigView` (`runtimeConfigFromView`), the shape of its
 * `EXPERIMENTAL_protocol_config` answer and of its resolved-parameter snapshots (`parameters-pv85.json`
 * beside this file is nearcore's snapshot of 85): it checks that every field is there with the type nearcore
 * gives it, and takes what the view does not show from the store. The tests use it to hold the store to
 * nearcore's snapshots.
 *
 * Two parameters are new in protocol 85 (NEP-642 "account cost increase", near/nearcore#15907, stabilised at
 * 85 by #15914, `ProtocolFeature::AccountCostIncrease => 85` in core/primitives-core/src/version.rs):
 *
 * - `min_gas_purchase_price` (1e9 yocto/gas = 0.001 NEAR/Tgas, 10x the localnet/mainnet min gas price of 1e8).
 *   When a transaction is converted into a receipt (`tx_cost` in runtime/runtime/src/config.rs), the gas
 *   burnt by the conversion itself is charged at the current gas price, but all the gas attached to the new
 *   receipt (prepaid function-call gas + the receipt's send/exec fees + the actions' exec fees) is bought at
 *   `receipt_gas_price = max(current_gas_price, min_gas_purchase_price)`, and that price is stored as the
 *   receipt's `gas_price`. When the receipt executes, the gas is burnt at
 *   `min(receipt gas_price, current gas price)` and the difference ("price surplus") is paid back in the
 *   refund receipt. So it DOES change what a transaction is charged up front (the signer's balance must cover
 *   `total_cost` at the higher price, else `NotEnoughBalance`), it makes a refund receipt appear for
 *   practically every transaction while the gas price is below 1e9, but for receipts that create no account
 *   the net cost after the refund is the same as before.
 * - `account_creation_charge` (0.007 NEAR = 7e21 yocto). When an action receipt creates an account that did not
 *   exist (CreateAccount, or an implicit account created by a transfer), the runtime
 *   (`refund_unspent_gas_and_deposits`, runtime/runtime/src/lib.rs) takes
 *   `account_creation_charge - create_account exec gas x burn price` out of that price surplus before refunding
 *   it, so creating an account costs about 0.007 NEAR in total. The create_account fee was rebalanced for this
 *   (send 0.5 Tgas, exec 7.2 Tgas: 7.2 Tgas x 1e9 = 0.0072 NEAR covers the charge). It changes what an
 *   account-creating transaction is charged; nothing else.
 */

import { ShadeboxError } from '@shadebox/errors';
import type { ActionCost, Fee, FeeTable } from './fees.js';
import { LosslessNumber, type LosslessValue } from './lossless-json.js';
import { DEFAULT_PROTOCOL_VERSION } from './protocol-version.js';
import { runtimeConfigFor } from './runtime-config-store.js';

/** The protocol version of a new chain (the one mainnet runs); a chain runs the version of its genesis. */
export const PROTOCOL_VERSION = DEFAULT_PROTOCOL_VERSION;

/**
 * nearcore's `VMKind` values a version can name (`vm_kind`): NearVm up to 83, Wasmtime from 84
 * (core/parameters/res/runtime_configs/84.yaml). nearcore's snapshots redact it (it depends on the build).
 */
export const VM_KINDS = ['NearVm', 'Wasmtime'] as const;
export type VmKind = (typeof VM_KINDS)[number];

const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;

/** A ratio, as nearcore's `Rational32` (JSON `[numerator, denominator]`). */
export interface Rational {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/**
 * nearcore's `ExtCosts` names: the gas of each host-function operation, in the order of nearcore 2.14's view
 * (core/parameters/src/view.rs `ExtCostsConfigView`).
 */
export const EXT_COSTS = [
  'base',
  'contract_loading_base',
  'contract_loading_bytes',
  'read_memory_base',
  'read_memory_byte',
  'write_memory_base',
  'write_memory_byte',
  'read_register_base',
  'read_register_byte',
  'write_register_base',
  'write_register_byte',
  'utf8_decoding_base',
  'utf8_decoding_byte',
  'utf16_decoding_base',
  'utf16_decoding_byte',
  'sha256_base',
  'sha256_byte',
  'keccak256_base',
  'keccak256_byte',
  'keccak512_base',
  'keccak512_byte',
  'sha3_256_base',
  'sha3_256_byte',
  'sha3_384_base',
  'sha3_384_byte',
  'sha3_512_base',
  'sha3_512_byte',
  'ripemd160_base',
  'ripemd160_block',
  'ed25519_verify_base',
  'ed25519_verify_byte',
  'ecrecover_base',
  'p256_verify_base',
  'p256_verify_byte',
  'ml_dsa_verify_base',
  'ml_dsa_verify_byte',
  'log_base',
  'log_byte',
  'storage_write_base',
  'storage_write_key_byte',
  'storage_write_value_byte',
  'storage_write_evicted_byte',
  'storage_read_base',
  'storage_read_key_byte',
  'storage_read_value_byte',
  'storage_large_read_overhead_base',
  'storage_large_read_overhead_byte',
  'storage_remove_base',
  'storage_remove_key_byte',
  'storage_remove_ret_value_byte',
  'storage_has_key_base',
  'storage_has_key_byte',
  'storage_iter_create_prefix_base',
  'storage_iter_create_prefix_byte',
  'storage_iter_create_range_base',
  'storage_iter_create_from_byte',
  'storage_iter_create_to_byte',
  'storage_iter_next_base',
  'storage_iter_next_key_byte',
  'storage_iter_next_value_byte',
  'touching_trie_node',
  'read_cached_trie_node',
  'promise_and_base',
  'promise_and_per_promise',
  'promise_return',
  'validator_stake_base',
  'validator_total_stake_base',
  'contract_compile_base',
  'contract_compile_bytes',
  'alt_bn128_g1_multiexp_base',
  'alt_bn128_g1_multiexp_element',
  'alt_bn128_g1_sum_base',
  'alt_bn128_g1_sum_element',
  'alt_bn128_pairing_check_base',
  'alt_bn128_pairing_check_element',
  'yield_create_base',
  'yield_create_byte',
  'yield_create_with_id_base',
  'yield_resume_base',
  'yield_resume_byte',
  'bls12381_p1_sum_base',
  'bls12381_p1_sum_element',
  'bls12381_p2_sum_base',
  'bls12381_p2_sum_element',
  'bls12381_g1_multiexp_base',
  'bls12381_g1_multiexp_element',
  'bls12381_g2_multiexp_base',
  'bls12381_g2_multiexp_element',
  'bls12381_map_fp_to_g1_base',
  'bls12381_map_fp_to_g1_element',
  'bls12381_map_fp2_to_g2_base',
  'bls12381_map_fp2_to_g2_element',
  'bls12381_pairing_base',
  'bls12381_pairing_element',
  'bls12381_p1_decompress_base',
  'bls12381_p1_decompress_element',
  'bls12381_p2_decompress_base',
  'bls12381_p2_decompress_element',
  'universal_state_init_to_account_id_base',
  'universal_state_init_to_account_id_byte',
] as const;
export type ExtCost = (typeof EXT_COSTS)[number];

/** The host-function costs nearcore 2.14 added to the view; nearcore 2.13.1's view (protocols 83..86 here)
 * has the others, in the same order. */
export const EXT_COSTS_ADDED_IN_2_14: readonly ExtCost[] = [
  'sha3_384_base',
  'sha3_384_byte',
  'sha3_512_base',
  'sha3_512_byte',
  'ml_dsa_verify_base',
  'ml_dsa_verify_byte',
  'universal_state_init_to_account_id_base',
  'universal_state_init_to_account_id_byte',
];

/**
 * How each JSON field of a section is read: `gas` -> bigint (u64), `count` -> safe integer number,
 * `float` -> number, `bool` -> boolean. The tables below are shared with the protocol config view, so the
 * view writes back exactly the fields, order and encodings that were read.
 */
export type FieldKind = 'gas' | 'count' | 'float' | 'bool';
interface KindTypes {
  gas: bigint;
  count: number;
  float: number;
  bool: boolean;
}
/** A field: its name in the view, in the typed config, how it is read, and `'optional'` when nearcore
 * keeps it as an `Option` (absent from the view, `undefined` here, when unset: no limit). */
export type FieldTable = readonly (
  | readonly [jsonName: string, name: string, kind: FieldKind]
  | readonly [jsonName: string, name: string, kind: FieldKind, optional: 'optional']
)[];
type FieldsOf<T extends FieldTable> = {
  readonly [F in T[number] as F[1]]: F extends readonly [string, string, FieldKind, 'optional']
    ? KindTypes[F[2]] | undefined
    : KindTypes[F[2]];
};

/**
 * `wasm_config` scalars and feature switches (everything but `ext_costs`, `vm_kind`, `storage_get_mode`,
 * `limit_config`), in the order of nearcore 2.14's view (protocol 87 here). `sha3_host_fns` is the switch
 * nearcore 2.13 called `sha3_256_host_fn`.
 */
export const WASM_FIELDS = [
  ['grow_mem_cost', 'growMemCost', 'gas'],
  ['regular_op_cost', 'regularOpCost', 'gas'],
  ['linear_op_base_cost', 'linearOpBaseCost', 'gas'],
  ['linear_op_unit_cost', 'linearOpUnitCost', 'gas'],
  ['discard_custom_sections', 'discardCustomSections', 'bool'],
  ['global_contract_host_fns', 'globalContractHostFns', 'bool'],
  ['reftypes_bulk_memory', 'reftypesBulkMemory', 'bool'],
  ['gas_key_host_fns', 'gasKeyHostFns', 'bool'],
  ['one_yocto_on_promise', 'oneYoctoOnPromise', 'bool'],
  ['p256_verify_host_fn', 'p256VerifyHostFn', 'bool'],
  ['sha3_host_fns', 'sha3HostFns', 'bool'],
  ['ml_dsa_verify_host_fn', 'mlDsaVerifyHostFn', 'bool'],
  ['yield_with_id_host_fns', 'yieldWithIdHostFns', 'bool'],
  ['chain_id_host_fn', 'chainIdHostFn', 'bool'],
  ['bls12381_not_in_group_fix', 'bls12381NotInGroupFix', 'bool'],
  ['universal_accounts', 'universalAccounts', 'bool'],
  ['fix_contract_loading_cost', 'fixContractLoadingCost', 'bool'],
  ['implicit_account_creation', 'implicitAccountCreation', 'bool'],
  ['eth_implicit_accounts', 'ethImplicitAccounts', 'bool'],
] as const satisfies FieldTable;

/**
 * The same section as nearcore 2.13.1's view has it (protocols 83..86 here): without the switches 2.14 added,
 * and the SHA-3 switch under its 2.13 name.
 */
export const WASM_FIELDS_2_13: FieldTable = WASM_FIELDS.filter(
  ([json]) => json !== 'ml_dsa_verify_host_fn' && json !== 'universal_accounts',
).map((field) =>
  field[0] === 'sha3_host_fns' ? (['sha3_256_host_fn', field[1], field[2]] as const) : field,
);

/**
 * `wasm_config.limit_config` in nearcore 2.14's order: gas limits are bigint, sizes and counts are numbers.
 * 2.14 shows `max_receipt_total_input_size` and, from 87, `min_contract_size_per_local`.
 */
export const LIMIT_FIELDS = [
  ['max_gas_burnt', 'maxGasBurnt', 'gas'],
  ['max_stack_height', 'maxStackHeight', 'count'],
  ['initial_memory_pages', 'initialMemoryPages', 'count'],
  ['max_memory_pages', 'maxMemoryPages', 'count'],
  ['registers_memory_limit', 'registersMemoryLimit', 'count'],
  ['max_register_size', 'maxRegisterSize', 'count'],
  ['max_number_registers', 'maxNumberRegisters', 'count'],
  ['max_number_logs', 'maxNumberLogs', 'count'],
  ['max_total_log_length', 'maxTotalLogLength', 'count'],
  ['max_total_prepaid_gas', 'maxTotalPrepaidGas', 'gas'],
  ['max_actions_per_receipt', 'maxActionsPerReceipt', 'count'],
  ['max_deploy_actions_per_receipt', 'maxDeployActionsPerReceipt', 'count'],
  ['max_number_bytes_method_names', 'maxNumberBytesMethodNames', 'count'],
  ['max_length_method_name', 'maxLengthMethodName', 'count'],
  ['max_arguments_length', 'maxArgumentsLength', 'count'],
  ['max_length_returned_data', 'maxLengthReturnedData', 'count'],
  ['max_contract_size', 'maxContractSize', 'count'],
  ['max_transaction_size', 'maxTransactionSize', 'count'],
  ['max_receipt_size', 'maxReceiptSize', 'count'],
  ['max_length_storage_key', 'maxLengthStorageKey', 'count'],
  ['max_length_storage_value', 'maxLengthStorageValue', 'count'],
  ['max_promises_per_function_call_action', 'maxPromisesPerFunctionCallAction', 'count'],
  ['max_number_input_data_dependencies', 'maxNumberInputDataDependencies', 'count'],
  ['max_receipt_total_input_size', 'maxReceiptTotalInputSize', 'count'],
  ['max_functions_number_per_contract', 'maxFunctionsNumberPerContract', 'count'],
  ['max_locals_per_contract', 'maxLocalsPerContract', 'count'],
  ['min_contract_size_per_local', 'minContractSizePerLocal', 'count', 'optional'],
  ['max_params_per_contract', 'maxParamsPerContract', 'count', 'optional'],
  ['max_params_per_function', 'maxParamsPerFunction', 'count', 'optional'],
  ['max_operand_stack_bytes_per_function', 'maxOperandStackBytesPerFunction', 'count', 'optional'],
  ['max_tables_per_contract', 'maxTablesPerContract', 'count'],
  ['max_elements_per_contract_table', 'maxElementsPerContractTable', 'count'],
  ['max_function_body_size', 'maxFunctionBodySize', 'count', 'optional'],
  ['max_instrumented_code_size', 'maxInstrumentedCodeSize', 'count', 'optional'],
  ['max_blocks_per_function', 'maxBlocksPerFunction', 'count', 'optional'],
  ['max_blocks_per_contract', 'maxBlocksPerContract', 'count', 'optional'],
  ['max_types_per_contract', 'maxTypesPerContract', 'count', 'optional'],
  ['account_id_validity_rules_version', 'accountIdValidityRulesVersion', 'count'],
  ['yield_timeout_length_in_blocks', 'yieldTimeoutLengthInBlocks', 'count'],
  ['max_yield_payload_size', 'maxYieldPayloadSize', 'count'],
  ['per_receipt_storage_proof_size_limit', 'perReceiptStorageProofSizeLimit', 'count'],
] as const satisfies FieldTable;

/** The same section as nearcore 2.13.1's view has it (protocols 83..86 here): without the two limits 2.14 shows. */
export const LIMIT_FIELDS_2_13: FieldTable = LIMIT_FIELDS.filter(
  ([json]) => json !== 'max_receipt_total_input_size' && json !== 'min_contract_size_per_local',
);

/** `congestion_control_config` (NEP-539). */
export const CONGESTION_CONTROL_FIELDS = [
  ['max_congestion_incoming_gas', 'maxCongestionIncomingGas', 'gas'],
  ['max_congestion_outgoing_gas', 'maxCongestionOutgoingGas', 'gas'],
  ['max_congestion_memory_consumption', 'maxCongestionMemoryConsumption', 'count'],
  ['max_congestion_missed_chunks', 'maxCongestionMissedChunks', 'count'],
  ['max_outgoing_gas', 'maxOutgoingGas', 'gas'],
  ['min_outgoing_gas', 'minOutgoingGas', 'gas'],
  ['allowed_shard_outgoing_gas', 'allowedShardOutgoingGas', 'gas'],
  ['max_tx_gas', 'maxTxGas', 'gas'],
  ['min_tx_gas', 'minTxGas', 'gas'],
  ['reject_tx_congestion_threshold', 'rejectTxCongestionThreshold', 'float'],
  ['outgoing_receipts_usual_size_limit', 'outgoingReceiptsUsualSizeLimit', 'count'],
  ['outgoing_receipts_big_size_limit', 'outgoingReceiptsBigSizeLimit', 'count'],
] as const satisfies FieldTable;

/** `witness_config`: byte limits of chunk state witnesses. */
export const WITNESS_FIELDS = [
  ['main_storage_proof_size_soft_limit', 'mainStorageProofSizeSoftLimit', 'count'],
  ['combined_transactions_size_limit', 'combinedTransactionsSizeLimit', 'count'],
  [
    'new_transactions_validation_state_size_soft_limit',
    'newTransactionsValidationStateSizeSoftLimit',
    'count',
  ],
] as const satisfies FieldTable;

/**
 * Where each fee sits in `transaction_costs` of the view. `add_key_cost.*` is nested one level deeper;
 * the path lists the keys from `transaction_costs`. The fees the view has no field for come from
 * view-omitted-parameters.ts.
 */
export const FEE_PATHS: readonly (readonly [ActionCost, readonly string[]])[] = [
  ['new_action_receipt', ['action_receipt_creation_config']],
  ['new_data_receipt_base', ['data_receipt_creation_config', 'base_cost']],
  ['new_data_receipt_byte', ['data_receipt_creation_config', 'cost_per_byte']],
  ['create_account', ['action_creation_config', 'create_account_cost']],
  ['deploy_contract_base', ['action_creation_config', 'deploy_contract_cost']],
  ['deploy_contract_byte', ['action_creation_config', 'deploy_contract_cost_per_byte']],
  ['function_call_base', ['action_creation_config', 'function_call_cost']],
  ['function_call_byte', ['action_creation_config', 'function_call_cost_per_byte']],
  ['transfer', ['action_creation_config', 'transfer_cost']],
  ['stake', ['action_creation_config', 'stake_cost']],
  ['add_full_access_key', ['action_creation_config', 'add_key_cost', 'full_access_cost']],
  ['add_function_call_key_base', ['action_creation_config', 'add_key_cost', 'function_call_cost']],
  ['add_function_call_key_byte', ['action_creation_config', 'add_key_cost', 'function_call_cost_per_byte']],
  ['delete_key', ['action_creation_config', 'delete_key_cost']],
  ['delete_account', ['action_creation_config', 'delete_account_cost']],
  ['delegate', ['action_creation_config', 'delegate_cost']],
];

export type WasmFlagsAndCosts = FieldsOf<typeof WASM_FIELDS>;
export type LimitConfig = FieldsOf<typeof LIMIT_FIELDS>;
export type CongestionControlConfig = FieldsOf<typeof CONGESTION_CONTROL_FIELDS>;
export type WitnessConfig = FieldsOf<typeof WITNESS_FIELDS>;

export type StorageGetMode = 'FlatStorage' | 'Trie';

export interface WasmConfig extends WasmFlagsAndCosts {
  /** Gas of each host-function operation, by nearcore's `ExtCosts` name. */
  readonly extCosts: Readonly<Record<ExtCost, bigint>>;
  /** Which engine nearcore runs at this version (reported in the view; we run our own interpreter). */
  readonly vmKind: VmKind;
  readonly storageGetMode: StorageGetMode;
  readonly limits: LimitConfig & {
    /** `max_gas_burnt_view`: gas limit of a view call (not in the view). */
    readonly maxGasBurntView: bigint;
    /** `max_state_init_entries`: storage entries the state-init actions of one new receipt may carry in
     * total (1_500 from 87, unlimited before; not in the view). */
    readonly maxStateInitEntries: number;
    /** `max_universal_state_init_keys`: access keys one UniversalStateInit may commit to (not in the view). */
    readonly maxUniversalStateInitKeys: number;
  };
  /** `fix_contract_loading_error` (86): a module that fails to load is charged the loading gas (not in the view). */
  readonly fixContractLoadingError: boolean;
}

/**
 * The shape of the `RuntimeConfigView` of a version: nearcore 2.13.1's for 83..86 (the release those versions
 * came with, whose snapshots pin them), nearcore 2.14's for 87.
 */
export interface ViewLayout {
  /** The release whose `RuntimeConfigView` this is. */
  readonly release: '2.13' | '2.14';
  readonly extCosts: readonly ExtCost[];
  readonly wasmFields: FieldTable;
  readonly limitFields: FieldTable;
  /** The `wasm_config` field `storage_get_mode` follows. */
  readonly storageGetModeAfter: string;
}

const LAYOUT_2_13: ViewLayout = Object.freeze({
  release: '2.13',
  extCosts: EXT_COSTS.filter((name) => !EXT_COSTS_ADDED_IN_2_14.includes(name)),
  wasmFields: WASM_FIELDS_2_13,
  limitFields: LIMIT_FIELDS_2_13,
  storageGetModeAfter: 'bls12381_not_in_group_fix',
});
const LAYOUT_2_14: ViewLayout = Object.freeze({
  release: '2.14',
  extCosts: EXT_COSTS,
  wasmFields: WASM_FIELDS,
  limitFields: LIMIT_FIELDS,
  storageGetModeAfter: 'universal_accounts',
});

/** The view shape of `protocolVersion` (see {@link ViewLayout}). */
export function viewLayout(protocolVersion: number): ViewLayout {
  return protocolVersion >= 87 ? LAYOUT_2_14 : LAYOUT_2_13;
}

export interface RuntimeConfig {
  /** The protocol version these parameters belong to. */
  readonly protocolVersion: number;
  /** The `_source` line of the pinned file: where the numbers come from. */
  readonly source: string;
  /** yoctoNEAR an account must hold per byte of storage it uses. */
  readonly storageAmountPerByte: bigint;
  /** Send/execution gas of every action and receipt, by nearcore's `ActionCosts` name. */
  readonly fees: FeeTable;
  readonly storageUsage: {
    /** Bytes charged for an account record, id rounding included. */
    readonly numBytesAccount: bigint;
    /** Bytes charged on top of key + value for every trie record (access keys, contract data). */
    readonly numExtraBytesRecord: bigint;
  };
  /** Share of the gas burnt by a function call that is paid to the contract account. */
  readonly burntGasReward: Rational;
  /** Unused since protocol 78 (NEP-536); 1/1 at 85. */
  readonly pessimisticGasPriceInflationRatio: Rational;
  /** `gas_refund_penalty` (NEP-536): share of refunded gas kept as a penalty; 0 since 78 (near/nearcore#13579). */
  readonly gasRefundPenalty: Rational;
  /** `min_gas_refund_penalty`: the least penalty per refund, gas; 0. */
  readonly minGasRefundPenalty: bigint;
  /** `ml_dsa_65_verification_cost`: gas charged at transaction conversion per ML-DSA-65 signature it verifies. */
  readonly mlDsa65VerificationCost: bigint;
  /** `fix_ml_dsa_cost_charging` (87, `FixMlDsaCostCharging`): gas-key fees of ML-DSA keys priced on the
   * stored key length for execution and the wire length for sending; the inner signature of a meta
   * transaction metered on the receiver shard (not in the view). */
  readonly fixMlDsaCostCharging: boolean;
  readonly wasm: WasmConfig;
  readonly accountCreation: {
    /** Top-level ids shorter than this can only be created by the registrar. */
    readonly minAllowedTopLevelAccountLength: number;
    readonly registrarAccountId: string;
  };
  readonly congestionControl: CongestionControlConfig;
  readonly witness: WitnessConfig;
  /** yocto per gas: the lowest price at which gas attached to a receipt is bought (see the module comment). */
  readonly minGasPurchasePrice: bigint;
  /** yoctoNEAR an account-creating receipt pays in total for the account (see the module comment). */
  readonly accountCreationCharge: bigint;
  /** `global_contract_storage_amount_per_byte`: yocto burnt per byte of a deployed global contract's code. */
  readonly globalContractStorageAmountPerByte: bigint;
  /** `deploy_global_contract_execution_base`: compute of applying a `GlobalContractDistribution` receipt. */
  readonly deployGlobalContractExecutionBase: bigint;
  /** `deploy_global_contract_execution_per_byte`: its compute per byte of code. */
  readonly deployGlobalContractExecutionPerByte: bigint;
  /** The bandwidth scheduler's limits between shards, bytes (74.yaml); a single-shard chain does not use them. */
  readonly bandwidthScheduler: {
    readonly maxShardBandwidth: bigint;
    readonly maxSingleGrant: bigint;
    readonly maxAllowance: bigint;
    readonly maxBaseBandwidth: bigint;
  };
}

/** The runtime parameters (the store's data, or a `RuntimeConfigView` being read) are not what they must be. */
export class RuntimeConfigError extends ShadeboxError<{ path: string; problem: string }> {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`runtime parameters: ${path}: ${message}`, { details: { path, problem: message } });
  }
}

type JsonObject = { [key: string]: LosslessValue };

function describe(value: LosslessValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (value instanceof LosslessNumber) return `the number ${value.raw}`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function asObject(value: LosslessValue | undefined, path: string): JsonObject {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) {
    throw new RuntimeConfigError(path, `expected an object, got ${describe(value)}`);
  }
  if (value instanceof LosslessNumber)
    throw new RuntimeConfigError(path, `expected an object, got ${describe(value)}`);
  return value;
}

/** Checks that `object` has exactly `keys` (plus `ignored`): nothing missing, nothing we would drop silently. */
function expectKeys(
  object: JsonObject,
  keys: readonly string[],
  path: string,
  ignored: readonly string[] = [],
): void {
  for (const key of keys) {
    if (!Object.hasOwn(object, key)) throw new RuntimeConfigError(`${path}.${key}`, 'missing');
  }
  for (const key of Object.keys(object)) {
    if (!keys.includes(key) && !ignored.includes(key)) {
      throw new RuntimeConfigError(`${path}.${key}`, 'unknown field (the loader would drop it)');
    }
  }
}

function readGas(value: LosslessValue | undefined, path: string): bigint {
  if (!(value instanceof LosslessNumber) || !value.isInteger) {
    throw new RuntimeConfigError(path, `expected an integer JSON number, got ${describe(value)}`);
  }
  const gas = value.toBigInt();
  if (gas < 0n || gas > U64_MAX) throw new RuntimeConfigError(path, `${value.raw} is not a u64`);
  return gas;
}

function readCount(value: LosslessValue | undefined, path: string): number {
  const n = readGas(value, path);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new RuntimeConfigError(path, `${n} is not a safe integer`);
  return Number(n);
}

function readFloat(value: LosslessValue | undefined, path: string): number {
  if (!(value instanceof LosslessNumber))
    throw new RuntimeConfigError(path, `expected a number, got ${describe(value)}`);
  const n = value.toNumber();
  if (!Number.isFinite(n)) throw new RuntimeConfigError(path, `${value.raw} is not finite`);
  return n;
}

function readBool(value: LosslessValue | undefined, path: string): boolean {
  if (typeof value !== 'boolean')
    throw new RuntimeConfigError(path, `expected a boolean, got ${describe(value)}`);
  return value;
}

function readString(value: LosslessValue | undefined, path: string): string {
  if (typeof value !== 'string')
    throw new RuntimeConfigError(path, `expected a string, got ${describe(value)}`);
  return value;
}

/** A u128 balance, which nearcore writes as a decimal string. */
function readBalance(value: LosslessValue | undefined, path: string): bigint {
  const text = readString(value, path);
  if (!/^(0|[1-9]\d*)$/.test(text))
    throw new RuntimeConfigError(path, `expected a decimal string, got ${text}`);
  const amount = BigInt(text);
  if (amount > U128_MAX) throw new RuntimeConfigError(path, `${text} is not a u128`);
  return amount;
}

function readRational(value: LosslessValue | undefined, path: string): Rational {
  if (!Array.isArray(value) || value.length !== 2) {
    throw new RuntimeConfigError(path, `expected [numerator, denominator], got ${describe(value)}`);
  }
  const numerator = readGas(value[0], `${path}[0]`);
  const denominator = readGas(value[1], `${path}[1]`);
  if (denominator === 0n) throw new RuntimeConfigError(path, 'denominator is 0');
  return Object.freeze({ numerator, denominator });
}

function readFee(value: LosslessValue | undefined, path: string): Fee {
  const object = asObject(value, path);
  expectKeys(object, ['send_sir', 'send_not_sir', 'execution'], path);
  return Object.freeze({
    sendSir: readGas(object.send_sir, `${path}.send_sir`),
    sendNotSir: readGas(object.send_not_sir, `${path}.send_not_sir`),
    execution: readGas(object.execution, `${path}.execution`),
  });
}

function readField(
  kind: FieldKind,
  value: LosslessValue | undefined,
  path: string,
): bigint | number | boolean {
  switch (kind) {
    case 'gas':
      return readGas(value, path);
    case 'count':
      return readCount(value, path);
    case 'float':
      return readFloat(value, path);
    case 'bool':
      return readBool(value, path);
  }
}

function readTable<T extends FieldTable>(object: JsonObject, table: T, path: string): FieldsOf<T> {
  const result: Record<string, bigint | number | boolean | undefined> = {};
  for (const field of table) {
    const [jsonName, name, kind] = field;
    const absent = field.length === 4 && !Object.hasOwn(object, jsonName);
    result[name] = absent ? undefined : readField(kind, object[jsonName], `${path}.${jsonName}`);
  }
  return Object.freeze(result) as FieldsOf<T>;
}

/** The fields a view section must have (an `Option` field may be left out). */
function tableKeys(table: FieldTable): string[] {
  return table.filter((field) => field.length === 3).map(([jsonName]) => jsonName);
}

function optionalKeys(table: FieldTable): string[] {
  return table.filter((field) => field.length === 4).map(([jsonName]) => jsonName);
}

/**
 * Turns a parsed `RuntimeConfigView` (plus `_source`) of `protocolVersion` into a {@link RuntimeConfig}; what
 * the view does not show (the fees of global contracts, state init and gas keys, `vm_kind`, ...) is that
 * version's from the store.
 */
export function runtimeConfigFromView(view: LosslessValue, protocolVersion = 85): RuntimeConfig {
  const stored = runtimeConfigFor(protocolVersion);
  const root = asObject(view, '$');
  expectKeys(
    root,
    [
      'storage_amount_per_byte',
      'transaction_costs',
      'wasm_config',
      'account_creation_config',
      'congestion_control_config',
      'witness_config',
      'min_gas_purchase_price',
      'account_creation_charge',
    ],
    '$',
    ['_source'],
  );
  const source = root._source === undefined ? '' : readString(root._source, '$._source');

  const costs = asObject(root.transaction_costs, '$.transaction_costs');
  expectKeys(
    costs,
    [
      'action_receipt_creation_config',
      'data_receipt_creation_config',
      'action_creation_config',
      'storage_usage_config',
      'burnt_gas_reward',
      'pessimistic_gas_price_inflation_ratio',
      'ml_dsa_65_verification_cost',
    ],
    '$.transaction_costs',
  );
  const dataReceipt = asObject(
    costs.data_receipt_creation_config,
    '$.transaction_costs.data_receipt_creation_config',
  );
  expectKeys(dataReceipt, ['base_cost', 'cost_per_byte'], '$.transaction_costs.data_receipt_creation_config');
  const actionCreation = asObject(costs.action_creation_config, '$.transaction_costs.action_creation_config');
  expectKeys(
    actionCreation,
    [
      'create_account_cost',
      'deploy_contract_cost',
      'deploy_contract_cost_per_byte',
      'function_call_cost',
      'function_call_cost_per_byte',
      'transfer_cost',
      'stake_cost',
      'add_key_cost',
      'delete_key_cost',
      'delete_account_cost',
      'delegate_cost',
    ],
    '$.transaction_costs.action_creation_config',
  );
  const addKey = asObject(
    actionCreation.add_key_cost,
    '$.transaction_costs.action_creation_config.add_key_cost',
  );
  expectKeys(
    addKey,
    ['full_access_cost', 'function_call_cost', 'function_call_cost_per_byte'],
    '$.transaction_costs.action_creation_config.add_key_cost',
  );

  const fees = {} as Record<ActionCost, Fee>;
  for (const [cost, path] of FEE_PATHS) {
    let node: LosslessValue = costs;
    let where = '$.transaction_costs';
    for (const key of path) {
      node = asObject(node, where)[key];
      where = `${where}.${key}`;
    }
    fees[cost] = readFee(node, where);
  }
  for (const [cost, fee] of Object.entries(stored.fees)) {
    if (!(cost in fees)) fees[cost as ActionCost] = fee;
  }

  const storageUsageConfig = asObject(costs.storage_usage_config, '$.transaction_costs.storage_usage_config');
  expectKeys(
    storageUsageConfig,
    ['num_bytes_account', 'num_extra_bytes_record'],
    '$.transaction_costs.storage_usage_config',
  );

  const layout = viewLayout(protocolVersion);
  const wasm = asObject(root.wasm_config, '$.wasm_config');
  expectKeys(
    wasm,
    ['ext_costs', ...tableKeys(layout.wasmFields), 'storage_get_mode', 'limit_config'],
    '$.wasm_config',
  );
  const extCostsJson = asObject(wasm.ext_costs, '$.wasm_config.ext_costs');
  expectKeys(extCostsJson, layout.extCosts, '$.wasm_config.ext_costs');
  // The costs the view of this release does not show are the store's.
  const extCosts = { ...stored.wasm.extCosts } as Record<ExtCost, bigint>;
  for (const name of layout.extCosts)
    extCosts[name] = readGas(extCostsJson[name], `$.wasm_config.ext_costs.${name}`);
  const storageGetMode = readString(wasm.storage_get_mode, '$.wasm_config.storage_get_mode');
  if (storageGetMode !== 'FlatStorage' && storageGetMode !== 'Trie') {
    throw new RuntimeConfigError('$.wasm_config.storage_get_mode', `unknown mode ${storageGetMode}`);
  }
  const limitJson = asObject(wasm.limit_config, '$.wasm_config.limit_config');
  expectKeys(
    limitJson,
    tableKeys(layout.limitFields),
    '$.wasm_config.limit_config',
    optionalKeys(layout.limitFields),
  );

  const accountCreation = asObject(root.account_creation_config, '$.account_creation_config');
  expectKeys(
    accountCreation,
    ['min_allowed_top_level_account_length', 'registrar_account_id'],
    '$.account_creation_config',
  );
  const congestion = asObject(root.congestion_control_config, '$.congestion_control_config');
  expectKeys(congestion, tableKeys(CONGESTION_CONTROL_FIELDS), '$.congestion_control_config');
  const witness = asObject(root.witness_config, '$.witness_config');
  expectKeys(witness, tableKeys(WITNESS_FIELDS), '$.witness_config');

  return Object.freeze({
    protocolVersion,
    source,
    storageAmountPerByte: readBalance(root.storage_amount_per_byte, '$.storage_amount_per_byte'),
    fees: Object.freeze(fees),
    storageUsage: Object.freeze({
      numBytesAccount: readGas(
        storageUsageConfig.num_bytes_account,
        '$.transaction_costs.storage_usage_config.num_bytes_account',
      ),
      numExtraBytesRecord: readGas(
        storageUsageConfig.num_extra_bytes_record,
        '$.transaction_costs.storage_usage_config.num_extra_bytes_record',
      ),
    }),
    burntGasReward: readRational(costs.burnt_gas_reward, '$.transaction_costs.burnt_gas_reward'),
    pessimisticGasPriceInflationRatio: readRational(
      costs.pessimistic_gas_price_inflation_ratio,
      '$.transaction_costs.pessimistic_gas_price_inflation_ratio',
    ),
    gasRefundPenalty: stored.gasRefundPenalty,
    minGasRefundPenalty: stored.minGasRefundPenalty,
    mlDsa65VerificationCost: readGas(
      costs.ml_dsa_65_verification_cost,
      '$.transaction_costs.ml_dsa_65_verification_cost',
    ),
    fixMlDsaCostCharging: stored.fixMlDsaCostCharging,
    wasm: Object.freeze({
      ...stored.wasm,
      extCosts: Object.freeze(extCosts),
      ...readTable(wasm, layout.wasmFields, '$.wasm_config'),
      vmKind: stored.wasm.vmKind,
      storageGetMode,
      limits: Object.freeze({
        ...stored.wasm.limits,
        ...readTable(limitJson, layout.limitFields, '$.wasm_config.limit_config'),
      }),
    }),
    accountCreation: Object.freeze({
      minAllowedTopLevelAccountLength: readCount(
        accountCreation.min_allowed_top_level_account_length,
        '$.account_creation_config.min_allowed_top_level_account_length',
      ),
      registrarAccountId: readString(
        accountCreation.registrar_account_id,
        '$.account_creation_config.registrar_account_id',
      ),
    }),
    congestionControl: readTable(congestion, CONGESTION_CONTROL_FIELDS, '$.congestion_control_config'),
    witness: readTable(witness, WITNESS_FIELDS, '$.witness_config'),
    minGasPurchasePrice: readBalance(root.min_gas_purchase_price, '$.min_gas_purchase_price'),
    accountCreationCharge: readBalance(root.account_creation_charge, '$.account_creation_charge'),
    globalContractStorageAmountPerByte: stored.globalContractStorageAmountPerByte,
    deployGlobalContractExecutionBase: stored.deployGlobalContractExecutionBase,
    deployGlobalContractExecutionPerByte: stored.deployGlobalContractExecutionPerByte,
    bandwidthScheduler: stored.bandwidthScheduler,
  });
}

/**
 * The runtime parameters of `protocolVersion` (default: the version of a new chain), resolved and checked
 * once per version. A chain passes its genesis `protocol_version`; an unsupported one is refused with an
 * `UnsupportedProtocolVersionError`.
 */
export function loadRuntimeConfig(protocolVersion: number = DEFAULT_PROTOCOL_VERSION): RuntimeConfig {
  return runtimeConfigFor(protocolVersion);
}
