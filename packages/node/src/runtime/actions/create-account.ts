/**
 * CreateAccount: a top-level name shorter than `min_allowed_top_level_account_length` only by the registrar; a
 * sub-account only by its direct parent.
 */
import { isSubAccountOf, isTopLevelAccount } from '@shadebox/primitives';
import { newAccount } from '../../state/account.js';
import { ActionFailure } from '../errors.js';
import type { ActionContext } from './action-context.js';

export function createAccount(ctx: ActionContext): void {
  const accountId = ctx.receipt.receiverId;
  const predecessorId = ctx.receipt.predecessorId;
  const { params } = ctx;
  if (isTopLevelAccount(accountId)) {
    if (
      accountId.length < params.minAllowedTopLevelAccountLength &&
      predecessorId !== params.registrarAccountId
    ) {
      throw new ActionFailure({
        CreateAccountOnlyByRegistrar: {
          account_id: accountId,
          registrar_account_id: params.registrarAccountId,
          predecessor_id: predecessorId,
        },
      });
    }
  } else if (!isSubAccountOf(accountId, predecessorId)) {
    throw new ActionFailure({
      CreateAccountNotAllowed: { account_id: accountId, predecessor_id: predecessorId },
    });
  }
  ctx.account.current = newAccount(0n, params.numBytesAccount);
}
