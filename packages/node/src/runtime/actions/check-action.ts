/**
 * The checks nearcore runs before each action (runtime/runtime/src/actions.rs `check_account_existence` and
 * `check_actor_permissions`).
 */
import { type Action, isImplicitAccount } from '@shadebox/primitives';
import type { Account } from '../../state/account.js';
import { ActionFailure } from '../errors.js';

// NEAR-implicit, ETH-implicit and deterministic (NEP-616 `0s…`) ids.
const isImplicit = isImplicitAccount;

export function checkAccountExistence(
  action: Action,
  account: Account | undefined,
  accountId: string,
  isTheOnlyAction: boolean,
  isRefund: boolean,
): void {
  if (action.type === 'CreateAccount') {
    if (account) throw new ActionFailure({ AccountAlreadyExists: { account_id: accountId } });
    if (isImplicit(accountId)) {
      throw new ActionFailure({ OnlyImplicitAccountCreationAllowed: { account_id: accountId } });
    }
    return;
  }
  if (account) return;
  // The state init creates its account.
  if (action.type === 'DeterministicStateInit') return;
  if (action.type === 'Transfer' && isTheOnlyAction && !isRefund && isImplicit(accountId)) return;
  throw new ActionFailure({ AccountDoesNotExist: { account_id: accountId } });
}

export function checkActorPermissions(
  action: Action,
  account: Account | undefined,
  actorId: string,
  accountId: string,
): void {
  switch (action.type) {
    case 'DeployContract':
    case 'Stake':
    case 'AddKey':
    case 'DeleteKey':
    case 'WithdrawFromGasKey':
    case 'DeployGlobalContract':
    case 'UseGlobalContract':
      if (actorId !== accountId)
        throw new ActionFailure({ ActorNoPermission: { account_id: accountId, actor_id: actorId } });
      return;
    case 'DeleteAccount':
      if (actorId !== accountId)
        throw new ActionFailure({ ActorNoPermission: { account_id: accountId, actor_id: actorId } });
      if (account && account.locked !== 0n)
        throw new ActionFailure({ DeleteAccountStaking: { account_id: accountId } });
      return;
    default:
      return;
  }
}
