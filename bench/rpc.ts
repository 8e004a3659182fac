/**
 * A minimal JSON-RPC 2.0 client over an undici connection pool (HTTP/1.1 keep-alive, no pipelining): the
 * load generator's transport, for both Shadebox and anvil.
 */
import { Pool } from 'undici';

export class RpcCallError extends Error {
  constructor(
    readonly method: string,
    readonly error: unknown,
  ) {
    super(`${method}: ${JSON.stringify(error).slice(0, 400)}`);
  }
}

export class RpcClient {
  readonly pool: Pool;
  private nextId = 1;

  /** `connections` is the most sockets kept open to the server (one request in flight on each). */
  constructor(
    readonly url: string,
    connections: number,
  ) {
    this.pool = new Pool(new URL(url).origin, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
  }

  /** Posts a prepared JSON body and returns the parsed response (any HTTP status). */
  async post(body: string): Promise<{ status: number; json: unknown }> {
    const res = await this.pool.request({
      path: '/',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = { unparsable: text.slice(0, 200) };
    }
    return { status: res.statusCode, json };
  }

  /** Calls `method` and returns `result`; throws RpcCallError for a JSON-RPC error or a non-200 answer. */
  async call<T = unknown>(method: string, params: unknown): Promise<T> {
    const { status, json } = await this.post(
      JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
    );
    const message = json as { result?: T; error?: unknown };
    if (status !== 200 || message.error !== undefined || !('result' in message)) {
      throw new RpcCallError(method, message.error ?? { status, body: json });
    }
    return message.result as T;
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

/** A single JSON-RPC call on a fresh connection (no pool): used to probe a starting server. */
export async function probeOnce(url: string, method: string, params: unknown): Promise<unknown> {
  const client = new RpcClient(url, 1);
  try {
    return await client.call(method, params);
  } finally {
    await client.pool.destroy();
  }
}
