/**
 * Executes one action receipt (runtime/runtime/src/lib.rs `apply_action_receipt`): runs its actions in order
 * on the receiver, rolls everything back if one fails, then refunds what was prepaid and not used.
 *
 * Gas bought for a receipt was paid at `receipt.gasPrice` (at least `min_gas_purchase_price`); it is burnt at
 * the lower of that and the block's price, and the difference is refunded to the signer, less the
 * `account_creation_charge` when the receipt created an account.
 */

import { type ActionReceipt, base58Encode, type Receipt } from '@shadebox/primitives';
import {
  execFee,
  totalDeposit,
  totalPrepaidExecFees,
  totalPrepaidGas,
  totalPrepaidSendFees,
} from '../config/fees.js';
import { protocolFeatureEnabled } from '../config/protocol-version.js';
import { getReceivedData, removeReceivedData } from '../state/receipt-state.js';
import type { StateUpdate } from '../state/state-update.js';
import { insufficientStorageStake } from '../state/storage-usage.js';
import {
  getAccessKey,
  getAccount,
  removeAccountRecords,
  setAccessKey,
  setAccount,
} from '../state/typed-state.js';
import type { PromiseResult } from '../vm/receipt-manager.js';
import { accountContractView } from './account-contract-view.js';
import { type ActionResult, emptyActionResult } from './action-result.js';
import type { ActionContext } from './actions/action-context.js';
import { addKey } from './actions/add-key.js';
import { checkAccountExistence, checkActorPermissions } from './actions/check-action.js';
import { createAccount } from './actions/create-account.js';
import { delegate } from './actions/delegate.js';
import { delegateV2 } from './actions/delegate-v2.js';
import { deleteAccount } from './actions/delete-account.js';
import { deleteKey } from './actions/delete-key.js';
import { deployContract } from './actions/deploy-contract.js';
import { deterministicStateInit } from './actions/deterministic-state-init.js';
import { functionCall } from './actions/function-call.js';
import { transferToGasKey, withdrawFromGasKey } from './actions/gas-key.js';
import { deployGlobalContract, useGlobalContract } from './actions/global-contract-actions.js';
import { stake } from './actions/stake.js';
import { transfer } from './actions/transfer.js';
import { universalStateInit } from './actions/universal-state-init.js';
import { ActionFailure } from './errors.js';
import {
  balanceRefundReceipt,
  balanceRefundReceiver,
  gasRefundReceipt,
  isRefundReceipt,
} from './refund-receipts.js';
import type { BlockContext, RuntimeParams } from './runtime-context.js';

export interface ReceiptExecution {
  result: ActionResult;
  /** The outcome's status (nearcore `ExecutionStatus`). */
  status: ReceiptStatus;
  failure: ActionFailure | undefined;
  /** What the outcome reports as burnt. */
  tokensBurnt: bigint;
  /** Burnt but not part of the outcome's tokens_burnt (a refund that could not be delivered). */
  otherBurnt: bigint;
  /** Paid back out of the burnt tokens to the contract account (the function-call reward). */
  contractReward: bigint;
  /** Minted by the one-yocto subsidy (only when the receipt succeeded). */
  subsidized: bigint;
}

export type ReceiptStatus =
  | { kind: 'Value'; value: Uint8Array }
  | { kind: 'ReceiptIndex'; index: number }
  | { kind: 'Failure'; failure: ActionFailure };

type ActionReceiptOf = Receipt & {
  receipt: { kind: 'Action' } & ActionReceipt & { isPromiseYield: boolean };
};

export function applyActionReceipt(
  params: RuntimeParams,
  block: BlockContext,
  state: StateUpdate,
  receipt: ActionReceiptOf,
): ReceiptExecution {
  const actionReceipt = receipt.receipt;
  const accountId = receipt.receiverId;
  const isRefund = isRefundReceipt(receipt);
  // The data this receipt waited for becomes its promise results, and leaves the state.
  let inputSize = 0;
  const promiseResults: PromiseResult[] = actionReceipt.inputDataIds.map((dataId) => {
    const received = getReceivedData(state, accountId, dataId);
    if (!received) throw new Error(`received data ${base58Encode(dataId)} should be in the state`);
    removeReceivedData(state, accountId, dataId);
    // Borsh `ReceivedData { data: Option<Vec<u8>> }`: the option's tag, and the length and bytes of data.
    inputSize += received.data === null ? 1 : 5 + received.data.length;
    return received.data === null ? { kind: 'Failed' } : { kind: 'Successful', data: received.data };
  });
  // ReceiptPromiseInputSizeLimit (87): inputs over `max_receipt_total_input_size` are dropped and the receipt
  // fails before any action runs (nearcore 2.14 runtime/runtime/src/lib.rs `apply_action_receipt`).
  const inputsTooLarge =
    protocolFeatureEnabled('ReceiptPromiseInputSizeLimit', params.protocolVersion) &&
    inputSize > params.maxReceiptTotalInputSize;
  const receiptHash = base58Encode(receipt.receiptId);
  state.commit({ type: 'action_receipt_processing_started', receipt_hash: receiptHash });
  const existing = getAccount(state, accountId);
  const account = { current: existing ? { ...existing } : undefined };
  const result = emptyActionResult();
  const receiptExec = params.fees.new_action_receipt.execution;
  result.gasBurnt = receiptExec;
  result.gasUsed = receiptExec;

  let failure: ActionFailure | undefined = inputsTooLarge
    ? new ActionFailure({
        TotalPromiseInputSizeExceeded: { size: inputSize, limit: params.maxReceiptTotalInputSize },
      })
    : undefined;
  const actions = actionReceipt.actions;
  // The storage proof this receipt may record (nearcore lib.rs `apply_action_receipt`): from 86 function calls
  // count it from the receipt's start, from 87 it is also checked after every action.
  const recorder = block.trie?.recorder;
  const proofSizeBefore =
    recorder && protocolFeatureEnabled('EnforcePerReceiptStorageProofLimit', params.protocolVersion)
      ? recorder.upperBound
      : undefined;
  const proofLimitForAllActions = protocolFeatureEnabled(
    'EnforceStorageProofLimitForAllActions',
    params.protocolVersion,
  )
    ? Number(params.vm.config.limits.perReceiptStorageProofSizeLimit)
    : undefined;
  // The account acting: the predecessor, until an action creates the receiver, which then acts on itself.
  let actorId = receipt.predecessorId;
  for (let i = 0; i < actions.length && !inputsTooLarge; i++) {
    const action = actions[i];
    const fee = execFee(params, action, accountId);
    result.gasBurnt += fee;
    result.gasUsed += fee;
    const ctx: ActionContext = {
      params,
      block,
      state,
      receipt,
      actionReceipt,
      account,
      result,
      actionIndex: i,
      storageProofSizeBeforeReceipt: proofSizeBefore,
    };
    result.contracts.push(accountContractView(account.current));
    try {
      checkAccountExistence(
        action,
        account.current,
        accountId,
        actions.length === 1,
        isRefund,
        protocolFeatureEnabled('UniversalAccounts', params.protocolVersion),
      );
      checkActorPermissions(action, account.current, actorId, accountId);
      const existedBefore = account.current !== undefined;
      applyAction(ctx, i, promiseResults);
      if (
        recorder &&
        proofSizeBefore !== undefined &&
        proofLimitForAllActions !== undefined &&
        recorder.upperBound - proofSizeBefore > proofLimitForAllActions
      )
        throw new ActionFailure({ ReceiptStorageProofSizeExceeded: { limit: proofLimitForAllActions } });
      // A deterministic or universal account created by its state init, or a universal one a transfer created,
      // does not act on itself (NEP-616, NEP-655): the id commits to its state, nobody else may add to it.
      if (
        !existedBefore &&
        account.current &&
        !account.current.uninitialized &&
        action.type !== 'DeterministicStateInit' &&
        action.type !== 'UniversalStateInit'
      )
        actorId = accountId;
    } catch (e) {
      if (!(e instanceof ActionFailure)) throw e;
      failure = e.withIndex(i);
      break;
    }
  }
  // Actions a failure left unexecuted get no contract.
  while (result.contracts.length < actions.length) result.contracts.push(null);
  if (!failure && account.current) {
    const lacking = insufficientStorageStake(account.current, params.storageAmountPerByte);
    if (lacking > 0n)
      failure = new ActionFailure({
        LackBalanceForState: { account_id: accountId, amount: lacking.toString() },
      });
  }

  if (failure) {
    state.rollback();
    result.newReceipts = [];
    result.validatorProposals = [];
  } else {
    if (account.current) setAccount(state, accountId, account.current);
    else if (existing) removeAccountRecords(state, accountId);
    if (isRefund && actionReceipt.signerId === accountId) refundAllowance(state, receipt);
    state.commit({ type: 'receipt_processing', receipt_hash: receiptHash });
  }
  const status: ReceiptStatus = failure
    ? { kind: 'Failure', failure }
    : result.returnData.kind === 'ReceiptIndex'
      ? { kind: 'ReceiptIndex', index: result.returnData.index }
      : { kind: 'Value', value: result.returnData.kind === 'Value' ? result.returnData.value : EMPTY };

  if (isRefund) {
    // Refunds are free: they burn no gas (nearcore zeroes `gas_burnt` for receipts from `system`, so the
    // outcome and the chunk's gas_used show 0), are never refunded, and one that fails burns its amount.
    result.gasBurnt = 0n;
    result.gasUsed = 0n;
    return {
      result,
      status,
      failure,
      tokensBurnt: 0n,
      otherBurnt: failure ? totalDeposit(actions) : 0n,
      contractReward: 0n,
      subsidized: 0n,
    };
  }

  const purchasePrice = actionReceipt.gasPrice;
  const burnPrice = purchasePrice < block.gasPrice ? purchasePrice : block.gasPrice;
  const prepaidGas = totalPrepaidGas(actions) + totalPrepaidSendFees(params, actions);
  const prepaidExecGas = totalPrepaidExecFees(params, actions, accountId) + receiptExec;
  const spent = failure ? result.gasBurnt : result.gasUsed;
  const grossGasRefund = prepaidGas + prepaidExecGas - spent;
  let burnedGasRefund = (purchasePrice - burnPrice) * result.gasBurnt;
  let createAccountCharge = 0n;
  if (!existing && account.current && !failure) {
    const alreadyBurnt = burnPrice * params.fees.create_account.execution;
    const toCharge =
      params.accountCreationCharge > alreadyBurnt ? params.accountCreationCharge - alreadyBurnt : 0n;
    createAccountCharge = toCharge < burnedGasRefund ? toCharge : burnedGasRefund;
    burnedGasRefund -= createAccountCharge;
  }
  const gasRefund = purchasePrice * grossGasRefund + burnedGasRefund;
  const depositRefund = failure ? totalDeposit(actions) : 0n;
  if (depositRefund > 0n) {
    result.newReceipts.push(
      balanceRefundReceipt(balanceRefundReceiver(receipt), depositRefund, receipt.priority),
    );
  }
  if (gasRefund > 0n) {
    result.newReceipts.push(
      gasRefundReceipt(actionReceipt.signerId, gasRefund, actionReceipt.signerPublicKey, receipt.priority),
    );
  }
  const tokensBurnt =
    burnPrice * result.gasBurnt + createAccountCharge + (failure ? 0n : (result.tokensBurnt ?? 0n));
  let contractReward = 0n;

  // 30% of the gas burnt inside contract code goes to the contract account, if it still exists.
  const [num, den] = params.burntGasReward;
  const reward = block.gasPrice * ((result.gasBurntForFunctionCall * num) / den);
  if (reward > 0n) {
    const receiver = getAccount(state, accountId);
    if (receiver) {
      contractReward = reward;
      setAccount(state, accountId, { ...receiver, amount: receiver.amount + reward });
      state.commit({ type: 'action_receipt_gas_reward', receipt_hash: receiptHash });
    }
  }

  // The result goes to whoever waits for it, or travels on with the receipt it returned.
  if (actionReceipt.outputDataReceivers.length > 0) {
    if (status.kind === 'ReceiptIndex') {
      const returned = result.newReceipts[status.index].receipt;
      if (returned.kind === 'Action') returned.outputDataReceivers.push(...actionReceipt.outputDataReceivers);
    } else {
      const data = status.kind === 'Value' ? status.value : null;
      for (const r of actionReceipt.outputDataReceivers) {
        result.newReceipts.push({
          predecessorId: accountId,
          receiverId: r.receiverId,
          receiptId: new Uint8Array(32),
          priority: 0n,
          receipt: { kind: 'Data', dataId: r.dataId, data, isPromiseResume: false },
        });
      }
    }
  }
  return {
    result,
    status,
    failure,
    tokensBurnt,
    otherBurnt: 0n,
    contractReward,
    subsidized: failure ? 0n : result.subsidized,
  };
}

const EMPTY = new Uint8Array(0);

function applyAction(ctx: ActionContext, index: number, promiseResults: PromiseResult[]): void {
  const action = ctx.actionReceipt.actions[index];
  switch (action.type) {
    case 'CreateAccount':
      createAccount(ctx);
      return;
    case 'Transfer':
      transfer(ctx, action.deposit);
      return;
    case 'AddKey':
      addKey(ctx, action.publicKey, action.accessKey);
      return;
    case 'DeleteKey':
      deleteKey(ctx, action.publicKey);
      return;
    case 'TransferToGasKey':
      transferToGasKey(ctx, action.publicKey, action.deposit);
      return;
    case 'WithdrawFromGasKey':
      withdrawFromGasKey(ctx, action.publicKey, action.amount);
      return;
    case 'DeleteAccount':
      deleteAccount(ctx, action.beneficiaryId);
      return;
    case 'Stake':
      stake(ctx, action.stake, action.publicKey);
      return;
    case 'Delegate':
      delegate(ctx, action.signedDelegateAction);
      return;
    case 'DelegateV2':
      delegateV2(ctx, action.signedDelegateAction);
      return;
    case 'DeployContract':
      deployContract(ctx, action.code);
      return;
    case 'FunctionCall':
      functionCall(ctx, action, promiseResults);
      return;
    case 'DeployGlobalContract':
      deployGlobalContract(ctx, action.code, action.deployMode);
      return;
    case 'UseGlobalContract':
      useGlobalContract(ctx, action.contractIdentifier);
      return;
    case 'DeterministicStateInit':
      deterministicStateInit(ctx, action.stateInit, action.deposit);
      return;
    case 'UniversalStateInit':
      universalStateInit(ctx, action.stateInit, action.deposit);
      return;
  }
}

/** A gas refund to the key that paid gives a function-call key its allowance back. */
function refundAllowance(state: StateUpdate, receipt: ActionReceiptOf): void {
  const ar = receipt.receipt;
  const key = getAccessKey(state, receipt.receiverId, ar.signerPublicKey);
  if (key?.permission.kind !== 'FunctionCall' || key.permission.allowance === null) return;
  const amount = totalDeposit(ar.actions);
  setAccessKey(state, receipt.receiverId, ar.signerPublicKey, {
    nonce: key.nonce,
    permission: { ...key.permission, allowance: key.permission.allowance + amount },
  });
}
