/**
 * The validator accounts update at the first block of an epoch (runtime/runtime/src/lib.rs
 * `update_validator_accounts`): each listed account keeps locked the larger of its stake over the last epochs
 * and its last proposal, and gets the rest of its locked balance back. It runs before the chunk's
 * transactions and is recorded with cause `validator_accounts_update`.
 */
import type { StateUpdate } from '../state/state-update.js';
import { getAccount, setAccount } from '../state/typed-state.js';

export interface ValidatorAccountsUpdate {
  /** Per account: the most it staked over the last epochs (as the epoch manager computes it). */
  stakeInfo: ReadonlyMap<string, bigint>;
  /** Per account: its last stake proposal in the epoch that ended. */
  lastProposals: ReadonlyMap<string, bigint>;
}

/**
 * Applies the update (the caller gives each shard the accounts it holds). As in nearcore every listed account
 * is written back, returned stake or not, so each one shows a change with this cause. Returns the accounts
 * that got stake back.
 */
export function applyValidatorAccountsUpdate(state: StateUpdate, update: ValidatorAccountsUpdate): string[] {
  const returned: string[] = [];
  const ids = [...update.stakeInfo.keys()].sort();
  for (const accountId of ids) {
    const account = getAccount(state, accountId);
    if (!account) continue;
    const maxOfStakes = update.stakeInfo.get(accountId)!;
    const proposal = update.lastProposals.get(accountId);
    const keep = proposal !== undefined && proposal > maxOfStakes ? proposal : maxOfStakes;
    // nearcore treats `locked < keep` as a broken invariant; it cannot arise from Stake actions here, and
    // such an account keeps its balance as it is.
    const back = account.locked > keep ? account.locked - keep : 0n;
    setAccount(state, accountId, {
      ...account,
      locked: account.locked - back,
      amount: account.amount + back,
    });
    if (back > 0n) returned.push(accountId);
  }
  state.commit({ type: 'validator_accounts_update' });
  return returned;
}
