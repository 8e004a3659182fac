/** A transaction or view that ran and failed in the contract (panic, missing method, out of gas…). */
import { ShadeboxError } from '@shadebox/errors';

export interface ContractErrorDetails {
  /** True when the contract panicked (its own message is the error's message). */
  panic: boolean;
}

export class ContractError extends ShadeboxError<ContractErrorDetails> {
  /**
   * nearcore's error as it came: a transaction's `Failure` object, a view's JSON-RPC error object, or the
   * legacy view result `{error, logs, block_height, block_hash}`.
   */
  readonly nearError: unknown;

  constructor(
    message: string,
    readonly panic: boolean,
    options: { cause?: unknown; nearError?: unknown } = {},
  ) {
    super(message, { details: { panic }, cause: options.cause });
    this.nearError = options.nearError;
  }
}

/**
 * The contract error for a view's error text (nearcore's `vm_error` or the legacy `error` string);
 * `nearError` is nearcore's error object it was read from (default: the JSON-RPC error of an RpcError cause).
 */
export function contractErrorFromText(
  text: string,
  causeName?: string,
  cause?: unknown,
  nearError: unknown = (cause as { error?: unknown } | undefined)?.error,
): ContractError {
  const options = { cause, nearError };
  const m = /Smart contract panicked: (.*?)(?:"|\\n|\n|$)/s.exec(text);
  if (m) return new ContractError(m[1], true, options);
  const g = /GuestPanic \{ panic_msg: \\?"(.*?)\\?" \}/s.exec(text);
  if (g) return new ContractError(g[1], true, options);
  if (causeName === 'UNKNOWN_ACCOUNT')
    return new ContractError('the contract account does not exist', false, options);
  if (causeName === 'NO_CONTRACT_CODE')
    return new ContractError('the account has no contract deployed', false, options);
  return new ContractError(text.slice(0, 1000), false, options);
}
