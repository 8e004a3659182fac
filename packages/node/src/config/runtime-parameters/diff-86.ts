/**
 * Protocol 86 (nearcore 2.13.1, the version mainnet runs): a compiled module that fails to load is charged
 * the contract-loading fee and aborts with `LoadingError` instead of ending as a zero-gas nop
 * (`ProtocolFeature::FixContractLoadingError`, near/nearcore#15923). The switch is not in nearcore's
 * `RuntimeConfigView`, so 86's view equals 85's. core/parameters/res/runtime_configs/86.yaml.
 */
import type { ParameterDiff } from './parameter-data.js';

export const DIFF_86: ParameterDiff = {
  protocolVersion: 86,
  source: 'near/nearcore core/parameters/res/runtime_configs/86.yaml',
  changes: {
    fix_contract_loading_error: { old: false, new: true },
  },
};
