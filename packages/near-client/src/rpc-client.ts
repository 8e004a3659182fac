/**
 * NEAR JSON-RPC 2.0 over fetch with failover: requests go to the last endpoint that answered; when one cannot
 * be reached (connection refused, timeout, an HTTP answer that is not JSON) the next is tried. A JSON-RPC
 * error is thrown as `RpcError` (or the `InvalidTransactionError` it holds); nearcore's `TIMEOUT_ERROR` and
 * endpoints that all failed as `ChainUnavailableError`.
 */
import { ChainUnavailableError } from './chain-unavailable-error.js';
import { rpcErrorOf } from './invalid-transaction.js';

export interface RpcClientOptions {
  /** Time allowed for one request to one endpoint, in ms. Default 10000. */
  timeoutMs?: number;
  /** The fetch to use (e.g. undici's with a connection pool). Default: the global fetch. */
  fetch?: typeof fetch;
  /** Extra HTTP headers sent with every request (e.g. an API key of a hosted RPC). */
  headers?: Record<string, string>;
  /** Prefix of the JSON-RPC request ids (`<prefix>-<n>`). Default `shadebox`. */
  idPrefix?: string;
}

export interface CallOptions {
  /** Time allowed for this request at each endpoint, in ms (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Aborts the request; an aborted request rejects with the signal's reason. */
  signal?: AbortSignal;
}

export class RpcClient {
  readonly urls: string[];
  readonly timeoutMs: number;
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;
  readonly #idPrefix: string;
  #index = 0;
  #id = 0;

  /** `options` may be the timeout in ms alone. */
  constructor(urls: string | string[], options: number | RpcClientOptions = {}) {
    const o = typeof options === 'number' ? { timeoutMs: options } : options;
    this.urls = typeof urls === 'string' ? [urls] : [...urls];
    if (this.urls.length === 0) throw new TypeError('RpcClient needs at least one endpoint');
    this.timeoutMs = o.timeoutMs ?? 10_000;
    this.#fetch = o.fetch ?? fetch;
    this.#headers = { 'content-type': 'application/json', ...o.headers };
    this.#idPrefix = o.idPrefix ?? 'shadebox';
  }

  /** The endpoint the next request goes to first (the last one that answered). */
  get currentUrl(): string {
    return this.urls[this.#index];
  }

  /**
   * Calls `method` and resolves with its `result`. `options` may be the timeout in ms alone.
   */
  // biome-ignore lint/suspicious/noExplicitAny: results are JSON checked by the callers.
  async call<T = any>(method: string, params: unknown, options: number | CallOptions = {}): Promise<T> {
    const o = typeof options === 'number' ? { timeoutMs: options } : options;
    const timeoutMs = o.timeoutMs ?? this.timeoutMs;
    const body = JSON.stringify({ jsonrpc: '2.0', id: `${this.#idPrefix}-${++this.#id}`, method, params });
    let timedOut = 0;
    const failures: string[] = [];
    let lastCause: unknown;
    for (let attempt = 0; attempt < this.urls.length; attempt++) {
      const index = (this.#index + attempt) % this.urls.length;
      const url = this.urls[index];
      let response: Response;
      let text: string;
      try {
        const timeout = AbortSignal.timeout(timeoutMs);
        response = await this.#fetch(url, {
          method: 'POST',
          headers: this.#headers,
          body,
          signal: o.signal ? AbortSignal.any([o.signal, timeout]) : timeout,
        });
        text = await response.text();
      } catch (e) {
        if (o.signal?.aborted) throw o.signal.reason;
        const name = (e as Error)?.name;
        if (name === 'TimeoutError' || name === 'AbortError') timedOut++;
        failures.push(`${hostOf(url)}: ${name === 'TimeoutError' ? 'timed out' : 'unreachable'}`);
        lastCause = e;
        continue;
      }
      // biome-ignore lint/suspicious/noExplicitAny: JSON.
      let json: any;
      try {
        json = JSON.parse(text);
      } catch (e) {
        failures.push(`${hostOf(url)}: HTTP ${response.status} without JSON`);
        lastCause = e;
        continue;
      }
      this.#index = index;
      if (json && typeof json === 'object' && json.error !== undefined) {
        const err = rpcErrorOf(method, json.error);
        if (err.causeName === 'TIMEOUT_ERROR') {
          throw new ChainUnavailableError(`${method}: timed out`, true, { method, cause: err });
        }
        throw err;
      }
      return json?.result;
    }
    throw new ChainUnavailableError(
      `${method}: no RPC endpoint answered (${failures.join('; ')})`,
      timedOut === this.urls.length,
      { method, failures, cause: lastCause },
    );
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'rpc';
  }
}
