/** Errors thrown by the client; all extend `ShadeboxError` (short message, `details`, `docsPath`, `cause`). */
import { ShadeboxError } from '@shadebox/errors';

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
 * and `message` is the body's text (or the legacy `{"error": "<message>"}` string). `details` holds
 * `status`, `code`, `field` and `stage`.
 */
export class AgentApiError extends ShadeboxError<Omit<AgentApiErrorDetails, 'message' | 'body'>> {
  readonly status: number;
  readonly code: string;
  readonly field?: string;
  readonly stage?: string;
  readonly body?: unknown;

  constructor(details: AgentApiErrorDetails) {
    const { status, code, field, stage } = details;
    super(details.message, {
      details: {
        status,
        code,
        ...(field === undefined ? {} : { field }),
        ...(stage === undefined ? {} : { stage }),
      },
      docsPath: 'docs/agent-api.md#errors',
    });
    this.status = status;
    this.code = code;
    if (field !== undefined) this.field = field;
    if (stage !== undefined) this.stage = stage;
    if (details.body !== undefined) this.body = details.body;
  }
}

/** No complete answer within the client's `timeoutMs`. */
export class AgentApiTimeoutError extends ShadeboxError<{ url: string; timeoutMs: number }> {
  readonly url: string;
  readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(`agent API did not answer within ${timeoutMs} ms: POST ${url}`, {
      details: { url, timeoutMs },
      cause: options?.cause,
    });
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
}

/** The service could not be reached (connection refused, DNS failure, connection reset …). */
export class AgentApiUnreachableError extends ShadeboxError<{ url: string }> {
  readonly url: string;

  constructor(url: string, options?: { cause?: unknown }) {
    const cause = options?.cause as
      | { cause?: { code?: string; message?: string }; message?: string }
      | undefined;
    const detail = cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? 'unknown error';
    super(`agent API unreachable at POST ${url} (${detail}); is the service running?`, {
      details: { url },
      docsPath: 'docs/clients.md',
      cause: options?.cause,
    });
    this.url = url;
  }
}
