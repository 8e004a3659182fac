/**
 * Applies one action receipt (or one action) to an in-memory state, without a chain, a store or blocks — the
 * role of the state and receipt fixtures in nearcore's runtime tests (runtime/runtime/src/actions.rs,
 * runtime/runtime/src/lib.rs tests). The protocol-85 parameters, a block of the test's choosing, accounts and
 * keys set up directly in the state; the result is the receipt's execution (status, gas burnt and used,
 * tokens burnt, refunds and new receipts) and the state after it.
 */
import {
  type AccessKey,
  type Action,
  fullAccessKey,
  KEY_TYPE_ED25519,
  ONE_NEAR as NEAR,
  type PublicKey,
  type Receipt,
} from '@shadebox/primitives';
import { loadRuntimeConfig, type RuntimeConfig } from '../../config/runtime-config.js';
import { type Account, newAccount } from '../../state/account.js';
import { StateUpdate } from '../../state/state-update.js';
import { accessKeyStorageUsage } from '../../state/storage-usage.js';
import { getAccessKey, getAccount, setAccessKey, setAccount } from '../../state/typed-state.js';
import { applyActionReceipt, type ReceiptExecution } from '../apply-action-receipt.js';
import type { BlockContext, RuntimeParams } from '../runtime-context.js';
import { runtimeParamsFrom } from '../runtime-params.js';

export { NEAR };

let pv85: RuntimeConfig | undefined;
/** The runtime parameters of protocol 85 (read once), with `overrides` applied. */
export function testRuntimeParams(overrides: Partial<RuntimeParams> = {}): RuntimeParams {
  pv85 ??= loadRuntimeConfig(85);
  return { ...runtimeParamsFrom(pv85), ...overrides };
}

/** A block at height 10 whose gas price is the protocol's minimum (100 000 000 yocto per gas). */
export function testBlock(overrides: Partial<BlockContext> = {}): BlockContext {
  return {
    height: 10n,
    blockHash: new Uint8Array(32).fill(1),
    gasPrice: 100_000_000n,
    timestampNs: 1_700_000_000_000_000_000n,
    epochLength: 43_200n,
    minimumStake: 1n,
    randomValue: new Uint8Array(32).fill(2),
    epochHeight: 1n,
    validatorStakes: new Map(),
    ...overrides,
  };
}

/** A deterministic ed25519 public key (its 32 bytes all `fill`). */
export function testPublicKey(fill = 1): PublicKey {
  return { keyType: KEY_TYPE_ED25519, data: new Uint8Array(32).fill(fill) };
}

export interface ActionReceiptOptions {
  predecessorId?: string;
  receiverId: string;
  signerId?: string;
  signerPublicKey?: PublicKey;
  /** The price the gas was bought at (default the block's). */
  gasPrice?: bigint;
  actions: Action[];
  receiptId?: Uint8Array;
}

type ActionReceiptOf = Parameters<typeof applyActionReceipt>[3];

/** An action receipt as a transaction from `signerId` (default the predecessor) would produce it. */
export function actionReceipt(o: ActionReceiptOptions): ActionReceiptOf {
  const predecessorId = o.predecessorId ?? o.signerId ?? 'alice.near';
  const receipt: Receipt = {
    predecessorId,
    receiverId: o.receiverId,
    receiptId: o.receiptId ?? new Uint8Array(32).fill(3),
    priority: 0n,
    receipt: {
      kind: 'Action',
      signerId: o.signerId ?? predecessorId,
      signerPublicKey: o.signerPublicKey ?? testPublicKey(),
      gasPrice: o.gasPrice ?? 100_000_000n,
      outputDataReceivers: [],
      inputDataIds: [],
      actions: o.actions,
      isPromiseYield: false,
    },
  };
  return receipt as ActionReceiptOf;
}

/** An in-memory state with accounts and keys, on which receipts are applied one at a time. */
export class RuntimeHarness {
  readonly state = new StateUpdate(undefined, -1);

  constructor(
    readonly params: RuntimeParams = testRuntimeParams(),
    readonly block: BlockContext = testBlock(),
  ) {}

  /** Creates `accountId` with `amount` and a full-access `publicKey` (storage usage as the runtime counts it). */
  addAccount(accountId: string, amount: bigint, publicKey: PublicKey = testPublicKey()): Account {
    const key = fullAccessKey();
    const account = newAccount(
      amount,
      this.params.numBytesAccount + accessKeyStorageUsage(this.params, publicKey, key),
    );
    setAccount(this.state, accountId, account);
    setAccessKey(this.state, accountId, publicKey, key);
    this.state.commit({ type: 'initial_state' });
    return account;
  }

  account(accountId: string): Account | undefined {
    return getAccount(this.state, accountId);
  }

  accessKey(accountId: string, publicKey: PublicKey): AccessKey | undefined {
    return getAccessKey(this.state, accountId, publicKey);
  }

  /** Applies one action receipt to the state. */
  apply(receipt: ActionReceiptOf): ReceiptExecution {
    return applyActionReceipt(this.params, this.block, this.state, receipt);
  }

  /** Applies a receipt with one action from `predecessorId` to `receiverId`. */
  applyAction(receiverId: string, action: Action, predecessorId = 'alice.near'): ReceiptExecution {
    return this.apply(actionReceipt({ predecessorId, receiverId, actions: [action] }));
  }
}
