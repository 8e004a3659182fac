/**
 * DelegateV2 (action 14, NEP-611): a meta transaction whose nonce is a `TransactionNonce`
 * (runtime/runtime/src/actions.rs `apply_delegate_action` / `validate_delegate_action_key`). Checked in
 * nearcore's order: the V2 signature, expiry, sender, the key, then which nonce the action advances — a
 * plain `Nonce` advances the access key's nonce and needs a key that is not a gas key; a `GasKeyNonce`
 * needs a gas key and an index below its `num_nonces` and advances that nonce (state/typed-state.ts) —
 * then the nonce bounds and the key's permission.
 * The inner actions then go out exactly as for Delegate (delegate.ts).
 */
import {
  type AccessKey,
  publicKeyToString,
  type VersionedSignedDelegateAction,
  verifyVersionedSignedDelegateAction,
} from '@shadebox/primitives';
import { getAccessKey, getGasKeyNonce, setAccessKey, setGasKeyNonce } from '../../state/typed-state.js';
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
    // A gas key has every nonce row from its creation: a missing one is inconsistent state, as in nearcore.
    const current = getGasKeyNonce(ctx.state, senderId, action.publicKey, nonce.nonceIndex);
    if (current === undefined) {
      throw new Error(`gas key nonce row missing for ${senderId} at index ${nonce.nonceIndex}`);
    }
    checkNonceBounds(ctx, nonce.nonce, current);
    checkDelegatePermission(key, action);
    setGasKeyNonce(ctx.state, senderId, action.publicKey, nonce.nonceIndex, nonce.nonce);
    sendDelegatedActions(ctx, senderId, action);
    return;
  }
  if (isGasKey(key)) {
    throw new ActionFailure({ DelegateActionAccessKeyError: 'DelegateActionRequiresNonGasKey' });
  }
  checkNonceBounds(ctx, nonce.nonce, key.nonce);
  checkDelegatePermission(key, action);
  setAccessKey(ctx.state, senderId, action.publicKey, { nonce: nonce.nonce, permission: key.permission });
  sendDelegatedActions(ctx, senderId, action);
}

function checkNonceBounds(ctx: ActionContext, delegateNonce: bigint, current: bigint): void {
  if (delegateNonce <= current) {
    throw new ActionFailure({
      DelegateActionInvalidNonce: { delegate_nonce: Number(delegateNonce), ak_nonce: Number(current) },
    });
  }
  const upperBound = ctx.block.height * ACCESS_KEY_NONCE_RANGE_MULTIPLIER;
  if (delegateNonce >= upperBound) {
    throw new ActionFailure({
      DelegateActionNonceTooLarge: { delegate_nonce: Number(delegateNonce), upper_bound: Number(upperBound) },
    });
  }
}
