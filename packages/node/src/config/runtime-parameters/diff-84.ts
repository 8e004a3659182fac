/**
 * Protocol 84 (nearcore 2.12): the Wasmtime engine with reference types and bulk memory, the contract
 * limits of preparation v3, linear-op costs for bulk-memory instructions, at most 10 deploys per receipt,
 * and the compute of a global contract's distribution. core/parameters/res/runtime_configs/84.yaml (its
 * `{gas, compute}` execution costs of `action_deploy_contract*` change compute only, not kept here).
 */
import type { ParameterDiff } from './parameter-data.js';

export const DIFF_84: ParameterDiff = {
  protocolVersion: 84,
  source: 'near/nearcore core/parameters/res/runtime_configs/84.yaml',
  changes: {
    reftypes_bulk_memory: { old: false, new: true },
    vm_kind: { old: 'NearVm', new: 'Wasmtime' },
    wasm_linear_op_base_cost: { old: 300_000_000_000_000n, new: 26_328_192n },
    wasm_linear_op_unit_cost: { old: 300_000_000_000_000n, new: 822_756n },
    max_function_body_size: { new: 196_608n },
    max_instrumented_code_size: { new: 16_777_216n },
    max_blocks_per_function: { new: 5_000n },
    max_blocks_per_contract: { new: 50_000n },
    max_types_per_contract: { new: 1_024n },
    max_deploy_actions_per_receipt: { old: 100n, new: 10n },
    max_params_per_contract: { new: 50_000n },
    max_params_per_function: { new: 64n },
    deploy_global_contract_execution_base: { old: 0n, new: 20_000_000_000_000n },
    deploy_global_contract_execution_per_byte: { old: 0n, new: 250_000_000n },
    max_operand_stack_bytes_per_function: { new: 8_192n },
  },
};
