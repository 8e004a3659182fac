/**
 * The send/exec gas of the global-contract actions (nearcore runtime/runtime/src/config.rs `fee`):
 * DeployGlobalContract = `deploy_global_contract_base` + `deploy_global_contract_byte` × code length;
 * UseGlobalContract = `use_global_contract_base` + `use_global_contract_byte` × identifier length (32 for a
 * code hash, the account id's length otherwise).
 */
import { type Action, globalContractIdentifierLength } from '@shadebox/primitives';
import type { Fee, FeeTable } from './fees.js';

type GlobalContractAction = Extract<Action, { type: 'DeployGlobalContract' | 'UseGlobalContract' }>;

export function globalContractActionFee(
  fees: FeeTable,
  action: GlobalContractAction,
  pick: (f: Fee) => bigint,
): bigint {
  if (action.type === 'DeployGlobalContract') {
    return (
      pick(fees.deploy_global_contract_base) +
      pick(fees.deploy_global_contract_byte) * BigInt(action.code.length)
    );
  }
  return (
    pick(fees.use_global_contract_base) +
    pick(fees.use_global_contract_byte) * BigInt(globalContractIdentifierLength(action.contractIdentifier))
  );
}
