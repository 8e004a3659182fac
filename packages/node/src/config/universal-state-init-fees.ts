/**
 * The send/exec gas of UniversalStateInit (NEP-655, protocol 87): `universal_state_init_base` +
 * `universal_state_init_entry` × entries + `universal_state_init_byte` × the payload's own length, plus one
 * `add_full_access_key` per key the state init commits to (nearcore prices each committed key as a full AddKey;
 * `state_init_counts`: a payload that does not decode counts no entries and no keys, but its bytes are priced).
 *
 * The three `universal_state_init_*` fees are parameters of protocol 87 (runtime-parameters, from nearcore's
 * `action_universal_state_init`, `…_per_entry`, `…_per_byte`). While the store does not have them they are
 * priced as the deterministic state init's (docs/deviations.md).
 */
import { type Action, universalStateInitCounts } from '@shadebox/primitives';
import type { Fee, FeeTable } from './fees.js';

type UniversalStateInitAction = Extract<Action, { type: 'UniversalStateInit' }>;

/** The three fees of the action (the host function `promise_batch_action_universal_state_init` charges them). */
export function universalStateInitFees(fees: FeeTable): { base: Fee; entry: Fee; byte: Fee } {
  const table = fees as Partial<Record<string, Fee>>;
  return {
    base: table.universal_state_init_base ?? fees.deterministic_state_init_base,
    entry: table.universal_state_init_entry ?? fees.deterministic_state_init_entry,
    byte: table.universal_state_init_byte ?? fees.deterministic_state_init_byte,
  };
}

export function universalStateInitActionFee(
  fees: FeeTable,
  action: UniversalStateInitAction,
  pick: (f: Fee) => bigint,
): bigint {
  const counts = universalStateInitCounts(action.stateInit);
  const f = universalStateInitFees(fees);
  return (
    pick(f.base) +
    pick(f.entry) * BigInt(counts.numEntries) +
    pick(f.byte) * BigInt(counts.numBytes) +
    pick(fees.add_full_access_key) * BigInt(counts.numKeys)
  );
}
