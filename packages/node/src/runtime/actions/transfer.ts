/**
 * Transfer: adds the deposit to the receiver. A transfer that is the only action of a receipt to a missing
 * NEAR-implicit account creates it with the full-access key its id encodes.
 */
import { hexDecode, isNearImplicitAccount } from '@shadebox/primitives';
import { newAccount } from '../../state/account.js';
import { accessKeyStorageUsage } from '../../state/storage-usage.js';
import { setAccessKey } from '../../state/typed-state.js';
import { ACCESS_KEY_NONCE_RANGE_MULTIPLIER } from '../verify-transaction.js';
import type { ActionContext } from './action-context.js';

export function transfer(ctx: ActionContext, deposit: bigint): void {
  const account = ctx.account.current;
  if (account) {
    account.amount += deposit;
    return;
  }
  const accountId = ctx.receipt.receiverId;
  if (isNearImplicitAccount(accountId)) {
    const publicKey = { keyType: 0 as const, data: hexDecode(accountId) };
    const accessKey = {
      nonce: (ctx.block.height - 1n) * ACCESS_KEY_NONCE_RANGE_MULTIPLIER,
      permission: { kind: 'FullAccess' as const },
    };
    const created = newAccount(
      deposit,
      ctx.params.numBytesAccount + accessKeyStorageUsage(ctx.params, publicKey, accessKey),
    );
    setAccessKey(ctx.state, accountId, publicKey, accessKey);
    ctx.account.current = created;
    return;
  }
  // ETH-implicit accounts are created bare: the wallet contract nearcore deploys there is not provided
  // (docs/deviations.md). A deterministic (`0s…`) account is created bare as in nearcore: its contract
  // comes with a later DeterministicStateInit.
  ctx.account.current = newAccount(deposit, ctx.params.numBytesAccount);
}
