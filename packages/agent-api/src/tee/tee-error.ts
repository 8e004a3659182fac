/** The TEE provider could not give a key or a quote, or registration lacks what it needs (retried at boot). */
import { ShadeboxError } from '@shadebox/errors';

export interface TeeErrorDetails {
  mode: 'local' | 'dstack';
}

export class TeeError extends ShadeboxError<TeeErrorDetails> {
  constructor(message: string, mode: 'local' | 'dstack', cause?: unknown) {
    super(message, { details: { mode }, docsPath: 'docs/agent-api.md#boot', cause });
  }
}
