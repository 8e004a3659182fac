/**
 * DeployGlobalContract and UseGlobalContract (runtime/runtime/src/global_contracts.rs).
 *
 * Deploying burns `global_contract_storage_amount_per_byte` × code length from the deployer's balance (the
 * outcome's tokens_burnt includes it) and starts the distribution: a `GlobalContractDistribution` receipt
 * for the deployer's shard, carrying the next deployment nonce of that identifier. Using a global contract
 * needs its code on the account's shard; it drops the account's local code and charges the identifier's
 * bytes (32 for a hash, the account id's length) as storage instead.
 */
import {
  type GlobalContractDeployMode,
  type GlobalContractIdentifier,
  globalContractIdentifierLength,
  globalContractIdentifierToView,
  sha256,
} from '@shadebox/primitives';
import type { Account } from '../../state/account.js';
import {
  getGlobalContractNonce,
  hasGlobalContractCode,
  setGlobalContractNonce,
} from '../../state/global-contract-state.js';
import { contractCodeKey } from '../../state/state-keys.js';
import type { StateUpdate } from '../../state/state-update.js';
import { ActionFailure } from '../errors.js';
import type { ActionContext } from './action-context.js';

export function deployGlobalContract(
  ctx: ActionContext,
  code: Uint8Array,
  deployMode: GlobalContractDeployMode,
): void {
  const account = ctx.account.current!;
  const accountId = ctx.receipt.receiverId;
  const storageCost = ctx.params.globalContractStorageAmountPerByte * BigInt(code.length);
  if (account.amount < storageCost) {
    throw new ActionFailure({
      LackBalanceForState: { account_id: accountId, amount: storageCost.toString() },
    });
  }
  account.amount -= storageCost;
  ctx.result.tokensBurnt = (ctx.result.tokensBurnt ?? 0n) + storageCost;
  const id: GlobalContractIdentifier =
    deployMode === 'CodeHash'
      ? { kind: 'CodeHash', codeHash: sha256(code) }
      : { kind: 'AccountId', accountId };
  const shardId = ctx.block.shardId ?? 0;
  // The deploying shard's nonce goes up now, so an older distribution still in flight cannot win.
  const nonce = getGlobalContractNonce(ctx.state, shardId, id) + 1n;
  setGlobalContractNonce(ctx.state, shardId, id, nonce);
  ctx.result.newReceipts.push({
    predecessorId: accountId,
    receiverId: accountId,
    receiptId: new Uint8Array(32),
    priority: 0n,
    version: 0,
    receipt: {
      kind: 'GlobalContractDistribution',
      version: 2,
      id,
      targetShard: BigInt(shardId),
      alreadyDeliveredShards: [],
      code,
      nonce,
    },
  });
}

export function useGlobalContract(ctx: ActionContext, id: GlobalContractIdentifier): void {
  const account = ctx.account.current!;
  const accountId = ctx.receipt.receiverId;
  if (!hasGlobalContractCode(ctx.state, ctx.block.shardId ?? 0, id)) {
    throw new ActionFailure({
      GlobalContractDoesNotExist: { identifier: globalContractIdentifierToView(id) },
    });
  }
  clearContractStorageUsage(ctx.state, accountId, account);
  ctx.state.remove(contractCodeKey(accountId));
  account.storageUsage += BigInt(globalContractIdentifierLength(id));
  account.codeHash = new Uint8Array(32);
  account.globalContract = id;
}

/** Takes the current contract's bytes off the account's storage usage (nearcore
 * `clear_account_contract_storage_usage`): the local code's length, or the global identifier's. */
export function clearContractStorageUsage(state: StateUpdate, accountId: string, account: Account): void {
  let bytes = 0n;
  if (account.globalContract) bytes = BigInt(globalContractIdentifierLength(account.globalContract));
  else if (account.codeHash.some((b) => b !== 0))
    bytes = BigInt(state.get(contractCodeKey(accountId))?.length ?? 0);
  account.storageUsage -= bytes;
}
