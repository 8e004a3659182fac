/**
 * config.json, validator_key.json and node_key.json: the node's own files, in nearcore's formats.
 *
 * config.json is the subset of nearcore's `Config` (nearcore/src/config.rs) this node uses, with the same names
 * and encodings (durations are `std::time::Duration` in serde form, `{"secs": u64, "nanos": u32}`), plus a
 * `shadebox` section of our own for block production. Like nearcore (`#[serde(default)]`), a missing field
 * takes its default and fields we do not use (nearcore's `network`, `consensus`, `telemetry`, ...) are
 * ignored, so a config.json written by `neard init` loads too.
 *
 * Key files are nearcore's `KeyFile` (core/crypto/src/key_file.rs): `{account_id, public_key, secret_key}`
 * (`private_key` is accepted as the old name of `secret_key`), written with mode 0600.
 */
import { isValidAccountId, KeyPair, parsePublicKey, publicKeyToString } from '@shadebox/primitives';
import { ConfigFileError, type ConfigIssue } from './config-file-error.js';

/** `std::time::Duration` as serde writes it. */
export interface Duration {
  secs: number;
  nanos: number;
}

export type ProductionMode = 'automine' | 'interval' | 'manual';
export const PRODUCTION_MODES: readonly ProductionMode[] = ['automine', 'interval', 'manual'];

export interface RpcConfig {
  /** `host:port` the JSON-RPC server listens on. Default `127.0.0.1:3030` (nearcore: `0.0.0.0:3030`). */
  addr: string;
  /** A separate Prometheus-only listener; null = serve /metrics on `addr`. */
  prometheus_addr: string | null;
  cors_allowed_origins: string[];
  polling_config: {
    /** How often a waiting `send_tx`/`tx` request re-checks the transaction. Default 500 ms. */
    polling_interval: Duration;
    /** How long such a request waits before the timeout error. Default 10 s. */
    polling_timeout: Duration;
  };
  limits_config: {
    /** Largest accepted request body, bytes. Default 10 MiB. */
    json_payload_max_size: number;
  };
  enable_debug_rpc: boolean;
  /** Serve `EXPERIMENTAL_indexer_block` (nearcore 2.14's `enable_indexer_rpc`). Default false: the method is
   * then unknown (METHOD_NOT_FOUND). */
  enable_indexer_rpc: boolean;
  /** How many `EXPERIMENTAL_indexer_block` requests may be assembled at once; more are refused with BUSY
   * (nearcore's `indexer_max_concurrent_requests`). Default 1. */
  indexer_max_concurrent_requests: number;
}

/** Our own section: how blocks are produced. */
export interface ShadeboxConfig {
  /** automine: blocks back to back while there is work; interval: one every `block_time_ms`; manual: on demand. */
  production: ProductionMode;
  /** Block interval of `interval` mode, ms. */
  block_time_ms: number;
  /** The ETH wallet contract (a file, relative to the home): deployed as a global contract by code hash in
   * the genesis state, and what an ETH-implicit account a transfer creates uses. Absent: such accounts are
   * created without a contract. */
  eth_wallet_contract?: string;
  /** MiB of the store's file the node holds mapped before it drops its map (store/lmdb-store.ts,
   * `mapBudgetBytes`); 0 never drops it. Absent: {@link DEFAULT_STORE_MAP_BUDGET_MB}. */
  store_map_budget_mb?: number;
}

/** Default of `shadebox.store_map_budget_mb`: the most of `data.mdb` a node keeps in its RSS. */
export const DEFAULT_STORE_MAP_BUDGET_MB = 16;

export interface NodeConfig {
  genesis_file: string;
  validator_key_file: string;
  node_key_file: string;
  rpc: RpcConfig;
  /** Keep all history (no garbage collection). */
  archive: boolean;
  /** Epochs of history a non-archival node keeps; nearcore never keeps fewer than 3. */
  gc_num_epochs_to_keep: number;
  /** Only `AllShards`: the single node tracks every shard. */
  tracked_shards_config: 'AllShards';
  /** Largest contract state `view_state` returns, bytes; null = no limit. */
  trie_viewer_state_size_limit: number | null;
  /** Transaction pool size limit, bytes; null = unbounded. */
  transaction_pool_size_limit: number | null;
  /** Overrides `max_gas_burnt` for view calls when set. */
  max_gas_burnt_view?: number;
  store: {
    /** Database directory, relative to the home directory. */
    path: string;
  };
  shadebox: ShadeboxConfig;
}

/** nearcore `MIN_GC_NUM_EPOCHS_TO_KEEP`. */
export const MIN_GC_NUM_EPOCHS_TO_KEEP = 3;

export interface DefaultNodeConfigOptions {
  rpcAddr?: string;
  production?: ProductionMode;
  blockTimeMs?: number;
  archive?: boolean;
}

/** The config.json `initHome` writes, with where each default comes from. */
export function defaultNodeConfig(options: DefaultNodeConfigOptions = {}): NodeConfig {
  return {
    // Config::default() file names (nearcore/src/config.rs, GENESIS_CONFIG_FILENAME).
    genesis_file: 'genesis.json',
    validator_key_file: 'validator_key.json',
    node_key_file: 'node_key.json',
    rpc: {
      // RpcConfig::default() is 0.0.0.0:3030; we bind loopback unless told otherwise.
      addr: options.rpcAddr ?? '127.0.0.1:3030',
      prometheus_addr: null,
      cors_allowed_origins: ['*'],
      // RpcPollingConfig::default(): 500 ms / 10 s.
      polling_config: {
        polling_interval: { secs: 0, nanos: 500_000_000 },
        polling_timeout: { secs: 10, nanos: 0 },
      },
      // RpcLimitsConfig::default(): 10 MiB.
      limits_config: { json_payload_max_size: 10 * 1024 * 1024 },
      enable_debug_rpc: false,
      // RpcConfig::default() (chain/jsonrpc, nearcore 2.14): the indexer method off, one request at a time.
      enable_indexer_rpc: false,
      indexer_max_concurrent_requests: 1,
    },
    archive: options.archive ?? false,
    // DEFAULT_GC_NUM_EPOCHS_TO_KEEP.
    gc_num_epochs_to_keep: 5,
    tracked_shards_config: 'AllShards',
    // default_trie_viewer_state_size_limit() = Some(50_000).
    trie_viewer_state_size_limit: 50_000,
    // default_transaction_pool_size_limit() = Some(100 MB).
    transaction_pool_size_limit: 100_000_000,
    // StoreConfig::default().path = None, which nearcore resolves to "data".
    store: { path: 'data' },
    shadebox: { production: options.production ?? 'automine', block_time_ms: options.blockTimeMs ?? 1000 },
  };
}

/** A duration in milliseconds. */
export function durationToMs(duration: Duration): number {
  return duration.secs * 1000 + duration.nanos / 1_000_000;
}

/** `{secs, nanos}` of a number of milliseconds. */
export function msToDuration(ms: number): Duration {
  const secs = Math.floor(ms / 1000);
  return { secs, nanos: Math.round((ms - secs * 1000) * 1_000_000) };
}

/** Splits `host:port` / `[v6]:port`; null when it is not one. */
export function parseListenAddr(addr: string): { host: string; port: number } | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(addr);
  if (m === null) return null;
  const port = Number(m[3]);
  if (port > 65535) return null;
  return { host: m[1] ?? m[2], port };
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (isObject(value)) return 'an object';
  return JSON.stringify(value);
}

/**
 * Checks a parsed config.json and returns it with defaults for what is missing. Throws
 * {@link ConfigFileError} naming `file` and every bad field.
 */
export function parseNodeConfig(json: unknown, file = 'config.json'): NodeConfig {
  if (!isObject(json)) throw ConfigFileError.single(file, '$', `expected a JSON object, got ${show(json)}`);
  const defaults = defaultNodeConfig();
  const issues: ConfigIssue[] = [];
  const bad = (field: string, message: string) => issues.push({ field, message });

  const pick = <T>(parent: JsonObject, key: string, fallback: T): unknown =>
    parent[key] === undefined ? fallback : parent[key];
  const str = (parent: JsonObject, key: string, path: string, fallback: string): string => {
    const value = pick(parent, key, fallback);
    if (typeof value !== 'string' || value === '')
      bad(path, `expected a non-empty string, got ${show(value)}`);
    return value as string;
  };
  const int = (parent: JsonObject, key: string, path: string, fallback: number, min: number): number => {
    const value = pick(parent, key, fallback);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      bad(path, `expected an integer >= ${min}, got ${show(value)}`);
    }
    return value as number;
  };
  const nullableInt = (
    parent: JsonObject,
    key: string,
    path: string,
    fallback: number | null,
  ): number | null => {
    const value = pick(parent, key, fallback);
    if (value !== null && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)) {
      bad(path, `expected a non-negative integer or null, got ${show(value)}`);
    }
    return value as number | null;
  };
  const bool = (parent: JsonObject, key: string, path: string, fallback: boolean): boolean => {
    const value = pick(parent, key, fallback);
    if (typeof value !== 'boolean') bad(path, `expected true or false, got ${show(value)}`);
    return value as boolean;
  };
  const section = (parent: JsonObject, key: string, path: string): JsonObject => {
    const value = parent[key];
    if (value === undefined || value === null) return {};
    if (!isObject(value)) {
      bad(path, `expected an object, got ${show(value)}`);
      return {};
    }
    return value;
  };
  const duration = (parent: JsonObject, key: string, path: string, fallback: Duration): Duration => {
    const value = pick(parent, key, fallback);
    if (
      !isObject(value) ||
      typeof value.secs !== 'number' ||
      !Number.isSafeInteger(value.secs) ||
      value.secs < 0 ||
      typeof value.nanos !== 'number' ||
      !Number.isInteger(value.nanos) ||
      value.nanos < 0 ||
      value.nanos >= 1_000_000_000
    ) {
      bad(path, `expected {"secs": integer, "nanos": 0..999999999}, got ${show(value)}`);
      return fallback;
    }
    return { secs: value.secs, nanos: value.nanos };
  };

  const rpcJson = section(json, 'rpc', 'rpc');
  const addr = str(rpcJson, 'addr', 'rpc.addr', defaults.rpc.addr);
  if (typeof addr === 'string' && addr !== '' && parseListenAddr(addr) === null) {
    bad('rpc.addr', `expected "host:port", got ${show(addr)}`);
  }
  const prometheusAddr = pick(rpcJson, 'prometheus_addr', null);
  if (
    prometheusAddr !== null &&
    (typeof prometheusAddr !== 'string' || parseListenAddr(prometheusAddr) === null)
  ) {
    bad('rpc.prometheus_addr', `expected "host:port" or null, got ${show(prometheusAddr)}`);
  }
  const cors = pick(rpcJson, 'cors_allowed_origins', defaults.rpc.cors_allowed_origins);
  if (!Array.isArray(cors) || !cors.every((origin) => typeof origin === 'string')) {
    bad('rpc.cors_allowed_origins', `expected an array of strings, got ${show(cors)}`);
  }
  const polling = section(rpcJson, 'polling_config', 'rpc.polling_config');
  const limits = section(rpcJson, 'limits_config', 'rpc.limits_config');

  const shadeboxJson = section(json, 'shadebox', 'shadebox');
  const production = pick(shadeboxJson, 'production', defaults.shadebox.production);
  if (!PRODUCTION_MODES.includes(production as ProductionMode)) {
    bad('shadebox.production', `expected one of ${PRODUCTION_MODES.join(', ')}, got ${show(production)}`);
  }

  const tracked = pick(json, 'tracked_shards_config', defaults.tracked_shards_config);
  if (tracked !== 'AllShards') {
    bad(
      'tracked_shards_config',
      `this node always tracks every shard; expected "AllShards", got ${show(tracked)}`,
    );
  }
  const storeJson = section(json, 'store', 'store');
  const maxGasBurntView = json.max_gas_burnt_view;
  if (
    maxGasBurntView !== undefined &&
    maxGasBurntView !== null &&
    (typeof maxGasBurntView !== 'number' || !Number.isSafeInteger(maxGasBurntView) || maxGasBurntView < 1)
  ) {
    bad('max_gas_burnt_view', `expected a positive integer of gas or null, got ${show(maxGasBurntView)}`);
  }

  const config: NodeConfig = {
    genesis_file: str(json, 'genesis_file', 'genesis_file', defaults.genesis_file),
    validator_key_file: str(json, 'validator_key_file', 'validator_key_file', defaults.validator_key_file),
    node_key_file: str(json, 'node_key_file', 'node_key_file', defaults.node_key_file),
    rpc: {
      addr,
      prometheus_addr: prometheusAddr as string | null,
      cors_allowed_origins: cors as string[],
      polling_config: {
        polling_interval: duration(
          polling,
          'polling_interval',
          'rpc.polling_config.polling_interval',
          defaults.rpc.polling_config.polling_interval,
        ),
        polling_timeout: duration(
          polling,
          'polling_timeout',
          'rpc.polling_config.polling_timeout',
          defaults.rpc.polling_config.polling_timeout,
        ),
      },
      limits_config: {
        json_payload_max_size: int(
          limits,
          'json_payload_max_size',
          'rpc.limits_config.json_payload_max_size',
          defaults.rpc.limits_config.json_payload_max_size,
          1,
        ),
      },
      enable_debug_rpc: bool(rpcJson, 'enable_debug_rpc', 'rpc.enable_debug_rpc', false),
      enable_indexer_rpc: bool(rpcJson, 'enable_indexer_rpc', 'rpc.enable_indexer_rpc', false),
      indexer_max_concurrent_requests: int(
        rpcJson,
        'indexer_max_concurrent_requests',
        'rpc.indexer_max_concurrent_requests',
        defaults.rpc.indexer_max_concurrent_requests,
        0,
      ),
    },
    archive: bool(json, 'archive', 'archive', defaults.archive),
    gc_num_epochs_to_keep: int(
      json,
      'gc_num_epochs_to_keep',
      'gc_num_epochs_to_keep',
      defaults.gc_num_epochs_to_keep,
      1,
    ),
    tracked_shards_config: 'AllShards',
    trie_viewer_state_size_limit: nullableInt(
      json,
      'trie_viewer_state_size_limit',
      'trie_viewer_state_size_limit',
      defaults.trie_viewer_state_size_limit,
    ),
    transaction_pool_size_limit: nullableInt(
      json,
      'transaction_pool_size_limit',
      'transaction_pool_size_limit',
      defaults.transaction_pool_size_limit,
    ),
    // nearcore's StoreConfig.path is an Option: null means the default.
    store: {
      path:
        storeJson.path === null
          ? defaults.store.path
          : str(storeJson, 'path', 'store.path', defaults.store.path),
    },
    shadebox: {
      production: production as ProductionMode,
      block_time_ms: int(
        shadeboxJson,
        'block_time_ms',
        'shadebox.block_time_ms',
        defaults.shadebox.block_time_ms,
        1,
      ),
    },
  };
  if (typeof maxGasBurntView === 'number') config.max_gas_burnt_view = maxGasBurntView;
  const wallet = (shadeboxJson as Record<string, unknown> | undefined)?.eth_wallet_contract;
  if (typeof wallet === 'string' && wallet !== '') config.shadebox.eth_wallet_contract = wallet;
  else if (wallet !== undefined && wallet !== null)
    issues.push({ field: 'shadebox.eth_wallet_contract', message: 'expected a file name' });
  const mapBudget = (shadeboxJson as Record<string, unknown> | undefined)?.store_map_budget_mb;
  if (typeof mapBudget === 'number' && Number.isInteger(mapBudget) && mapBudget >= 0)
    config.shadebox.store_map_budget_mb = mapBudget;
  else if (mapBudget !== undefined && mapBudget !== null)
    issues.push({ field: 'shadebox.store_map_budget_mb', message: 'expected an integer >= 0 (MiB)' });
  if (issues.length > 0) throw new ConfigFileError(file, issues);
  return config;
}

/** The number of epochs actually kept: nearcore never goes below {@link MIN_GC_NUM_EPOCHS_TO_KEEP}. */
export function effectiveGcNumEpochsToKeep(config: NodeConfig): number {
  return Math.max(config.gc_num_epochs_to_keep, MIN_GC_NUM_EPOCHS_TO_KEEP);
}

/** config.json text (2-space indent, final newline). */
export function serializeNodeConfig(config: NodeConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// key files

/** nearcore's `KeyFile`: validator_key.json and node_key.json. */
export interface KeyFile {
  account_id: string;
  public_key: string;
  /** `ed25519:<base58 of seed ‖ public key>`. Secret: never log it. */
  secret_key: string;
}

/** The account id nearcore writes into node_key.json (`InMemorySigner::from_random("node", ...)`). */
export const NODE_KEY_ACCOUNT_ID = 'node';

/** The canonical `ed25519:<base58>` form of a public key string, or null when it is not one. */
export function normalizePublicKey(text: string): string | null {
  try {
    return publicKeyToString(parsePublicKey(text));
  } catch {
    return null;
  }
}

/** A key file for `accountId` with `keyPair` (a fresh ed25519 key when omitted). */
export function createKeyFile(accountId: string, keyPair: KeyPair = KeyPair.fromRandom('ed25519')): KeyFile {
  return {
    account_id: accountId,
    public_key: publicKeyToString(keyPair.publicKey),
    secret_key: keyPair.toString(),
  };
}

/**
 * Checks a parsed key file: a valid account id, a secret key that parses, and a public key that is the
 * secret key's. Error messages never contain the secret.
 */
export function parseKeyFile(json: unknown, file: string): KeyFile {
  if (!isObject(json)) throw ConfigFileError.single(file, '$', `expected a JSON object, got ${show(json)}`);
  const issues: ConfigIssue[] = [];
  const accountId = json.account_id;
  if (typeof accountId !== 'string' || !isValidAccountId(accountId)) {
    issues.push({ field: 'account_id', message: `invalid account id ${show(accountId)}` });
  }
  const secretField = json.secret_key !== undefined ? 'secret_key' : 'private_key';
  const secret = json[secretField];
  let derivedPublicKey: string | null = null;
  if (typeof secret !== 'string') {
    issues.push({ field: 'secret_key', message: secret === undefined ? 'missing' : 'expected a string' });
  } else {
    try {
      derivedPublicKey = publicKeyToString(KeyPair.fromString(secret).publicKey);
    } catch (error) {
      issues.push({ field: secretField, message: `not a valid secret key (${(error as Error).message})` });
    }
  }
  const publicKey = json.public_key;
  if (typeof publicKey !== 'string') {
    issues.push({ field: 'public_key', message: publicKey === undefined ? 'missing' : 'expected a string' });
  } else if (normalizePublicKey(publicKey) === null) {
    issues.push({ field: 'public_key', message: `not a valid public key: ${show(publicKey)}` });
  } else if (derivedPublicKey !== null && normalizePublicKey(publicKey) !== derivedPublicKey) {
    issues.push({
      field: 'public_key',
      message: `${publicKey} is not the public key of secret_key (${derivedPublicKey})`,
    });
  }
  if (issues.length > 0) throw new ConfigFileError(file, issues);
  return { account_id: accountId as string, public_key: publicKey as string, secret_key: secret as string };
}

/** Key file text in nearcore's field order. */
export function serializeKeyFile(key: KeyFile): string {
  return `${JSON.stringify({ account_id: key.account_id, public_key: key.public_key, secret_key: key.secret_key }, null, 2)}\n`;
}
