/**
 * NEAR JSON-RPC 2.0 over fetch with failover and backoff: requests go to the last endpoint that answered; an
 * endpoint that fails — cannot be reached, times out, resets the connection, cuts or garbles its answer
 * (not JSON), or answers HTTP 429 or a gateway's 5xx — rests for a while and the next one is tried. An endpoint
 * rests for its `Retry-After` when it sent one (seconds or an HTTP date, up to `retry.maxRetryAfterMs`), else
 * for an exponential backoff with jitter; when every endpoint rests, the call waits for the first to be back,
 * up to `retry.maxAttempts` requests and the call's own time limit (`callTimeoutMs`).
 *
 * Resending the same request is safe for every method: a signed transaction sent again is the same
 * transaction (same hash and nonce), which nearcore and Shadebox's node accept again without effect, and
 * which a chain executes at most once.
 *
 * A JSON-RPC error is thrown as `RpcError` (or the `InvalidTransactionError` it holds), whatever the HTTP
 * status (nearcore answers INTERNAL_ERROR with 500, TIMEOUT_ERROR with 408); nearcore's `TIMEOUT_ERROR` and
 * calls no endpoint answered in time as `ChainUnavailableError`.
 */
import { ChainUnavailableError } from './chain-unavailable-error.js';
import { rpcErrorOf } from './invalid-transaction.js';
import { parseRetryAfter } from './retry-after.js';

export interface RetryOptions {
  /** Requests one call may make in all (every endpoint, every round). Default: 3 per endpoint, at least 4. */
  maxAttempts?: number;
  /** First backoff of an endpoint that failed, in ms; it doubles with each failure in a row. Default 250. */
  initialDelayMs?: number;
  /** Cap of the backoff, in ms. Default 5000. */
  maxDelayMs?: number;
  /** Cap of the rest a `Retry-After` can ask for, in ms. Default 60000. */
  maxRetryAfterMs?: number;
}

export interface RpcClientOptions {
  /** Time allowed for one request to one endpoint, in ms. Default 10000. */
  timeoutMs?: number;
  /**
   * Time allowed for a whole call (every endpoint, retries and waits), in ms. Default: three times the
   * call's request timeout.
   */
  callTimeoutMs?: number;
  /** How failed requests are retried. */
  retry?: RetryOptions;
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
  /** Time allowed for the whole call, in ms (default: the client's `callTimeoutMs`, at least this `timeoutMs`). */
  callTimeoutMs?: number;
  /** Aborts the request; an aborted request rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What the client knows of one endpoint's health. */
interface EndpointState {
  /** Failures in a row. */
  failures: number;
  /** Not asked again before this time (ms since the epoch). */
  restUntil: number;
}

export class RpcClient {
  readonly urls: string[];
  readonly timeoutMs: number;
  readonly #callTimeoutMs: number | undefined;
  readonly #maxAttempts: number;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;
  readonly #idPrefix: string;
  readonly #endpoints: EndpointState[];
  #index = 0;
  #id = 0;

  /** `options` may be the timeout in ms alone. */
  constructor(urls: string | string[], options: number | RpcClientOptions = {}) {
    const o = typeof options === 'number' ? { timeoutMs: options } : options;
    this.urls = typeof urls === 'string' ? [urls] : [...urls];
    if (this.urls.length === 0) throw new TypeError('RpcClient needs at least one endpoint');
    this.timeoutMs = o.timeoutMs ?? 10_000;
    this.#callTimeoutMs = o.callTimeoutMs;
    this.#maxAttempts = o.retry?.maxAttempts ?? Math.max(4, 3 * this.urls.length);
    this.#initialDelayMs = o.retry?.initialDelayMs ?? 250;
    this.#maxDelayMs = o.retry?.maxDelayMs ?? 5_000;
    this.#maxRetryAfterMs = o.retry?.maxRetryAfterMs ?? 60_000;
    this.#fetch = o.fetch ?? fetch;
    this.#headers = { 'content-type': 'application/json', ...o.headers };
    this.#idPrefix = o.idPrefix ?? 'shadebox';
    this.#endpoints = this.urls.map(() => ({ failures: 0, restUntil: 0 }));
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
    const deadline =
      Date.now() + (o.callTimeoutMs ?? Math.max(this.#callTimeoutMs ?? 3 * timeoutMs, timeoutMs));
    const body = JSON.stringify({ jsonrpc: '2.0', id: `${this.#idPrefix}-${++this.#id}`, method, params });
    let timedOut = 0;
    let failed = 0;
    /** What happened at each endpoint: its last failure and how many there were. */
    const failures = new Map<number, { what: string; count: number }>();
    const fail = (index: number, what: string) => {
      failed++;
      const seen = failures.get(index);
      failures.set(index, { what, count: (seen?.count ?? 0) + 1 });
    };
    let lastCause: unknown;
    for (let attempt = 0; attempt < this.#maxAttempts; attempt++) {
      const index = await this.#nextEndpoint(deadline, o.signal);
      if (index === undefined) break;
      const url = this.urls[index];
      const remaining = Math.min(timeoutMs, deadline - Date.now());
      let response: Response;
      let text: string;
      try {
        const timeout = AbortSignal.timeout(Math.max(1, remaining));
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
        const isTimeout = name === 'TimeoutError' || name === 'AbortError';
        if (isTimeout) timedOut++;
        fail(index, isTimeout ? 'timed out' : 'unreachable');
        lastCause = e;
        this.#failed(index, undefined);
        continue;
      }
      if (
        response.status === 429 ||
        response.status === 502 ||
        response.status === 503 ||
        response.status === 504
      ) {
        // Rate limited, or a gateway that could not reach the node: whatever the body says, ask again later.
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        const after = retryAfter === undefined ? '' : `, retry after ${Math.ceil(retryAfter / 1000)} s`;
        fail(index, `HTTP ${response.status}${after}`);
        lastCause = undefined;
        this.#failed(index, retryAfter);
        continue;
      }
      // biome-ignore lint/suspicious/noExplicitAny: JSON.
      let json: any;
      try {
        json = JSON.parse(text);
      } catch (e) {
        fail(index, `HTTP ${response.status} without JSON`);
        lastCause = e;
        this.#failed(index, undefined);
        continue;
      }
      this.#index = index;
      this.#endpoints[index] = { failures: 0, restUntil: 0 };
      if (json && typeof json === 'object' && json.error !== undefined) {
        const err = rpcErrorOf(method, json.error);
        err.failedBefore = failed;
        if (err.causeName === 'TIMEOUT_ERROR') {
          throw new ChainUnavailableError(`${method}: timed out`, true, { method, cause: err });
        }
        throw err;
      }
      return json?.result;
    }
    const retryAfterMs = this.#restMs();
    const summary = [...failures.entries()]
      .sort(([a], [b]) => a - b)
      .map(([i, f]) => `${hostOf(this.urls[i])}: ${f.what}${f.count > 1 ? ` (${f.count} tries)` : ''}`);
    throw new ChainUnavailableError(
      `${method}: no RPC endpoint answered (${summary.length > 0 ? summary.join('; ') : 'every endpoint rests after failures'})`,
      failed > 0 && timedOut === failed,
      { method, failures: summary, cause: lastCause, retryAfterMs },
    );
  }

  /**
   * The endpoint to ask next: from the last one that answered on, the first that is not resting; when all
   * rest, waits for the first to be back. Undefined when none is back before `deadline`.
   */
  async #nextEndpoint(deadline: number, signal: AbortSignal | undefined): Promise<number | undefined> {
    for (;;) {
      const now = Date.now();
      if (now >= deadline) return undefined;
      let soonest = Number.POSITIVE_INFINITY;
      for (let k = 0; k < this.urls.length; k++) {
        const index = (this.#index + k) % this.urls.length;
        const restUntil = this.#endpoints[index].restUntil;
        if (restUntil <= now) return index;
        soonest = Math.min(soonest, restUntil);
      }
      if (soonest >= deadline) return undefined;
      await sleep(soonest - now, signal);
    }
  }

  /** Notes a failure of endpoint `index`: it rests for `retryAfter` or its backoff. */
  #failed(index: number, retryAfter: number | undefined): void {
    const endpoint = this.#endpoints[index];
    endpoint.failures++;
    const backoff = Math.min(this.#maxDelayMs, this.#initialDelayMs * 2 ** (endpoint.failures - 1));
    // Jitter (half to all of the backoff) so that clients failed together do not come back together.
    const rest = retryAfter === undefined ? backoff / 2 + (Math.random() * backoff) / 2 : retryAfter;
    endpoint.restUntil = Date.now() + Math.min(rest, this.#maxRetryAfterMs);
  }

  /** How long until the first endpoint is back, when every one rests; else undefined. */
  #restMs(): number | undefined {
    const now = Date.now();
    const soonest = Math.min(...this.#endpoints.map((e) => e.restUntil));
    return soonest > now ? soonest - now : undefined;
  }
}

/** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'rpc';
  }
}
