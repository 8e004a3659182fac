/**
 * DelegateV2 (action 14, NEP-611): a meta transaction whose nonce is a `TransactionNonce`
 * (runtime/runtime/src/actions.rs `apply_delegate_action` / `validate_delegate_action_key`). Checked in
 * nearcore's order: the V2 signature, expiry, sender, the key, then which nonce the action advances — a
 * plain `Nonce` advances the access key's nonce and needs a key that is not a gas key; a `GasKeyNonce`
 * needs a gas key and an index below its `num_nonces` — then the nonce bounds and the key's permission.
 * The inner actions then go out exactly as for Delegate (delegate.ts).
 */
import {
  type AccessKey,
  publicKeyToString,
  type VersionedSignedDelegateAction,
  verifyVersionedSignedDelegateAction,
} from '@shadebox/primitives';
import { getAccessKey, setAccessKey } from '../../state/typed-state.js';
import { ActionFailure } from '../errors.js';
import { ACCESS_KEY_NONCE_RANGE_MULTIPLIER } from '../verify-transaction.js';
import type { ActionContext } from './action-context.js';
import { checkDelegatePermission, keyError, sendDelegatedActions } from './delegate.js';

function isGasKey(key: AccessKey): boolean {
  return key.permission.kind === 'GasKeyFullAccess' || key.permission.kind === 'GasKeyFunctionCall';
}

export function delegateV2(ctx: ActionContext, signed: VersionedSignedDelegateAction): void {
  const action = signed.delegateAction;
  const senderId = ctx.receipt.receiverId;
  if (!verifyVersionedSignedDelegateAction(signed)) throw new ActionFailure('DelegateActionInvalidSignature');
  if (ctx.block.height > action.maxBlockHeight) throw new ActionFailure('DelegateActionExpired');
  if (action.senderId !== senderId) {
    throw new ActionFailure({
      DelegateActionSenderDoesNotMatchTxReceiver: { sender_id: action.senderId, receiver_id: senderId },
    });
  }
  const key = getAccessKey(ctx.state, senderId, action.publicKey);
  if (!key) {
    throw keyError({
      AccessKeyNotFound: { account_id: senderId, public_key: publicKeyToString(action.publicKey) },
    });
  }
  const nonce = action.nonce;
  if (nonce.kind === 'GasKeyNonce') {
    const permission = key.permission;
    if (permission.kind !== 'GasKeyFullAccess' && permission.kind !== 'GasKeyFunctionCall') {
      throw new ActionFailure({ DelegateActionAccessKeyError: 'DelegateActionRequiresGasKey' });
    }
    const numNonces = permission.gasKeyInfo.numNonces;
    if (nonce.nonceIndex >= numNonces) {
      throw new ActionFailure({
        DelegateActionInvalidNonceIndex: { nonce_index: nonce.nonceIndex, num_nonces: numNonces },
      });
    }
    // The per-index nonces of a gas key live in the gas-key nonce store (branch `gaskeys`), which this
    // branch does not have: the integrator connects the read and the write here.
    throw new Error('DelegateV2 with a gas-key nonce needs the gas-key nonce store');
  }
  if (isGasKey(key)) {
    throw new ActionFailure({ DelegateActionAccessKeyError: 'DelegateActionRequiresNonGasKey' });
  }
  if (nonce.nonce <= key.nonce) {
    throw new ActionFailure({
      DelegateActionInvalidNonce: { delegate_nonce: Number(nonce.nonce), ak_nonce: Number(key.nonce) },
    });
  }
  const upperBound = ctx.block.height * ACCESS_KEY_NONCE_RANGE_MULTIPLIER;
  if (nonce.nonce >= upperBound) {
    throw new ActionFailure({
      DelegateActionNonceTooLarge: { delegate_nonce: Number(nonce.nonce), upper_bound: Number(upperBound) },
    });
  }
  checkDelegatePermission(key, action);
  setAccessKey(ctx.state, senderId, action.publicKey, { nonce: nonce.nonce, permission: key.permission });
  sendDelegatedActions(ctx, senderId, action);
}
