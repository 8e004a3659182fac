/**
 * What `startStack` accepts, and the `shadebox up` command line it makes of it: always `--json` on free ports
 * (`--rpc-port 0 --agent-port 0`, which also gives the archival endpoint and the EVM chain free ports), with a
 * temporary home or `--memory`, then the options, then `args` as given.
 */
import { isAbsolute, resolve } from 'node:path';

export interface StartStackOptions {
  /** Keep the chain in memory (`--memory`) instead of a temporary home. Default false. */
  memory?: boolean;
  /** `--seed`: the seed of the dev accounts' keys (and, where the CLI supports it, of the signer's keys). */
  seed?: string;
  /** `--accounts`: how many funded dev accounts (with their keys in `stack.devAccounts`). */
  accounts?: number;
  /**
   * The local EVM chain: true asks for it (`--evm`, fails where anvil is not installed), false turns it off
   * (`--no-evm`); by default the CLI starts it where anvil is installed.
   */
  evm?: boolean;
  /** The agent API's variables (`AGENT_KEY_POOL_SIZE`, `AGENT_FUNDING_AMOUNT`, …; see docs/agent-api.md). */
  agentEnv?: Record<string, string>;
  /** `--agent-contract-wasm`: your agent contract instead of the built-in one (relative to the cwd). */
  agentContractWasm?: string;
  /** `--agent-contract-init`: its init arguments, as a JSON object (or its text). */
  agentContractInit?: string | Record<string, unknown>;
  /** `--num-shards`. */
  numShards?: number;
  /** More `shadebox up` arguments, appended as given (e.g. `['--quiet']`, `['--evm-chain-id', '31337']`). */
  args?: readonly string[];
  /** The environment of the stack (default: this process's, without NODE_OPTIONS). */
  env?: Record<string, string | undefined>;
  /** The `shadebox` executable to run (default: the one of the installed `@shadebox/cli`). */
  bin?: string;
  /** How long the stack may take to print its ready and agent-ready lines, in ms. Default 120 000. */
  timeoutMs?: number;
}

export const DEFAULT_START_TIMEOUT_MS = 120_000;

/** The arguments after the executable: `up --json …`. `home` is the temporary home (ignored with `memory`). */
export function upArguments(options: StartStackOptions, home: string | null, cwd = process.cwd()): string[] {
  const args = ['up', '--json', '--stop-with-stdin', '--rpc-port', '0', '--agent-port', '0'];
  if (options.memory || home === null) args.push('--memory');
  else args.push('--home', home);
  if (options.seed !== undefined) args.push('--seed', options.seed);
  if (options.accounts !== undefined) args.push('--accounts', String(options.accounts));
  if (options.evm === true) args.push('--evm');
  if (options.evm === false) args.push('--no-evm');
  if (options.agentContractWasm !== undefined) {
    const wasm = options.agentContractWasm;
    args.push('--agent-contract-wasm', isAbsolute(wasm) ? wasm : resolve(cwd, wasm));
  }
  if (options.agentContractInit !== undefined) {
    const init = options.agentContractInit;
    args.push('--agent-contract-init', typeof init === 'string' ? init : JSON.stringify(init));
  }
  if (options.numShards !== undefined) args.push('--num-shards', String(options.numShards));
  args.push(...(options.args ?? []));
  return args;
}

/** The stack's environment: the base (this process's by default) without NODE_OPTIONS, then `agentEnv`. */
export function stackEnvironment(
  options: StartStackOptions,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...(options.env ?? base) };
  // A test runner's NODE_OPTIONS (a loader, an inspector port) is for the tests, not for the stack.
  if (options.env === undefined) delete env.NODE_OPTIONS;
  for (const [name, value] of Object.entries(options.agentEnv ?? {})) env[name] = value;
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}
