/**
 * NEAR JSON-RPC over fetch with failover: requests go to the last endpoint that answered; when one cannot be
 * reached (connection refused, timeout, HTTP 5xx other than a JSON-RPC answer) the next is tried.
 */

/** No endpoint could be reached (502) or every one timed out (504). */
export class ChainUnavailableError extends Error {
  constructor(
    message: string,
    readonly timeout: boolean,
  ) {
    super(message);
    this.name = 'ChainUnavailableError';
  }
}

/** The node answered with a JSON-RPC error. */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC error objects are inspected field by field.
    readonly error: any,
  ) {
    super(`${method}: ${describeRpcError(error)}`);
    this.name = 'RpcError';
  }

  get causeName(): string | undefined {
    return this.error?.cause?.name ?? this.error?.name;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
function describeRpcError(error: any): string {
  const cause = error?.cause?.name;
  const data =
    typeof error?.data === 'string' ? error.data : JSON.stringify(error?.data ?? error?.cause?.info ?? '');
  return [cause, error?.message, data]
    .filter((s) => s)
    .join(': ')
    .slice(0, 2000);
}

export class RpcClient {
  #index = 0;
  #id = 0;

  constructor(
    readonly urls: string[],
    readonly timeoutMs: number,
  ) {}

  // biome-ignore lint/suspicious/noExplicitAny: results are JSON checked by the callers.
  async call(method: string, params: unknown, timeoutMs = this.timeoutMs): Promise<any> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: `agent-api-${++this.#id}`, method, params });
    let timedOut = 0;
    const failures: string[] = [];
    for (let attempt = 0; attempt < this.urls.length; attempt++) {
      const index = (this.#index + attempt) % this.urls.length;
      const url = this.urls[index];
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await response.text();
      } catch (e) {
        const name = (e as Error)?.name;
        if (name === 'TimeoutError' || name === 'AbortError') timedOut++;
        failures.push(`${hostOf(url)}: ${name === 'TimeoutError' ? 'timed out' : 'unreachable'}`);
        continue;
      }
      // biome-ignore lint/suspicious/noExplicitAny: JSON.
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        failures.push(`${hostOf(url)}: HTTP ${response.status} without JSON`);
        continue;
      }
      this.#index = index;
      if (json && typeof json === 'object' && json.error !== undefined) {
        const err = new RpcError(method, json.error);
        if (err.causeName === 'TIMEOUT_ERROR') throw new ChainUnavailableError(`${method}: timed out`, true);
        throw err;
      }
      return json?.result;
    }
    throw new ChainUnavailableError(
      `${method}: no RPC endpoint answered (${failures.join('; ')})`,
      timedOut === this.urls.length,
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
