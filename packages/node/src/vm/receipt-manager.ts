/**
 * The receipts a contract call creates (nearcore runtime/src/receipt_manager.rs): one entry per promise with
 * its actions, the data it waits for and the data it sends; resumes of yielded promises; and the gas weights
 * that share the call's unused gas among weighted function calls once the call ends.
 */
import { type Action, createDataId, type PublicKey } from '@shadebox/primitives';

export type PromiseResult =
  | { kind: 'NotReady' }
  | { kind: 'Successful'; data: Uint8Array }
  | { kind: 'Failed' };

export interface NewReceipt {
  receiverId: string;
  actions: Action[];
  /** Data ids this receipt waits for. */
  inputDataIds: Uint8Array[];
  /** Where this receipt's result goes. */
  outputDataReceivers: Array<{ dataId: Uint8Array; receiverId: string }>;
  isPromiseYield: boolean;
  /** Where a balance refund of this receipt goes instead of the current account (`promise_set_refund_to`). */
  refundTo?: string;
}

export interface NewDataReceipt {
  dataId: Uint8Array;
  data: Uint8Array;
  isPromiseResume: boolean;
}

export class ReceiptManager {
  readonly actionReceipts: NewReceipt[] = [];
  readonly dataReceipts: NewDataReceipt[] = [];
  /** Weighted function calls: receipt index, action index, weight. */
  private readonly weighted: Array<{ receipt: number; action: number; weight: bigint }> = [];
  private dataCount = 0;

  constructor(
    private readonly actionHash: Uint8Array,
    private readonly blockHeight: bigint,
  ) {}

  receiverOf(receiptIndex: number): string {
    return this.actionReceipts[receiptIndex].receiverId;
  }

  private newDataId(): Uint8Array {
    return createDataId(this.actionHash, this.blockHeight, this.dataCount++);
  }

  /** A receipt to `receiverId` that runs after the receipts `dependsOn` (their results become its inputs). */
  createActionReceipt(dependsOn: number[], receiverId: string): number {
    const inputDataIds: Uint8Array[] = [];
    for (const index of dependsOn) {
      const dataId = this.newDataId();
      this.actionReceipts[index].outputDataReceivers.push({ dataId, receiverId });
      inputDataIds.push(dataId);
    }
    this.actionReceipts.push({
      receiverId,
      actions: [],
      inputDataIds,
      outputDataReceivers: [],
      isPromiseYield: false,
    });
    return this.actionReceipts.length - 1;
  }

  /** A receipt to the current account waiting for one data id, delivered by a resume or the timeout. */
  createPromiseYieldReceipt(receiverId: string): { index: number; dataId: Uint8Array } {
    const dataId = this.newDataId();
    this.actionReceipts.push({
      receiverId,
      actions: [],
      inputDataIds: [dataId],
      outputDataReceivers: [],
      isPromiseYield: true,
    });
    return { index: this.actionReceipts.length - 1, dataId };
  }

  setRefundTo(receiptIndex: number, accountId: string): void {
    this.actionReceipts[receiptIndex].refundTo = accountId;
  }

  submitResumeData(dataId: Uint8Array, data: Uint8Array): void {
    this.dataReceipts.push({ dataId, data, isPromiseResume: true });
  }

  append(receiptIndex: number, action: Action): void {
    this.actionReceipts[receiptIndex].actions.push(action);
  }

  appendFunctionCall(
    receiptIndex: number,
    methodName: string,
    args: Uint8Array,
    deposit: bigint,
    gas: bigint,
    weight: bigint,
  ): void {
    const actions = this.actionReceipts[receiptIndex].actions;
    if (weight > 0n) this.weighted.push({ receipt: receiptIndex, action: actions.length, weight });
    actions.push({ type: 'FunctionCall', methodName, args, gas, deposit });
  }

  appendAddKey(
    receiptIndex: number,
    publicKey: PublicKey,
    nonce: bigint,
    permission: AddKeyPermission,
  ): void {
    this.append(receiptIndex, { type: 'AddKey', publicKey, accessKey: { nonce, permission } });
  }

  /** Share `unused` gas among weighted calls: floor(unused·w/Σw) each, the remainder to the last one.
   * Returns the gas handed out. */
  distributeUnusedGas(unused: bigint): bigint {
    if (this.weighted.length === 0 || unused === 0n) return 0n;
    const total = this.weighted.reduce((sum, w) => sum + w.weight, 0n);
    let distributed = 0n;
    this.weighted.forEach((w, i) => {
      const share = i === this.weighted.length - 1 ? unused - distributed : (unused * w.weight) / total;
      const action = this.actionReceipts[w.receipt].actions[w.action];
      if (action.type === 'FunctionCall') action.gas += share;
      distributed += share;
    });
    return distributed;
  }
}

type AddKeyPermission = Extract<Action, { type: 'AddKey' }>['accessKey']['permission'];
