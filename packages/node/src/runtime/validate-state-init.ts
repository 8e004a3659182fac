/**
 * The stateless checks of a DeterministicStateInit action (runtime/runtime/src/action_validation.rs
 * `validate_deterministic_state_init`): a global contract named by account id must be a valid id, the receiver
 * must be the account id the state init derives to, and every data key and value must fit the storage limits.
 */
import { type Action, deterministicAccountId, isValidAccountId } from '@shadebox/primitives';

type StateInitAction = Extract<Action, { type: 'DeterministicStateInit' }>;

export interface StateInitLimits {
  maxLengthStorageKey?: number;
  maxLengthStorageValue?: number;
}

/** Returns the `ActionsValidationError` JSON of the first failed check, or null. */
export function stateInitValidationError(
  limits: StateInitLimits,
  action: StateInitAction,
  receiverId: string | undefined,
): unknown {
  const code = action.stateInit.code;
  if (code.kind === 'AccountId' && !isValidAccountId(code.accountId))
    return { InvalidAccountId: { account_id: code.accountId } };
  const derivedId = deterministicAccountId(action.stateInit);
  if (receiverId !== undefined && derivedId !== receiverId)
    return { InvalidDeterministicStateInitReceiver: { receiver_id: receiverId, derived_id: derivedId } };
  const keyLimit = limits.maxLengthStorageKey ?? Number.POSITIVE_INFINITY;
  const valueLimit = limits.maxLengthStorageValue ?? Number.POSITIVE_INFINITY;
  for (const [key, value] of action.stateInit.data) {
    if (key.length > keyLimit)
      return { DeterministicStateInitKeyLengthExceeded: { length: key.length, limit: keyLimit } };
    if (value.length > valueLimit)
      return { DeterministicStateInitValueLengthExceeded: { length: value.length, limit: valueLimit } };
  }
  return null;
}
