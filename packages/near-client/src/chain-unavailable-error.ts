/** No RPC endpoint could be reached (`timeout` false) or every one timed out (`timeout` true). */
import { ShadeboxError } from '@shadebox/errors';

export interface ChainUnavailableDetails {
  method?: string;
  timeout: boolean;
  /** What happened at each request, e.g. `127.0.0.1:3030: unreachable`, `rpc.example: HTTP 429 (retry after 5 s)`. */
  failures: string[];
  /** When every endpoint rests after failures (a `Retry-After`, a backoff): how long until the first is back. */
  retryAfterMs?: number;
}

export class ChainUnavailableError extends ShadeboxError<ChainUnavailableDetails> {
  constructor(
    message: string,
    readonly timeout: boolean,
    options: { method?: string; failures?: string[]; cause?: unknown; retryAfterMs?: number } = {},
  ) {
    super(message, {
      details: {
        method: options.method,
        timeout,
        failures: options.failures ?? [],
        ...(options.retryAfterMs === undefined ? {} : { retryAfterMs: options.retryAfterMs }),
      },
      cause: options.cause,
    });
  }

  /** See `details.retryAfterMs`. */
  get retryAfterMs(): number | undefined {
    return this.details.retryAfterMs;
  }
}
