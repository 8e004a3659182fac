/**
 * The runtime's view of the pinned protocol parameters (config/runtime-config.ts is their one source).
 */
import type { RuntimeConfig } from '../config/runtime-config.js';
import { ContractCache } from '../vm/contract-cache.js';
import type { RuntimeParams } from './runtime-context.js';

/** @param chainId the genesis `chain_id` (what the `chain_id` host function returns). */
export function runtimeParamsFrom(config: RuntimeConfig, chainId = 'localnet'): RuntimeParams {
  const f = config.fees;
  const limits = config.wasm.limits;
  const fees = {
    actionReceiptCreation: f.new_action_receipt,
    dataReceiptCreationBase: f.new_data_receipt_base,
    dataReceiptCreationPerByte: f.new_data_receipt_byte,
    createAccount: f.create_account,
    deployContract: f.deploy_contract_base,
    deployContractPerByte: f.deploy_contract_byte,
    functionCall: f.function_call_base,
    functionCallPerByte: f.function_call_byte,
    transfer: f.transfer,
    stake: f.stake,
    addKeyFullAccess: f.add_full_access_key,
    addKeyFunctionCall: f.add_function_call_key_base,
    addKeyFunctionCallPerByte: f.add_function_call_key_byte,
    deleteKey: f.delete_key,
    deleteAccount: f.delete_account,
    delegate: f.delegate,
  };
  const feeContext = {
    fees,
    minGasPurchasePrice: config.minGasPurchasePrice,
    ethImplicitAccounts: config.wasm.ethImplicitAccounts,
  };
  return {
    fees,
    minGasPurchasePrice: config.minGasPurchasePrice,
    ethImplicitAccounts: config.wasm.ethImplicitAccounts,
    numBytesAccount: config.storageUsage.numBytesAccount,
    numExtraBytesRecord: config.storageUsage.numExtraBytesRecord,
    storageAmountPerByte: config.storageAmountPerByte,
    limits: {
      maxActionsPerReceipt: limits.maxActionsPerReceipt,
      maxTotalPrepaidGas: limits.maxTotalPrepaidGas,
      maxNumberBytesMethodNames: limits.maxNumberBytesMethodNames,
      maxLengthMethodName: limits.maxLengthMethodName,
      maxArgumentsLength: limits.maxArgumentsLength,
      maxContractSize: limits.maxContractSize,
      maxTransactionSize: limits.maxTransactionSize,
    },
    minAllowedTopLevelAccountLength: config.accountCreation.minAllowedTopLevelAccountLength,
    registrarAccountId: config.accountCreation.registrarAccountId,
    burntGasReward: [config.burntGasReward.numerator, config.burntGasReward.denominator],
    accountCreationCharge: config.accountCreationCharge,
    vm: {
      config: {
        extCosts: config.wasm.extCosts,
        limits: config.wasm.limits,
        fees,
        feeContext,
        numExtraBytesRecord: config.storageUsage.numExtraBytesRecord,
        maxGasBurnt: limits.maxGasBurnt,
        regularOpCost: config.wasm.regularOpCost,
        oneYoctoOnPromise: config.wasm.oneYoctoOnPromise,
      },
      cache: new ContractCache(config),
    },
    chainId,
    yieldTimeoutLength: BigInt(limits.yieldTimeoutLengthInBlocks),
    maxLengthReturnedData: limits.maxLengthReturnedData,
    maxReceiptSize: limits.maxReceiptSize,
    maxNumberInputDataDependencies: limits.maxNumberInputDataDependencies,
  };
}
