/**
 * `shadebox up`'s flags of the local EVM chain (anvil): whether it runs (`--evm` asks for it, `--no-evm` turns
 * it off, by default it runs where anvil is installed), its port, its chain id and the derivation paths whose
 * addresses it funds. Turned into an {@link EvmPlan} before anything starts, so that a missing anvil under
 * `--evm` costs no node start.
 */
import { exclusiveFlags, integerFlag, portFlag, textFlag } from '../args.js';
import { DEFAULT_DERIVATION_PATHS } from '../chain-signatures/agent-addresses.js';
import { locateAnvil } from './locate-anvil.js';
import { ANVIL_DEFAULT_CHAIN_ID, ANVIL_DEFAULT_PORT } from './start-anvil.js';

export const EVM_OPTIONS = {
  evm: { type: 'boolean' },
  'no-evm': { type: 'boolean' },
  'evm-port': { type: 'string' },
  'evm-chain-id': { type: 'string' },
  'evm-fund-path': { type: 'string', multiple: true },
} as const;

export const EVM_HELP = `  --evm          run the local EVM chain (anvil) and fail (exit 1) where anvil is not installed; by default
                 it runs where it is installed (npm install brings it: @foundry-rs/anvil-<platform>, else
                 ANVIL_BIN, else anvil on PATH) and up runs without it otherwise
  --no-evm       do not run the local EVM chain
  --evm-port P   its JSON-RPC port (default ${ANVIL_DEFAULT_PORT}; a free port when --rpc-port is 0), 0 picks a free one
  --evm-chain-id N
                 its chain id (default anvil's ${ANVIL_DEFAULT_CHAIN_ID})
  --evm-fund-path PATH
                 also fund the address the agent contract derives for PATH with 100 ETH there (repeatable;
                 the address of path ${DEFAULT_DERIVATION_PATHS.evm} always is)
`;

/** What `up` does about the EVM chain. */
export type EvmPlan =
  | {
      start: true;
      /** The anvil binary. */
      anvilPath: string;
      port: number;
      chainId: number;
      /** The derivation paths whose addresses get 100 ETH (ethereum-1 first, no repeats). */
      fundPaths: string[];
    }
  | {
      start: false;
      /** Why not, for the summary (`anvil is not installed; ...`); undefined for --no-evm. */
      reason?: string;
    };

/** `--evm` where anvil cannot be found: `up` prints the message and exits 1. */
export class EvmUnavailableError extends Error {
  override name = 'EvmUnavailableError';
}

type EvmFlags = {
  evm?: boolean;
  'no-evm'?: boolean;
  'evm-port'?: string;
  'evm-chain-id'?: string;
  'evm-fund-path'?: string[];
};

/**
 * The plan of `flags`. Throws a UsageError for a bad value or conflicting flags, and
 * {@link EvmUnavailableError} for `--evm` without anvil. `rpcPort` is up's node RPC port (0: the EVM port's
 * default is a free one too, so that stacks started side by side do not collide).
 */
export function evmPlanFromFlags(
  command: string,
  flags: EvmFlags,
  context: { rpcPort: number; env: Record<string, string | undefined> },
): EvmPlan {
  const off = flags['no-evm'] === true;
  exclusiveFlags(command, { '--evm': flags.evm === true, '--no-evm': off });
  exclusiveFlags(command, { '--no-evm': off, '--evm-port': flags['evm-port'] !== undefined });
  exclusiveFlags(command, { '--no-evm': off, '--evm-chain-id': flags['evm-chain-id'] !== undefined });
  exclusiveFlags(command, { '--no-evm': off, '--evm-fund-path': flags['evm-fund-path'] !== undefined });
  const port =
    flags['evm-port'] !== undefined
      ? portFlag(command, '--evm-port', flags['evm-port'])
      : context.rpcPort === 0
        ? 0
        : ANVIL_DEFAULT_PORT;
  const chainId =
    flags['evm-chain-id'] === undefined
      ? ANVIL_DEFAULT_CHAIN_ID
      : integerFlag(command, '--evm-chain-id', flags['evm-chain-id'], {
          min: 1,
          max: Number.MAX_SAFE_INTEGER,
          what: `a chain id from 1 to ${Number.MAX_SAFE_INTEGER}`,
        });
  const fundPaths = [
    ...new Set([
      DEFAULT_DERIVATION_PATHS.evm,
      ...(flags['evm-fund-path'] ?? []).map((path) => textFlag(command, '--evm-fund-path', path)),
    ]),
  ];
  if (off) return { start: false };

  const anvil = locateAnvil({ env: context.env });
  if (anvil.found) return { start: true, anvilPath: anvil.path, port, chainId, fundPaths };
  if (flags.evm) throw new EvmUnavailableError(`--evm: ${anvil.reason}; ${anvil.advice}`);
  return { start: false, reason: `${anvil.reason}; ${anvil.advice}` };
}
