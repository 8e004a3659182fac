/**
 * UniversalStateInit (NEP-655, protocol 87; nearcore runtime/runtime/src/universal_account_id.rs).
 *
 * Validation already checked that the receiver is the id the bytes derive to. A missing account is created
 * uninitialized with no balance; an uninitialized one (a transfer created it) gets its state installed: the
 * global contract if any, the data entries, and every committed key as a full-access key. The keys start at a
 * nonce above both the block's initial nonce and the bootstrap nonce a self-signed init consumed, so the
 * bootstrap transaction cannot replay through a key. An initialized account is left as it is. Then the deposit
 * settles storage staking as for DeterministicStateInit. Creating or initializing the account does not make it
 * the actor (apply-action-receipt.ts): the id commits to its keys, nobody may add others.
 */
import { type PublicKey, tryDecodeUniversalStateInit } from '@shadebox/primitives';
import { contractDataKey } from '../../state/state-keys.js';
import { accessKeyStorageUsage, insufficientStorageStake } from '../../state/storage-usage.js';
import { setAccessKey } from '../../state/typed-state.js';
import { newUninitializedAccount } from '../../state/uninitialized-account.js';
import { ActionFailure } from '../errors.js';
import { balanceRefundReceipt, balanceRefundReceiver } from '../refund-receipts.js';
import { ACCESS_KEY_NONCE_RANGE_MULTIPLIER } from '../verify-transaction.js';
import type { ActionContext } from './action-context.js';
import { useGlobalContract } from './global-contract-actions.js';

export function universalStateInit(ctx: ActionContext, raw: Uint8Array, deposit: bigint): void {
  const accountId = ctx.receipt.receiverId;
  const initialNonce = (ctx.block.height - 1n) * ACCESS_KEY_NONCE_RANGE_MULTIPLIER;
  ctx.account.current ??= newUninitializedAccount(0n, ctx.params.numBytesAccount, initialNonce);
  const account = ctx.account.current;
  if (account.uninitialized) {
    const init = tryDecodeUniversalStateInit(raw);
    // Validation refuses bytes that do not decode; this only guards that invariant, failing the action.
    if (!init) throw new ActionFailure('MalformedUniversalStateInit');
    const consumed = account.uninitialized.bootstrapNonce;
    const keyNonce = consumed > initialNonce ? consumed : initialNonce;
    // `Account::initialize`: an AccountV1 with the balance and storage usage, the bootstrap nonce dropped.
    delete account.uninitialized;
    if (init.code) useGlobalContract(ctx, init.code);
    let storageUsage = account.storageUsage;
    for (const [key, value] of init.data) {
      ctx.state.set(contractDataKey(accountId, key), value);
      storageUsage += BigInt(key.length + value.length) + ctx.params.numExtraBytesRecord;
    }
    const accessKey = { nonce: keyNonce, permission: { kind: 'FullAccess' as const } };
    for (const handle of init.accessKeys) {
      // An ML-DSA-65 key is committed to by its handle; the state is keyed by the handle either way.
      setAccessKey(ctx.state, accountId, handle as unknown as PublicKey, accessKey);
      storageUsage += accessKeyStorageUsage(ctx.params, handle, accessKey);
    }
    account.storageUsage = storageUsage;
  }

  const missing = insufficientStorageStake(account, ctx.params.storageAmountPerByte);
  const used = missing <= deposit ? missing : deposit;
  account.amount += used;
  const refund = deposit - used;
  if (refund > 0n) {
    ctx.result.newReceipts.push(
      balanceRefundReceipt(balanceRefundReceiver(ctx.receipt), refund, ctx.receipt.priority),
    );
  }
}
