/**
 * The host functions a contract can import at protocol 85 and 86 must be exactly nearcore's: every `env`
 * function near-vm-runner links (runtime/near-vm-runner/src/imports.rs, the `imports!` list), with the config
 * flags of protocol 85 — `chain_id_host_fn`, `p256_verify_host_fn`, `global_contract_host_fns`,
 * `gas_key_host_fns`, `yield_with_id_host_fns` — all on (86 changes no flag); the compile-time `sandbox` /
 * `test_features` functions and the `internal` instrumentation module left out. Each with its Wasm signature.
 *
 * Sources. The stored versions of imports.rs predate the 2.x releases, so the list is an inventory of the
 * 2.13 `imports!` list, checked name by name against the host-function bodies nearcore links:
 * `runtime/near-vm-runner/src/logic/logic.rs` and `wasmtime_runner/logic.rs` (e.g. `refund_to_account_id`,
 * `current_contract_code`, `promise_set_refund_to`, with no protocol gate of their own), and against
 * `core/primitives-core/src/version.rs` at commit 000b8da7e6faf48948e32764bb6b9c0a6e4ba562 (stable version 86):
 * the three NEP-616 functions came with `DeterministicAccountIds`, stable at protocol 82, so they are linked at
 * every version from 83 to 86 (runtime/runtime/src/function_call.rs at 4e3dacc726952f259a9757978ae975c29715ce75
 * makes a contract's receipts `ActionReceiptV2`, which carries `refund_to`, from that feature on). The
 * functions behind `sha3_host_fns` and `ml_dsa_verify_host_fn` are not linked at 85 or 86 (nearcore 2.14 turns
 * them on at 87; see below).
 * This test fails when a name or a signature differs from what our linker offers (host-signatures.ts and
 * imports/).
 *
 * Signatures: parameters, then `->`, then the result; `I` is i64 (Rust u64), `i` is i32 (u32).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { hostFunctionEnabled } from './host-function-gates.js';
import { HOST_SIGNATURES } from './host-signatures.js';
import { hostFunctions } from './imports/host-functions.js';
import { vmConfigFrom } from './vm-config.js';
import { VMLogic } from './vm-logic.js';

const NEARCORE_IMPORTS_PV85: Readonly<Record<string, string>> = {
  // registers
  read_register: 'II->',
  register_len: 'I->I',
  write_register: 'III->',
  // context
  current_account_id: 'I->',
  chain_id: 'I->',
  signer_account_id: 'I->',
  signer_account_pk: 'I->',
  predecessor_account_id: 'I->',
  refund_to_account_id: 'I->',
  input: 'I->',
  block_index: '->I',
  block_timestamp: '->I',
  epoch_height: '->I',
  storage_usage: '->I',
  current_contract_code: 'I->I',
  // economics
  account_balance: 'I->',
  account_locked_balance: 'I->',
  attached_deposit: 'I->',
  prepaid_gas: '->I',
  used_gas: '->I',
  // math
  random_seed: 'I->',
  sha256: 'III->',
  keccak256: 'III->',
  keccak512: 'III->',
  ripemd160: 'III->',
  ecrecover: 'IIIIIII->I',
  ed25519_verify: 'IIIIII->I',
  p256_verify: 'IIIIII->I',
  alt_bn128_g1_multiexp: 'III->',
  alt_bn128_g1_sum: 'III->',
  alt_bn128_pairing_check: 'II->I',
  bls12381_p1_sum: 'III->I',
  bls12381_p2_sum: 'III->I',
  bls12381_g1_multiexp: 'III->I',
  bls12381_g2_multiexp: 'III->I',
  bls12381_map_fp_to_g1: 'III->I',
  bls12381_map_fp2_to_g2: 'III->I',
  bls12381_pairing_check: 'II->I',
  bls12381_p1_decompress: 'III->I',
  bls12381_p2_decompress: 'III->I',
  // miscellaneous
  value_return: 'II->',
  panic: '->',
  panic_utf8: 'II->',
  log_utf8: 'II->',
  log_utf16: 'II->',
  abort: 'iiii->',
  gas: 'i->',
  // promises
  promise_create: 'IIIIIIII->I',
  promise_then: 'IIIIIIIII->I',
  promise_and: 'II->I',
  promise_batch_create: 'II->I',
  promise_batch_then: 'III->I',
  promise_set_refund_to: 'III->',
  promise_return: 'I->',
  // promise actions
  promise_batch_action_create_account: 'I->',
  promise_batch_action_deploy_contract: 'III->',
  promise_batch_action_deploy_global_contract: 'III->',
  promise_batch_action_deploy_global_contract_by_account_id: 'III->',
  promise_batch_action_use_global_contract: 'III->',
  promise_batch_action_use_global_contract_by_account_id: 'III->',
  promise_batch_action_state_init: 'IIII->I',
  promise_batch_action_state_init_by_account_id: 'IIII->I',
  set_state_init_data_entry: 'IIIIII->',
  promise_batch_action_function_call: 'IIIIIII->',
  promise_batch_action_function_call_weight: 'IIIIIIII->',
  promise_batch_action_transfer: 'II->',
  promise_batch_action_stake: 'IIII->',
  promise_batch_action_add_key_with_full_access: 'IIII->',
  promise_batch_action_add_key_with_function_call: 'IIIIIIIII->',
  promise_batch_action_delete_key: 'III->',
  promise_batch_action_delete_account: 'III->',
  promise_batch_action_transfer_to_gas_key: 'IIII->',
  promise_batch_action_add_gas_key_with_full_access: 'IIII->',
  promise_batch_action_add_gas_key_with_function_call: 'IIIIIIIII->',
  // yield / resume
  promise_yield_create: 'IIIIIII->I',
  promise_yield_create_with_id: 'IIIIIIIII->I',
  promise_yield_resume: 'IIII->i',
  promise_yield_resume_with_yield_id: 'IIII->i',
  // promise results
  promise_results_count: '->I',
  promise_result: 'II->I',
  // storage (the three iterator functions are linked but always fail with Deprecated)
  storage_write: 'IIIII->I',
  storage_read: 'III->I',
  storage_remove: 'III->I',
  storage_has_key: 'II->I',
  storage_iter_prefix: 'II->I',
  storage_iter_range: 'IIII->I',
  storage_iter_next: 'III->I',
  // validator
  validator_stake: 'III->',
  validator_total_stake: 'I->',
};

/**
 * What nearcore 2.14 adds at protocol 87 (core/parameters/res/runtime_configs/87.yaml at
 * 0d8e7e07f19fcea9bc39aaa51cb97ce8730c7383 turns on `sha3_host_fns` and `ml_dsa_verify_host_fn`): the FIPS 202
 * hashes with sha256's signature and ML-DSA-65 verification with ed25519_verify's; `universal_accounts` adds
 * the two NEP-655 functions (their signatures as near-sdk 2.14's `env` declares them).
 */
const NEARCORE_IMPORTS_ADDED_PV87: Readonly<Record<string, string>> = {
  sha3_256: 'III->',
  sha3_384: 'III->',
  sha3_512: 'III->',
  ml_dsa_verify: 'IIIIII->I',
  universal_state_init_to_account_id: 'III->',
  promise_batch_action_universal_state_init: 'IIII->',
};

/** Every host function our linker defines at `version`, with its signature. */
function offeredByOurLinker(version?: number): Record<string, string> {
  const config = vmConfigFrom(loadRuntimeConfig(version));
  const functions = hostFunctions(new VMLogic(config), config);
  const offered: Record<string, string> = {};
  for (const [name, sig] of Object.entries(HOST_SIGNATURES)) {
    if (typeof functions[name] === 'function' && hostFunctionEnabled(name, config.hostFunctionSwitches))
      offered[name] = `${sig.params}->${sig.result}`;
  }
  return offered;
}

describe('the host functions linked at protocol 85 and 86 (nearcore imports.rs)', () => {
  it('lists 89 importable functions, as nearcore 2.13 links at protocol 85 and 86', () => {
    assert.equal(Object.keys(NEARCORE_IMPORTS_PV85).length, 89);
  });

  it('offers every name nearcore links, with its signature, and nothing else', () => {
    for (const version of [85, 86]) assert.deepEqual(offeredByOurLinker(version), NEARCORE_IMPORTS_PV85);
  });

  it('offers at 87 the same plus the SHA3, ML-DSA and NEP-655 functions of nearcore 2.14', () => {
    const offered = offeredByOurLinker(87);
    assert.deepEqual(offered, { ...NEARCORE_IMPORTS_PV85, ...NEARCORE_IMPORTS_ADDED_PV87 });
  });

  it('has a host function behind every signature it declares', () => {
    const config = vmConfigFrom(loadRuntimeConfig());
    const functions = hostFunctions(new VMLogic(config), config);
    const missing = Object.keys(HOST_SIGNATURES).filter((name) => typeof functions[name] !== 'function');
    assert.deepEqual(missing, []);
  });

  it('links the NEP-616 functions (DeterministicAccountIds, stable at 82) at every version from 83 to 86', () => {
    for (const version of [83, 84, 85, 86]) {
      const switches = vmConfigFrom(loadRuntimeConfig(version)).hostFunctionSwitches;
      for (const name of ['refund_to_account_id', 'promise_set_refund_to', 'current_contract_code']) {
        assert.ok(hostFunctionEnabled(name, switches), `${name} at ${version}`);
      }
    }
  });
});
