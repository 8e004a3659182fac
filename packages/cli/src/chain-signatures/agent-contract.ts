/**
 * `--agent-contract-wasm FILE` and `--agent-contract-init JSON`: the user's own agent contract instead of the
 * built-in one. The file is read and checked when the command line is parsed (a Wasm module with an `init`
 * or `new` method and `register_agent`), and the init arguments are a JSON object whose strings may name
 * values only the running stack knows: `$OWNER` (the genesis account, owner of the agent contract),
 * `$MPC_CONTRACT_ID` (the signer contract) and `$AGENT_CONTRACT_ID` (the agent contract's own account);
 * `$$` is a literal `$`. Anything wrong is a usage error naming the flag.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RegistrationFlow } from '@shadebox/agent-api';
import { UsageError } from '../usage-error.js';

export const INIT_PLACEHOLDERS = ['OWNER', 'MPC_CONTRACT_ID', 'AGENT_CONTRACT_ID'] as const;
export type InitPlaceholder = (typeof INIT_PLACEHOLDERS)[number];

/** The init arguments when `--agent-contract-init` is not given: what the built-in contract and the Shade
 * Agent Framework 2.0 template's pre-release both take, in local (non-TEE) mode. */
export const DEFAULT_AGENT_INIT =
  '{"owner_id":"$OWNER","mpc_contract_id":"$MPC_CONTRACT_ID","requires_tee":false}';

/** Seven days in ms: the attestation expiry `shade deploy` initialises a 2.0 contract with. */
export const SEVEN_DAYS_MS = '604800000';

/** The init arguments of a released 2.0 contract (`new`, the `whitelist-local` flow) when none are given: local
 * mode, seven days, as `shade deploy` in local mode. */
export const DEFAULT_AGENT_V2_INIT = `{"requires_tee":false,"attestation_expiration_time_ms":"${SEVEN_DAYS_MS}","owner_id":"$OWNER","mpc_contract_id":"$MPC_CONTRACT_ID"}`;

/** `--agent-contract v1|v2`: which built-in agent contract to deploy. */
export const BUILT_IN_AGENT_CONTRACTS = ['v1', 'v2'] as const;

export interface AgentContractSource {
  /** The file as given on the command line, resolved. */
  file: string;
  wasm: Uint8Array;
  /** `init` when the contract exports it, else `new` (near-sdk's usual name). */
  initMethod: string;
  /** The parsed init arguments, placeholders not yet replaced. */
  initArgs: Record<string, unknown>;
  flow: RegistrationFlow;
}

const PLACEHOLDER = /\$(\$|[A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Reads and checks the flags of `command`: `--agent-contract-wasm` and `--agent-contract-init`, or
 * `--agent-contract v1|v2` (`builtIn`); undefined for the built-in v1 contract (the default).
 */
export async function agentContractFlags(
  command: string,
  flags: { wasm?: string; init?: string; builtIn?: string },
  cwd: string,
): Promise<AgentContractSource | undefined> {
  if (flags.builtIn !== undefined) {
    if (!(BUILT_IN_AGENT_CONTRACTS as readonly string[]).includes(flags.builtIn)) {
      throw new UsageError(
        command,
        `invalid value '${flags.builtIn}' for --agent-contract: expected v1 (the default) or v2 (the Shade Agent Framework 2.0 interface)`,
        '--agent-contract',
      );
    }
    if (flags.wasm !== undefined || flags.init !== undefined) {
      throw new UsageError(
        command,
        `--agent-contract cannot be used with ${flags.wasm !== undefined ? '--agent-contract-wasm' : '--agent-contract-init'}: it chooses a built-in contract`,
        '--agent-contract',
      );
    }
    return flags.builtIn === 'v2' ? await builtInAgentContractV2() : undefined;
  }
  if (flags.wasm === undefined) {
    if (flags.init !== undefined) {
      throw new UsageError(
        command,
        '--agent-contract-init needs --agent-contract-wasm',
        '--agent-contract-init',
      );
    }
    return undefined;
  }
  const wasmFlag = '--agent-contract-wasm';
  if (flags.wasm === '') throw new UsageError(command, `${wasmFlag} needs a file`, wasmFlag);
  const file = resolve(cwd, flags.wasm);
  let wasm: Uint8Array;
  try {
    wasm = readFileSync(file);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new UsageError(command, `cannot read ${wasmFlag} ${file}: ${why}`, wasmFlag);
  }
  // Loaded here, not at the CLI's start: only these flags need it.
  const { registrationFlowOf, wasmExportedFunctions } = await import('@shadebox/agent-api');
  let methods: string[];
  try {
    methods = wasmExportedFunctions(wasm);
  } catch (e) {
    throw new UsageError(
      command,
      `${wasmFlag} ${file} is not a Wasm contract: ${(e as Error).message}`,
      wasmFlag,
    );
  }
  const initMethod = ['init', 'new'].find((m) => methods.includes(m));
  if (initMethod === undefined) {
    throw new UsageError(command, `${wasmFlag} ${file} has no init or new method`, wasmFlag);
  }
  const flow = registrationFlowOf(methods);
  if (flow === undefined) {
    throw new UsageError(
      command,
      `${wasmFlag} ${file} has no register_agent method, so agents cannot register with it`,
      wasmFlag,
    );
  }
  const defaultInit = flow === 'whitelist-local' ? DEFAULT_AGENT_V2_INIT : DEFAULT_AGENT_INIT;
  return { file, wasm, initMethod, initArgs: parseInitArgs(command, flags.init ?? defaultInit), flow };
}

/** The built-in 2.0 agent contract (packages/contracts/build/agent-v2.wasm), initialised as `shade deploy` does
 * in local mode: no TEE, seven days, owned by the genesis account, signing through the stack's signer. */
export async function builtInAgentContractV2(): Promise<AgentContractSource> {
  const contracts = await import('@shadebox/contracts');
  return {
    file: 'the built-in 2.0 agent contract (--agent-contract v2)',
    wasm: contracts.readAgentV2Wasm(),
    initMethod: 'new',
    initArgs: JSON.parse(DEFAULT_AGENT_V2_INIT) as Record<string, unknown>,
    flow: 'whitelist-local',
  };
}

/** The init JSON, checked: an object, every placeholder known. */
export function parseInitArgs(command: string, text: string): Record<string, unknown> {
  const flag = '--agent-contract-init';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(command, `invalid value for ${flag}: not JSON (${(e as Error).message})`, flag);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(
      command,
      `invalid value for ${flag}: expected a JSON object of init arguments`,
      flag,
    );
  }
  const known = new Set<string>(['$', ...INIT_PLACEHOLDERS]);
  walkStrings(value, (s) => {
    for (const [, name] of s.matchAll(PLACEHOLDER)) {
      if (!known.has(name!)) {
        const list = INIT_PLACEHOLDERS.map((p) => `$${p}`).join(', ');
        throw new UsageError(
          command,
          `unknown placeholder $${name} in ${flag} (known: ${list}; $$ for a $)`,
          flag,
        );
      }
    }
    return s;
  });
  return value as Record<string, unknown>;
}

/** The init arguments with the placeholders replaced by the stack's values. */
export function resolveInitArgs(
  args: Record<string, unknown>,
  values: Record<InitPlaceholder, string>,
): Record<string, unknown> {
  return walkStrings(args, (s) =>
    s.replace(PLACEHOLDER, (_, name: string) => (name === '$' ? '$' : values[name as InitPlaceholder])),
  ) as Record<string, unknown>;
}

/** A copy of a JSON value with every string (not the keys) mapped through `f`. */
function walkStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => walkStrings(v, f));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walkStrings(v, f)]));
  }
  return value;
}
