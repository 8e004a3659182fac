/**
 * The load generator's JSON-RPC transport, for both Shadebox and anvil: @shadebox/near-client's `RpcClient`
 * over an undici connection pool (HTTP/1.1 keep-alive, no pipelining), so the benchmark decides how many
 * sockets are open. A JSON-RPC error is near-client's `RpcError`.
 *
 * The client's `fetch` is the pool's own `request`, not undici's WHATWG `fetch` (its Request, Headers and
 * stream objects per call): under the transfer load that took the load generator's CPU per transfer from about
 * 0.95 to 0.36 ms, time in which each signer's next transaction waited and the server idled (bench/README.md,
 * metric 2).
 */
import { RpcClient, rpcErrorOf } from '@shadebox/near-client';
import { Pool } from 'undici';

/** Long enough for the slowest setup call (`sandbox_produce_blocks` of hundreds of blocks, `send_tx` FINAL). */
const TIMEOUT_MS = 60_000;

export class PooledRpcClient extends RpcClient {
  readonly pool: Pool;

  /** `connections` is the most sockets kept open to the server (one request in flight on each). */
  constructor(url: string, connections: number) {
    const pool = new Pool(new URL(url).origin, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    const { pathname, search } = new URL(url);
    // Only what RpcClient.call uses: a POST of a JSON body with its headers and signal; the status and text.
    const pooledFetch = (async (_input: string, init: RequestInit) => {
      const res = await pool.request({
        path: pathname + search,
        method: 'POST',
        headers: init.headers as Record<string, string>,
        body: init.body as string,
        signal: init.signal ?? undefined,
      });
      return { status: res.statusCode, ok: res.statusCode < 300, text: () => res.body.text() };
    }) as unknown as typeof fetch;
    super(url, { timeoutMs: TIMEOUT_MS, fetch: pooledFetch, idPrefix: 'bench' });
    this.pool = pool;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Resolves once `probe` succeeds, polling every `intervalMs`; rejects after `timeoutMs`. */
export async function pollUntil(
  probe: () => Promise<unknown>,
  timeoutMs: number,
  intervalMs = 5,
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let lastError: unknown;
  while (performance.now() < deadline) {
    try {
      await probe();
      return performance.now();
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
  throw new Error(`not answering after ${timeoutMs} ms: ${String(lastError)}`);
}

/**
 * A single JSON-RPC call on a fresh connection (no pool, no fetch machinery), used to probe a starting server
 * and to time its first answer: resolves with `result`, throws near-client's `RpcError` for a JSON-RPC error.
 */
export async function probeOnce(url: string, method: string, params: unknown): Promise<unknown> {
  const pool = new Pool(new URL(url).origin, { connections: 1 });
  try {
    const res = await pool.request({
      path: new URL(url).pathname,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'probe', method, params }),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    const text = await res.body.text();
    let message: { result?: unknown; error?: unknown };
    try {
      message = JSON.parse(text);
    } catch {
      throw new Error(`${method}: HTTP ${res.statusCode} without JSON: ${text.slice(0, 200)}`);
    }
    if (message.error !== undefined) throw rpcErrorOf(method, message.error);
    if (!('result' in message)) throw new Error(`${method}: HTTP ${res.statusCode} without a result`);
    return message.result;
  } finally {
    await pool.destroy();
  }
}
