/**
 * What a transaction returned, read from its final outcome (`send_tx` / `tx` result): the decoded
 * `SuccessValue`, or a `ContractError` for a failed execution. A failure that is an `InvalidTxError` throws
 * the matching `InvalidTransactionError` instead.
 */
import { ContractError } from './contract-error.js';
import { decodeResult } from './decode-result.js';
import { invalidTxErrorOf, rpcErrorOf } from './invalid-transaction.js';

// biome-ignore lint/suspicious/noExplicitAny: execution outcomes are JSON inspected field by field.
export type Outcome = any;

/** The transaction's result, or a ContractError for a failed execution. */
export function outcomeResult(outcome: Outcome): unknown {
  const status = outcome?.status;
  if (status && typeof status === 'object' && 'SuccessValue' in status) {
    return decodeResult(Buffer.from(String(status.SuccessValue ?? ''), 'base64'));
  }
  if (status && typeof status === 'object' && 'Failure' in status) {
    if (invalidTxErrorOf(status.Failure) !== undefined) throw rpcErrorOf('send_tx', status.Failure);
    const text = JSON.stringify(status.Failure);
    const execution = status.Failure?.ActionError?.kind?.FunctionCallError?.ExecutionError;
    if (typeof execution === 'string') {
      const m = /^Smart contract panicked: (.*)$/s.exec(execution);
      throw new ContractError(m ? m[1] : execution, m !== null, { nearError: status.Failure });
    }
    throw new ContractError(text.slice(0, 1000), false, { nearError: status.Failure });
  }
  throw new ContractError(`unexpected transaction status ${JSON.stringify(status)?.slice(0, 200)}`, false);
}
