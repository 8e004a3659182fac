/** `query view_access_key` / `view_access_key_list`: an account's keys and their nonces. */
import type { AccessKeyPermissionView } from '@shadebox/primitives';
import { type BlockReference, blockParams } from './block-reference.js';
import { QueryResultError } from './query-result-error.js';
import type { CallOptions, RpcClient } from './rpc-client.js';

export interface AccessKeyInfo {
  nonce: bigint;
  permission: AccessKeyPermissionView;
  blockHeight: number;
  blockHash: string;
}

/**
 * One access key of `accountId`. A missing key is nearcore's `UNKNOWN_ACCESS_KEY` error (an `RpcError`);
 * nearcore may answer it as a result with an `error` text instead, thrown as `QueryResultError`.
 */
export async function viewAccessKey(
  rpc: RpcClient,
  accountId: string,
  publicKey: string,
  at?: BlockReference,
  options?: CallOptions,
): Promise<AccessKeyInfo> {
  const r = await rpc.call(
    'query',
    { request_type: 'view_access_key', ...blockParams(at), account_id: accountId, public_key: publicKey },
    options,
  );
  if (typeof r?.error === 'string') throw new QueryResultError('view_access_key', accountId, r.error);
  return {
    nonce: BigInt(r.nonce),
    permission: r.permission,
    blockHeight: r.block_height,
    blockHash: r.block_hash,
  };
}

export interface AccessKeyListEntry {
  publicKey: string;
  nonce: bigint;
  permission: AccessKeyPermissionView;
}

/** Every access key of `accountId`. */
export async function viewAccessKeyList(
  rpc: RpcClient,
  accountId: string,
  at?: BlockReference,
  options?: CallOptions,
): Promise<AccessKeyListEntry[]> {
  const r = await rpc.call(
    'query',
    { request_type: 'view_access_key_list', ...blockParams(at), account_id: accountId },
    options,
  );
  return (r?.keys ?? []).map(
    (k: {
      public_key: string;
      access_key: { nonce: number | string; permission: AccessKeyPermissionView };
    }) => ({
      publicKey: k.public_key,
      nonce: BigInt(k.access_key.nonce),
      permission: k.access_key.permission,
    }),
  );
}
