/** A request the agent API refuses: HTTP status, error code, message, the field at fault, extra headers. */
import { ShadeboxError } from '@shadebox/errors';

export interface HttpErrorDetails {
  status: number;
  code: string;
  field?: string;
}

export class HttpError extends ShadeboxError<HttpErrorDetails> {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message, {
      details: field === undefined ? { status, code } : { status, code, field },
      docsPath: 'docs/agent-api.md#errors',
    });
  }
}
