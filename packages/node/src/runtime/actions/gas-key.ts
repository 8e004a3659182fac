/**
 * Gas keys (NEP-611) in the runtime, as nearcore's runtime/runtime/src/access_keys.rs: adding one writes the
 * key (its own nonce forced to 0) and one nonce entry per index, each starting at `(height - 1) * 1e6`;
 * deleting it removes them all; TransferToGasKey adds to its balance (from the receipt's deposit),
 * WithdrawFromGasKey moves balance back to the account. Storage counts the key and, per nonce, the public key,
 * the u16 index, the u64 nonce and `num_extra_bytes_record`.
 */
import { type AccessKey, gasKeyInfoOf, type PublicKey, publicKeyToString } from '@shadebox/primitives';
import { accessKeyStorageUsage, type StorageUsageConfig } from '../../state/storage-usage.js';
import {
  getAccessKey,
  removeAccessKey,
  removeGasKeyNonce,
  setAccessKey,
  setGasKeyNonce,
} from '../../state/typed-state.js';
import { ActionFailure } from '../errors.js';
import { ACCESS_KEY_NONCE_RANGE_MULTIPLIER } from '../verify-transaction.js';
import type { ActionContext } from './action-context.js';

/** nearcore's `gas_key_storage_cost`: the key's record plus `num_nonces` nonce records. */
export function gasKeyStorageUsage(cfg: StorageUsageConfig, publicKey: PublicKey, key: AccessKey): bigint {
  const info = gasKeyInfoOf(key.permission);
  const perNonce = BigInt(1 + publicKey.data.length) + 2n + 8n + cfg.numExtraBytesRecord;
  return BigInt(info?.numNonces ?? 0) * perNonce + accessKeyStorageUsage(cfg, publicKey, key);
}

/** AddKey of a gas key (the caller checked that no key exists). */
export function addGasKey(ctx: ActionContext, publicKey: PublicKey, accessKey: AccessKey): void {
  const accountId = ctx.receipt.receiverId;
  const key: AccessKey = { nonce: 0n, permission: accessKey.permission };
  setAccessKey(ctx.state, accountId, publicKey, key);
  const numNonces = gasKeyInfoOf(key.permission)?.numNonces ?? 0;
  const nonce = (ctx.block.height - 1n) * ACCESS_KEY_NONCE_RANGE_MULTIPLIER;
  for (let i = 0; i < numNonces; i++) setGasKeyNonce(ctx.state, accountId, publicKey, i, nonce);
  ctx.account.current!.storageUsage += gasKeyStorageUsage(ctx.params, publicKey, key);
}

/** DeleteKey of a gas key: the key, its nonces and their storage go. */
export function deleteGasKey(ctx: ActionContext, publicKey: PublicKey, existing: AccessKey): void {
  const accountId = ctx.receipt.receiverId;
  const numNonces = gasKeyInfoOf(existing.permission)?.numNonces ?? 0;
  for (let i = 0; i < numNonces; i++) removeGasKeyNonce(ctx.state, accountId, publicKey, i);
  removeAccessKey(ctx.state, accountId, publicKey);
  const account = ctx.account.current!;
  const usage = gasKeyStorageUsage(ctx.params, publicKey, existing);
  account.storageUsage = account.storageUsage > usage ? account.storageUsage - usage : 0n;
}

function gasKeyOf(ctx: ActionContext, publicKey: PublicKey): AccessKey {
  const accountId = ctx.receipt.receiverId;
  const key = getAccessKey(ctx.state, accountId, publicKey);
  // A missing key and a key that is not a gas key fail the same way.
  if (!key || !gasKeyInfoOf(key.permission)) {
    throw new ActionFailure({
      GasKeyDoesNotExist: { account_id: accountId, public_key: publicKeyToString(publicKey) },
    });
  }
  return key;
}

function withBalance(key: AccessKey, balance: bigint): AccessKey {
  const p = key.permission;
  if (p.kind !== 'GasKeyFullAccess' && p.kind !== 'GasKeyFunctionCall') return key;
  return { nonce: key.nonce, permission: { ...p, gasKeyInfo: { ...p.gasKeyInfo, balance } } };
}

export function transferToGasKey(ctx: ActionContext, publicKey: PublicKey, deposit: bigint): void {
  const key = gasKeyOf(ctx, publicKey);
  const balance = gasKeyInfoOf(key.permission)!.balance;
  setAccessKey(ctx.state, ctx.receipt.receiverId, publicKey, withBalance(key, balance + deposit));
}

/** nearcore's `try_refund_gas_key_balance`: true when `publicKey` is a gas key of the receiver, now credited. */
export function refundGasKeyBalance(ctx: ActionContext, publicKey: PublicKey, amount: bigint): boolean {
  const key = getAccessKey(ctx.state, ctx.receipt.receiverId, publicKey);
  const info = key && gasKeyInfoOf(key.permission);
  if (!key || !info) return false;
  setAccessKey(ctx.state, ctx.receipt.receiverId, publicKey, withBalance(key, info.balance + amount));
  return true;
}

export function withdrawFromGasKey(ctx: ActionContext, publicKey: PublicKey, amount: bigint): void {
  const accountId = ctx.receipt.receiverId;
  const key = gasKeyOf(ctx, publicKey);
  const balance = gasKeyInfoOf(key.permission)!.balance;
  if (balance < amount) {
    throw new ActionFailure({
      InsufficientGasKeyBalance: {
        account_id: accountId,
        public_key: publicKeyToString(publicKey),
        balance: balance.toString(),
        required: amount.toString(),
      },
    });
  }
  setAccessKey(ctx.state, accountId, publicKey, withBalance(key, balance - amount));
  ctx.account.current!.amount += amount;
}
