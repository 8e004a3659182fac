/**
 * Stake: locks balance up to the requested stake and records a validator proposal. Lowering the stake
 * takes effect at the end of the epoch (chain/epoch-manager.ts returns the difference).
 */
import type { PublicKey } from '@shadebox/primitives';
import { ActionFailure } from '../errors.js';
import type { ActionContext } from './action-context.js';

export function stake(ctx: ActionContext, amount: bigint, publicKey: PublicKey): void {
  const accountId = ctx.receipt.receiverId;
  const account = ctx.account.current!;
  const increment = amount > account.locked ? amount - account.locked : 0n;
  if (account.amount < increment) {
    throw new ActionFailure({
      TriesToStake: {
        account_id: accountId,
        stake: amount.toString(),
        locked: account.locked.toString(),
        balance: account.amount.toString(),
      },
    });
  }
  if (account.locked === 0n && amount === 0n)
    throw new ActionFailure({ TriesToUnstake: { account_id: accountId } });
  if (amount > 0n && amount < ctx.block.minimumStake) {
    throw new ActionFailure({
      InsufficientStake: {
        account_id: accountId,
        stake: amount.toString(),
        minimum_stake: ctx.block.minimumStake.toString(),
      },
    });
  }
  ctx.result.validatorProposals.push({ accountId, publicKey: publicKey.data, stake: amount });
  if (amount > account.locked) {
    account.amount -= increment;
    account.locked += increment;
  }
}
