/**
 * AddKey: the new key's nonce is `(height - 1) * 1e6` whatever the action says, so a fresh key cannot replay
 * old transactions.
 */
import { type AccessKey, gasKeyInfoOf, type PublicKey, publicKeyToString } from '@shadebox/primitives';
import { accessKeyStorageUsage } from '../../state/storage-usage.js';
import { getAccessKey, setAccessKey } from '../../state/typed-state.js';
import { ActionFailure } from '../errors.js';
import { ACCESS_KEY_NONCE_RANGE_MULTIPLIER } from '../verify-transaction.js';
import type { ActionContext } from './action-context.js';
import { addGasKey } from './gas-key.js';

export function addKey(ctx: ActionContext, publicKey: PublicKey, accessKey: AccessKey): void {
  const accountId = ctx.receipt.receiverId;
  const account = ctx.account.current!;
  if (getAccessKey(ctx.state, accountId, publicKey)) {
    throw new ActionFailure({
      AddKeyAlreadyExists: { account_id: accountId, public_key: publicKeyToString(publicKey) },
    });
  }
  if (gasKeyInfoOf(accessKey.permission)) {
    addGasKey(ctx, publicKey, accessKey);
    return;
  }
  const key: AccessKey = {
    nonce: (ctx.block.height - 1n) * ACCESS_KEY_NONCE_RANGE_MULTIPLIER,
    permission: accessKey.permission,
  };
  setAccessKey(ctx.state, accountId, publicKey, key);
  account.storageUsage += accessKeyStorageUsage(ctx.params, publicKey, key);
}
