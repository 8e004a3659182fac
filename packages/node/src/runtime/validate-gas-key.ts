/**
 * The gas-key rules of AddKey (nearcore runtime/runtime/src/action_validation.rs `validate_add_key_action`),
 * after the function-call permission's own checks: a GasKeyFunctionCall key has no allowance (its balance is
 * the budget), a gas key has 1..=1024 nonces and is added with a zero balance (TransferToGasKey funds it).
 */
import { type AccessKeyPermission, MAX_NONCES_FOR_GAS_KEY } from '@shadebox/primitives';
import { ActionsValidationError } from './validate-actions.js';

export function validateGasKeyPermission(p: AccessKeyPermission): void {
  if (p.kind !== 'GasKeyFunctionCall' && p.kind !== 'GasKeyFullAccess') return;
  if (p.kind === 'GasKeyFunctionCall' && p.allowance !== null) {
    throw new ActionsValidationError('GasKeyFunctionCallAllowanceNotAllowed');
  }
  const n = p.gasKeyInfo.numNonces;
  if (n === 0 || n > MAX_NONCES_FOR_GAS_KEY) {
    throw new ActionsValidationError({
      GasKeyInvalidNumNonces: { requested_nonces: n, limit: MAX_NONCES_FOR_GAS_KEY },
    });
  }
  if (p.gasKeyInfo.balance !== 0n) {
    throw new ActionsValidationError({
      AddGasKeyWithNonZeroBalance: { balance: p.gasKeyInfo.balance.toString() },
    });
  }
}
