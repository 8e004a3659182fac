/**
 * Fees: the one `Fee` type, the fee table by nearcore's `ActionCosts` names, and the gas an action costs to
 * send and to execute (nearcore's `core/parameters` cost types and runtime/runtime/src/config.rs
 * `total_send_fees`, `exec_fee`, `tx_cost`). The VM (promises it creates) and the runtime (transactions,
 * receipts) both charge through these functions. Gas and amounts are bigint.
 */
import {
  type AccessKeyPermission,
  type Action,
  isEthImplicitAccount,
  isNearDeterministicAccount,
  isNearImplicitAccount,
  isUniversalAccount,
  type PublicKey,
  publicKeyTrieIdLength,
} from '@shadebox/primitives';
import {
  gasKeyPermissionExecFee,
  gasKeyPermissionSendFee,
  gasKeyTransferExecFee,
  gasKeyTransferSendFee,
  trieIdLen,
} from './gas-key-fees.js';
import { globalContractActionFee } from './global-contract-fees.js';
import { protocolFeatureEnabled } from './protocol-version.js';
import type { RuntimeConfig } from './runtime-config.js';
import { stateInitActionFee } from './state-init-fees.js';
import { universalStateInitActionFee } from './universal-state-init-fees.js';

/** A fee: gas burnt when the action/receipt is sent (to self or to another account) and when it executes. */
export interface Fee {
  /** Gas burnt at sending when the sender is the receiver ("sir"). */
  readonly sendSir: bigint;
  /** Gas burnt at sending when the sender is not the receiver. */
  readonly sendNotSir: bigint;
  /** Gas burnt when the receipt/action executes on the receiver. */
  readonly execution: bigint;
}

/** nearcore's `ActionCosts` names of the fees the runtime charges. */
export const ACTION_COSTS = [
  'new_action_receipt',
  'new_data_receipt_base',
  'new_data_receipt_byte',
  'create_account',
  'deploy_contract_base',
  'deploy_contract_byte',
  'function_call_base',
  'function_call_byte',
  'transfer',
  'stake',
  'add_full_access_key',
  'add_function_call_key_base',
  'add_function_call_key_byte',
  'delete_key',
  'delete_account',
  'delegate',
  // The fees of protocol-85 actions that nearcore's `RuntimeConfigView` does not show (the view has no field
  // for them): global contracts (NEP-591), deterministic state init (NEP-616) and gas keys (NEP-611). Their
  // values come from view-omitted-parameters.ts.
  'deploy_global_contract_base',
  'deploy_global_contract_byte',
  'use_global_contract_base',
  'use_global_contract_byte',
  'deterministic_state_init_base',
  'deterministic_state_init_byte',
  'deterministic_state_init_entry',
  'gas_key_transfer_base',
  'gas_key_byte',
  'gas_key_nonce_write_base',
] as const;
export type ActionCost = (typeof ACTION_COSTS)[number];

/** Send/execution gas of every action and receipt, by nearcore's `ActionCosts` name. */
export type FeeTable = Readonly<Record<ActionCost, Fee>>;

/** What fees that depend on the receiver or on the gas price need besides the table. */
export interface FeeContext {
  fees: FeeTable;
  /** `min_gas_purchase_price`: gas attached to a receipt is bought at no less than this price. */
  minGasPurchasePrice: bigint;
  ethImplicitAccounts: boolean;
  /** NEP-655 (protocol 87): a transfer to a missing `0u…` id creates it, and pays `create_account` for it. */
  universalAccounts?: boolean;
  /** `fix_ml_dsa_cost_charging` (87): gas-key execution fees priced on the key's stored length (`trie_id_len`,
   * 33 bytes for an ML-DSA-65 key) instead of its wire length (1 + 1,952); send fees keep the wire length. */
  fixMlDsaCostCharging?: boolean;
}

export function feeContextFrom(config: RuntimeConfig): FeeContext {
  return {
    fees: config.fees,
    minGasPurchasePrice: config.minGasPurchasePrice,
    ethImplicitAccounts: config.wasm.ethImplicitAccounts,
    universalAccounts: protocolFeatureEnabled('UniversalAccounts', config.protocolVersion),
    fixMlDsaCostCharging: config.fixMlDsaCostCharging,
  };
}

/** The key length a gas-key execution fee is priced on (`FixMlDsaCostCharging`; the same for ed25519 and
 * secp256k1 keys, whose stored and wire lengths agree). */
function gasKeyExecKeyLen(ctx: FeeContext, publicKey: PublicKey): bigint {
  return ctx.fixMlDsaCostCharging ? BigInt(publicKeyTrieIdLength(publicKey)) : trieIdLen(publicKey);
}

/** The send fee of `fee`: `send_sir` when the sender is the receiver, else `send_not_sir`. */
export function sendFee(fee: Fee, senderIsReceiver: boolean): bigint {
  return senderIsReceiver ? fee.sendSir : fee.sendNotSir;
}

/** Bytes of the method names of a function-call key, each counted with a terminating NUL as nearcore does. */
function methodNamesBytes(permission: AccessKeyPermission): bigint {
  if (permission.kind !== 'FunctionCall' && permission.kind !== 'GasKeyFunctionCall') return 0n;
  let n = 0;
  for (const name of permission.methodNames) n += Buffer.byteLength(name) + 1;
  return BigInt(n);
}

/** A transfer to an implicit account also creates it: NEAR-implicit gets an account and a full-access key;
 * ETH-implicit an account (its wallet contract costs nothing extra); deterministic (`0s…`) an account. */
function transferFee(
  fees: FeeTable,
  receiverId: string,
  ethImplicit: boolean,
  pick: (f: Fee) => bigint,
  universal = false,
): bigint {
  let gas = pick(fees.transfer);
  // nearcore `transfer_send_fee`/`transfer_exec_fee`: a `0u…` receiver adds `create_account` once the feature
  // is on, as a deterministic one does; before it, a `0u…` id is a named account.
  if (universal && isUniversalAccount(receiverId)) return gas + pick(fees.create_account);
  if (isNearImplicitAccount(receiverId) || (isEthImplicitAccount(receiverId) && !ethImplicit)) {
    gas += pick(fees.create_account) + pick(fees.add_full_access_key);
  } else if (isEthImplicitAccount(receiverId) || isNearDeterministicAccount(receiverId)) {
    gas += pick(fees.create_account);
  }
  return gas;
}

function actionFee(ctx: FeeContext, action: Action, receiverId: string, pick: (f: Fee) => bigint): bigint {
  const f = ctx.fees;
  switch (action.type) {
    case 'CreateAccount':
      return pick(f.create_account);
    case 'DeployContract':
      return pick(f.deploy_contract_base) + pick(f.deploy_contract_byte) * BigInt(action.code.length);
    case 'FunctionCall':
      return (
        pick(f.function_call_base) +
        pick(f.function_call_byte) * BigInt(Buffer.byteLength(action.methodName) + action.args.length)
      );
    case 'Transfer':
      return transferFee(f, receiverId, ctx.ethImplicitAccounts, pick, ctx.universalAccounts);
    case 'Stake':
      return pick(f.stake);
    case 'AddKey':
      return action.accessKey.permission.kind === 'FullAccess' ||
        action.accessKey.permission.kind === 'GasKeyFullAccess'
        ? pick(f.add_full_access_key)
        : pick(f.add_function_call_key_base) +
            pick(f.add_function_call_key_byte) * methodNamesBytes(action.accessKey.permission);
    case 'DeleteKey':
      return pick(f.delete_key);
    case 'DeleteAccount':
      return pick(f.delete_account);
    case 'Delegate':
    case 'DelegateV2':
      return pick(f.delegate);
    case 'TransferToGasKey':
    case 'WithdrawFromGasKey':
      // Their send and execution fees have different shapes: gasKeySendFee / gasKeyExecFee below.
      return 0n;
    case 'DeployGlobalContract':
    case 'UseGlobalContract':
      return globalContractActionFee(f, action, pick);
    case 'DeterministicStateInit':
      return stateInitActionFee(f, action, pick);
    case 'UniversalStateInit':
      return universalStateInitActionFee(f, action, pick);
  }
}

/** The gas-key part of an action's send fee (gas-key-fees.ts). */
function gasKeySendFee(ctx: FeeContext, action: Action, sir: boolean): bigint {
  if (action.type === 'TransferToGasKey' || action.type === 'WithdrawFromGasKey') {
    const fee = gasKeyTransferSendFee(ctx.fees, sir, trieIdLen(action.publicKey));
    return fee.base + fee.perByte;
  }
  if (action.type === 'AddKey') return gasKeyPermissionSendFee(ctx.fees, action.accessKey.permission, sir);
  return 0n;
}

/** The gas-key part of an action's execution fee on `receiverId`. */
function gasKeyExecFee(ctx: FeeContext, action: Action, receiverId: string): bigint {
  if (action.type === 'TransferToGasKey' || action.type === 'WithdrawFromGasKey') {
    const fee = gasKeyTransferExecFee(
      ctx.fees,
      BigInt(Buffer.byteLength(receiverId)),
      gasKeyExecKeyLen(ctx, action.publicKey),
    );
    return fee.base + fee.perByte;
  }
  if (action.type === 'AddKey') {
    return gasKeyPermissionExecFee(
      ctx.fees,
      action.accessKey.permission,
      receiverId,
      gasKeyExecKeyLen(ctx, action.publicKey),
    );
  }
  return 0n;
}

/** Gas burnt to send `actions` (the Delegate action also pays the send fees of its inner actions). */
export function totalSendFees(ctx: FeeContext, sir: boolean, actions: Action[], receiverId: string): bigint {
  let gas = 0n;
  for (const action of actions) {
    gas += actionFee(ctx, action, receiverId, (fee) => sendFee(fee, sir)) + gasKeySendFee(ctx, action, sir);
    if (action.type === 'Delegate' || action.type === 'DelegateV2') {
      const inner = action.signedDelegateAction.delegateAction;
      gas += totalSendFees(ctx, sir, inner.actions, inner.receiverId);
    }
  }
  return gas;
}

export function execFee(ctx: FeeContext, action: Action, receiverId: string): bigint {
  return actionFee(ctx, action, receiverId, (fee) => fee.execution) + gasKeyExecFee(ctx, action, receiverId);
}

/** Send fees of the inner actions of Delegate actions, prepaid because they are sent later by the receiver. */
export function totalPrepaidSendFees(ctx: FeeContext, actions: Action[]): bigint {
  let gas = 0n;
  for (const action of actions) {
    if (action.type !== 'Delegate' && action.type !== 'DelegateV2') continue;
    const inner = action.signedDelegateAction.delegateAction;
    gas += totalSendFees(ctx, inner.senderId === inner.receiverId, inner.actions, inner.receiverId);
  }
  return gas;
}

/** Execution fees that must be prepaid to run `actions` on `receiverId` (Delegate: its inner receipt too). */
export function totalPrepaidExecFees(ctx: FeeContext, actions: Action[], receiverId: string): bigint {
  let gas = 0n;
  for (const action of actions) {
    if (action.type === 'Delegate' || action.type === 'DelegateV2') {
      const inner = action.signedDelegateAction.delegateAction;
      gas += totalPrepaidExecFees(ctx, inner.actions, inner.receiverId);
      gas += execFee(ctx, action, inner.receiverId);
      gas += ctx.fees.new_action_receipt.execution;
    } else {
      gas += execFee(ctx, action, receiverId);
    }
  }
  return gas;
}

export function totalDeposit(actions: Action[]): bigint {
  let amount = 0n;
  for (const action of actions) {
    if (action.type === 'Transfer' || action.type === 'FunctionCall' || action.type === 'TransferToGasKey')
      amount += action.deposit;
    else if (action.type === 'DeterministicStateInit' || action.type === 'UniversalStateInit')
      amount += action.deposit;
    else if (action.type === 'Delegate' || action.type === 'DelegateV2')
      amount += totalDeposit(action.signedDelegateAction.delegateAction.actions);
  }
  return amount;
}

export function totalPrepaidGas(actions: Action[]): bigint {
  let gas = 0n;
  for (const action of actions) {
    if (action.type === 'FunctionCall') gas += action.gas;
    else if (action.type === 'Delegate' || action.type === 'DelegateV2')
      gas += totalPrepaidGas(action.signedDelegateAction.delegateAction.actions);
  }
  return gas;
}

export interface TransactionCost {
  /** Gas burnt converting the transaction into a receipt. */
  gasBurnt: bigint;
  /** Gas bought for the receipt: its execution fees and the gas attached to function calls. */
  gasRemaining: bigint;
  /** The price the remaining gas is bought at: max(current price, min_gas_purchase_price). */
  receiptGasPrice: bigint;
  burntAmount: bigint;
  /** The gas in tokens: burntAmount plus the remaining gas at receiptGasPrice (what a gas key pays). */
  gasCost: bigint;
  /** The deposits of the actions (what the account pays when a gas key pays the gas). */
  depositCost: bigint;
  totalCost: bigint;
}

export function transactionCost(
  ctx: FeeContext,
  tx: { signerId: string; receiverId: string; actions: Action[] },
  gasPrice: bigint,
): TransactionCost {
  const sir = tx.signerId === tx.receiverId;
  const gasBurnt =
    sendFee(ctx.fees.new_action_receipt, sir) + totalSendFees(ctx, sir, tx.actions, tx.receiverId);
  const gasRemaining =
    totalPrepaidGas(tx.actions) +
    totalPrepaidSendFees(ctx, tx.actions) +
    ctx.fees.new_action_receipt.execution +
    totalPrepaidExecFees(ctx, tx.actions, tx.receiverId);
  const receiptGasPrice = gasPrice > ctx.minGasPurchasePrice ? gasPrice : ctx.minGasPurchasePrice;
  const burntAmount = gasBurnt * gasPrice;
  const gasCost = burntAmount + gasRemaining * receiptGasPrice;
  const depositCost = totalDeposit(tx.actions);
  const totalCost = gasCost + depositCost;
  return { gasBurnt, gasRemaining, receiptGasPrice, burntAmount, gasCost, depositCost, totalCost };
}
