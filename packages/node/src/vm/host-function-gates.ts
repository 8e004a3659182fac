/**
 * Host functions a protocol version may leave out (nearcore's `#[config_field]` gates in
 * runtime/near-vm-runner/src/imports.rs): while the switch of the runtime config is off, the function is not
 * defined at all, so a contract importing it fails to link exactly as with an unknown name.
 */
import type { WasmConfig } from '../config/runtime-config.js';

/** The switches of `wasm_config` that gate host functions. */
export type HostFunctionSwitches = Pick<
  WasmConfig,
  | 'globalContractHostFns'
  | 'gasKeyHostFns'
  | 'p256VerifyHostFn'
  | 'sha3HostFns'
  | 'mlDsaVerifyHostFn'
  | 'yieldWithIdHostFns'
  | 'chainIdHostFn'
  | 'universalAccounts'
>;

const GATES: Readonly<Record<string, keyof HostFunctionSwitches>> = {
  promise_batch_action_deploy_global_contract: 'globalContractHostFns',
  promise_batch_action_deploy_global_contract_by_account_id: 'globalContractHostFns',
  promise_batch_action_use_global_contract: 'globalContractHostFns',
  promise_batch_action_use_global_contract_by_account_id: 'globalContractHostFns',
  promise_batch_action_add_gas_key_with_full_access: 'gasKeyHostFns',
  promise_batch_action_add_gas_key_with_function_call: 'gasKeyHostFns',
  promise_batch_action_transfer_to_gas_key: 'gasKeyHostFns',
  p256_verify: 'p256VerifyHostFn',
  // nearcore 2.14's `sha3_host_fns` (2.13 called it `sha3_256_host_fn`) and `ml_dsa_verify_host_fn`: on from 87
  sha3_256: 'sha3HostFns',
  sha3_384: 'sha3HostFns',
  sha3_512: 'sha3HostFns',
  ml_dsa_verify: 'mlDsaVerifyHostFn',
  promise_yield_create_with_id: 'yieldWithIdHostFns',
  promise_yield_resume_with_yield_id: 'yieldWithIdHostFns',
  chain_id: 'chainIdHostFn',
  // NEP-655 (nearcore 2.14 `universal_accounts`, on from 87)
  universal_state_init_to_account_id: 'universalAccounts',
  promise_batch_action_universal_state_init: 'universalAccounts',
};

/** Whether `name` is defined under `switches` (always, for a host function no switch gates). */
export function hostFunctionEnabled(name: string, switches: HostFunctionSwitches | undefined): boolean {
  const gate = GATES[name];
  return gate === undefined || switches === undefined || switches[gate];
}
