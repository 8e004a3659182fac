/**
 * The runtime-config store, kept as nearcore keeps it (core/parameters/src/config_store.rs): a base table of
 * parameters plus, per protocol version, the diff that version applies. The table of version V is the base
 * with every diff up to V applied in ascending order; each change names the value it replaces and is refused
 * when the table holds another one (nearcore's `WrongOldValue`, `OldValueExists`, `NoOldValueExists`), so a
 * wrong number in a diff cannot slip through. The data is in runtime-parameters/ (our format, from nearcore's
 * YAML); the base is protocol 83, the oldest version this node runs.
 *
 * `runtimeConfigFor(version)` turns a version's table into the typed {@link RuntimeConfig}, once per version.
 */
import { ACTION_COSTS, type ActionCost, type Fee } from './fees.js';
import {
  isSupportedProtocolVersion,
  STABLE_PROTOCOL_VERSION,
  UnsupportedProtocolVersionError,
} from './protocol-version.js';
import {
  CONGESTION_CONTROL_FIELDS,
  EXT_COSTS,
  type ExtCost,
  type FieldKind,
  type FieldTable,
  LIMIT_FIELDS,
  type Rational,
  type RuntimeConfig,
  RuntimeConfigError,
  VM_KINDS,
  type VmKind,
  WASM_FIELDS,
  WITNESS_FIELDS,
} from './runtime-config.js';
import { BASE_PARAMETERS, BASE_PROTOCOL_VERSION } from './runtime-parameters/base-83.js';
import { DIFF_84 } from './runtime-parameters/diff-84.js';
import { DIFF_85 } from './runtime-parameters/diff-85.js';
import { DIFF_86 } from './runtime-parameters/diff-86.js';
import { DIFF_87 } from './runtime-parameters/diff-87.js';
import type {
  FeeValue,
  ParameterData,
  ParameterDiff,
  ParameterValue,
  RatioValue,
} from './runtime-parameters/parameter-data.js';

/** Every version's diff, in ascending order. */
export const PARAMETER_DIFFS: readonly ParameterDiff[] = [DIFF_84, DIFF_85, DIFF_86, DIFF_87];

/** Parameters a diff may add (`{ new }` alone): the limits nearcore keeps as `Option`, unset at the base.
 * (Computed on first use: runtime-config.ts and this module import each other.) */
function isOptionalParameter(name: string): boolean {
  return LIMIT_FIELDS.some((field) => field.length === 4 && field[0] === name);
}

/** The parameter behind each fee, by nearcore's `ActionCosts` name (`FeeParameter::from(ActionCosts)`). */
export const FEE_PARAMETERS: Readonly<Record<ActionCost, string>> = {
  new_action_receipt: 'action_receipt_creation',
  new_data_receipt_base: 'data_receipt_creation_base',
  new_data_receipt_byte: 'data_receipt_creation_per_byte',
  create_account: 'action_create_account',
  deploy_contract_base: 'action_deploy_contract',
  deploy_contract_byte: 'action_deploy_contract_per_byte',
  function_call_base: 'action_function_call',
  function_call_byte: 'action_function_call_per_byte',
  transfer: 'action_transfer',
  stake: 'action_stake',
  add_full_access_key: 'action_add_full_access_key',
  add_function_call_key_base: 'action_add_function_call_key',
  add_function_call_key_byte: 'action_add_function_call_key_per_byte',
  delete_key: 'action_delete_key',
  delete_account: 'action_delete_account',
  delegate: 'action_delegate',
  deploy_global_contract_base: 'action_deploy_global_contract',
  deploy_global_contract_byte: 'action_deploy_global_contract_per_byte',
  use_global_contract_base: 'action_use_global_contract',
  use_global_contract_byte: 'action_use_global_contract_per_identifier_byte',
  deterministic_state_init_base: 'action_deterministic_state_init',
  deterministic_state_init_byte: 'action_deterministic_state_init_per_byte',
  deterministic_state_init_entry: 'action_deterministic_state_init_per_entry',
  gas_key_transfer_base: 'action_gas_key_transfer',
  gas_key_byte: 'action_gas_key_byte',
  gas_key_nonce_write_base: 'action_gas_key_nonce_write_base',
};

/** The view's ext costs that are not parameters: nearcore's view writes 0 for them. */
const VIEW_ONLY_EXT_COSTS: ReadonlySet<ExtCost> = new Set([
  'contract_compile_base',
  'contract_compile_bytes',
]);

/** The parameter of a `wasm_config` field of the view (the gas costs carry a `wasm_` prefix). */
const WASM_FIELD_PARAMETERS: Readonly<Record<string, string>> = {
  grow_mem_cost: 'wasm_grow_mem_cost',
  regular_op_cost: 'wasm_regular_op_cost',
  linear_op_base_cost: 'wasm_linear_op_base_cost',
  linear_op_unit_cost: 'wasm_linear_op_unit_cost',
};
/** `wasm_config` fields that are constants of nearcore's `Config`, not parameters. */
const WASM_FIELD_CONSTANTS: Readonly<Record<string, boolean>> = { implicit_account_creation: true };

type ValueKind = 'integer' | 'bool' | 'string' | 'ratio' | 'fee';

function kindOf(value: ParameterValue): ValueKind {
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  return 'numerator' in value ? 'ratio' : 'fee';
}

function sameValue(a: ParameterValue, b: ParameterValue): boolean {
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (kindOf(a) !== kindOf(b)) return false;
  const x = a as unknown as Record<string, bigint>;
  const y = b as unknown as Record<string, bigint>;
  return Object.keys(x).every((key) => x[key] === y[key]);
}

function show(value: ParameterValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (typeof value !== 'object') return String(value);
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Applies `diff` to `table` (in place), checking each change against what the table holds. */
export function applyParameterDiff(table: Map<string, ParameterValue>, diff: ParameterDiff): void {
  for (const [name, change] of Object.entries(diff.changes)) {
    const path = `${diff.protocolVersion}.${name}`;
    const current = table.get(name);
    if (change.old === undefined) {
      if (current !== undefined) {
        throw new RuntimeConfigError(path, `adds a value, but the parameter already is ${show(current)}`);
      }
      if (!isOptionalParameter(name)) throw new RuntimeConfigError(path, 'unknown parameter');
    } else {
      if (current === undefined) {
        throw new RuntimeConfigError(path, `replaces ${show(change.old)}, but the parameter has no value`);
      }
      if (!sameValue(current, change.old)) {
        throw new RuntimeConfigError(path, `replaces ${show(change.old)}, but the value is ${show(current)}`);
      }
      if (kindOf(change.new) !== kindOf(current)) {
        throw new RuntimeConfigError(path, `changes the kind of value (${show(change.new)})`);
      }
    }
    table.set(name, change.new);
  }
}

/** The parameter table of `protocolVersion`: the base with every diff up to that version applied. */
export function resolveParameters(
  protocolVersion: number,
  base: ParameterData = BASE_PARAMETERS,
  diffs: readonly ParameterDiff[] = PARAMETER_DIFFS,
): Map<string, ParameterValue> {
  const table = new Map<string, ParameterValue>(Object.entries(base));
  let previous = BASE_PROTOCOL_VERSION;
  for (const diff of diffs) {
    if (diff.protocolVersion <= previous) {
      throw new RuntimeConfigError(`${diff.protocolVersion}`, 'diffs must be in ascending version order');
    }
    previous = diff.protocolVersion;
    if (diff.protocolVersion > protocolVersion) break;
    applyParameterDiff(table, diff);
  }
  return table;
}

/** Reads typed parameters out of a resolved table; a missing or mistyped one is a RuntimeConfigError. */
class ParameterReader {
  private readonly used = new Set<string>();

  constructor(
    private readonly table: ReadonlyMap<string, ParameterValue>,
    private readonly protocolVersion: number,
  ) {}

  private get(name: string, kind: ValueKind): ParameterValue {
    const value = this.table.get(name);
    const path = `${this.protocolVersion}.${name}`;
    if (value === undefined) throw new RuntimeConfigError(path, 'missing');
    if (kindOf(value) !== kind) throw new RuntimeConfigError(path, `expected a ${kind}, got ${show(value)}`);
    this.used.add(name);
    return value;
  }

  has(name: string): boolean {
    return this.table.has(name);
  }

  integer(name: string, max = U64_MAX): bigint {
    const value = this.get(name, 'integer') as bigint;
    if (value < 0n || value > max) {
      throw new RuntimeConfigError(`${this.protocolVersion}.${name}`, `${value} is out of range`);
    }
    return value;
  }

  count(name: string): number {
    return Number(this.integer(name, BigInt(Number.MAX_SAFE_INTEGER)));
  }

  bool(name: string): boolean {
    return this.get(name, 'bool') as boolean;
  }

  string(name: string): string {
    return this.get(name, 'string') as string;
  }

  ratio(name: string): Rational {
    const value = this.get(name, 'ratio') as RatioValue;
    if (value.denominator === 0n) {
      throw new RuntimeConfigError(`${this.protocolVersion}.${name}`, 'denominator is 0');
    }
    return Object.freeze({ numerator: value.numerator, denominator: value.denominator });
  }

  fee(name: string): Fee {
    const value = this.get(name, 'fee') as FeeValue;
    return Object.freeze({
      sendSir: value.sendSir,
      sendNotSir: value.sendNotSir,
      execution: value.execution,
    });
  }

  field(name: string, kind: FieldKind): bigint | number | boolean {
    switch (kind) {
      case 'gas':
        return this.integer(name);
      case 'count':
        return this.count(name);
      case 'bool':
        return this.bool(name);
      case 'float': {
        // nearcore keeps the ratio and shows it as `numerator as f64 / denominator as f64`.
        const ratio = this.ratio(name);
        return Number(ratio.numerator) / Number(ratio.denominator);
      }
    }
  }

  table_(table: FieldTable, parameterOf: (jsonName: string) => string = (n) => n) {
    const result: Record<string, bigint | number | boolean | undefined> = {};
    for (const field of table) {
      const [jsonName, name, kind] = field;
      const parameter = parameterOf(jsonName);
      if (field.length === 4 && !this.has(parameter)) result[name] = undefined;
      else result[name] = this.field(parameter, kind);
    }
    return result;
  }

  /** Parameters of the table nothing read: a name the config does not know. */
  unused(): string[] {
    return [...this.table.keys()].filter((name) => !this.used.has(name));
  }
}

const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;

/** Parameters of the table that are kept for completeness but not read into the {@link RuntimeConfig}. */
const NOT_READ = new Set(['saturating_float_to_int', 'use_state_stored_receipt']);

/** Builds the typed configuration of `protocolVersion` from its resolved parameter table. */
export function runtimeConfigFromParameters(
  table: ReadonlyMap<string, ParameterValue>,
  protocolVersion: number,
  source = `runtime parameters of protocol version ${protocolVersion}`,
): RuntimeConfig {
  const p = new ParameterReader(table, protocolVersion);
  const fees = {} as Record<ActionCost, Fee>;
  for (const cost of ACTION_COSTS) fees[cost] = p.fee(FEE_PARAMETERS[cost]);
  const extCosts = {} as Record<ExtCost, bigint>;
  for (const name of EXT_COSTS)
    extCosts[name] = VIEW_ONLY_EXT_COSTS.has(name) ? 0n : p.integer(`wasm_${name}`);
  const vmKind = p.string('vm_kind');
  if (!(VM_KINDS as readonly string[]).includes(vmKind)) {
    throw new RuntimeConfigError(`${protocolVersion}.vm_kind`, `unknown VM kind ${vmKind}`);
  }
  const wasmFields = WASM_FIELDS.filter(([jsonName]) => !(jsonName in WASM_FIELD_CONSTANTS));
  const wasm = p.table_(wasmFields, (jsonName) => WASM_FIELD_PARAMETERS[jsonName] ?? jsonName);
  for (const [jsonName, value] of Object.entries(WASM_FIELD_CONSTANTS)) {
    const field = WASM_FIELDS.find(([name]) => name === jsonName);
    if (field) wasm[field[1]] = value;
  }
  const limits = p.table_(LIMIT_FIELDS);
  const config: RuntimeConfig = Object.freeze({
    protocolVersion,
    source,
    storageAmountPerByte: p.integer('storage_amount_per_byte', U128_MAX),
    fees: Object.freeze(fees),
    storageUsage: Object.freeze({
      numBytesAccount: p.integer('storage_num_bytes_account'),
      numExtraBytesRecord: p.integer('storage_num_extra_bytes_record'),
    }),
    burntGasReward: p.ratio('burnt_gas_reward'),
    pessimisticGasPriceInflationRatio: p.ratio('pessimistic_gas_price_inflation'),
    gasRefundPenalty: p.ratio('gas_refund_penalty'),
    minGasRefundPenalty: p.integer('min_gas_refund_penalty'),
    mlDsa65VerificationCost: p.integer('ml_dsa_65_verification_cost'),
    fixMlDsaCostCharging: p.bool('fix_ml_dsa_cost_charging'),
    wasm: Object.freeze({
      extCosts: Object.freeze(extCosts),
      ...(wasm as Omit<RuntimeConfig['wasm'], 'extCosts' | 'vmKind' | 'storageGetMode' | 'limits'>),
      vmKind: vmKind as VmKind,
      storageGetMode: p.bool('flat_storage_reads') ? 'FlatStorage' : 'Trie',
      limits: Object.freeze({
        ...(limits as Omit<
          RuntimeConfig['wasm']['limits'],
          'maxGasBurntView' | 'maxStateInitEntries' | 'maxUniversalStateInitKeys'
        >),
        maxGasBurntView: p.integer('max_gas_burnt_view'),
        maxStateInitEntries: p.count('max_state_init_entries'),
        maxUniversalStateInitKeys: p.count('max_universal_state_init_keys'),
      }),
      fixContractLoadingError: p.bool('fix_contract_loading_error'),
    }),
    accountCreation: Object.freeze({
      minAllowedTopLevelAccountLength: p.count('min_allowed_top_level_account_length'),
      registrarAccountId: p.string('registrar_account_id'),
    }),
    congestionControl: Object.freeze(
      p.table_(CONGESTION_CONTROL_FIELDS),
    ) as unknown as RuntimeConfig['congestionControl'],
    witness: Object.freeze(p.table_(WITNESS_FIELDS)) as unknown as RuntimeConfig['witness'],
    minGasPurchasePrice: p.integer('min_gas_purchase_price', U128_MAX),
    accountCreationCharge: p.integer('account_creation_charge', U128_MAX),
    globalContractStorageAmountPerByte: p.integer('global_contract_storage_amount_per_byte', U128_MAX),
    deployGlobalContractExecutionBase: p.integer('deploy_global_contract_execution_base'),
    deployGlobalContractExecutionPerByte: p.integer('deploy_global_contract_execution_per_byte'),
    bandwidthScheduler: Object.freeze({
      maxShardBandwidth: p.integer('max_shard_bandwidth'),
      maxSingleGrant: p.integer('max_single_grant'),
      maxAllowance: p.integer('max_allowance'),
      maxBaseBandwidth: p.integer('max_base_bandwidth'),
    }),
  } as RuntimeConfig);
  const unknown = p.unused().filter((name) => !NOT_READ.has(name));
  if (unknown.length > 0)
    throw new RuntimeConfigError(`${protocolVersion}.${unknown[0]}`, 'unknown parameter');
  return config;
}

const configs = new Map<number, RuntimeConfig>();

/**
 * The runtime configuration of `protocolVersion` (resolved and checked once per version). An unsupported
 * version is an {@link UnsupportedProtocolVersionError}.
 */
export function runtimeConfigFor(protocolVersion: number): RuntimeConfig {
  let config = configs.get(protocolVersion);
  if (config === undefined) {
    if (!isSupportedProtocolVersion(protocolVersion))
      throw new UnsupportedProtocolVersionError(protocolVersion);
    const source =
      protocolVersion === BASE_PROTOCOL_VERSION
        ? `runtime parameters of protocol version ${protocolVersion} (the base)`
        : `runtime parameters of protocol version ${protocolVersion}: the base (${BASE_PROTOCOL_VERSION}) and the diffs of ${PARAMETER_DIFFS.filter(
            (d) => d.protocolVersion <= protocolVersion,
          )
            .map((d) => d.protocolVersion)
            .join(', ')}`;
    config = runtimeConfigFromParameters(resolveParameters(protocolVersion), protocolVersion, source);
    configs.set(protocolVersion, config);
  }
  return config;
}

/** The newest version the store has data for (its last diff), which must be the stable version. */
export const NEWEST_STORED_PROTOCOL_VERSION =
  PARAMETER_DIFFS[PARAMETER_DIFFS.length - 1]?.protocolVersion ?? BASE_PROTOCOL_VERSION;
if (NEWEST_STORED_PROTOCOL_VERSION !== STABLE_PROTOCOL_VERSION) {
  throw new Error(
    `runtime parameters: the store ends at ${NEWEST_STORED_PROTOCOL_VERSION}, not ${STABLE_PROTOCOL_VERSION}`,
  );
}
