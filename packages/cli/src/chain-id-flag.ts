/**
 * `--chain-id ID` of `shadebox node init`, `shadebox node` and `shadebox up`: the id a new chain presents
 * (genesis `chain_id`, `status.chain_id`). `testnet` makes a testnet twin: the genesis account is `testnet`
 * and holds the registrar contract that creates `*.testnet` accounts, as on NEAR testnet, and the chain runs
 * testnet's protocol version unless `--protocol-version` names another (docs/cli.md, "A testnet twin").
 * An existing home keeps the chain id and the protocol version it was made with.
 */
import type { RunningNode, StartNodeOptions } from '@shadebox/node';
import { UsageError } from './usage-error.js';

const CHAIN_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function chainIdFlag(command: string, value: string): string {
  if (!CHAIN_ID.test(value)) {
    throw new UsageError(
      command,
      `invalid value '${value}' for --chain-id: expected 1 to 64 letters, digits, '.', '_' or '-'`,
      '--chain-id',
    );
  }
  return value;
}

/** What a new chain with this id deploys at genesis: the registrar on `testnet` for a testnet twin. */
export async function genesisContractsFor(
  chainId: string | undefined,
): Promise<StartNodeOptions['genesisContracts']> {
  const { genesisAccountIdFor, TESTNET_CHAIN_ID } = await import('@shadebox/node/config');
  if (chainId !== TESTNET_CHAIN_ID) return undefined;
  const { readRegistrarWasm } = await import('@shadebox/contracts');
  return [{ accountId: genesisAccountIdFor(chainId), code: new Uint8Array(readRegistrarWasm()) }];
}

/** The protocol version NEAR testnet runs (nearcore 2.14's): a testnet twin's unless `--protocol-version` is given. */
export const TESTNET_PROTOCOL_VERSION = 87;

/**
 * The protocol version a new chain is made with: `--protocol-version` when given, testnet's for a testnet twin,
 * else undefined (the node's default, the version NEAR mainnet runs, for every other chain id).
 */
export function protocolVersionFor(
  chainId: string | undefined,
  flag: number | undefined,
): number | undefined {
  if (flag !== undefined) return flag;
  return chainId === 'testnet' ? TESTNET_PROTOCOL_VERSION : undefined;
}

/** The warning of a `--chain-id` an existing home did not take. */
export function chainIdWarnings(chainId: string | undefined, node: RunningNode): string[] {
  if (chainId === undefined || node.chainId === chainId) return [];
  return [
    `--chain-id ${chainId} ignored: the chain in ${node.home} already exists with chain id ${node.chainId}`,
  ];
}

/** Help lines of `--chain-id` (`node` and `up`). */
export const CHAIN_ID_HELP = `  --chain-id ID     chain id of a new chain: letters, digits, '.', '_' and '-', at most 64 (default
                    localnet; an existing chain keeps its own). 'testnet' makes a testnet twin: genesis
                    account testnet holding the registrar that creates *.testnet accounts, dev accounts
                    dev-N.testnet, testnet's protocol version 87 (docs/cli.md, "A testnet twin")
`;
