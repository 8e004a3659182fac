/**
 * One Ethereum JSON-RPC call over HTTP (fetch): what `shadebox up` asks its local EVM chain (anvil) for. A
 * JSON-RPC error throws an Error naming the method and anvil's message.
 */
let nextId = 1;

export async function evmRpc<T = unknown>(
  rpcUrl: string,
  method: string,
  params: unknown[] = [],
  timeoutMs = 10_000,
): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message} (${body.error.code})`);
  if (!response.ok) throw new Error(`${method}: HTTP ${response.status}`);
  return body.result as T;
}
