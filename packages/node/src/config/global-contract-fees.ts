/**
 * The send/exec gas of the global-contract actions (nearcore runtime/runtime/src/config.rs `fee`):
 * DeployGlobalContract = `deploy_global_contract_base` + `deploy_global_contract_byte` × code length;
 * UseGlobalContract = `use_global_contract_base` + `use_global_contract_byte` × identifier length (32 for a
 * code hash, the account id's length otherwise).
 */
import { type Action, globalContractIdentifierLength } from '@shadebox/primitives';
import type { Fee, FeeTable } from './fees.js';

type GlobalContractAction = Extract<Action, { type: 'DeployGlobalContract' | 'UseGlobalContract' }>;

function feeNamed(fees: FeeTable, name: string): Fee {
  const fee = (fees as unknown as Record<string, Fee | undefined>)[name];
  // The fee table gains these rows with the per-version parameters; until then the action cannot be priced.
  if (!fee) throw new Error(`the fee table has no ${name}`);
  return fee;
}

export function globalContractActionFee(
  fees: FeeTable,
  action: GlobalContractAction,
  pick: (f: Fee) => bigint,
): bigint {
  if (action.type === 'DeployGlobalContract') {
    return (
      pick(feeNamed(fees, 'deploy_global_contract_base')) +
      pick(feeNamed(fees, 'deploy_global_contract_byte')) * BigInt(action.code.length)
    );
  }
  return (
    pick(feeNamed(fees, 'use_global_contract_base')) +
    pick(feeNamed(fees, 'use_global_contract_byte')) *
      BigInt(globalContractIdentifierLength(action.contractIdentifier))
  );
}
