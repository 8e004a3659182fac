/**
 * Gas fees of actions and the cost of a transaction, from the pinned parameters (runtime/runtime/src/config.rs:
 * `total_send_fees`, `exec_fee`, `calculate_tx_cost`). Gas and amounts are bigint.
 */
import {
  type AccessKeyPermission,
  type Action,
  isEthImplicitAccount,
  isNearImplicitAccount,
} from '@shadebox/primitives';

export interface Fee {
  sendSir: bigint;
  sendNotSir: bigint;
  execution: bigint;
}

/** The fee table of `transaction_costs`, one entry per cost nearcore names. */
export interface FeeTable {
  actionReceiptCreation: Fee;
  dataReceiptCreationBase: Fee;
  dataReceiptCreationPerByte: Fee;
  createAccount: Fee;
  deployContract: Fee;
  deployContractPerByte: Fee;
  functionCall: Fee;
  functionCallPerByte: Fee;
  transfer: Fee;
  stake: Fee;
  addKeyFullAccess: Fee;
  addKeyFunctionCall: Fee;
  addKeyFunctionCallPerByte: Fee;
  deleteKey: Fee;
  deleteAccount: Fee;
  delegate: Fee;
}

export interface FeeContext {
  fees: FeeTable;
  /** `min_gas_purchase_price`: gas attached to a receipt is bought at no less than this price. */
  minGasPurchasePrice: bigint;
  ethImplicitAccounts: boolean;
}

export const sendFee = (fee: Fee, sir: boolean) => (sir ? fee.sendSir : fee.sendNotSir);

/** Bytes of the method names of a function-call key, each counted with a terminating NUL as nearcore does. */
function methodNamesBytes(permission: AccessKeyPermission): bigint {
  if (permission.kind !== 'FunctionCall') return 0n;
  let n = 0;
  for (const name of permission.methodNames) n += Buffer.byteLength(name) + 1;
  return BigInt(n);
}

/** A transfer to an implicit account also creates it: NEAR-implicit gets an account and a full-access key;
 * ETH-implicit an account (its wallet contract costs nothing extra). */
function transferFee(
  fees: FeeTable,
  receiverId: string,
  ethImplicit: boolean,
  pick: (f: Fee) => bigint,
): bigint {
  let gas = pick(fees.transfer);
  if (isNearImplicitAccount(receiverId) || (isEthImplicitAccount(receiverId) && !ethImplicit)) {
    gas += pick(fees.createAccount) + pick(fees.addKeyFullAccess);
  } else if (isEthImplicitAccount(receiverId)) {
    gas += pick(fees.createAccount);
  }
  return gas;
}

function actionFee(ctx: FeeContext, action: Action, receiverId: string, pick: (f: Fee) => bigint): bigint {
  const f = ctx.fees;
  switch (action.type) {
    case 'CreateAccount':
      return pick(f.createAccount);
    case 'DeployContract':
      return pick(f.deployContract) + pick(f.deployContractPerByte) * BigInt(action.code.length);
    case 'FunctionCall':
      return (
        pick(f.functionCall) +
        pick(f.functionCallPerByte) * BigInt(Buffer.byteLength(action.methodName) + action.args.length)
      );
    case 'Transfer':
      return transferFee(f, receiverId, ctx.ethImplicitAccounts, pick);
    case 'Stake':
      return pick(f.stake);
    case 'AddKey':
      return action.accessKey.permission.kind === 'FullAccess'
        ? pick(f.addKeyFullAccess)
        : pick(f.addKeyFunctionCall) +
            pick(f.addKeyFunctionCallPerByte) * methodNamesBytes(action.accessKey.permission);
    case 'DeleteKey':
      return pick(f.deleteKey);
    case 'DeleteAccount':
      return pick(f.deleteAccount);
    case 'Delegate':
      return pick(f.delegate);
  }
}

/** Gas burnt to send `actions` (the Delegate action also pays the send fees of its inner actions). */
export function totalSendFees(ctx: FeeContext, sir: boolean, actions: Action[], receiverId: string): bigint {
  let gas = 0n;
  for (const action of actions) {
    gas += actionFee(ctx, action, receiverId, (fee) => sendFee(fee, sir));
    if (action.type === 'Delegate') {
      const inner = action.signedDelegateAction.delegateAction;
      gas += totalSendFees(ctx, sir, inner.actions, inner.receiverId);
    }
  }
  return gas;
}

export function execFee(ctx: FeeContext, action: Action, receiverId: string): bigint {
  return actionFee(ctx, action, receiverId, (fee) => fee.execution);
}

/** Send fees of the inner actions of Delegate actions, prepaid because they are sent later by the receiver. */
export function totalPrepaidSendFees(ctx: FeeContext, actions: Action[]): bigint {
  let gas = 0n;
  for (const action of actions) {
    if (action.type !== 'Delegate') continue;
    const inner = action.signedDelegateAction.delegateAction;
    gas += totalSendFees(ctx, inner.senderId === inner.receiverId, inner.actions, inner.receiverId);
  }
  return gas;
}

/** Execution fees that must be prepaid to run `actions` on `receiverId` (Delegate: its inner receipt too). */
export function totalPrepaidExecFees(ctx: FeeContext, actions: Action[], receiverId: string): bigint {
  let gas = 0n;
  for (const action of actions) {
    if (action.type === 'Delegate') {
      const inner = action.signedDelegateAction.delegateAction;
      gas += totalPrepaidExecFees(ctx, inner.actions, inner.receiverId);
      gas += execFee(ctx, action, inner.receiverId);
      gas += ctx.fees.actionReceiptCreation.execution;
    } else {
      gas += execFee(ctx, action, receiverId);
    }
  }
  return gas;
}

export function totalDeposit(actions: Action[]): bigint {
  let amount = 0n;
  for (const action of actions) {
    if (action.type === 'Transfer' || action.type === 'FunctionCall') amount += action.deposit;
    else if (action.type === 'Delegate')
      amount += totalDeposit(action.signedDelegateAction.delegateAction.actions);
  }
  return amount;
}

export function totalPrepaidGas(actions: Action[]): bigint {
  let gas = 0n;
  for (const action of actions) {
    if (action.type === 'FunctionCall') gas += action.gas;
    else if (action.type === 'Delegate')
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
  totalCost: bigint;
}

export function transactionCost(
  ctx: FeeContext,
  tx: { signerId: string; receiverId: string; actions: Action[] },
  gasPrice: bigint,
): TransactionCost {
  const sir = tx.signerId === tx.receiverId;
  const gasBurnt =
    sendFee(ctx.fees.actionReceiptCreation, sir) + totalSendFees(ctx, sir, tx.actions, tx.receiverId);
  const gasRemaining =
    totalPrepaidGas(tx.actions) +
    totalPrepaidSendFees(ctx, tx.actions) +
    ctx.fees.actionReceiptCreation.execution +
    totalPrepaidExecFees(ctx, tx.actions, tx.receiverId);
  const receiptGasPrice = gasPrice > ctx.minGasPurchasePrice ? gasPrice : ctx.minGasPurchasePrice;
  const burntAmount = gasBurnt * gasPrice;
  const totalCost = burntAmount + gasRemaining * receiptGasPrice + totalDeposit(tx.actions);
  return { gasBurnt, gasRemaining, receiptGasPrice, burntAmount, totalCost };
}
