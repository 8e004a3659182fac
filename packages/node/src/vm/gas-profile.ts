/**
 * The gas profile of a contract call (nearcore `ProfileDataV3`, core/primitives/src/profile_v3.rs): gas by
 * action cost (the send fees the call paid for the receipts it created), gas by host-function cost, and the
 * gas of Wasm instructions, which is what is left of the burnt gas once the two others are taken out.
 *
 * Kept cheap: one array per kind, indexed by cost, filled in place; a host call adds to one slot.
 */
import { ACTION_COSTS, type ActionCost, type Fee, type FeeTable } from '../config/fees.js';
import { EXT_COSTS, type ExtCost } from '../config/runtime-config.js';

export interface GasProfile {
  /** By the index of the cost in `ACTION_COSTS`. */
  readonly actions: bigint[];
  /** By the index of the cost in `EXT_COSTS`. */
  readonly ext: bigint[];
  wasm: bigint;
}

export const ACTION_COST_INDEX: Readonly<Record<ActionCost, number>> = Object.fromEntries(
  ACTION_COSTS.map((name, i) => [name, i]),
) as Record<ActionCost, number>;
export const EXT_COST_INDEX: Readonly<Record<ExtCost, number>> = Object.fromEntries(
  EXT_COSTS.map((name, i) => [name, i]),
) as Record<ExtCost, number>;

export function emptyGasProfile(): GasProfile {
  return {
    actions: new Array<bigint>(ACTION_COSTS.length).fill(0n),
    ext: new Array<bigint>(EXT_COSTS.length).fill(0n),
    wasm: 0n,
  };
}

/** Adds `other` into `into` (nearcore `ProfileDataV3::merge`). */
export function mergeGasProfile(into: GasProfile, other: GasProfile): void {
  for (let i = 0; i < into.actions.length; i++) into.actions[i] += other.actions[i];
  for (let i = 0; i < into.ext.length; i++) into.ext[i] += other.ext[i];
  into.wasm += other.wasm;
}

/** Gas of the Wasm instructions: the burnt gas the profile does not account for (never below 0). */
export function setWasmGas(profile: GasProfile, burnt: bigint): void {
  let accounted = 0n;
  for (const gas of profile.actions) accounted += gas;
  for (const gas of profile.ext) accounted += gas;
  profile.wasm = burnt > accounted ? burnt - accounted : 0n;
}

/**
 * Where the gas counter records a call's profile. A host function reads its cost from the VM's cost table;
 * the table's getters note which cost was read (`pendingExt`), and the next `payBase`/`payPer` books the gas
 * there. Action fees are booked by the identity of the `Fee` object taken from the fee table.
 */
export class ProfileRecorder {
  profile: GasProfile = emptyGasProfile();
  pendingExt = -1;
  private readonly feeIndex = new Map<Fee, number>();

  constructor(fees: FeeTable) {
    for (const name of ACTION_COSTS) this.feeIndex.set(fees[name], ACTION_COST_INDEX[name]);
  }

  /** The `ActionCosts` index of a fee of the table (-1 for a fee from elsewhere). */
  actionOf(fee: Fee): number {
    return this.feeIndex.get(fee) ?? -1;
  }

  /** A cost table whose every read notes the cost for the next charge (made once per VM). */
  taggedCosts<T extends Readonly<Record<ExtCost, bigint>>>(costs: T): T {
    const tagged = {} as Record<string, bigint>;
    EXT_COSTS.forEach((name, i) => {
      const value = costs[name];
      Object.defineProperty(tagged, name, {
        enumerable: true,
        get: () => {
          this.pendingExt = i;
          return value;
        },
      });
    });
    return Object.freeze(tagged) as T;
  }
}

export interface CostGasUsedView {
  cost_category: 'ACTION_COST' | 'WASM_HOST_COST';
  cost: string;
  gas_used: string;
}

/**
 * nearcore's `ExecutionMetadataView` entries of a V3/V4 profile: every action cost and host-function cost
 * with gas, by its `ActionCosts`/`ExtCosts` name in capitals, plus `WASM_INSTRUCTION` (a host cost "for
 * historical reasons"); zero entries left out; sorted by category, then name.
 */
export function gasProfileView(profile: GasProfile | undefined): CostGasUsedView[] {
  const costs: CostGasUsedView[] = [];
  if (!profile) return costs;
  ACTION_COSTS.forEach((name, i) => {
    const gas = profile.actions[i];
    if (gas > 0n)
      costs.push({ cost_category: 'ACTION_COST', cost: name.toUpperCase(), gas_used: gas.toString() });
  });
  if (profile.wasm > 0n) {
    costs.push({
      cost_category: 'WASM_HOST_COST',
      cost: 'WASM_INSTRUCTION',
      gas_used: profile.wasm.toString(),
    });
  }
  EXT_COSTS.forEach((name, i) => {
    const gas = profile.ext[i];
    if (gas > 0n)
      costs.push({ cost_category: 'WASM_HOST_COST', cost: name.toUpperCase(), gas_used: gas.toString() });
  });
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return costs.sort((a, b) => order(a.cost_category, b.cost_category) || order(a.cost, b.cost));
}

/** The action cost a one-charge action fee is booked under, as nearcore's host functions book it (the
 * transfer to an implicit account, with its account and key, under `transfer`); -1 when none. */
export function actionCostOf(action: { type: string; accessKey?: { permission: { kind: string } } }): number {
  switch (action.type) {
    case 'CreateAccount':
      return ACTION_COST_INDEX.create_account;
    case 'DeleteAccount':
      return ACTION_COST_INDEX.delete_account;
    case 'DeployContract':
      return ACTION_COST_INDEX.deploy_contract_base;
    case 'FunctionCall':
      return ACTION_COST_INDEX.function_call_base;
    case 'Transfer':
      return ACTION_COST_INDEX.transfer;
    case 'Stake':
      return ACTION_COST_INDEX.stake;
    case 'AddKey': {
      const kind = action.accessKey?.permission.kind;
      return kind === 'FullAccess' || kind === 'GasKeyFullAccess'
        ? ACTION_COST_INDEX.add_full_access_key
        : ACTION_COST_INDEX.add_function_call_key_base;
    }
    case 'DeleteKey':
      return ACTION_COST_INDEX.delete_key;
    case 'Delegate':
    case 'DelegateV2':
      return ACTION_COST_INDEX.delegate;
    case 'DeployGlobalContract':
      return ACTION_COST_INDEX.deploy_global_contract_base;
    case 'UseGlobalContract':
      return ACTION_COST_INDEX.use_global_contract_base;
    case 'DeterministicStateInit':
      return ACTION_COST_INDEX.deterministic_state_init_base;
    case 'TransferToGasKey':
    case 'WithdrawFromGasKey':
      return ACTION_COST_INDEX.gas_key_transfer_base;
    default:
      return -1;
  }
}
