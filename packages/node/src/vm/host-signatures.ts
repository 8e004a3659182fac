/**
 * The Wasm type of every host function linked at protocol 85 (nearcore runner/src/imports.rs): parameters
 * and result, `I` for i64 and `i` for i32. A contract importing a name not listed here, or a listed name with
 * another type, fails to link (`LinkError`).
 */
const I = 'I';

function sig(params: number | string, result: '' | 'I' | 'i' = ''): { params: string; result: string } {
  return { params: typeof params === 'number' ? I.repeat(params) : params, result };
}

export const HOST_SIGNATURES: Readonly<Record<string, { params: string; result: string }>> = {
  // registers
  read_register: sig(2),
  register_len: sig(1, I),
  write_register: sig(3),
  // context
  current_account_id: sig(1),
  signer_account_id: sig(1),
  signer_account_pk: sig(1),
  predecessor_account_id: sig(1),
  refund_to_account_id: sig(1),
  input: sig(1),
  block_index: sig(0, I),
  block_timestamp: sig(0, I),
  epoch_height: sig(0, I),
  storage_usage: sig(0, I),
  current_contract_code: sig(1, I),
  // economics
  account_balance: sig(1),
  account_locked_balance: sig(1),
  attached_deposit: sig(1),
  prepaid_gas: sig(0, I),
  used_gas: sig(0, I),
  // math
  random_seed: sig(1),
  sha256: sig(3),
  keccak256: sig(3),
  keccak512: sig(3),
  ripemd160: sig(3),
  ecrecover: sig(7, I),
  ed25519_verify: sig(6, I),
  p256_verify: sig(6, I),
  alt_bn128_g1_multiexp: sig(3),
  alt_bn128_g1_sum: sig(3),
  alt_bn128_pairing_check: sig(2, I),
  bls12381_p1_sum: sig(3, I),
  bls12381_p2_sum: sig(3, I),
  bls12381_g1_multiexp: sig(3, I),
  bls12381_g2_multiexp: sig(3, I),
  bls12381_map_fp_to_g1: sig(3, I),
  bls12381_map_fp2_to_g2: sig(3, I),
  bls12381_pairing_check: sig(2, I),
  bls12381_p1_decompress: sig(3, I),
  bls12381_p2_decompress: sig(3, I),
  chain_id: sig(1),
  // protocol 87 (nearcore 2.14): FIPS 202 hashes behind `sha3_host_fns`, ML-DSA-65 behind `ml_dsa_verify_host_fn`
  sha3_256: sig(3),
  sha3_384: sig(3),
  sha3_512: sig(3),
  ml_dsa_verify: sig(6, I),
  // miscellaneous
  value_return: sig(2),
  panic: sig(0),
  panic_utf8: sig(2),
  log_utf8: sig(2),
  log_utf16: sig(2),
  abort: sig('iiii'),
  // promises
  promise_create: sig(8, I),
  promise_then: sig(9, I),
  promise_and: sig(2, I),
  promise_batch_create: sig(2, I),
  promise_batch_then: sig(3, I),
  promise_set_refund_to: sig(3),
  promise_batch_action_create_account: sig(1),
  promise_batch_action_deploy_contract: sig(3),
  promise_batch_action_function_call: sig(7),
  promise_batch_action_function_call_weight: sig(8),
  promise_batch_action_transfer: sig(2),
  promise_batch_action_stake: sig(4),
  promise_batch_action_add_key_with_full_access: sig(4),
  promise_batch_action_add_key_with_function_call: sig(9),
  promise_batch_action_delete_key: sig(3),
  // gas keys (NEP-611), linked when `gas_key_host_fns` is on
  promise_batch_action_transfer_to_gas_key: sig(4),
  promise_batch_action_add_gas_key_with_full_access: sig(4),
  promise_batch_action_add_gas_key_with_function_call: sig(9),
  promise_batch_action_delete_account: sig(3),
  promise_batch_action_deploy_global_contract: sig(3),
  promise_batch_action_deploy_global_contract_by_account_id: sig(3),
  promise_batch_action_use_global_contract: sig(3),
  promise_batch_action_use_global_contract_by_account_id: sig(3),
  // deterministic account state init (NEP-616)
  promise_batch_action_state_init: sig(4, I),
  promise_batch_action_state_init_by_account_id: sig(4, I),
  set_state_init_data_entry: sig(6),
  // NEP-655, protocol 87 (behind `universal_accounts`)
  universal_state_init_to_account_id: sig(3),
  promise_batch_action_universal_state_init: sig(4),
  promise_yield_create: sig(7, I),
  promise_yield_resume: sig(4, 'i'),
  promise_yield_create_with_id: sig(9, I),
  promise_yield_resume_with_yield_id: sig(4, 'i'),
  promise_results_count: sig(0, I),
  promise_result: sig(2, I),
  promise_return: sig(1),
  // storage
  storage_write: sig(5, I),
  storage_read: sig(3, I),
  storage_remove: sig(3, I),
  storage_has_key: sig(2, I),
  storage_iter_prefix: sig(2, I),
  storage_iter_range: sig(4, I),
  storage_iter_next: sig(3, I),
  // gas (the legacy instrumentation import; contracts may still import it)
  gas: sig('i'),
  // validator
  validator_stake: sig(3),
  validator_total_stake: sig(1),
};
