/**
 * What every action executor receives: the receipt being executed, its receiver's account (mutable, written
 * back by the receipt executor), the state and the runtime parameters.
 */
import type { ActionReceipt, Receipt } from '@shadebox/primitives';
import type { Account } from '../../state/account.js';
import type { StateUpdate } from '../../state/state-update.js';
import type { ActionResult } from '../action-result.js';
import type { BlockContext, RuntimeParams } from '../runtime-context.js';

export interface ActionContext {
  params: RuntimeParams;
  block: BlockContext;
  state: StateUpdate;
  receipt: Receipt;
  actionReceipt: ActionReceipt;
  /** The receiver's account: `undefined` until created, set to `undefined` when deleted. */
  account: { current: Account | undefined };
  result: ActionResult;
  /** Index of this action in the receipt. */
  actionIndex: number;
  /** The recorded storage proof's size when the receipt started (`EnforcePerReceiptStorageProofLimit`, 86):
   * what a function call's storage-proof limit counts from; absent before 86 (each call counts from its start). */
  storageProofSizeBeforeReceipt?: number;
}
