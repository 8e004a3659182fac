/**
 * The local EVM chain's JSON-RPC (anvil), called from the browser at the URL the node's settings give
 * (settings.ts); anvil answers cross-origin requests (CORS `*` by default). Quantities are `0x` hex strings.
 */
import type { Json } from './json.js';
import { evmSettings } from './settings.js';

let nextId = 1;

export class NoEvmChainError extends Error {
  constructor() {
    super('no EVM chain: this stack runs none (`shadebox up` starts anvil where it is installed)');
  }
}

export async function evmRpc<T = Json>(method: string, params: unknown[] = []): Promise<T> {
  const evm = await evmSettings();
  if (!evm) throw new NoEvmChainError();
  let response: Response;
  try {
    response = await fetch(evm.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
  } catch {
    throw new Error(`the EVM chain at ${evm.rpcUrl} does not answer (${method})`);
  }
  const answer = await response.json();
  if (answer.error) throw new Error(`EVM ${method}: ${answer.error.message ?? JSON.stringify(answer.error)}`);
  return answer.result as T;
}

/** `0x…` quantity → bigint (`null`/absent → 0n). */
export const quantity = (hex: string | null | undefined): bigint => (hex ? BigInt(hex) : 0n);

export const isEvmAddress = (text: string) => /^0x[0-9a-fA-F]{40}$/.test(text);
export const isEvmHash = (text: string) => /^0x[0-9a-fA-F]{64}$/.test(text);
