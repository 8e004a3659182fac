/**
 * The one base class of every error a Shadebox package throws (the viem model): a short message that says
 * what went wrong, `details` with the facts as data (never a secret key or seed), an optional `docsPath`
 * into the project's docs that says what to do, and the standard `cause`.
 *
 * `message` is the short message alone, so existing messages stay exactly as they were; `describe()` adds
 * the docs path and the chain of causes for a person to read.
 */

export interface ShadeboxErrorOptions<D extends object> {
  /** The facts of the error as data: ids, amounts, the field at fault. Never a secret. */
  details?: D;
  /** A path in the project's docs, e.g. `docs/agent-api.md#errors`. */
  docsPath?: string;
  /** The error that led to this one. */
  cause?: unknown;
}

export class ShadeboxError<D extends object = Record<string, unknown>> extends Error {
  /** The message without the docs path or causes (equal to `message`). */
  readonly shortMessage: string;
  readonly details: D;
  readonly docsPath: string | undefined;

  constructor(shortMessage: string, options: ShadeboxErrorOptions<D> = {}) {
    super(shortMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.shortMessage = shortMessage;
    this.details = options.details ?? ({} as D);
    this.docsPath = options.docsPath;
  }

  /**
   * Walks this error and its causes, innermost last, and returns the first for which `match` is true (the
   * innermost cause when no predicate is given).
   */
  walk(match?: (error: unknown) => boolean): unknown {
    let current: unknown = this;
    let last: unknown = this;
    const seen = new Set<unknown>();
    while (current !== undefined && current !== null && !seen.has(current)) {
      seen.add(current);
      if (match?.(current)) return current;
      last = current;
      current = (current as { cause?: unknown }).cause;
    }
    return match ? undefined : last;
  }

  /** The message for a person: the short message, then `Docs:` and each cause on its own line. */
  describe(): string {
    const lines = [this.shortMessage];
    if (this.docsPath) lines.push(`Docs: ${this.docsPath}`);
    let cause = (this as { cause?: unknown }).cause;
    const seen = new Set<unknown>([this]);
    while (cause !== undefined && cause !== null && !seen.has(cause)) {
      seen.add(cause);
      lines.push(`Caused by: ${cause instanceof Error ? cause.message : String(cause)}`);
      cause = (cause as { cause?: unknown }).cause;
    }
    return lines.join('\n');
  }

  /** What `JSON.stringify` writes: name, message, details and docs path (no stack, no cause objects). */
  toJSON(): { name: string; message: string; details: D; docsPath?: string } {
    return {
      name: this.name,
      message: this.shortMessage,
      details: this.details,
      ...(this.docsPath === undefined ? {} : { docsPath: this.docsPath }),
    };
  }
}

/** True for any error of a Shadebox package, whichever copy of this module created it. */
export function isShadeboxError(error: unknown): error is ShadeboxError {
  return (
    error instanceof ShadeboxError ||
    (error instanceof Error && 'shortMessage' in error && 'details' in error)
  );
}
