/** Errors thrown by the client. */

export interface AgentApiErrorDetails {
  status: number;
  code: string;
  message: string;
  field?: string;
  stage?: string;
  /** The parsed response body, or its text when it was not JSON. */
  body?: unknown;
}

/**
 * The service answered with a non-2xx status. `code`, `message`, `field` and `stage` come from the body
 * `{"error": {code, message, field?, stage?}}`; when the body has another shape, `code` is `http_<status>`
 * and `message` is the body's text (or the legacy `{"error": "<message>"}` string).
 */
export class AgentApiError extends Error {
  override name = 'AgentApiError';
  readonly status: number;
  readonly code: string;
  readonly field?: string;
  readonly stage?: string;
  readonly body?: unknown;

  constructor(details: AgentApiErrorDetails) {
    super(details.message);
    this.status = details.status;
    this.code = details.code;
    if (details.field !== undefined) this.field = details.field;
    if (details.stage !== undefined) this.stage = details.stage;
    if (details.body !== undefined) this.body = details.body;
  }
}

/** No complete answer within the client's `timeoutMs`. */
export class AgentApiTimeoutError extends Error {
  override name = 'AgentApiTimeoutError';
  readonly url: string;
  readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(`agent API did not answer within ${timeoutMs} ms: POST ${url}`, options);
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
}

/** The service could not be reached (connection refused, DNS failure, connection reset …). */
export class AgentApiUnreachableError extends Error {
  override name = 'AgentApiUnreachableError';
  readonly url: string;

  constructor(url: string, options?: { cause?: unknown }) {
    const cause = options?.cause as
      | { cause?: { code?: string; message?: string }; message?: string }
      | undefined;
    const detail = cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? 'unknown error';
    super(`agent API unreachable at POST ${url} (${detail}); is the service running?`, options);
    this.url = url;
  }
}
