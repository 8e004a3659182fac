/**
 * What the node tells the page at load (`GET /explorer/settings.json`, docs/explorer.md): the local EVM chain's
 * JSON-RPC and chain id, or `evm: null` when the stack runs none. Read once per page load.
 */

export interface EvmSettings {
  rpcUrl: string;
  chainId: number;
}

let settings: Promise<{ evm: EvmSettings | null }> | undefined;

export function explorerSettings(): Promise<{ evm: EvmSettings | null }> {
  settings ??= fetch('/explorer/settings.json')
    .then((r) => (r.ok ? r.json() : { evm: null }))
    .catch(() => ({ evm: null }));
  return settings;
}

/** The EVM chain's settings, or undefined when there is none. */
export async function evmSettings(): Promise<EvmSettings | undefined> {
  return (await explorerSettings()).evm ?? undefined;
}
