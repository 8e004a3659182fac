/**
 * Transfer: adds the deposit to the receiver. A transfer that is the only action of a receipt to a missing
 * NEAR-implicit account creates it with the full-access key its id encodes.
 */
import {
  hexDecode,
  isEthImplicitAccount,
  isNearImplicitAccount,
  isUniversalAccount,
} from '@shadebox/primitives';
import { newAccount } from '../../state/account.js';
import { accessKeyStorageUsage } from '../../state/storage-usage.js';
import { setAccessKey } from '../../state/typed-state.js';
import { newUninitializedAccount } from '../../state/uninitialized-account.js';
import { isRefundReceipt } from '../refund-receipts.js';
import { ACCESS_KEY_NONCE_RANGE_MULTIPLIER } from '../verify-transaction.js';
import type { ActionContext } from './action-context.js';
import { refundGasKeyBalance } from './gas-key.js';

function refundToGasKey(ctx: ActionContext, deposit: bigint): boolean {
  const isGasRefund = isRefundReceipt(ctx.receipt) && ctx.actionReceipt.signerId === ctx.receipt.receiverId;
  return isGasRefund && refundGasKeyBalance(ctx, ctx.actionReceipt.signerPublicKey, deposit);
}

export function transfer(ctx: ActionContext, deposit: bigint): void {
  const account = ctx.account.current;
  if (account) {
    // A gas refund for a transaction a gas key paid goes back to that key's balance.
    if (refundToGasKey(ctx, deposit)) return;
    account.amount += deposit;
    return;
  }
  const accountId = ctx.receipt.receiverId;
  if (isNearImplicitAccount(accountId)) {
    const publicKey = { keyType: 0 as const, data: hexDecode(accountId) };
    const accessKey = {
      nonce: (ctx.block.height - 1n) * ACCESS_KEY_NONCE_RANGE_MULTIPLIER,
      permission: { kind: 'FullAccess' as const },
    };
    const created = newAccount(
      deposit,
      ctx.params.numBytesAccount + accessKeyStorageUsage(ctx.params, publicKey, accessKey),
    );
    setAccessKey(ctx.state, accountId, publicKey, accessKey);
    ctx.account.current = created;
    return;
  }
  // An ETH-implicit account uses the wallet contract, a global contract by code hash (nearcore
  // `eth_wallet_global_contract_hash`), when the node has it; otherwise it is created bare (docs/deviations.md).
  const wallet = ctx.params.ethWallet;
  if (wallet && isEthImplicitAccount(accountId)) {
    const created = newAccount(deposit, ctx.params.numBytesAccount + 32n);
    created.globalContract = { kind: 'CodeHash', codeHash: wallet.codeHash };
    ctx.account.current = created;
    return;
  }
  // A universal (`0u…`) account is created uninitialized (NEP-655; check-action.ts lets this happen only from
  // protocol 87): a balance and the bootstrap nonce its self-signed state init follows, seeded from the height.
  if (isUniversalAccount(accountId)) {
    ctx.account.current = newUninitializedAccount(
      deposit,
      ctx.params.numBytesAccount,
      (ctx.block.height - 1n) * ACCESS_KEY_NONCE_RANGE_MULTIPLIER,
    );
    return;
  }
  // A deterministic (`0s…`) account is created bare as in nearcore: its contract comes with a later
  // DeterministicStateInit.
  ctx.account.current = newAccount(deposit, ctx.params.numBytesAccount);
}
