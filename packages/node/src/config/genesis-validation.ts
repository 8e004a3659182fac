/**
 * Validation of a parsed genesis.json: every field nearcore requires, with the right type and encoding; the
 * optional ones when present; nearcore's semantic checks (`genesis_validate.rs`); and what this node needs.
 * The fields are checked by one table of rules (GENESIS_RULES), in order; every problem is reported with its path.
 */
import { ShadeboxError } from '@shadebox/errors';
import { accessKeyPermissionFromView, isValidAccountId, parsePublicKey } from '@shadebox/primitives';
import { EMPTY_CODE_HASH, OPTIONAL_DEFAULTS, type Ratio } from './genesis.js';
import { parseGenesisTime } from './genesis-time.js';
import {
  isSupportedProtocolVersion,
  MIN_SUPPORTED_PROTOCOL_VERSION,
  STABLE_PROTOCOL_VERSION,
} from './protocol-version.js';

const U128_MAX = (1n << 128n) - 1n;

/** One problem in a genesis file: where (`records[3].Account.account.amount`) and what. */
export interface GenesisIssue {
  path: string;
  message: string;
}

export class InvalidGenesisError extends ShadeboxError<{ issues: readonly GenesisIssue[] }> {
  constructor(readonly issues: readonly GenesisIssue[]) {
    super(`invalid genesis: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`, {
      details: { issues },
      docsPath: 'docs/configuration.md',
    });
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
  const uninitializedAccounts = new Set<string>();
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
        // nearcore 2.14 (genesis_validate.rs, SerdeAccount): an uninitialized universal account carries its
        // bootstrap nonce and nothing else; an initialized one has no bootstrap nonce.
        const uninitialized = account.state === 'uninitialized';
        if (account.state !== undefined && account.state !== 'initialized' && !uninitialized) {
          c.issue(
            `${path}.account.state`,
            `expected "initialized" or "uninitialized", got ${show(account.state)}`,
          );
        }
        if (uninitialized) {
          if (account.bootstrap_nonce === undefined)
            c.issue(`${path}.account.bootstrap_nonce`, 'an uninitialized account needs its bootstrap_nonce');
          else c.u64(account.bootstrap_nonce, `${path}.account.bootstrap_nonce`);
          if (locked !== null && locked > 0n)
            c.issue(`${path}.account.locked`, 'an uninitialized account cannot have a locked balance');
          if (
            hasLocalCode ||
            account.global_contract_hash !== undefined ||
            account.global_contract_account_id !== undefined
          )
            c.issue(`${path}.account`, 'an uninitialized account cannot have a contract');
        } else if (account.bootstrap_nonce !== undefined) {
          c.issue(`${path}.account.bootstrap_nonce`, 'only an uninitialized account has a bootstrap_nonce');
        }
        if (!idOk) return;
        if (uninitialized) uninitializedAccounts.add(id);
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
          const gasKey =
            isObject(permission) && ('GasKeyFullAccess' in permission || 'GasKeyFunctionCall' in permission);
          if (gasKey) {
            // A gas key (NEP-611): its view form, checked by the view parser.
            try {
              accessKeyPermissionFromView(permission, `${path}.access_key.permission`);
            } catch (err) {
              c.issue(`${path}.access_key.permission`, err instanceof Error ? err.message : String(err));
            }
          } else if (permission !== 'FullAccess') {
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
      case 'GasKeyNonce': {
        c.publicKey(body.public_key, `${path}.public_key`);
        if (!Number.isInteger(body.index) || (body.index as number) < 0 || (body.index as number) > 0xffff) {
          c.issue(`${path}.index`, `expected a u16, got ${show(body.index)}`);
        }
        c.u64(body.nonce, `${path}.nonce`);
        if (idOk) keyOwners.push([id, path]);
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
  // Genesis applies an uninitialized account as owning no state: a key, contract or data of its own is refused.
  for (const [id, path] of [...keyOwners, ...contractOwners, ...dataOwners]) {
    if (uninitializedAccounts.has(id))
      c.issue(`${path}.account_id`, `account ${id} is uninitialized and cannot own state records`);
  }
  return { supply: supply.value, staked, balancesOk: supply.balancesOk };
}

/** What the rules of one validation share: the genesis (optional fields defaulted) and what earlier rules found. */
interface Validation {
  c: Checker;
  g: JsonObject;
  /** Shards of a valid `shard_layout` (the per-shard arrays must have as many entries). */
  numShards: number | null;
  records: { supply: bigint; staked: Map<string, bigint>; balancesOk: boolean };
}

/** A field's rule: checks the value at `path` and says whether it is valid. */
type FieldCheck = (value: Json, path: string, v: Validation) => boolean;

/**
 * One row of the table: a field and its check (a required field that is missing is reported as such and not
 * checked; fields in OPTIONAL_DEFAULTS are checked with their default), or a relation between fields that runs
 * when all of them passed their own checks.
 */
type GenesisRule =
  | { field: string; check: FieldCheck }
  | { relation: readonly string[]; check: (v: Validation) => void };

const u64 =
  (min = 0): FieldCheck =>
  (value, path, v) =>
    v.c.u64(value, path, min);
const percent: FieldCheck = (value, path, v) => v.c.u8(value, path, 100);
const bool: FieldCheck = (value, path, v) => v.c.bool(value, path);
const ratio: FieldCheck = (value, path, v) => v.c.ratio(value, path);
const u128: FieldCheck = (value, path, v) => v.c.u128(value, path) !== null;
const accountId: FieldCheck = (value, path, v) => v.c.accountId(value, path);

const protocolVersion: FieldCheck = (value, path, v) => {
  if (!v.c.u64(value, path)) return false;
  if (isSupportedProtocolVersion(value as number)) return true;
  v.c.issue(
    path,
    `this node runs protocol versions ${MIN_SUPPORTED_PROTOCOL_VERSION} to ${STABLE_PROTOCOL_VERSION}, got ${value}`,
  );
  return false;
};

const rfc3339: FieldCheck = (value, path, v) => {
  if (typeof value !== 'string') {
    v.c.issue(path, `expected an RFC 3339 string, got ${show(value)}`);
    return false;
  }
  try {
    parseGenesisTime(value);
    return true;
  } catch (error) {
    v.c.issue(path, (error as Error).message);
    return false;
  }
};

const nonEmptyString: FieldCheck = (value, path, v) => {
  if (typeof value === 'string' && value !== '') return true;
  v.c.issue(path, `expected a non-empty string, got ${show(value)}`);
  return false;
};

const shardLayout: FieldCheck = (layout, path, v) => {
  if (!isObject(layout) || !isObject(layout.V0) || Object.keys(layout).length !== 1) {
    const kind = isObject(layout) ? Object.keys(layout).join(', ') : show(layout);
    v.c.issue(path, `expected {"V0": {"num_shards": n, "version": 0}} (only V0 is supported), got ${kind}`);
    return false;
  }
  if (typeof layout.V0.num_shards !== 'number' || layout.V0.num_shards < 1) {
    v.c.issue(`${path}.V0.num_shards`, `must be at least 1, got ${show(layout.V0.num_shards)}`);
    return false;
  }
  if (
    !v.c.u64(layout.V0.num_shards, `${path}.V0.num_shards`, 1) ||
    !v.c.u64(layout.V0.version, `${path}.V0.version`)
  )
    return false;
  v.numShards = layout.V0.num_shards;
  return true;
};

/** An array with one u64 per shard of the layout. */
const perShard: FieldCheck = (value, path, v) => {
  if (!v.c.u64Array(value, path)) return false;
  const length = (value as number[]).length;
  if (v.numShards === null || length === v.numShards) return true;
  v.c.issue(path, `has ${length} entries but the shard layout has ${v.numShards} shards`);
  return false;
};

const records: FieldCheck = (value, _path, v) => {
  v.records = checkRecords(v.c, value);
  return v.records.balancesOk;
};

/** `total_supply` equals what the Account records hold (when every balance could be read). */
const totalSupply: FieldCheck = (value, path, v) => {
  const total = v.c.u128(value, path);
  if (total === null) return false;
  const { supply, balancesOk } = v.records;
  if (!balancesOk || total === supply) return true;
  v.c.issue(
    path,
    `is ${total} but the Account records hold ${supply} (sum of amount + locked); they must be equal`,
  );
  return false;
};

/** The validators: well formed, ed25519 keys, no duplicates, and exactly the accounts with a stake. */
const validators: FieldCheck = (value, path, v) => {
  const { c } = v;
  if (!Array.isArray(value)) {
    c.issue(path, `expected an array, got ${show(value)}`);
    return false;
  }
  if (value.length === 0) {
    c.issue(path, 'no validators in genesis');
    return false;
  }
  const stakes = new Map<string, bigint>();
  value.forEach((validator: Json, i: number) => {
    const at = `${path}[${i}]`;
    if (!isObject(validator)) {
      c.issue(at, `expected {account_id, public_key, amount}, got ${show(validator)}`);
      return;
    }
    const idOk = c.accountId(validator.account_id, `${at}.account_id`);
    if (c.publicKey(validator.public_key, `${at}.public_key`)) {
      if (parsePublicKey(validator.public_key).keyType !== 0) {
        c.issue(`${at}.public_key`, 'a validator staking key must be ed25519');
      }
    }
    const amount = c.u128(validator.amount, `${at}.amount`);
    if (!idOk || amount === null) return;
    if (stakes.has(validator.account_id as string)) {
      c.issue(`${at}.account_id`, `duplicate validator ${validator.account_id}`);
    }
    stakes.set(validator.account_id as string, amount);
  });
  if (!v.records.balancesOk || c.issues.some((issue) => issue.path.startsWith(path))) return false;
  const { staked } = v.records;
  const same = stakes.size === staked.size && [...stakes].every(([id, amount]) => staked.get(id) === amount);
  if (same) return true;
  c.issue(
    path,
    'validator accounts do not match staked accounts: every validator needs an Account record whose ' +
      '`locked` equals its `amount`, and every account with a non-zero `locked` must be a validator',
  );
  return false;
};

/** Every genesis field and relation this node checks, in the order problems are reported. */
export const GENESIS_RULES: readonly GenesisRule[] = [
  { field: 'protocol_version', check: protocolVersion },
  { field: 'genesis_time', check: rfc3339 },
  { field: 'chain_id', check: nonEmptyString },
  { field: 'genesis_height', check: u64() },
  { field: 'num_block_producer_seats', check: u64() },
  { field: 'transaction_validity_period', check: u64() },
  { field: 'num_blocks_per_year', check: u64() },
  { field: 'minimum_stake_divisor', check: u64() },
  { field: 'num_chunk_only_producer_seats', check: u64() },
  { field: 'minimum_validators_per_shard', check: u64() },
  { field: 'num_chunk_producer_seats', check: u64() },
  { field: 'num_chunk_validator_seats', check: u64() },
  { field: 'chunk_producer_assignment_changes_limit', check: u64() },
  { field: 'target_validator_mandates_per_shard', check: u64() },
  { field: 'epoch_length', check: u64(1) },
  { field: 'gas_limit', check: u64(1) },
  { field: 'block_producer_kickout_threshold', check: percent },
  { field: 'chunk_producer_kickout_threshold', check: percent },
  { field: 'chunk_validator_only_kickout_threshold', check: percent },
  { field: 'max_kickout_stake_perc', check: percent },
  { field: 'dynamic_resharding', check: bool },
  { field: 'use_production_config', check: bool },
  { field: 'shuffle_shard_assignment_for_chunk_producers', check: bool },
  { field: 'protocol_upgrade_stake_threshold', check: ratio },
  { field: 'online_min_threshold', check: ratio },
  { field: 'online_max_threshold', check: ratio },
  { field: 'gas_price_adjustment_rate', check: ratio },
  { field: 'protocol_reward_rate', check: ratio },
  { field: 'max_inflation_rate', check: ratio },
  { field: 'minimum_stake_ratio', check: ratio },
  {
    relation: ['online_min_threshold', 'online_max_threshold'],
    check: ({ c, g }: Validation) => {
      const min = ratioValue(g.online_min_threshold as Ratio);
      const max = ratioValue(g.online_max_threshold as Ratio);
      if (max <= min) c.issue('online_max_threshold', 'must be greater than online_min_threshold');
      if (max > 1) c.issue('online_max_threshold', 'must be at most 1');
    },
  },
  {
    relation: ['gas_price_adjustment_rate'],
    check: ({ c, g }: Validation) => {
      if (ratioValue(g.gas_price_adjustment_rate as Ratio) >= 1)
        c.issue('gas_price_adjustment_rate', 'must be less than 1');
    },
  },
  { field: 'min_gas_price', check: u128 },
  { field: 'max_gas_price', check: u128 },
  {
    relation: ['min_gas_price', 'max_gas_price'],
    check: ({ c, g }: Validation) => {
      if (BigInt(g.min_gas_price as string) > BigInt(g.max_gas_price as string))
        c.issue('min_gas_price', 'must not be greater than max_gas_price');
    },
  },
  { field: 'fishermen_threshold', check: u128 },
  { field: 'protocol_treasury_account', check: accountId },
  { field: 'shard_layout', check: shardLayout },
  { field: 'num_block_producer_seats_per_shard', check: perShard },
  { field: 'avg_hidden_validator_seats_per_shard', check: perShard },
  { field: 'records', check: records },
  { field: 'total_supply', check: totalSupply },
  { field: 'validators', check: validators },
];

/**
 * Checks a parsed genesis.json against GENESIS_RULES: every field nearcore requires, with the right type and
 * encoding; the optional ones when present; nearcore's semantic checks (`genesis_validate.rs`: total supply,
 * validators = staked accounts, keys/contracts of existing accounts, thresholds); and what this node needs
 * (protocol 85, a V0 shard layout with at least one shard). Returns every problem found (empty when valid).
 */
export function validateGenesis(json: unknown): GenesisIssue[] {
  const c = new Checker();
  if (!isObject(json)) {
    c.issue('$', `expected a JSON object, got ${show(json)}`);
    return c.issues;
  }
  const v: Validation = {
    c,
    g: { ...OPTIONAL_DEFAULTS, ...json },
    numShards: null,
    records: { supply: 0n, staked: new Map(), balancesOk: false },
  };
  const passed = new Set<string>();
  for (const rule of GENESIS_RULES) {
    if ('relation' in rule) {
      if (rule.relation.every((field) => passed.has(field))) rule.check(v);
      continue;
    }
    if (!(rule.field in OPTIONAL_DEFAULTS) && json[rule.field] === undefined) {
      c.issue(rule.field, 'missing');
      continue;
    }
    if (rule.check(v.g[rule.field], rule.field, v)) passed.add(rule.field);
  }
  return c.issues;
}
