/**
 * `view_access_key_list`, paginated as nearcore 2.14's `TrieViewer::view_access_keys` (#16039): the account's
 * access keys in state order (the borsh bytes of each key's handle, so ed25519 before secp256k1 before
 * `ml-dsa-65-hash`), a gas key once (its nonce rows are not keys).
 *
 * - Neither `after_key` nor `limit`: every key, but an account with more than `view_access_keys_limit` (100)
 *   keys is refused with TOO_MANY_ACCESS_KEYS, as before pagination.
 * - `after_key` and/or `limit`: a page of at most `limit` keys (a larger `limit` is clamped to 100, an absent one
 *   is 100) after `after_key` (exclusive; it need not be a key the account has). `last_key` is the page's last
 *   key when at least one more key follows; it is absent on the last page.
 */
import {
  accessKeyToView,
  encodePublicKeyHandle,
  type PublicKeyHandle,
  publicKeyHandleToString,
} from '@shadebox/primitives';
import type { StateUpdate } from '../../state/state-update.js';
import { listAccessKeys } from '../../state/typed-state.js';
import { handlerError } from '../rpc-error.js';

/** nearcore's `default_view_access_keys_limit()` (config.json `view_access_keys_limit`). */
export const VIEW_ACCESS_KEYS_LIMIT = 100;

export interface AccessKeyPage {
  afterKey?: PublicKeyHandle;
  limit?: number;
}

export function viewAccessKeyList(
  state: StateUpdate,
  accountId: string,
  page: AccessKeyPage,
  at: { block_height: number; block_hash: string },
  max = VIEW_ACCESS_KEYS_LIMIT,
) {
  let keys = listAccessKeys(state, accountId);
  const paginated = page.afterKey !== undefined || page.limit !== undefined;
  if (!paginated) {
    if (keys.length > max) throw tooManyAccessKeys(accountId, max, at);
    return { keys: keys.map(keyInfoView) };
  }
  if (page.afterKey) {
    const after = Buffer.from(encodePublicKeyHandle(page.afterKey));
    keys = keys.filter((k) => Buffer.compare(Buffer.from(encodePublicKeyHandle(k.publicKey)), after) > 0);
  }
  const cap = Math.min(page.limit ?? max, max);
  const more = keys.length > cap;
  const shown = keys.slice(0, cap).map(keyInfoView);
  return more ? { keys: shown, last_key: shown[shown.length - 1].public_key } : { keys: shown };
}

function keyInfoView({ publicKey, accessKey }: ReturnType<typeof listAccessKeys>[number]) {
  return { public_key: publicKeyHandleToString(publicKey), access_key: accessKeyToView(accessKey) };
}

/** `RpcQueryError::TooManyAccessKeys`: the state viewer's refusal of an unpaginated list over the limit. */
export function tooManyAccessKeys(
  accountId: string,
  limit: number,
  at: { block_height: number; block_hash: string },
) {
  return handlerError(
    'TOO_MANY_ACCESS_KEYS',
    { requested_account_id: accountId, limit, ...at },
    `Account ${accountId} has more than ${limit} access keys; use a paginated view_access_key_list request`,
  );
}
