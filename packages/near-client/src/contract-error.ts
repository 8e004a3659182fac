/** A transaction or view that ran and failed in the contract (panic, missing method, out of gas…). */
import { ShadeboxError } from '@shadebox/errors';

export interface ContractErrorDetails {
  /** True when the contract panicked (its own message is the error's message). */
  panic: boolean;
}

export class ContractError extends ShadeboxError<ContractErrorDetails> {
  constructor(
    message: string,
    readonly panic: boolean,
    options: { cause?: unknown } = {},
  ) {
    super(message, { details: { panic }, cause: options.cause });
  }
}

/** The contract error for a view's error text (nearcore's `vm_error` or the legacy `error` string). */
export function contractErrorFromText(text: string, causeName?: string, cause?: unknown): ContractError {
  const m = /Smart contract panicked: (.*?)(?:"|\\n|\n|$)/s.exec(text);
  if (m) return new ContractError(m[1], true, { cause });
  const g = /GuestPanic \{ panic_msg: \\?"(.*?)\\?" \}/s.exec(text);
  if (g) return new ContractError(g[1], true, { cause });
  if (causeName === 'UNKNOWN_ACCOUNT')
    return new ContractError('the contract account does not exist', false, { cause });
  if (causeName === 'NO_CONTRACT_CODE')
    return new ContractError('the account has no contract deployed', false, { cause });
  return new ContractError(text.slice(0, 1000), false, { cause });
}
