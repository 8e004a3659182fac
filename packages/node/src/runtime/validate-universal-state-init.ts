/**
 * The stateless checks of a UniversalStateInit action (nearcore runtime/runtime/src/action_validation.rs
 * `validate_universal_state_init`), in its order: the feature is on (protocol 87; before it the action is
 * `UnsupportedProtocolFeature`), the receiver is the `0u…` id the bytes derive to, the bytes decode, a global
 * contract named by account id is a valid id, the keys are no more than `max_universal_state_init_keys`, and
 * every data key and value fits the storage limits.
 */
import {
  type Action,
  isValidAccountId,
  tryDecodeUniversalStateInit,
  universalAccountIdOfRaw,
} from '@shadebox/primitives';
import { protocolFeatureEnabled } from '../config/protocol-version.js';
import type { RuntimeLimits } from './runtime-context.js';

type UniversalStateInitAction = Extract<Action, { type: 'UniversalStateInit' }>;

/** Returns the `ActionsValidationError` JSON of the first failed check, or null. */
export function universalStateInitValidationError(
  limits: RuntimeLimits,
  action: UniversalStateInitAction,
  receiverId: string | undefined,
): unknown {
  const version = limits.protocolVersion;
  if (version !== undefined && !protocolFeatureEnabled('UniversalAccounts', version))
    return { UnsupportedProtocolFeature: { protocol_feature: 'UniversalAccounts', version } };
  const derivedId = universalAccountIdOfRaw(action.stateInit);
  if (receiverId !== undefined && derivedId !== receiverId)
    return { InvalidUniversalStateInitReceiver: { receiver_id: receiverId, derived_id: derivedId } };
  const init = tryDecodeUniversalStateInit(action.stateInit);
  if (!init) return 'MalformedUniversalStateInit';
  if (init.code?.kind === 'AccountId' && !isValidAccountId(init.code.accountId))
    return { InvalidAccountId: { account_id: init.code.accountId } };
  const keyCap = limits.maxUniversalStateInitKeys;
  if (keyCap !== undefined && init.accessKeys.length > keyCap)
    return { UniversalStateInitTooManyKeys: { number_of_keys: init.accessKeys.length, limit: keyCap } };
  const keyLimit = limits.maxLengthStorageKey ?? Number.POSITIVE_INFINITY;
  const valueLimit = limits.maxLengthStorageValue ?? Number.POSITIVE_INFINITY;
  for (const [key, value] of init.data) {
    if (key.length > keyLimit)
      return { UniversalStateInitKeyLengthExceeded: { length: key.length, limit: keyLimit } };
    if (value.length > valueLimit)
      return { UniversalStateInitValueLengthExceeded: { length: value.length, limit: valueLimit } };
  }
  return null;
}
