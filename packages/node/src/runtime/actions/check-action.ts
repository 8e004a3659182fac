/**
 * The checks nearcore runs before each action (runtime/runtime/src/actions.rs `check_account_existence` and
 * `check_actor_permissions`).
 */
import { type Action, isImplicitAccount, isUniversalAccount } from '@shadebox/primitives';
import type { Account } from '../../state/account.js';
import { ActionFailure } from '../errors.js';

// NEAR-implicit, ETH-implicit, deterministic (NEP-616 `0s…`) and universal (NEP-655 `0u…`) ids.
const isImplicit = isImplicitAccount;

/**
 * `universalAccounts`: NEP-655 is on (protocol 87). Then a transfer creates a missing `0u…` account even in a
 * batch (nearcore `implicit_creation_allowed`; the id commits to its keys, and creating it does not make the
 * receiver the actor), UniversalStateInit is accepted on a missing, uninitialized or initialized account, and
 * an uninitialized account refuses every other action but a transfer with `AccountNotInitialized`.
 */
export function checkAccountExistence(
  action: Action,
  account: Account | undefined,
  accountId: string,
  isTheOnlyAction: boolean,
  isRefund: boolean,
  universalAccounts = false,
): void {
  if (action.type === 'CreateAccount') {
    if (account) throw new ActionFailure({ AccountAlreadyExists: { account_id: accountId } });
    if (isImplicit(accountId)) {
      throw new ActionFailure({ OnlyImplicitAccountCreationAllowed: { account_id: accountId } });
    }
    return;
  }
  if (action.type === 'UniversalStateInit') return;
  if (account?.uninitialized) {
    if (action.type === 'Transfer') return;
    throw new ActionFailure({ AccountNotInitialized: { account_id: accountId } });
  }
  if (account) return;
  // The state init creates its account.
  if (action.type === 'DeterministicStateInit') return;
  if (action.type === 'Transfer' && !isRefund && isUniversalAccount(accountId)) {
    // Before NEP-655 a `0u…` id is a named account: a transfer cannot create it.
    if (universalAccounts) return;
    throw new ActionFailure({ AccountDoesNotExist: { account_id: accountId } });
  }
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
