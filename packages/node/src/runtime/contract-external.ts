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
  return new ContractExternal(state, accountId, validatorStakes, options.readOnly === true);
}

/** One object per call, its methods on the prototype: a call makes no closures. */
class ContractExternal implements External {
  constructor(
    private readonly state: StateUpdate,
    private readonly accountId: string,
    private readonly validatorStakes: ReadonlyMap<string, bigint>,
    private readonly readOnly: boolean,
  ) {}

  private writable(): void {
    if (this.readOnly) throw new Error('contract storage is read-only in view calls');
  }

  storageGet(key: Uint8Array): Uint8Array | undefined {
    return this.state.contractData(this.accountId, key);
  }
  storageHas(key: Uint8Array): boolean {
    return this.state.contractData(this.accountId, key) !== undefined;
  }
  storageSet(key: Uint8Array, value: Uint8Array): void {
    this.writable();
    this.state.set(contractDataKey(this.accountId, key), value);
  }
  storageRemove(key: Uint8Array): void {
    this.writable();
    this.state.remove(contractDataKey(this.accountId, key));
  }
  validatorStake(id: string): bigint | undefined {
    return this.validatorStakes.get(id);
  }
  validatorTotalStake(): bigint {
    let total = 0n;
    for (const stake of this.validatorStakes.values()) total += stake;
    return total;
  }
  yieldIsPending(dataId: Uint8Array): boolean {
    return (
      hasPromiseYieldReceipt(this.state, this.accountId, dataId) ||
      hasPromiseYieldStatus(this.state, this.accountId, dataId)
    );
  }
  yieldCreated(dataId: Uint8Array): void {
    this.writable();
    setPromiseYieldStatus(this.state, this.accountId, dataId, 'Yielded');
  }
  yieldResumed(dataId: Uint8Array): void {
    this.writable();
    setPromiseYieldStatus(this.state, this.accountId, dataId, 'ResumeInitiated');
  }
  yieldIdDataId(yieldId: Uint8Array): Uint8Array | undefined {
    return getYieldIdDataId(this.state, this.accountId, yieldId);
  }
  setYieldIdMapping(yieldId: Uint8Array, dataId: Uint8Array): void {
    this.writable();
    setYieldIdMapping(this.state, this.accountId, yieldId, dataId);
  }
  removeYieldIdMappings(dataId: Uint8Array): void {
    this.writable();
    removeYieldIdMappingsOfDataId(this.state, this.accountId, dataId);
  }
}
