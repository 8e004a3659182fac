/**
 * DeleteAccount: removes every record of the account and sends its balance to the beneficiary in a balance
 * refund receipt (from `system`; if the beneficiary does not exist, the refund fails and the amount is burnt).
 */
import { globalContractIdentifierLength } from '@shadebox/primitives';
import { contractCodeKey } from '../../state/state-keys.js';
import { removeAccountRecords } from '../../state/typed-state.js';
import { ActionFailure } from '../errors.js';
import { balanceRefundReceipt } from '../refund-receipts.js';
import type { ActionContext } from './action-context.js';

/** Accounts using more storage than this cannot be deleted (nearcore's `DeleteAccountWithLargeState`). */
export const MAX_DELETED_ACCOUNT_STORAGE = 10_000n;

export function deleteAccount(ctx: ActionContext, beneficiaryId: string): void {
  const accountId = ctx.receipt.receiverId;
  const account = ctx.account.current!;
  // The contract's bytes do not count: the local code's, or (FixDeleteAccountGlobalContractStorageUsage,
  // protocol 85) the identifier's of a global contract.
  const codeLength = account.globalContract
    ? BigInt(globalContractIdentifierLength(account.globalContract))
    : BigInt(ctx.state.get(contractCodeKey(accountId))?.length ?? 0);
  if (account.storageUsage - codeLength > MAX_DELETED_ACCOUNT_STORAGE) {
    throw new ActionFailure({ DeleteAccountWithLargeState: { account_id: accountId } });
  }
  if (account.amount > 0n) {
    ctx.result.newReceipts.push(balanceRefundReceipt(beneficiaryId, account.amount, ctx.receipt.priority));
  }
  removeAccountRecords(ctx.state, accountId);
  ctx.account.current = undefined;
}
