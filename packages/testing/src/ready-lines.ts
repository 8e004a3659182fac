/**
 * The two JSON lines `shadebox up --json` prints on stdout (docs/cli.md): `ready` once the node and its
 * services listen, `agent-ready` once the agent account is registered. Read field by field, so a line of
 * another shape fails with what was printed instead of a stack with undefined fields.
 */
import { StackStartError } from './errors.js';

/** A key in NEAR's text form (`ed25519:<base58>`), the type near-api-js takes for a key pair. */
export type KeyString = `ed25519:${string}` | `secp256k1:${string}`;

/** An account with its full-access key, as the ready line gives it. */
export interface KeyedAccount {
  accountId: string;
  publicKey: KeyString;
  secretKey: KeyString;
}

/** The agent's foreign-chain addresses: the keys the signer derives for the agent contract, one path per chain. */
export interface AgentAddresses {
  /** The account the keys derive from: the agent contract. */
  predecessor: string;
  evm: { path: string; address: string };
  bitcoin: { path: string; network: string; address: string };
  solana: { path: string; address: string };
}

/** The stack's local EVM chain (anvil). */
export interface EvmEndpoint {
  rpcUrl: string;
  chainId: number;
  /** The agent's derived addresses funded with 100 ETH at start (`ethereum-1` first, then `--evm-fund-path`s). */
  funded: Array<{ path: string; address: string }>;
}

/** The `ready` line, as far as the harness reads it (other fields are kept in `raw`). */
export interface ReadyLine {
  rpcUrl: string;
  archivalRpcUrl?: string;
  explorerUrl: string;
  chainId: string;
  agentApiUrl: string;
  agentContractId: string;
  mpcContractId: string;
  chainAccountId: string;
  agentAddresses: AgentAddresses;
  accounts: KeyedAccount[];
  devAccounts: KeyedAccount[];
  /** null when the stack runs no EVM chain (`--no-evm`, or a CLI without one). */
  evm: EvmEndpoint | null;
  raw: Record<string, unknown>;
}

const STRING_FIELDS = [
  'rpcUrl',
  'explorerUrl',
  'chainId',
  'agentApiUrl',
  'agentContractId',
  'mpcContractId',
  'chainAccountId',
] as const;

function parseLine(line: string): Record<string, unknown> {
  try {
    const value = JSON.parse(line);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new StackStartError(`shadebox up printed a line that is not a JSON object: ${line.slice(0, 200)}`);
}

/** Reads the `ready` line; throws `StackStartError` naming the first field missing. */
export function parseReadyLine(line: string): ReadyLine {
  const raw = parseLine(line);
  const missing = (field: string) =>
    new StackStartError(`shadebox up's ready line has no ${field}: ${line.slice(0, 300)}`);
  if (raw.event !== 'ready') throw missing('"event":"ready"');
  for (const field of STRING_FIELDS) if (typeof raw[field] !== 'string') throw missing(field);
  if (!Array.isArray(raw.accounts)) throw missing('accounts');
  if (typeof raw.agentAddresses !== 'object' || raw.agentAddresses === null) throw missing('agentAddresses');
  return {
    rpcUrl: raw.rpcUrl as string,
    ...(typeof raw.archivalRpcUrl === 'string' ? { archivalRpcUrl: raw.archivalRpcUrl } : {}),
    explorerUrl: raw.explorerUrl as string,
    chainId: raw.chainId as string,
    agentApiUrl: raw.agentApiUrl as string,
    agentContractId: raw.agentContractId as string,
    mpcContractId: raw.mpcContractId as string,
    chainAccountId: raw.chainAccountId as string,
    agentAddresses: raw.agentAddresses as AgentAddresses,
    accounts: raw.accounts as KeyedAccount[],
    devAccounts: Array.isArray(raw.devAccounts) ? (raw.devAccounts as KeyedAccount[]) : [],
    evm: evmOf(raw.evm, line),
    raw,
  };
}

/** `"evm":{"rpcUrl":…,"chainId":…}`, `"evm":null`, or no field at all (a CLI from before the EVM chain). */
function evmOf(value: unknown, line: string): EvmEndpoint | null {
  if (value === undefined || value === null) return null;
  const evm = value as Partial<EvmEndpoint>;
  if (typeof evm.rpcUrl !== 'string' || typeof evm.chainId !== 'number') {
    throw new StackStartError(
      `shadebox up's ready line has an evm field without rpcUrl and chainId: ${line}`,
    );
  }
  return { rpcUrl: evm.rpcUrl, chainId: evm.chainId, funded: Array.isArray(evm.funded) ? evm.funded : [] };
}

/** Reads the `agent-ready` line: the agent account id. */
export function parseAgentReadyLine(line: string): string {
  const raw = parseLine(line);
  if (raw.event !== 'agent-ready' || typeof raw.agentAccountId !== 'string') {
    throw new StackStartError(`shadebox up printed an unexpected line instead of agent-ready: ${line}`);
  }
  return raw.agentAccountId;
}
