/**
 * What the explorer page reads at load from `GET /explorer/settings.json` (explorer-routes.ts): the chains
 * beside this node that it may show. Only the local EVM chain today: its JSON-RPC URL (the page queries it from
 * the browser, so it must allow CORS, as anvil does by default) and its chain id, or `null` when there is none.
 * The services that start after the node (`shadebox up`'s EVM chain) hand them over with
 * `RunningNode.setExplorerSettings`.
 */

export interface ExplorerEvmSettings {
  /** The EVM chain's JSON-RPC, as a browser on this machine reaches it (`http://127.0.0.1:8545`). */
  rpcUrl: string;
  /** Its `eth_chainId`, as a number (anvil's default 31337). */
  chainId: number;
}

export interface ExplorerSettings {
  evm: ExplorerEvmSettings | null;
}

export const NO_EXPLORER_SETTINGS: ExplorerSettings = Object.freeze({ evm: null });

/** A copy of `settings` with only the fields the page reads; a TypeError names what is wrong. */
export function checkExplorerSettings(settings: ExplorerSettings): ExplorerSettings {
  const evm = settings?.evm;
  if (evm === null || evm === undefined) return { evm: null };
  let url: URL;
  try {
    url = new URL(evm.rpcUrl);
  } catch {
    throw new TypeError(`explorer settings: evm.rpcUrl is not a URL: ${JSON.stringify(evm.rpcUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`explorer settings: evm.rpcUrl must be http(s), not ${url.protocol}`);
  }
  if (!Number.isSafeInteger(evm.chainId) || evm.chainId <= 0) {
    throw new TypeError(`explorer settings: evm.chainId must be a positive integer, not ${evm.chainId}`);
  }
  // Credentials in a URL would be handed to every browser that opens the page: refused.
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('explorer settings: evm.rpcUrl must not carry credentials');
  }
  return { evm: { rpcUrl: evm.rpcUrl.replace(/\/+$/, ''), chainId: evm.chainId } };
}
