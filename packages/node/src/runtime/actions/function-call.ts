/**
 * FunctionCall: resolves the receiver's code. Without code the call fails as nearcore fails it
 * (`CompilationError.CodeDoesNotExist`). Executing Wasm is the VM's job (packages/node/src/vm, not part of
 * this build yet): until it lands, a call to deployed code fails with an explicit ExecutionError.
 */
import { contractCodeKey } from '../../state/state-keys.js';
import { ActionFailure } from '../errors.js';
import type { ActionContext } from './action-context.js';

export function functionCall(ctx: ActionContext): void {
  const accountId = ctx.receipt.receiverId;
  if (!ctx.state.get(contractCodeKey(accountId))) {
    throw new ActionFailure({
      FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: accountId } } },
    });
  }
  throw new ActionFailure({
    FunctionCallError: { ExecutionError: 'Wasm execution is not available in this build' },
  });
}
