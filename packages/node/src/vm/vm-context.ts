/**
 * What a contract call sees (nearcore `VMContext`) and what it produces (`VMOutcome`).
 */

import type { AccountContract, PublicKey } from '@shadebox/primitives';
import type { GasProfile } from './gas-profile.js';
import type { PromiseResult, ReceiptManager } from './receipt-manager.js';
import type { FunctionCallError } from './vm-errors.js';

export interface VMContext {
  currentAccountId: string;
  signerAccountId: string;
  signerAccountPk: PublicKey;
  predecessorAccountId: string;
  /** Who receives a balance refund of this receipt: its `refund_to`, else the predecessor (nearcore fills
   * `refund_to_account_id` so); absent means the predecessor. */
  refundToAccountId?: string;
  input: Uint8Array;
  promiseResults: PromiseResult[];
  blockHeight: bigint;
  blockTimestamp: bigint;
  epochHeight: bigint;
  accountBalance: bigint;
  accountLockedBalance: bigint;
  storageUsage: bigint;
  attachedDeposit: bigint;
  prepaidGas: bigint;
  randomSeed: Uint8Array;
  /** View calls: no signer, no promises, no writes. */
  isView: boolean;
  /** Receivers of this call's result (only for the last action of a receipt). */
  outputDataReceiverCount: number;
  chainId: string;
  /** The contract the current account has (nearcore `AccountContract`), which `current_contract_code`
   * reports; absent means none. */
  accountContract?: AccountContract;
}

/**
 * What a storage operation of the External charges while it runs (nearcore's `StorageAccessTracker`, which the
 * VM's gas counter implements): the old value's bytes of a write or removal, then the trie nodes the operation
 * retrieved, first-time ones (`TOUCHING_TRIE_NODE`) before cached ones (`READ_CACHED_TRIE_NODE`). Each charge
 * may run out of gas, which ends the operation there.
 */
export interface StorageAccessTracker {
  derefWriteEvictedValueBytes(length: number): void;
  derefRemovedValueBytes(length: number): void;
  trieNodesTouched(count: number): void;
  cachedTrieNodesRead(count: number): void;
}

/** A value found by `storageGet`, read only when dereferenced (nearcore's `ValuePtr`): its length is known
 * first, so a read pays for the bytes before they are fetched. */
export interface StorageValuePtr {
  readonly length: number;
  /** The bytes; their retrieval counts as one more trie access, charged to `tracker`. */
  deref(tracker: StorageAccessTracker): Uint8Array;
}

/** The contract storage and chain facts a call reaches through the host (nearcore's `External`). */
export interface External {
  storageGet(tracker: StorageAccessTracker, key: Uint8Array): StorageValuePtr | undefined;
  /** Writes `value`; returns the value it replaced (charging its bytes and the trie nodes on the way). */
  storageSet(tracker: StorageAccessTracker, key: Uint8Array, value: Uint8Array): Uint8Array | undefined;
  /** Removes the key; returns the value removed (charging its bytes and the trie nodes on the way). */
  storageRemove(tracker: StorageAccessTracker, key: Uint8Array): Uint8Array | undefined;
  storageHas(tracker: StorageAccessTracker, key: Uint8Array): boolean;
  /** nearcore's `get_recorded_storage_size`: the upper bound of the storage proof the chunk recorded so far
   * (0 where nothing records). */
  recordedStorageSize(): number;
  /** What the per-receipt storage-proof limit counts from: the recorded size when the receipt started
   * (`EnforcePerReceiptStorageProofLimit`, 86) or, before that, when this call started (`recordedStorageSize`). */
  storageProofSizeBeforeReceipt(): number;
  validatorStake(accountId: string): bigint | undefined;
  validatorTotalStake(): bigint;
  /** Whether a yielded promise with this data id is waiting on the current account: its receipt is stored, or
   * it was created and its receipt is still on its way (nearcore's `PromiseYieldStatus`). */
  yieldIsPending(dataId: Uint8Array): boolean;
  /** Records a yield just created (status `Yielded`), so a resume before its receipt is stored finds it. */
  yieldCreated(dataId: Uint8Array): void;
  /** Records that a resume of the yield was sent (status `ResumeInitiated`). */
  yieldResumed(dataId: Uint8Array): void;
  /** The data id of the waiting yield created with `yieldId` (`YieldWithId`), if any. */
  yieldIdDataId(yieldId: Uint8Array): Uint8Array | undefined;
  /** Records that the yield waiting on `dataId` was created with `yieldId`. */
  setYieldIdMapping(yieldId: Uint8Array, dataId: Uint8Array): void;
  /** Frees the yield id of the yield waiting on `dataId`. */
  removeYieldIdMappings(dataId: Uint8Array): void;
}

export type ReturnData =
  | { kind: 'None' }
  | { kind: 'Value'; value: Uint8Array }
  | { kind: 'ReceiptIndex'; index: number };

export interface VMOutcome {
  balance: bigint;
  storageUsage: bigint;
  returnData: ReturnData;
  burntGas: bigint;
  usedGas: bigint;
  logs: string[];
  /** yoctoNEAR the one-yocto subsidy added (minted when the receipt succeeds). */
  subsidized: bigint;
  /** Set when the call failed; its state changes and promises must be dropped. */
  error?: FunctionCallError;
  /** Promises and resumes the call created (only meaningful without `error`). */
  receipts: ReceiptManager;
  /** What the burnt gas was spent on (nearcore `ProfileDataV3`; empty for a call that never loaded). */
  profile: GasProfile;
}
