/**
 * `--protocol-version N` of `shadebox node init`, `shadebox node`, `shadebox up` and `near-sandbox init`: the
 * genesis `protocol_version` of a new chain, the rules it runs (83 to 87; default 86, as NEAR mainnet; 87 is
 * what testnet runs, nearcore 2.14, and a testnet twin's default: chain-id-flag.ts `protocolVersionFor`). An
 * existing home keeps the version it was made with.
 */
import type { RunningNode } from '@shadebox/node';
import { UsageError } from './usage-error.js';

/**
 * The version `value` names; a value that is not a whole number, or a version the node does not run, is a
 * usage error that carries the node's own `UnsupportedProtocolVersionError` message.
 */
export async function protocolVersionFlag(command: string, value: string): Promise<number> {
  const { isSupportedProtocolVersion, UnsupportedProtocolVersionError } = await import(
    '@shadebox/node/config'
  );
  const version = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!isSupportedProtocolVersion(version)) {
    const reason = Number.isNaN(version)
      ? 'expected a whole number'
      : new UnsupportedProtocolVersionError(version).message;
    throw new UsageError(
      command,
      `invalid value '${value}' for --protocol-version: ${reason}`,
      '--protocol-version',
    );
  }
  return version;
}

/** The warning of a `--protocol-version` an existing home did not take. */
export function protocolVersionWarnings(version: number | undefined, node: RunningNode): string[] {
  const running = node.chain.genesis.protocol_version;
  if (version === undefined || running === version) return [];
  return [
    `--protocol-version ${version} ignored: the chain in ${node.home} already exists with protocol version ${running}`,
  ];
}

/** Help lines of `--protocol-version`. */
export const PROTOCOL_VERSION_HELP = `  --protocol-version N
                    protocol version of a new chain, 83 to 87 (default 86, as NEAR mainnet; 87, nearcore
                    2.14's, as NEAR testnet, with --chain-id testnet; an existing chain keeps its own;
                    docs/configuration.md)
`;
