/**
 * DeployContract: stores the code under the account, sets its code hash and charges the code's bytes as
 * storage (replacing the previous code's). The code is prepared now, once per code hash: calls find it
 * compiled, and a contract that fails preparation still deploys (its calls fail with the PrepareError).
 */
import { sha256 } from '@shadebox/primitives';
import { contractCodeKey } from '../../state/state-keys.js';
import type { ActionContext } from './action-context.js';
import { clearContractStorageUsage } from './global-contract-actions.js';

export function deployContract(ctx: ActionContext, code: Uint8Array): void {
  const account = ctx.account.current!;
  const key = contractCodeKey(ctx.receipt.receiverId);
  clearContractStorageUsage(ctx.state, ctx.receipt.receiverId, account);
  account.storageUsage += BigInt(code.length);
  account.codeHash = sha256(code);
  delete account.globalContract;
  ctx.state.set(key, code);
  ctx.params.vm.cache.get(account.codeHash, () => code);
}
