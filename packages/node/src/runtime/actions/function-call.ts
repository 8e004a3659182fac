/**
 * FunctionCall (nearcore runtime/src/function_call.rs): runs the receiver's contract method with the
 * receipt's context, charges what it burnt and used, and on success applies what it did: the new balance and
 * storage usage, the receipts of its promises (yield timeouts queued), and its return value. On failure the
 * receipt fails with `FunctionCallError`; logs and burnt gas stay.
 */

import {
  type Action,
  createActionHash,
  createRandomSeed,
  encodeReceipt,
  isValidAccountId,
  type Receipt,
} from '@shadebox/primitives';
import {
  enqueuePromiseYieldTimeout,
  getPromiseYieldIndices,
  setPromiseYieldIndices,
} from '../../state/receipt-state.js';
import { mergeGasProfile } from '../../vm/gas-profile.js';
import type { PromiseResult } from '../../vm/receipt-manager.js';
import { runContract } from '../../vm/run-contract.js';
import { accountContractOf } from '../account-contract.js';
import { accountContractCode } from '../account-contract-code.js';
import { contractExternal } from '../contract-external.js';
import { ActionFailure } from '../errors.js';
import { ActionsValidationError, validateActions } from '../validate-actions.js';
import type { ActionContext } from './action-context.js';

export function functionCall(
  ctx: ActionContext,
  action: Extract<Action, { type: 'FunctionCall' }>,
  promiseResults: PromiseResult[],
): void {
  const account = ctx.account.current!;
  const accountId = ctx.receipt.receiverId;
  const { block, params, actionReceipt } = ctx;
  const contract = accountContractCode(ctx.state, block.shardId ?? 0, accountId, account);
  if (!contract) {
    throw new ActionFailure({
      FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: accountId } } },
    });
  }
  const actionHash = createActionHash(ctx.receipt.receiptId, block.height, ctx.actionIndex);
  const isLastAction = ctx.actionIndex === actionReceipt.actions.length - 1;
  const out = runContract({
    codeHash: contract.codeHash,
    code: contract.code,
    method: action.methodName,
    context: {
      currentAccountId: accountId,
      signerAccountId: actionReceipt.signerId,
      signerAccountPk: actionReceipt.signerPublicKey,
      predecessorAccountId: ctx.receipt.predecessorId,
      refundToAccountId: actionReceipt.refundTo ?? ctx.receipt.predecessorId,
      input: action.args,
      promiseResults,
      blockHeight: block.height,
      blockTimestamp: block.timestampNs,
      epochHeight: block.epochHeight,
      accountBalance: account.amount,
      accountLockedBalance: account.locked,
      storageUsage: account.storageUsage,
      attachedDeposit: action.deposit,
      prepaidGas: action.gas,
      randomSeed: createRandomSeed(actionHash, block.randomValue),
      isView: false,
      outputDataReceiverCount: isLastAction ? actionReceipt.outputDataReceivers.length : 0,
      chainId: params.chainId,
      accountContract: accountContractOf(account),
    },
    config: params.vm.config,
    ext: contractExternal(ctx.state, accountId, block.validatorStakes, {
      chunkTrie: block.trie?.accounting && {
        trie: block.trie,
        storageGetMode: params.vm.config.storageGetMode ?? 'FlatStorage',
        sizeBeforeReceipt: ctx.storageProofSizeBeforeReceipt,
      },
    }),
    actionHash,
    cache: params.vm.cache,
  });

  const result = ctx.result;
  result.gasBurnt += out.burntGas;
  result.gasUsed += out.usedGas;
  result.gasBurntForFunctionCall += out.burntGas;
  mergeGasProfile(result.profile, out.profile);
  result.logs.push(...out.logs);
  if (out.error) throw new ActionFailure({ FunctionCallError: out.error.outcomeJson() });

  const shardId = block.shardId ?? 0;
  const indices = getPromiseYieldIndices(ctx.state, shardId);
  const before = indices.nextAvailableIndex;
  const firstNew = result.newReceipts.length;
  for (const r of out.receipts.actionReceipts) {
    if (r.isPromiseYield) {
      enqueuePromiseYieldTimeout(ctx.state, shardId, indices, {
        accountId,
        dataId: r.inputDataIds[0],
        expiresAt: block.height + params.yieldTimeoutLength,
      });
    }
    const receipt: Receipt = {
      predecessorId: accountId,
      receiverId: r.receiverId,
      receiptId: new Uint8Array(32),
      priority: 0n,
      receipt: {
        kind: 'Action',
        signerId: actionReceipt.signerId,
        signerPublicKey: actionReceipt.signerPublicKey,
        gasPrice: actionReceipt.gasPrice,
        outputDataReceivers: r.outputDataReceivers,
        inputDataIds: r.inputDataIds,
        actions: r.actions,
        isPromiseYield: r.isPromiseYield,
        // From protocol 82 (`DeterministicAccountIds`, on at every version this node runs) a contract's
        // receipts are ActionReceiptV2, with or without a refund_to.
        v2: true,
        ...(r.refundTo !== undefined ? { refundTo: r.refundTo } : {}),
      },
    };
    result.newReceipts.push(receipt);
  }
  for (const d of out.receipts.dataReceipts) {
    result.newReceipts.push({
      predecessorId: accountId,
      receiverId: accountId,
      receiptId: new Uint8Array(32),
      priority: 0n,
      receipt: { kind: 'Data', dataId: d.dataId, data: d.data, isPromiseResume: d.isPromiseResume },
    });
  }
  for (const created of result.newReceipts.slice(firstNew)) validateNewReceipt(ctx, created);
  if (indices.nextAvailableIndex !== before) setPromiseYieldIndices(ctx.state, shardId, indices);
  result.subsidized += out.subsidized;
  account.amount = out.balance;
  account.storageUsage = out.storageUsage;
  result.returnData =
    out.returnData.kind === 'ReceiptIndex'
      ? { kind: 'ReceiptIndex', index: out.returnData.index + firstNew }
      : out.returnData;
}

/** A receipt a contract made must pass the checks a transaction's would (nearcore `validate_receipt`);
 * if not, the call fails with `NewReceiptValidationError`. */
function validateNewReceipt(ctx: ActionContext, receipt: Receipt): void {
  const { params } = ctx;
  const fail = (error: unknown) => {
    throw new ActionFailure({ NewReceiptValidationError: error });
  };
  const size = encodeReceipt(receipt).length;
  if (size > params.maxReceiptSize) fail({ ReceiptSizeExceeded: { size, limit: params.maxReceiptSize } });
  const inner = receipt.receipt;
  if (inner.kind === 'Data') {
    const length = inner.data?.length ?? 0;
    if (length > params.maxLengthReturnedData)
      fail({ ReturnedValueLengthExceeded: { length, limit: params.maxLengthReturnedData } });
    return;
  }
  if (inner.kind !== 'Action') return;
  // nearcore's order (`validate_action_receipt`): input data dependencies, refund_to, then the actions.
  if (inner.inputDataIds.length > params.maxNumberInputDataDependencies) {
    fail({
      NumberInputDataDependenciesExceeded: {
        number_of_input_data_dependencies: inner.inputDataIds.length,
        limit: params.maxNumberInputDataDependencies,
      },
    });
  }
  if (inner.refundTo !== undefined && !isValidAccountId(inner.refundTo)) {
    fail({ InvalidRefundTo: { account_id: inner.refundTo } });
  }
  try {
    validateActions(params.limits, inner.actions, receipt.receiverId);
  } catch (e) {
    if (e instanceof ActionsValidationError) fail({ ActionsValidation: e.json });
    throw e;
  }
}
