/**
 * DeleteKey: removes the key and the storage it used.
 */
import { gasKeyInfoOf, type PublicKey, publicKeyToString } from '@shadebox/primitives';
import { accessKeyStorageUsage } from '../../state/storage-usage.js';
import { getAccessKey, removeAccessKey } from '../../state/typed-state.js';
import { ActionFailure } from '../errors.js';
import type { ActionContext } from './action-context.js';
import { deleteGasKey } from './gas-key.js';

export function deleteKey(ctx: ActionContext, publicKey: PublicKey): void {
  const accountId = ctx.receipt.receiverId;
  const account = ctx.account.current!;
  const existing = getAccessKey(ctx.state, accountId, publicKey);
  if (!existing) {
    throw new ActionFailure({
      DeleteKeyDoesNotExist: { account_id: accountId, public_key: publicKeyToString(publicKey) },
    });
  }
  if (gasKeyInfoOf(existing.permission)) {
    deleteGasKey(ctx, publicKey, existing);
    return;
  }
  removeAccessKey(ctx.state, accountId, publicKey);
  account.storageUsage -= accessKeyStorageUsage(ctx.params, publicKey, existing);
}
