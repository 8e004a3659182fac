/**
 * The VM's window on the state for one account (nearcore runtime/src/ext.rs `RuntimeExt`): its contract data,
 * the validators' stakes and its waiting yields. Writes go to the receipt's pending state layer, so a failed
 * receipt drops them with everything else.
 */
import {
  hasPromiseYieldReceipt,
  hasPromiseYieldStatus,
  setPromiseYieldStatus,
} from '../state/receipt-state.js';
import { contractDataKey } from '../state/state-keys.js';
import type { StateUpdate } from '../state/state-update.js';
import {
  getYieldIdDataId,
  removeYieldIdMappingsOfDataId,
  setYieldIdMapping,
} from '../state/yield-id-state.js';
import type { External } from '../vm/vm-context.js';

export function contractExternal(
  state: StateUpdate,
  accountId: string,
  validatorStakes: ReadonlyMap<string, bigint>,
  options: { readOnly?: boolean } = {},
): External {
  const key = (k: Uint8Array) => contractDataKey(accountId, k);
  const readOnly = () => {
    throw new Error('contract storage is read-only in view calls');
  };
  return {
    storageGet: (k) => state.contractData(accountId, k),
    storageHas: (k) => state.has(key(k)),
    storageSet: options.readOnly ? readOnly : (k, v) => state.set(key(k), v),
    storageRemove: options.readOnly ? readOnly : (k) => state.remove(key(k)),
    validatorStake: (id) => validatorStakes.get(id),
    validatorTotalStake: () => [...validatorStakes.values()].reduce((a, b) => a + b, 0n),
    yieldIsPending: (dataId) =>
      hasPromiseYieldReceipt(state, accountId, dataId) || hasPromiseYieldStatus(state, accountId, dataId),
    yieldCreated: options.readOnly
      ? readOnly
      : (dataId) => setPromiseYieldStatus(state, accountId, dataId, 'Yielded'),
    yieldResumed: options.readOnly
      ? readOnly
      : (dataId) => setPromiseYieldStatus(state, accountId, dataId, 'ResumeInitiated'),
    yieldIdDataId: (yieldId) => getYieldIdDataId(state, accountId, yieldId),
    setYieldIdMapping: options.readOnly
      ? readOnly
      : (yieldId, dataId) => setYieldIdMapping(state, accountId, yieldId, dataId),
    removeYieldIdMappings: options.readOnly
      ? readOnly
      : (dataId) => removeYieldIdMappingsOfDataId(state, accountId, dataId),
  };
}
