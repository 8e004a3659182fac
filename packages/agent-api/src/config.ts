/**
 * The agent API's configuration, read from the environment. Every setting has one canonical name and, where
 * the original shade-agent-api used another, that name as an alias. Every setting is read before anything is
 * thrown, so one `ConfigError` names every missing or invalid variable at once (`problems`); secret values
 * never appear in messages.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ShadeboxError } from '@shadebox/errors';
import { KeyPair, parseNearAmount } from '@shadebox/primitives';
import { readAgentKeyFile } from './agent-key-file.js';
import { FUNDING_KEY_FILE_VARIABLE, readFundingKeyFile } from './funding-key-file.js';
import { keyPairFromSeedPhrase } from './seed-phrase.js';

/** One missing or invalid variable and what is wrong with it. */
export interface ConfigProblem {
  variable: string;
  message: string;
}

/**
 * Missing or invalid settings; `variable` names the first, `problems` lists every one (the values are never
 * in the messages). With one problem the message is `VARIABLE: what is wrong`; with several, the problems
 * joined by `; `.
 */
export class ConfigError extends ShadeboxError<{ variable: string; problems: ConfigProblem[] }> {
  readonly problems: ConfigProblem[];

  constructor(
    readonly variable: string,
    message: string,
    more: readonly ConfigProblem[] = [],
  ) {
    const problems = [{ variable, message }, ...more];
    super(problems.map((p) => `${p.variable}: ${p.message}`).join('; '), {
      details: { variable, problems },
      docsPath: 'docs/agent-api.md#configuration-environment',
    });
    this.problems = problems;
  }
}

export type TeeMode = 'local' | 'dstack';

export interface AgentApiConfig {
  /** The funding account (`CHAIN_ACCOUNT_ID`). */
  fundingAccountId: string;
  /**
   * Its key, when given in the environment (`CHAIN_ACCOUNT_SECRET_KEY`); unset with `fundingKeyFile`. Used by
   * the boot only (the service keeps no reference once booted); never logged or returned.
   */
  fundingKey?: KeyPair;
  /** `CHAIN_ACCOUNT_SECRET_KEY_FILE` (absolute): the boot reads the key from this file when it funds. */
  fundingKeyFile?: string;
  agentContractId: string;
  /** JSON-RPC endpoints, tried in order (failover). */
  rpcUrls: string[];
  /** Codehash for local registration (required in local mode). */
  codehash?: string;
  host: string;
  port: number;
  teeMode: TeeMode;
  /** dstack guest-agent endpoint: a Unix socket path or an http(s) URL. */
  dstackEndpoint: string;
  /** Extra full-access keys added to the agent account for concurrent calls. */
  keyPoolSize: number;
  corsOrigin?: string;
  /** Contracts /call and /view may reach besides the agent contract. */
  allowedContracts: string[];
  /** Amount the agent account is funded to, in yoctoNEAR (0.3 NEAR). */
  fundingAmount: bigint;
  /** Backoff of the boot steps: first delay and cap, in ms. */
  retryInitialMs: number;
  retryMaxMs: number;
  /** Timeout of one JSON-RPC request to one endpoint (`NEAR_RPC_TIMEOUT_MS`; send_tx waits 3×); a whole call,
   * retries and waits for a `Retry-After` included, is allowed 3× its request timeout. */
  rpcTimeoutMs: number;
  /** `AGENT_KEY_FILE` (absolute): keep the agent's key there and so one agent account across boots
   * (agent-key-file.ts). Unset: a new key every boot. */
  agentKeyFile?: string;
}

export const DEFAULT_PORT = 3140;
export const DEFAULT_DSTACK_SOCKET = '/var/run/dstack.sock';
const ACCOUNT_ID = /^(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/;

export function isValidAccountId(id: string): boolean {
  return id.length >= 2 && id.length <= 64 && ACCOUNT_ID.test(id);
}

function unquote(value: string): string {
  return value
    .trim()
    .replace(/^(['"])(.*)\1$/s, '$2')
    .replaceAll('"', '')
    .trim();
}

function pick(
  env: Record<string, string | undefined>,
  names: string[],
): { name: string; value: string } | undefined {
  for (const name of names) {
    const raw = env[name];
    if (raw !== undefined && raw.trim() !== '') return { name, value: unquote(raw) };
  }
  return undefined;
}

/** What to set each required variable to, said when it is missing. */
const REQUIRED_HINT: Record<string, string> = {
  CHAIN_ACCOUNT_ID: 'set it to the NEAR account that funds the agent, e.g. test.near on a local chain',
  CHAIN_ACCOUNT_SECRET_KEY:
    "set it to that account's secret key (ed25519:…) or seed phrase, or CHAIN_ACCOUNT_SECRET_KEY_FILE to a file holding it",
  AGENT_CONTRACT_ID: 'set it to the agent contract account, e.g. agent.test.near on a local chain',
};

function required(env: Record<string, string | undefined>, names: string[]): { name: string; value: string } {
  const found = pick(env, names);
  if (!found) {
    const alias = names.length > 1 ? ` (or ${names.slice(1).join(', ')})` : '';
    const hint = REQUIRED_HINT[names[0]];
    throw new ConfigError(names[0], `required${alias}${hint ? `: ${hint}` : ''}`);
  }
  return found;
}

function accountId(found: { name: string; value: string }): string {
  if (!isValidAccountId(found.value)) throw new ConfigError(found.name, 'not a valid NEAR account id');
  return found.value;
}

function parseInteger(
  found: { name: string; value: string } | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (!found) return fallback;
  if (!/^\d+$/.test(found.value)) throw new ConfigError(found.name, `expected an integer ${min}..${max}`);
  const n = Number(found.value);
  if (n < min || n > max) throw new ConfigError(found.name, `expected an integer ${min}..${max}`);
  return n;
}

function parseRpcUrls(env: Record<string, string | undefined>): string[] {
  const direct = pick(env, ['NEAR_RPC_URL']);
  let urls: string[];
  let name: string;
  if (direct) {
    name = direct.name;
    urls = direct.value
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u !== '');
  } else {
    const raw = env.NEAR_RPC_JSON;
    if (raw === undefined || raw.trim() === '')
      throw new ConfigError(
        'NEAR_RPC_URL',
        'required (or NEAR_RPC_JSON): set it to the JSON-RPC URL of a NEAR node, e.g. http://127.0.0.1:3030',
      );
    name = 'NEAR_RPC_JSON';
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.trim().replace(/^'(.*)'$/s, '$1'));
    } catch {
      throw new ConfigError(name, 'not JSON');
    }
    const providers = (parsed as { nearRpcProviders?: unknown })?.nearRpcProviders;
    if (!Array.isArray(providers)) throw new ConfigError(name, 'expected {"nearRpcProviders":[…]}');
    urls = providers.map((p) => (p as { connectionInfo?: { url?: unknown } })?.connectionInfo?.url as string);
  }
  if (urls.length === 0) throw new ConfigError(name, 'no URL given');
  for (const url of urls) {
    let ok = false;
    try {
      const u = new URL(url);
      ok = u.protocol === 'http:' || u.protocol === 'https:';
    } catch {}
    if (!ok || typeof url !== 'string') throw new ConfigError(name, 'expected http(s) URLs');
  }
  return urls;
}

/** A secret key (`ed25519:…`/`secp256k1:…`) or a seed phrase; the message never echoes the value. */
export function parseSecretKey(found: { name: string; value: string }): KeyPair {
  const value = found.value;
  try {
    if (/^(ed25519|secp256k1):/.test(value)) return KeyPair.fromString(value);
    const words = value.split(/\s+/);
    if (words.length >= 12 && words.length <= 24 && words.every((w) => /^[a-z]+$/i.test(w))) {
      return keyPairFromSeedPhrase(value);
    }
  } catch {
    // fall through: the message must not echo the secret
  }
  throw new ConfigError(found.name, 'expected an ed25519:/secp256k1: secret key or a 12–24 word seed phrase');
}

export interface ConfigOverrides {
  /** Whether a path exists (tests); default fs.existsSync. */
  exists?: (path: string) => boolean;
}

export function loadAgentApiConfig(
  env: Record<string, string | undefined>,
  overrides: ConfigOverrides = {},
): AgentApiConfig {
  // Each setting is read on its own; a problem is noted and the rest still read, then all are thrown at once.
  const problems: ConfigProblem[] = [];
  function read<T>(parse: () => T, fallback: T): T {
    try {
      return parse();
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      problems.push(...e.problems);
      return fallback;
    }
  }
  const fundingAccountId = read(() => accountId(required(env, ['CHAIN_ACCOUNT_ID', 'NEAR_ACCOUNT_ID'])), '');
  // The key in the environment, or a file the boot reads it from (checked now, not kept: funding-key-file.ts).
  const keyFileFound = pick(env, [FUNDING_KEY_FILE_VARIABLE]);
  const fundingKeyFile = read<string | undefined>(() => {
    if (!keyFileFound) return undefined;
    if (pick(env, ['CHAIN_ACCOUNT_SECRET_KEY', 'NEAR_SEED_PHRASE'])) {
      throw new ConfigError(
        FUNDING_KEY_FILE_VARIABLE,
        'set either it or CHAIN_ACCOUNT_SECRET_KEY (NEAR_SEED_PHRASE), not both',
      );
    }
    const path = resolve(keyFileFound.value);
    readFundingKeyFile(path);
    return path;
  }, undefined);
  const fundingKey = read<KeyPair | undefined>(
    () =>
      keyFileFound
        ? undefined
        : parseSecretKey(required(env, ['CHAIN_ACCOUNT_SECRET_KEY', 'NEAR_SEED_PHRASE'])),
    undefined,
  );
  const agentContractId = read(
    () => accountId(required(env, ['AGENT_CONTRACT_ID', 'NEXT_PUBLIC_contractId'])),
    '',
  );
  const rpcUrls = read(() => parseRpcUrls(env), []);

  const modeFound = pick(env, ['TEE_MODE']);
  let mode = modeFound?.value.toLowerCase() ?? 'auto';
  if (mode !== 'local' && mode !== 'dstack' && mode !== 'auto') {
    problems.push({ variable: 'TEE_MODE', message: 'expected local, dstack or auto' });
    mode = 'auto';
  }
  const dstackEndpoint = pick(env, ['DSTACK_ENDPOINT'])?.value ?? DEFAULT_DSTACK_SOCKET;
  const exists = overrides.exists ?? existsSync;
  const teeMode: TeeMode =
    mode === 'auto'
      ? exists(dstackEndpoint) || /^https?:/.test(dstackEndpoint)
        ? 'dstack'
        : 'local'
      : (mode as TeeMode);

  const codehashFound = pick(env, ['AGENT_CODEHASH', 'API_CODEHASH']);
  if (codehashFound && !/^[0-9A-Za-z_.:-]{1,128}$/.test(codehashFound.value)) {
    problems.push({
      variable: codehashFound.name,
      message: 'expected 1–128 characters [0-9A-Za-z_.:-] (e.g. a sha256 hex)',
    });
  }
  if (teeMode === 'local' && !codehashFound) {
    problems.push({
      variable: 'AGENT_CODEHASH',
      message:
        'required in local mode (or API_CODEHASH): set it to a codehash approved in the agent contract',
    });
  }

  const port = read(
    () => parseInteger(pick(env, ['AGENT_API_PORT', 'SHADE_AGENT_PORT']), DEFAULT_PORT, 0, 65535),
    DEFAULT_PORT,
  );
  const host = pick(env, ['AGENT_API_HOST'])?.value ?? '127.0.0.1';
  if (!/^[0-9A-Za-z.:_-]+$/.test(host)) {
    problems.push({ variable: 'AGENT_API_HOST', message: 'not a host name or address, e.g. 127.0.0.1' });
  }
  const keyPoolSize = read(() => parseInteger(pick(env, ['AGENT_KEY_POOL_SIZE']), 8, 0, 64), 8);

  const corsFound = pick(env, ['AGENT_API_CORS_ORIGIN']);
  if (corsFound && corsFound.value !== '*') {
    let ok = false;
    try {
      ok = new URL(corsFound.value).origin === corsFound.value;
    } catch {}
    if (!ok) {
      problems.push({
        variable: 'AGENT_API_CORS_ORIGIN',
        message: 'expected an origin such as http://localhost:3000, or *',
      });
    }
  }
  const allowFound = pick(env, ['AGENT_API_ALLOW_CONTRACTS']);
  const allowedContracts = (allowFound?.value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (!allowedContracts.every(isValidAccountId)) {
    problems.push({
      variable: 'AGENT_API_ALLOW_CONTRACTS',
      message: 'not a list of account ids: expected comma-separated accounts such as a.near,b.near',
    });
  }
  const fundingFound = pick(env, ['AGENT_FUNDING_AMOUNT']);
  let fundingAmount = 3n * 10n ** 23n;
  if (fundingFound) {
    let amount: bigint | undefined;
    try {
      amount = parseNearAmount(fundingFound.value);
    } catch {
      problems.push({ variable: 'AGENT_FUNDING_AMOUNT', message: 'expected an amount of NEAR such as 0.3' });
    }
    if (amount !== undefined && amount <= 0n) {
      problems.push({ variable: 'AGENT_FUNDING_AMOUNT', message: 'must be more than 0, e.g. 0.3' });
    } else if (amount !== undefined) fundingAmount = amount;
  }
  const rpcTimeoutMs = read(
    () => parseInteger(pick(env, ['NEAR_RPC_TIMEOUT_MS']), 10_000, 100, 600_000),
    10_000,
  );
  const retryMaxMs = read(
    () => parseInteger(pick(env, ['AGENT_API_RETRY_MAX_MS']), 30_000, 10, 3_600_000),
    30_000,
  );

  const agentKeyFile = read(() => agentKeyFileOf(pick(env, ['AGENT_KEY_FILE']), teeMode), undefined);

  if (problems.length > 0) {
    const [first, ...more] = problems;
    throw new ConfigError(first.variable, first.message, more);
  }
  return {
    fundingAccountId,
    ...(fundingKey === undefined ? {} : { fundingKey }),
    ...(fundingKeyFile === undefined ? {} : { fundingKeyFile }),
    agentContractId,
    rpcUrls,
    codehash: codehashFound?.value,
    host,
    port,
    teeMode,
    dstackEndpoint,
    keyPoolSize,
    corsOrigin: corsFound?.value,
    allowedContracts,
    fundingAmount,
    retryInitialMs: Math.min(250, retryMaxMs),
    retryMaxMs,
    rpcTimeoutMs,
    ...(agentKeyFile === undefined ? {} : { agentKeyFile }),
  };
}

/** `AGENT_KEY_FILE`: local mode only (in a TEE the key comes from the TEE); an existing file must be a valid
 * key file, a new one's directory must exist. */
function agentKeyFileOf(
  found: { name: string; value: string } | undefined,
  teeMode: TeeMode,
): string | undefined {
  if (!found) return undefined;
  if (teeMode !== 'local') {
    throw new ConfigError(
      found.name,
      'only in local mode (TEE_MODE=local): in a TEE the key comes from the TEE',
    );
  }
  const path = resolve(found.value);
  if (readAgentKeyFile(path) === null) {
    let isDirectory = false;
    try {
      isDirectory = statSync(dirname(path)).isDirectory();
    } catch {}
    if (!isDirectory) throw new ConfigError(found.name, `${path}: its directory does not exist`);
  }
  return path;
}
