/**
 * The contract an account has (nearcore `Account::contract`): none, its own code by hash, or a global
 * contract by hash or by the account that deployed it. `current_contract_code` reports it to a contract.
 */
import type { AccountContract, GlobalContractIdentifier } from '@shadebox/primitives';

export function accountContractOf(account: {
  codeHash: Uint8Array;
  globalContract?: GlobalContractIdentifier;
}): AccountContract {
  const global = account.globalContract;
  if (global?.kind === 'CodeHash') return { kind: 'Global', codeHash: global.codeHash };
  if (global?.kind === 'AccountId') return { kind: 'GlobalByAccount', accountId: global.accountId };
  // An all-zero code hash is how an account without code is stored.
  if (account.codeHash.every((b) => b === 0)) return { kind: 'None' };
  return { kind: 'Local', codeHash: account.codeHash };
}
