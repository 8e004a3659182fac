/**
 * Stateless checks of a transaction's actions (runtime/runtime/src/verifier.rs `validate_actions`), each failure
 * an `ActionsValidationError` variant.
 */
import { ShadeboxError } from '@shadebox/errors';
import {
  type Action,
  isValidAccountId,
  publicKeyToString,
  universalStateInitCounts,
} from '@shadebox/primitives';
import { type ProtocolFeature, protocolFeatureEnabled } from '../config/protocol-version.js';
import { jsonText, u64Json } from './errors.js';
import type { RuntimeLimits } from './runtime-context.js';
import { validateGasKeyPermission } from './validate-gas-key.js';
import { stateInitValidationError } from './validate-state-init.js';
import { universalStateInitValidationError } from './validate-universal-state-init.js';

const U64_MAX = 2n ** 64n - 1n;

export class ActionsValidationError extends ShadeboxError<{ error: unknown }> {
  constructor(readonly json: unknown) {
    super(`actions validation failed: ${jsonText(json)}`, { details: { error: json } });
  }
}

/** nearcore's `total_prepaid_gas`: function-call gas, a delegate action counting its inner actions. */
function totalPrepaidGas(actions: Action[]): bigint {
  let total = 0n;
  for (const action of actions) {
    if (action.type === 'FunctionCall') total += action.gas;
    else if (action.type === 'Delegate' || action.type === 'DelegateV2')
      total += totalPrepaidGas(action.signedDelegateAction.delegateAction.actions);
  }
  return total;
}

/** nearcore's `truncate_string(s, AccountId::MAX_LEN * 2)`: at most 128 bytes, cut on a character boundary. */
function truncateAccountId(text: string): string {
  const limit = 128;
  if (Buffer.byteLength(text) <= limit) return text;
  let out = '';
  for (const ch of text) {
    if (Buffer.byteLength(out + ch) > limit) break;
    out += ch;
  }
  return out;
}

function fail(json: unknown): never {
  throw new ActionsValidationError(json);
}

/** Whether a protocol-87 rule applies: the limits name the chain's version (none: the rules before 87). */
function enabled(feature: ProtocolFeature, limits: RuntimeLimits): boolean {
  return limits.protocolVersion !== undefined && protocolFeatureEnabled(feature, limits.protocolVersion);
}

/** nearcore's `Action::num_state_init_entries`: the storage entries of the state inits, delegates' included. */
function stateInitEntries(actions: Action[]): number {
  let total = 0;
  for (const action of actions) {
    if (action.type === 'DeterministicStateInit') total += action.stateInit.data.length;
    else if (action.type === 'UniversalStateInit')
      total += universalStateInitCounts(action.stateInit).numEntries;
    else if (action.type === 'Delegate' || action.type === 'DelegateV2')
      total += stateInitEntries(action.signedDelegateAction.delegateAction.actions);
  }
  return total;
}

/** `receiverId`: the receiver of the actions (a DeterministicStateInit must be sent to its derived id). */
export function validateActions(limits: RuntimeLimits, actions: Action[], receiverId?: string): void {
  if (actions.length > limits.maxActionsPerReceipt) {
    fail({
      TotalNumberOfActionsExceeded: {
        total_number_of_actions: actions.length,
        limit: limits.maxActionsPerReceipt,
      },
    });
  }
  // nearcore's `validate_number_of_deploy_actions` (action_validation.rs, #15650): for new receipts and
  // transactions only, which are all this function sees; the limit is the parameter (100 before 84, then 10).
  const deploys = actions.filter(
    (a) => a.type === 'DeployContract' || a.type === 'DeployGlobalContract',
  ).length;
  if (deploys > limits.maxDeployActionsPerReceipt) {
    fail({
      TotalNumberOfDeployActionsExceeded: {
        number_of_deploy_actions: deploys,
        limit: limits.maxDeployActionsPerReceipt,
      },
    });
  }
  // nearcore's `validate_number_of_state_init_entries` (#16408; `max_state_init_entries` 1_500 from 87,
  // unlimited before): new receipts and transactions only, as the deploy count.
  if (limits.maxStateInitEntries !== undefined) {
    const entries = stateInitEntries(actions);
    if (entries > limits.maxStateInitEntries) {
      fail({
        TotalNumberOfStateInitEntriesExceeded: {
          number_of_state_init_entries: entries,
          limit: limits.maxStateInitEntries,
        },
      });
    }
  }
  let delegates = 0;
  actions.forEach((action, i) => {
    if (action.type === 'DeleteAccount' && i !== actions.length - 1) fail('DeleteActionMustBeFinal');
    if ((action.type === 'Delegate' || action.type === 'DelegateV2') && ++delegates > 1)
      fail('DelegateActionMustBeOnlyOne');
    validateAction(limits, action, receiverId);
  });
  const totalGas = totalPrepaidGas(actions);
  if (totalGas > U64_MAX) fail('IntegerOverflow');
  if (totalGas > limits.maxTotalPrepaidGas) {
    fail({
      TotalPrepaidGasExceeded: {
        total_prepaid_gas: u64Json(totalGas),
        limit: u64Json(limits.maxTotalPrepaidGas),
      },
    });
  }
}

function validateAction(limits: RuntimeLimits, action: Action, receiverId?: string): void {
  switch (action.type) {
    case 'DeployContract':
    case 'DeployGlobalContract':
      if (action.code.length > limits.maxContractSize) {
        fail({ ContractSizeExceeded: { size: action.code.length, limit: limits.maxContractSize } });
      }
      return;
    case 'FunctionCall': {
      if (action.gas === 0n) fail('FunctionCallZeroAttachedGas');
      // RejectEmptyMethodName (87): before, an empty name reached the VM and failed there (MethodEmptyName).
      if (action.methodName === '' && enabled('RejectEmptyMethodName', limits))
        fail('FunctionCallEmptyMethodName');
      const nameLength = Buffer.byteLength(action.methodName);
      if (nameLength > limits.maxLengthMethodName) {
        fail({
          FunctionCallMethodNameLengthExceeded: { length: nameLength, limit: limits.maxLengthMethodName },
        });
      }
      if (action.args.length > limits.maxArgumentsLength) {
        fail({
          FunctionCallArgumentsLengthExceeded: {
            length: action.args.length,
            limit: limits.maxArgumentsLength,
          },
        });
      }
      return;
    }
    case 'Stake':
      if (action.publicKey.keyType !== 0) {
        fail({ UnsuitableStakingKey: { public_key: publicKeyToString(action.publicKey) } });
      }
      return;
    case 'AddKey': {
      const p = action.accessKey.permission;
      if (p.kind !== 'FunctionCall' && p.kind !== 'GasKeyFunctionCall') {
        validateGasKeyPermission(p);
        return;
      }
      if (!isValidAccountId(p.receiverId))
        fail({ InvalidAccountId: { account_id: truncateAccountId(p.receiverId) } });
      let total = 0;
      for (const name of p.methodNames) {
        const length = Buffer.byteLength(name);
        if (length > limits.maxLengthMethodName) {
          fail({ AddKeyMethodNameLengthExceeded: { length, limit: limits.maxLengthMethodName } });
        }
        // nearcore counts a terminating byte per name.
        total += length + 1;
      }
      if (total > limits.maxNumberBytesMethodNames) {
        fail({
          AddKeyMethodNamesNumberOfBytesExceeded: {
            total_number_of_bytes: total,
            limit: limits.maxNumberBytesMethodNames,
          },
        });
      }
      validateGasKeyPermission(p);
      return;
    }
    case 'DeleteAccount':
      if (!isValidAccountId(action.beneficiaryId))
        fail({ InvalidAccountId: { account_id: action.beneficiaryId } });
      return;
    case 'Delegate':
    case 'DelegateV2': {
      // RejectDelegateV2 (87): meta transactions signed with a gas key are refused in new receipts (those
      // already in flight still execute; this node validates new ones only).
      if (action.type === 'DelegateV2' && enabled('RejectDelegateV2', limits)) {
        fail({
          RemovedProtocolFeature: { protocol_feature: 'DelegateV2', version: limits.protocolVersion },
        });
      }
      const inner = action.signedDelegateAction.delegateAction.actions;
      // RejectWithdrawFromGasKeyInDelegate (87), after nearcore's count of the inner actions (which the
      // inner validation below makes first when it fails).
      if (
        inner.length <= limits.maxActionsPerReceipt &&
        enabled('RejectWithdrawFromGasKeyInDelegate', limits) &&
        inner.some((a) => a.type === 'WithdrawFromGasKey')
      ) {
        fail('WithdrawFromGasKeyNotAllowedInDelegate');
      }
      // The inner actions cannot contain another Delegate: decoding already rejects that. They are checked
      // against the delegate action's receiver (FixDelegatedDeterministicStateInit, protocol 85).
      validateActions(limits, inner, action.signedDelegateAction.delegateAction.receiverId);
      return;
    }
    case 'DeterministicStateInit': {
      const error = stateInitValidationError(limits, action, receiverId);
      if (error) fail(error);
      return;
    }
    case 'UniversalStateInit': {
      const error = universalStateInitValidationError(limits, action, receiverId);
      if (error) fail(error);
      return;
    }
    default:
      return;
  }
}
