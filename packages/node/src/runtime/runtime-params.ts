/**
 * The runtime's view of the pinned protocol parameters (config/runtime-config.ts is their one source).
 */
import { feeContextFrom } from '../config/fees.js';
import type { RuntimeConfig } from '../config/runtime-config.js';
import { ContractCache } from '../vm/contract-cache.js';
import { vmConfigFrom } from '../vm/vm-config.js';
import type { RuntimeParams } from './runtime-context.js';

/** @param chainId the genesis `chain_id` (what the `chain_id` host function returns). */
export function runtimeParamsFrom(config: RuntimeConfig, chainId = 'localnet'): RuntimeParams {
  const limits = config.wasm.limits;
  const feeContext = feeContextFrom(config);
  return {
    ...feeContext,
    numBytesAccount: config.storageUsage.numBytesAccount,
    numExtraBytesRecord: config.storageUsage.numExtraBytesRecord,
    storageAmountPerByte: config.storageAmountPerByte,
    mlDsa65VerificationCost: config.mlDsa65VerificationCost,
    globalContractStorageAmountPerByte: config.globalContractStorageAmountPerByte,
    limits: {
      maxActionsPerReceipt: limits.maxActionsPerReceipt,
      maxDeployActionsPerReceipt: limits.maxDeployActionsPerReceipt,
      maxTotalPrepaidGas: limits.maxTotalPrepaidGas,
      maxNumberBytesMethodNames: limits.maxNumberBytesMethodNames,
      maxLengthMethodName: limits.maxLengthMethodName,
      maxArgumentsLength: limits.maxArgumentsLength,
      maxContractSize: limits.maxContractSize,
      maxTransactionSize: limits.maxTransactionSize,
      maxLengthStorageKey: limits.maxLengthStorageKey,
      maxLengthStorageValue: limits.maxLengthStorageValue,
      protocolVersion: config.protocolVersion,
      maxUniversalStateInitKeys: limits.maxUniversalStateInitKeys,
      maxStateInitEntries: limits.maxStateInitEntries,
    },
    minAllowedTopLevelAccountLength: config.accountCreation.minAllowedTopLevelAccountLength,
    registrarAccountId: config.accountCreation.registrarAccountId,
    burntGasReward: [config.burntGasReward.numerator, config.burntGasReward.denominator],
    accountCreationCharge: config.accountCreationCharge,
    vm: {
      config: vmConfigFrom(config),
      cache: new ContractCache(config),
    },
    chainId,
    yieldTimeoutLength: BigInt(limits.yieldTimeoutLengthInBlocks),
    maxLengthReturnedData: limits.maxLengthReturnedData,
    maxReceiptSize: limits.maxReceiptSize,
    maxReceiptTotalInputSize: limits.maxReceiptTotalInputSize,
    maxNumberInputDataDependencies: limits.maxNumberInputDataDependencies,
    protocolVersion: config.protocolVersion,
    bandwidthScheduler: config.bandwidthScheduler,
  };
}
