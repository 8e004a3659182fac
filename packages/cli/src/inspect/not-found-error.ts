/** An inspection found nothing: an unknown account, transaction or block (exit code 1). */
import { ShadeboxError } from '@shadebox/errors';

export class NotFoundError extends ShadeboxError<{ what: string; id: string }> {
  constructor(what: 'account' | 'transaction' | 'block' | 'key', id: string, message: string) {
    super(message, { details: { what, id }, docsPath: 'docs/cli.md#inspecting-the-chain' });
  }
}
