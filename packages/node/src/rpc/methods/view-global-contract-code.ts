/**
 * `query` `view_global_contract_code` (by `code_hash`) and `view_global_contract_code_by_account_id`: the
 * code of a global contract as stored on a shard, answered like `view_code` (`code_base64`, `hash`). The
 * code-hash form reads shard 0's copy, the account-id form the deployer's shard. A contract that has not
 * reached that shard (or was never deployed) is `NO_GLOBAL_CONTRACT_CODE`, with nearcore's message, which
 * prints the identifier in Rust's Debug form.
 */
import {
  base58Encode,
  base64Encode,
  type GlobalContractIdentifier,
  globalContractIdentifierToView,
  sha256,
} from '@shadebox/primitives';
import type { Chain } from '../../chain/chain.js';
import { getGlobalContractCode } from '../../state/global-contract-state.js';
import { handlerError } from '../rpc-error.js';

export function viewGlobalContractCode(
  chain: Chain,
  id: GlobalContractIdentifier,
  at: { block_height: number; block_hash: string },
) {
  const shard = id.kind === 'AccountId' ? chain.shardOf(id.accountId) : 0;
  const code = getGlobalContractCode(chain.stateAt(at.block_height), shard, id);
  if (!code) {
    const debug =
      id.kind === 'CodeHash'
        ? `CodeHash(${base58Encode(id.codeHash)})`
        : `AccountId(${JSON.stringify(id.accountId)})`;
    throw handlerError(
      'NO_GLOBAL_CONTRACT_CODE',
      { identifier: globalContractIdentifierToView(id), ...at },
      `Global contract code with identifier ${debug} has never been observed on the node`,
    );
  }
  return { code_base64: base64Encode(code), hash: base58Encode(sha256(code)), ...at };
}
