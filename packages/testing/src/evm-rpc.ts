/** One Ethereum JSON-RPC call over fetch (anvil's `evm_snapshot` / `evm_revert`), errors as `EvmRpcError`. */

export class EvmRpcError extends Error {
  override readonly name = 'EvmRpcError';
  constructor(
    readonly method: string,
    readonly code: number | undefined,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

let nextId = 0;

export async function evmRpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method, params }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: { result?: T; error?: { code?: number; message?: string } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new EvmRpcError(method, undefined, `HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (body.error)
    throw new EvmRpcError(method, body.error.code, body.error.message ?? JSON.stringify(body.error));
  return body.result as T;
}
