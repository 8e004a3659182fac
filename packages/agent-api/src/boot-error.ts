/** A boot step that cannot complete yet (it is retried): the funding account, the registration. */
import { ShadeboxError } from '@shadebox/errors';
import type { BootStage } from './boot.js';

export interface BootErrorDetails {
  stage: BootStage;
  accountId?: string;
}

export class BootError extends ShadeboxError<BootErrorDetails> {
  constructor(message: string, details: BootErrorDetails) {
    super(message, { details, docsPath: 'docs/agent-api.md#boot' });
  }
}

/** The service was stopped while a boot step ran. */
export class StoppedError extends ShadeboxError {
  constructor() {
    super('stopped');
  }
}
