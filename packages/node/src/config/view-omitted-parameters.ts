/**
 * The protocol-85 parameters that nearcore's `RuntimeConfigView` leaves out, so that `parameters-pv85.json`
 * (a copy of that view) cannot carry them: the fees of global contracts, deterministic state init and gas
 * keys, the global-contract storage price and distribution compute, and a few limits and switches.
 *
 * Names are nearcore's (`core/parameters/src/parameter.rs` for the YAML names, `cost.rs` `ActionCosts` for
 * the fee keys); values are what `core/parameters/res/runtime_configs/` resolves to at protocol 85:
 * - global contracts (NEP-591): the fees and `global_contract_storage_amount_per_byte` from 77.yaml,
 *   `deploy_global_contract_execution_base/per_byte` from 84.yaml (compute charged when a
 *   `GlobalContractDistribution` receipt is applied);
 * - deterministic state init (NEP-616): per entry and per byte from parameters.yaml; the base fee as 85.yaml
 *   rebalanced it towards execution for NEP-642 (near/nearcore#15914: 0.5/0.5/7.43 Tgas, was 3.85/3.85/4.08);
 * - gas keys (NEP-611): `action_gas_key_transfer`, `action_gas_key_byte`, `action_gas_key_nonce_write_base`
 *   from parameters.yaml (the protocol feature gates them, no diff changes them up to 86);
 * - `max_gas_burnt_view` 1 Pgas (83.yaml), `max_receipt_total_input_size` unlimited (u32::MAX) until 87,
 *   `fix_contract_loading_error` off until 86.
 */
import type { ActionCost, Fee } from './fees.js';

function fee(sendSir: bigint, sendNotSir: bigint, execution: bigint): Fee {
  return Object.freeze({ sendSir, sendNotSir, execution });
}

/** The fees the view has no field for, by nearcore's `ActionCosts` name (YAML name in the comment). */
export const VIEW_OMITTED_FEES_PV85 = Object.freeze({
  // action_deploy_global_contract
  deploy_global_contract_base: fee(184_765_750_000n, 184_765_750_000n, 184_765_750_000n),
  // action_deploy_global_contract_per_byte
  deploy_global_contract_byte: fee(6_812_999n, 47_683_715n, 70_000_000n),
  // action_use_global_contract
  use_global_contract_base: fee(184_765_750_000n, 184_765_750_000n, 184_765_750_000n),
  // action_use_global_contract_per_identifier_byte
  use_global_contract_byte: fee(6_812_999n, 47_683_715n, 64_572_944n),
  // action_deterministic_state_init
  deterministic_state_init_base: fee(500_000_000_000n, 500_000_000_000n, 7_430_000_000_000n),
  // action_deterministic_state_init_per_byte
  deterministic_state_init_byte: fee(72_000_000n, 72_000_000n, 70_000_000n),
  // action_deterministic_state_init_per_entry
  deterministic_state_init_entry: fee(0n, 0n, 200_000_000_000n),
  // action_gas_key_transfer
  gas_key_transfer_base: fee(115_123_062_500n, 115_123_062_500n, 235_676_644_250n),
  // action_gas_key_byte
  gas_key_byte: fee(59_357_464n, 59_357_464n, 101_435_400n),
  // action_gas_key_nonce_write_base
  gas_key_nonce_write_base: fee(0n, 0n, 64_196_736_000n),
} satisfies Partial<Record<ActionCost, Fee>>);

export type ViewOmittedActionCost = keyof typeof VIEW_OMITTED_FEES_PV85;

/** The scalars the view has no field for (yoctoNEAR and gas as bigint, sizes as numbers). */
export const VIEW_OMITTED_SCALARS_PV85 = Object.freeze({
  /** `global_contract_storage_amount_per_byte`: yocto burnt per byte of code deployed as a global contract. */
  globalContractStorageAmountPerByte: 100_000_000_000_000_000_000n,
  /** `deploy_global_contract_execution_base`: compute of applying a global-contract distribution receipt. */
  deployGlobalContractExecutionBase: 20_000_000_000_000n,
  /** `deploy_global_contract_execution_per_byte`: its compute per byte of code. */
  deployGlobalContractExecutionPerByte: 250_000_000n,
  /** `max_gas_burnt_view`: gas limit of a view call. */
  maxGasBurntView: 1_000_000_000_000_000n,
  /** `max_receipt_total_input_size`: bytes of promise input a receipt may receive in total. */
  maxReceiptTotalInputSize: 4_294_967_295,
  /** `fix_contract_loading_error`: a module that fails to load is charged loading gas (86 on). */
  fixContractLoadingError: false,
});
