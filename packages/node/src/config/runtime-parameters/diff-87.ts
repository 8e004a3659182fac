/**
 * Protocol 87 (nearcore 2.14, the version testnet runs): contracts no longer earn part of the gas they burn
 * (`RemoveGasRewards`), the promise inputs of one receipt are bounded (`ReceiptPromiseInputSizeLimit`: 4 MiB
 * of returned data plus 5 bytes of framing for each of the 128 possible inputs), a contract needs 2 bytes of
 * code per local, the state-init actions of one receipt carry at most 1_500 storage entries, and the switches
 * of the SHA3 and ML-DSA host functions, universal accounts (NEP-655) and the ML-DSA cost-charging fix go on.
 * core/parameters/res/runtime_configs/87.yaml at near/nearcore 0d8e7e07f19f.
 *
 * nearcore's 87.yaml also switches `fix_contract_loading_error` on; nearcore 2.13.1, which mainnet runs,
 * shipped that at 86 (diff-86.ts), so it is already on here (docs/deviations.md).
 */
import { type ParameterDiff, ratio } from './parameter-data.js';

export const DIFF_87: ParameterDiff = {
  protocolVersion: 87,
  source: 'near/nearcore core/parameters/res/runtime_configs/87.yaml (commit 0d8e7e07f19f)',
  changes: {
    burnt_gas_reward: { old: ratio(3n, 10n), new: ratio(0n, 1n) },
    min_contract_size_per_local: { new: 2n },
    max_receipt_total_input_size: { old: 4_294_967_295n, new: 4_194_944n },
    ml_dsa_verify_host_fn: { old: false, new: true },
    fix_ml_dsa_cost_charging: { old: false, new: true },
    sha3_host_fns: { old: false, new: true },
    universal_accounts: { old: false, new: true },
    max_state_init_entries: { old: 4_294_967_295n, new: 1_500n },
  },
};
