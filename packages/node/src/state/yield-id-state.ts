/**
 * The two maps of yields created with an id of the contract's choosing (nearcore `YieldWithId`, trie columns
 * `YieldIdToDataId` = 22 and `DataIdToYieldId` = 23, each keyed `column ‖ account ‖ ',' ‖ 32-byte id` and
 * holding the other 32-byte id). A yield id is in use while its yield waits; resuming it by id or its timeout
 * frees it.
 */
import { accountRecordKey } from './state-keys.js';
import type { StateUpdate } from './state-update.js';

export const YIELD_ID_TO_DATA_ID = 22;
export const DATA_ID_TO_YIELD_ID = 23;

export function getYieldIdDataId(
  state: StateUpdate,
  accountId: string,
  yieldId: Uint8Array,
): Uint8Array | undefined {
  return state.get(accountRecordKey(YIELD_ID_TO_DATA_ID, accountId, yieldId));
}

export function setYieldIdMapping(
  state: StateUpdate,
  accountId: string,
  yieldId: Uint8Array,
  dataId: Uint8Array,
): void {
  state.set(accountRecordKey(YIELD_ID_TO_DATA_ID, accountId, yieldId), Uint8Array.from(dataId));
  state.set(accountRecordKey(DATA_ID_TO_YIELD_ID, accountId, dataId), Uint8Array.from(yieldId));
}

/** Frees the yield id of the yield waiting on `dataId`, if it was created with one. */
export function removeYieldIdMappingsOfDataId(
  state: StateUpdate,
  accountId: string,
  dataId: Uint8Array,
): void {
  const reverse = accountRecordKey(DATA_ID_TO_YIELD_ID, accountId, dataId);
  const yieldId = state.get(reverse);
  if (!yieldId) return;
  state.remove(reverse);
  state.remove(accountRecordKey(YIELD_ID_TO_DATA_ID, accountId, yieldId));
}
