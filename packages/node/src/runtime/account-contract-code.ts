/**
 * The code an account runs (nearcore `AccountContract` code/hash access): its own deployed code, or the
 * global contract it uses as stored on its shard. For a global contract used by account id the code hash is
 * the hash of the code stored now, so users follow the deployer's updates.
 */
import { sha256 } from '@shadebox/primitives';
import type { Account } from '../state/account.js';
import { getGlobalContractCode } from '../state/global-contract-state.js';
import { contractCodeKey } from '../state/state-keys.js';
import type { StateUpdate } from '../state/state-update.js';

export interface AccountCode {
  codeHash: Uint8Array;
  code: () => Uint8Array | undefined;
}

/** The account's code, or undefined when it has none (or its global contract has not reached the shard). */
export function accountContractCode(
  state: StateUpdate,
  shardId: number,
  accountId: string,
  account: Account,
): AccountCode | undefined {
  const id = account.globalContract;
  if (id) {
    const code = getGlobalContractCode(state, shardId, id);
    if (!code) return undefined;
    return { codeHash: id.kind === 'CodeHash' ? id.codeHash : sha256(code), code: () => code };
  }
  if (account.codeHash.every((b) => b === 0)) return undefined;
  return { codeHash: account.codeHash, code: () => state.get(contractCodeKey(accountId)) };
}
