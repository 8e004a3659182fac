/** No RPC endpoint could be reached (`timeout` false) or every one timed out (`timeout` true). */
import { ShadeboxError } from '@shadebox/errors';

export interface ChainUnavailableDetails {
  method?: string;
  timeout: boolean;
  /** What happened at each endpoint, e.g. `127.0.0.1:3030: unreachable`. */
  failures: string[];
}

export class ChainUnavailableError extends ShadeboxError<ChainUnavailableDetails> {
  constructor(
    message: string,
    readonly timeout: boolean,
    options: { method?: string; failures?: string[]; cause?: unknown } = {},
  ) {
    super(message, {
      details: { method: options.method, timeout, failures: options.failures ?? [] },
      cause: options.cause,
    });
  }
}
