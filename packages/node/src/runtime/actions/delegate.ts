/**
 * Delegate (NEP-366 meta transactions): the receiver is the delegate action's sender; its signature, expiry,
 * key and nonce are checked, then the inner actions go out as a new receipt from the sender, paid by the
 * relayer who signed the outer transaction.
 */
import {
  type AccessKey,
  type Action,
  delegateActionHash,
  publicKeyToString,
  type SignedDelegateAction,
  verifySignature,
} from '@shadebox/primitives';
import { totalPrepaidExecFees, totalPrepaidGas, totalPrepaidSendFees } from '../../config/fees.js';
import { getAccessKey, setAccessKey } from '../../state/typed-state.js';
import { ActionFailure, type InvalidAccessKeyJson } from '../errors.js';
import { ACCESS_KEY_NONCE_RANGE_MULTIPLIER } from '../verify-transaction.js';
import type { ActionContext } from './action-context.js';

export const keyError = (e: InvalidAccessKeyJson) => new ActionFailure({ DelegateActionAccessKeyError: e });

export function delegate(ctx: ActionContext, signed: SignedDelegateAction): void {
  const action = signed.delegateAction;
  const senderId = ctx.receipt.receiverId;
  if (!verifySignature(delegateActionHash(action), signed.signature, action.publicKey)) {
    throw new ActionFailure('DelegateActionInvalidSignature');
  }
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
  // A plain nonce advances the access key's own nonce, which a gas key does not use (NEP-611).
  if (key.permission.kind === 'GasKeyFullAccess' || key.permission.kind === 'GasKeyFunctionCall') {
    throw new ActionFailure({ DelegateActionAccessKeyError: 'DelegateActionRequiresNonGasKey' });
  }
  if (action.nonce <= key.nonce) {
    throw new ActionFailure({
      DelegateActionInvalidNonce: { delegate_nonce: Number(action.nonce), ak_nonce: Number(key.nonce) },
    });
  }
  const upperBound = ctx.block.height * ACCESS_KEY_NONCE_RANGE_MULTIPLIER;
  if (action.nonce >= upperBound) {
    throw new ActionFailure({
      DelegateActionNonceTooLarge: { delegate_nonce: Number(action.nonce), upper_bound: Number(upperBound) },
    });
  }
  checkDelegatePermission(key, action);
  const updated: AccessKey = { nonce: action.nonce, permission: key.permission };
  setAccessKey(ctx.state, senderId, action.publicKey, updated);
  sendDelegatedActions(ctx, senderId, action);
}

/** A function-call key (a gas key's too) may sign only one FunctionCall without deposit, to its receiver and
 * methods. */
export function checkDelegatePermission(
  key: AccessKey,
  action: { receiverId: string; actions: Action[] },
): void {
  if (key.permission.kind === 'FunctionCall' || key.permission.kind === 'GasKeyFunctionCall') {
    const p = key.permission;
    const [inner] = action.actions;
    if (action.actions.length !== 1 || inner.type !== 'FunctionCall') throw keyError('RequiresFullAccess');
    if (inner.deposit > 0n) throw keyError('DepositWithFunctionCall');
    if (action.receiverId !== p.receiverId) {
      throw keyError({ ReceiverMismatch: { tx_receiver: action.receiverId, ak_receiver: p.receiverId } });
    }
    if (p.methodNames.length > 0 && !p.methodNames.includes(inner.methodName)) {
      throw keyError({ MethodNameMismatch: { method_name: inner.methodName } });
    }
  }
}

/** The inner actions go out as a new receipt from the sender, paid by the relayer. */
export function sendDelegatedActions(
  ctx: ActionContext,
  senderId: string,
  action: { receiverId: string; actions: Action[] },
): void {
  const outer = ctx.actionReceipt;
  ctx.result.newReceipts.push({
    predecessorId: senderId,
    receiverId: action.receiverId,
    receiptId: new Uint8Array(32),
    priority: ctx.receipt.priority,
    receipt: {
      kind: 'Action',
      signerId: outer.signerId,
      signerPublicKey: outer.signerPublicKey,
      gasPrice: outer.gasPrice,
      outputDataReceivers: [],
      inputDataIds: [],
      actions: action.actions,
      isPromiseYield: false,
    },
  });
  // The relayer prepaid the new receipt's execution and the inner actions' send fees. The execution is burnt
  // by the new receipt's receiver, so it counts as used here (not refunded); the send fees are burnt now.
  const requiredGas =
    totalPrepaidExecFees(ctx.params, action.actions, action.receiverId) +
    totalPrepaidGas(action.actions) +
    ctx.params.fees.new_action_receipt.execution;
  const prepaidSendFees = totalPrepaidSendFees(ctx.params, outer.actions);
  ctx.result.gasUsed += requiredGas + prepaidSendFees;
  ctx.result.gasBurnt += prepaidSendFees;
}
