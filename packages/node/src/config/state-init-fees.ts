/**
 * The send/exec gas of DeterministicStateInit (nearcore runtime/runtime/src/config.rs `fee`):
 * `deterministic_state_init_base` + `deterministic_state_init_entry` × entries +
 * `deterministic_state_init_byte` × the bytes of all keys and values. The host functions that build the
 * action charge the same parts as they go (the base with the action, entry and bytes with each entry).
 */
import { type Action, stateInitDataBytes } from '@shadebox/primitives';
import type { Fee, FeeTable } from './fees.js';

type StateInitAction = Extract<Action, { type: 'DeterministicStateInit' }>;

export function stateInitActionFee(
  fees: FeeTable,
  action: StateInitAction,
  pick: (f: Fee) => bigint,
): bigint {
  return (
    pick(fees.deterministic_state_init_base) +
    pick(fees.deterministic_state_init_entry) * BigInt(action.stateInit.data.length) +
    pick(fees.deterministic_state_init_byte) * stateInitDataBytes(action.stateInit)
  );
}
