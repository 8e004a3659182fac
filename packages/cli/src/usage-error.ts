/**
 * A command line the CLI cannot run: an unknown flag, a bad value, flags that exclude each other.
 * The CLI prints it on one line of stderr (`shadebox node: error: ... (see 'shadebox node --help')`)
 * and exits with code 2 without doing anything.
 */
import { ShadeboxError } from '@shadebox/errors';

export class UsageError extends ShadeboxError<{ command: string; flag?: string }> {
  constructor(
    /** The command whose line was wrong, e.g. `shadebox node`. */
    readonly command: string,
    message: string,
    /** The flag (`--rpc-port`) or argument the problem is about, when there is one. */
    readonly flag?: string,
  ) {
    super(message, {
      details: flag === undefined ? { command } : { command, flag },
      docsPath: 'docs/cli.md',
    });
  }

  /** The one line printed on stderr. */
  get line(): string {
    return `${this.command}: error: ${this.message} (see '${this.command} --help')`;
  }
}
