/**
 * The VM's parameters from the pinned runtime config (nearcore derives near-vm-runner's `Config` from the
 * `RuntimeConfig` the same way): host-function costs, limits, the fees of the receipts contracts create, and
 * the flags of protocol 85. A VMLogic can be built from this alone, without the runtime.
 */
import { feeContextFrom } from '../config/fees.js';
import type { RuntimeConfig } from '../config/runtime-config.js';
import type { VMConfig } from './vm-logic.js';

export function vmConfigFrom(config: RuntimeConfig): VMConfig {
  const feeContext = feeContextFrom(config);
  return {
    extCosts: config.wasm.extCosts,
    limits: config.wasm.limits,
    fees: feeContext.fees,
    feeContext,
    numExtraBytesRecord: config.storageUsage.numExtraBytesRecord,
    maxGasBurnt: config.wasm.limits.maxGasBurnt,
    regularOpCost: config.wasm.regularOpCost,
    oneYoctoOnPromise: config.wasm.oneYoctoOnPromise,
    hostFunctionSwitches: config.wasm,
    fixContractLoadingError: config.wasm.fixContractLoadingError,
    vmKind: config.wasm.vmKind,
    gasKeyHostFns: config.wasm.gasKeyHostFns,
    storageGetMode: config.wasm.storageGetMode,
  };
}
