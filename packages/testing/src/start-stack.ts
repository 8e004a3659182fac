/**
 * `startStack()`: a whole Shadebox stack for a test — `shadebox up --json` as a child process on free ports
 * with a temporary home — once its agent is registered; with what a test needs from it (endpoints, keyed
 * accounts, contract ids, the agent's account and derived addresses, an agent API client, the EVM endpoint),
 * snapshots of both chains, and `stop()`. A stack not stopped is killed when the test process exits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentClient, createAgentClient } from '@shadebox/client';
import { RpcClient } from '@shadebox/near-client';
import { cleanupOnExit } from './exit-cleanup.js';
import {
  type AgentAddresses,
  type EvmEndpoint,
  type KeyedAccount,
  parseAgentReadyLine,
  parseReadyLine,
} from './ready-lines.js';
import { shadeboxCommand } from './shadebox-bin.js';
import {
  DEFAULT_START_TIMEOUT_MS,
  type StartStackOptions,
  stackEnvironment,
  upArguments,
} from './stack-options.js';
import { type ProcessExit, StackProcess } from './stack-process.js';
import { StackSnapshots } from './stack-snapshots.js';

export interface Stack {
  /** The node's JSON-RPC endpoint. */
  rpcUrl: string;
  /** Its archival endpoint (all history). */
  archivalRpcUrl: string | undefined;
  explorerUrl: string;
  /** The NEAR chain id (`localnet`). */
  chainId: string;
  /** The temporary stack home (null with `memory`); removed by `stop()`. */
  home: string | null;
  /** The genesis account(s), with keys: `test.near` first, which funds the agent and owns the contracts. */
  accounts: KeyedAccount[];
  /** The funded dev accounts with their keys (`accounts`, `seed`). */
  devAccounts: KeyedAccount[];
  /** The agent contract (`agent.test.near`). */
  agentContractId: string;
  /** The MPC signer contract (`signer.test.near`). */
  mpcContractId: string;
  /** The agent API's own account, registered in the agent contract. */
  agentAccountId: string;
  /** The agent API's base URL (`http://127.0.0.1:<port>/api/agent`). */
  agentApiUrl: string;
  /** An `@shadebox/client` client of this stack's agent API. */
  agent: AgentClient;
  /** The agent's EVM, Bitcoin (testnet) and Solana addresses (the signer's keys for the agent contract). */
  agentAddresses: AgentAddresses;
  /** The local EVM chain, or null when the stack runs none (`evm: false`, or anvil not installed). */
  evm: EvmEndpoint | null;
  /** The whole ready line as printed, for fields the harness does not name. */
  readyLine: Record<string, unknown>;
  /** The stack's process id. */
  pid: number;
  /** The end of the stack's stderr (logs, the transaction log): worth printing when a test fails. */
  readonly logs: string;
  /** A NEAR JSON-RPC call; a JSON-RPC error throws `RpcError` (from @shadebox/near-client). */
  rpc<T = unknown>(method: string, params?: unknown): Promise<T>;
  /** Snapshots both chains; resolves with an id for `revert`. Take it while nothing is in flight. */
  snapshot(): Promise<string>;
  /**
   * Takes both chains back to snapshot `id`. The id stays valid (revert to it again and again); snapshots taken
   * after it are deleted. The agent API keeps working.
   */
  revert(id: string): Promise<void>;
  /** Stops the stack (SIGTERM, SIGKILL after 30 s) and removes its temporary home. Safe to call twice. */
  stop(): Promise<ProcessExit>;
}

/** Starts a stack; resolves once its agent is registered. Throws `StackStartError` when it cannot. */
export async function startStack(options: StartStackOptions = {}): Promise<Stack> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const home = await mkdtemp(join(tmpdir(), 'shadebox-stack-'));
  const args = upArguments(options, options.memory ? null : home);
  const child = new StackProcess(shadeboxCommand(options.bin), args, home, stackEnvironment(options));
  const unregister = cleanupOnExit({ kill: () => child.killNow(), home });

  let stopping: Promise<ProcessExit> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      try {
        return await child.stop();
      } finally {
        await rm(home, { recursive: true, force: true });
        unregister();
      }
    })();
    return stopping;
  };

  try {
    const ready = parseReadyLine(await child.nextLine(deadline, timeoutMs, 'ready line'));
    const agentAccountId = parseAgentReadyLine(await child.nextLine(deadline, timeoutMs, 'agent-ready line'));
    const near = new RpcClient(ready.rpcUrl, { timeoutMs: 30_000, idPrefix: 'shadebox-testing' });
    const snapshots = new StackSnapshots(near, ready.evm?.rpcUrl ?? null);
    return {
      rpcUrl: ready.rpcUrl,
      archivalRpcUrl: ready.archivalRpcUrl,
      explorerUrl: ready.explorerUrl,
      chainId: ready.chainId,
      home: options.memory ? null : home,
      accounts: ready.accounts,
      devAccounts: ready.devAccounts,
      agentContractId: ready.agentContractId,
      mpcContractId: ready.mpcContractId,
      agentAccountId,
      agentApiUrl: ready.agentApiUrl,
      agent: createAgentClient({ baseUrl: ready.agentApiUrl }),
      agentAddresses: ready.agentAddresses,
      evm: ready.evm,
      readyLine: ready.raw,
      pid: child.pid!,
      get logs() {
        return child.stderr;
      },
      rpc: (method, params = []) => near.call(method, params),
      snapshot: () => snapshots.snapshot(),
      revert: async (id) => {
        await snapshots.revert(id);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
