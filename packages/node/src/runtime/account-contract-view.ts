/**
 * The contract an account has, as outcome metadata V4 shows it per action (nearcore `AccountContract`):
 * none (no account, or no code), a local contract by code hash, or a global contract by hash or by the
 * account that deployed it.
 */
import { base58Encode } from '@shadebox/primitives';
import type { AccountContractView } from './action-result.js';

const ZERO = new Uint8Array(32);

export function accountContractView(
  account:
    | {
        codeHash: Uint8Array;
        globalContractHash?: Uint8Array;
        globalContractAccountId?: string;
      }
    | undefined,
): AccountContractView {
  if (account === undefined) return null;
  if (account.globalContractAccountId !== undefined)
    return { global_account_id: account.globalContractAccountId };
  if (account.globalContractHash !== undefined)
    return { global_hash: base58Encode(account.globalContractHash) };
  if (Buffer.compare(account.codeHash, ZERO) === 0) return null;
  return { local: base58Encode(account.codeHash) };
}
