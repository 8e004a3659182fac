/**
 * DeterministicStateInit (NEP-616; nearcore runtime/runtime/src/deterministic_account_id.rs).
 *
 * A deterministic account goes from not existing, or existing without code (a transfer created it), to active:
 * it gets the global contract of the state init and its data entries, each entry costing its key, value and
 * `num_extra_bytes_record` of storage. An active account is left as it is. Then the deposit pays for whatever
 * storage the balance does not cover (nothing for a zero-balance account) and the rest goes back to the
 * predecessor in a balance refund. Creating the account does not make it the actor: the actions after this one
 * still act as the predecessor, so nobody can add keys or deploy code to a deterministic account.
 */
import type { DeterministicAccountStateInit } from '@shadebox/primitives';
import { newAccount } from '../../state/account.js';
import { contractDataKey } from '../../state/state-keys.js';
import { insufficientStorageStake } from '../../state/storage-usage.js';
import { balanceRefundReceipt, balanceRefundReceiver } from '../refund-receipts.js';
import type { ActionContext } from './action-context.js';
import { useGlobalContract } from './global-contract-actions.js';

export function deterministicStateInit(
  ctx: ActionContext,
  stateInit: DeterministicAccountStateInit,
  deposit: bigint,
): void {
  const accountId = ctx.receipt.receiverId;
  // Created with no balance: the deposit pays only what the storage needs.
  ctx.account.current ??= newAccount(0n, ctx.params.numBytesAccount);
  const account = ctx.account.current;
  const active = account.globalContract !== undefined || account.codeHash.some((b) => b !== 0);
  if (!active) {
    useGlobalContract(ctx, stateInit.code);
    let storageUsage = account.storageUsage;
    for (const [key, value] of stateInit.data) {
      ctx.state.set(contractDataKey(accountId, key), value);
      storageUsage += BigInt(key.length + value.length) + ctx.params.numExtraBytesRecord;
    }
    account.storageUsage = storageUsage;
  }

  const missing = insufficientStorageStake(account, ctx.params.storageAmountPerByte);
  // Not enough: all of it stays (later actions may still cover the rest), nothing is refunded.
  const used = missing <= deposit ? missing : deposit;
  account.amount += used;
  const refund = deposit - used;
  if (refund > 0n) {
    ctx.result.newReceipts.push(
      balanceRefundReceipt(balanceRefundReceiver(ctx.receipt), refund, ctx.receipt.priority),
    );
  }
}
