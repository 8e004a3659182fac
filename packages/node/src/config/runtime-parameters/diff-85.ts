/**
 * Protocol 85 (nearcore 2.13 release candidates; on mainnet 2.13 went from 84 to 86 with this diff in):
 * NEP-642 account cost increase (gas bought at `min_gas_purchase_price`, `account_creation_charge`, account
 * creating actions rebalanced towards execution: near/nearcore#15907, #15914), ML-DSA-65 signature cost
 * (NEP-645), `promise_yield_create_with_id` priced, and the host functions of gas keys, 1 yocto on promises,
 * P-256 verification, yield with id and `chain_id` switched on. core/parameters/res/runtime_configs/85.yaml.
 */
import { fee, type ParameterDiff } from './parameter-data.js';

export const DIFF_85: ParameterDiff = {
  protocolVersion: 85,
  source: 'near/nearcore core/parameters/res/runtime_configs/85.yaml',
  changes: {
    gas_key_host_fns: { old: false, new: true },
    one_yocto_on_promise: { old: false, new: true },
    p256_verify_host_fn: { old: false, new: true },
    yield_with_id_host_fns: { old: false, new: true },
    chain_id_host_fn: { old: false, new: true },
    wasm_yield_create_with_id_base: { old: 300_000_000_000_000n, new: 290_000_000_000n },
    ml_dsa_65_verification_cost: { old: 0n, new: 100_000_000_000n },
    action_create_account: {
      old: fee(3_850_000_000_000n, 3_850_000_000_000n, 3_850_000_000_000n),
      new: fee(500_000_000_000n, 500_000_000_000n, 7_200_000_000_000n),
    },
    action_deterministic_state_init: {
      old: fee(3_850_000_000_000n, 3_850_000_000_000n, 4_080_000_000_000n),
      new: fee(500_000_000_000n, 500_000_000_000n, 7_430_000_000_000n),
    },
    min_gas_purchase_price: { old: 0n, new: 1_000_000_000n },
    account_creation_charge: { old: 0n, new: 7_000_000_000_000_000_000_000n },
  },
};
