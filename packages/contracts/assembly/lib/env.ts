// Host functions linked by nearcore at protocol 85 (runner/src/imports.rs), as the contracts use them.
// Every integer parameter is a u64 (Wasm i64), pointers included; only `promise_yield_resume` returns an i32.

// registers
@external("env", "read_register") export declare function read_register(register_id: u64, ptr: u64): void;
@external("env", "register_len") export declare function register_len(register_id: u64): u64;
@external("env", "write_register") export declare function write_register(register_id: u64, data_len: u64, data_ptr: u64): void;

// context
@external("env", "current_account_id") export declare function current_account_id(register_id: u64): void;
@external("env", "signer_account_id") export declare function signer_account_id(register_id: u64): void;
@external("env", "predecessor_account_id") export declare function predecessor_account_id(register_id: u64): void;
@external("env", "input") export declare function input(register_id: u64): void;
@external("env", "block_index") export declare function block_index(): u64;
@external("env", "block_timestamp") export declare function block_timestamp(): u64;

// economics
@external("env", "attached_deposit") export declare function attached_deposit(balance_ptr: u64): void;
@external("env", "prepaid_gas") export declare function prepaid_gas(): u64;
@external("env", "used_gas") export declare function used_gas(): u64;

// math
@external("env", "sha256") export declare function sha256(value_len: u64, value_ptr: u64, register_id: u64): void;
@external("env", "ecrecover") export declare function ecrecover(
  hash_len: u64, hash_ptr: u64, sig_len: u64, sig_ptr: u64, v: u64, malleability_flag: u64, register_id: u64,
): u64;
@external("env", "ed25519_verify") export declare function ed25519_verify(
  sig_len: u64, sig_ptr: u64, msg_len: u64, msg_ptr: u64, pub_key_len: u64, pub_key_ptr: u64,
): u64;

// miscellaneous
@external("env", "value_return") export declare function value_return(value_len: u64, value_ptr: u64): void;
@external("env", "panic_utf8") export declare function panic_utf8(len: u64, ptr: u64): void;
@external("env", "log_utf8") export declare function log_utf8(len: u64, ptr: u64): void;

// promises
@external("env", "promise_batch_create") export declare function promise_batch_create(account_id_len: u64, account_id_ptr: u64): u64;
@external("env", "promise_batch_then") export declare function promise_batch_then(promise_index: u64, account_id_len: u64, account_id_ptr: u64): u64;
@external("env", "promise_batch_action_function_call") export declare function promise_batch_action_function_call(
  promise_index: u64, method_name_len: u64, method_name_ptr: u64, arguments_len: u64, arguments_ptr: u64, amount_ptr: u64, gas: u64,
): void;
@external("env", "promise_batch_action_function_call_weight") export declare function promise_batch_action_function_call_weight(
  promise_index: u64, method_name_len: u64, method_name_ptr: u64, arguments_len: u64, arguments_ptr: u64, amount_ptr: u64, gas: u64, gas_weight: u64,
): void;
@external("env", "promise_batch_action_transfer") export declare function promise_batch_action_transfer(promise_index: u64, amount_ptr: u64): void;
@external("env", "promise_yield_create") export declare function promise_yield_create(
  function_name_len: u64, function_name_ptr: u64, arguments_len: u64, arguments_ptr: u64, gas: u64, gas_weight: u64, register_id: u64,
): u64;
@external("env", "promise_yield_resume") export declare function promise_yield_resume(
  data_id_len: u64, data_id_ptr: u64, payload_len: u64, payload_ptr: u64,
): u32;
@external("env", "promise_results_count") export declare function promise_results_count(): u64;
@external("env", "promise_result") export declare function promise_result(result_idx: u64, register_id: u64): u64;
@external("env", "promise_return") export declare function promise_return(promise_idx: u64): void;

// storage
@external("env", "storage_write") export declare function storage_write(
  key_len: u64, key_ptr: u64, value_len: u64, value_ptr: u64, register_id: u64,
): u64;
@external("env", "storage_read") export declare function storage_read(key_len: u64, key_ptr: u64, register_id: u64): u64;
@external("env", "storage_remove") export declare function storage_remove(key_len: u64, key_ptr: u64, register_id: u64): u64;
@external("env", "storage_has_key") export declare function storage_has_key(key_len: u64, key_ptr: u64): u64;

// account actions (the registrar)
@external("env", "promise_batch_action_create_account") export declare function promise_batch_action_create_account(promise_index: u64): void;
@external("env", "promise_batch_action_add_key_with_full_access") export declare function promise_batch_action_add_key_with_full_access(
  promise_index: u64, public_key_len: u64, public_key_ptr: u64, nonce: u64,
): void;
