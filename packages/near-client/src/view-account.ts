/** `query view_account`: an account's balance and storage, or null when it does not exist. */
import { type BlockReference, blockParams } from './block-reference.js';
import type { CallOptions, RpcClient } from './rpc-client.js';
import { RpcError } from './rpc-error.js';

/** NEAR's storage price per byte (yoctoNEAR), unchanged since genesis. */
export const STORAGE_BYTE_COST = 10n ** 19n;

export interface AccountView {
  amount: bigint;
  locked: bigint;
  storageUsage: bigint;
  /** base58 of the contract's code hash; `11111111111111111111111111111111` without a contract. */
  codeHash: string;
  blockHeight: number;
  blockHash: string;
}

/** The code hash of an account without a contract. */
export const NO_CODE_HASH = '11111111111111111111111111111111';

export async function viewAccount(
  rpc: RpcClient,
  accountId: string,
  at?: BlockReference,
  options?: CallOptions,
): Promise<AccountView | null> {
  try {
    const r = await rpc.call(
      'query',
      { request_type: 'view_account', ...blockParams(at), account_id: accountId },
      options,
    );
    return {
      amount: BigInt(r.amount),
      locked: BigInt(r.locked),
      storageUsage: BigInt(r.storage_usage),
      codeHash: r.code_hash,
      blockHeight: r.block_height,
      blockHash: r.block_hash,
    };
  } catch (e) {
    if (e instanceof RpcError && e.causeName === 'UNKNOWN_ACCOUNT') return null;
    throw e;
  }
}

/** What the account can spend: total minus the storage staking requirement (near-api-js's `available`). */
export function availableBalance(a: Pick<AccountView, 'amount' | 'locked' | 'storageUsage'>): bigint {
  const storage = a.storageUsage * STORAGE_BYTE_COST;
  const reserved = a.locked > storage ? a.locked : storage;
  const available = a.amount + a.locked - reserved;
  return available > 0n ? available : 0n;
}
