/**
 * A read-only contract call on the state as of a block (nearcore runtime/src/state_viewer `call_function`):
 * the contract is its own signer and predecessor with an empty ED25519 key, attaches nothing, pays no gas
 * price, may burn up to `max_gas_burnt` (the view limit), and draws its random seed from the state root.
 * Writes and promises fail with `ProhibitedInView`. A failed call is not an error of the viewer: it returns
 * "wasm execution failed with error: " and the VM error's debug form, as nearcore's viewer does.
 */
import type { Account } from '../../state/account.js';
import type { StateUpdate } from '../../state/state-update.js';
import { runContract } from '../../vm/run-contract.js';
import type { FunctionCallError } from '../../vm/vm-errors.js';
import { accountContractOf } from '../account-contract.js';
import { accountContractCode } from '../account-contract-code.js';
import { contractExternal } from '../contract-external.js';
import type { RuntimeParams } from '../runtime-context.js';

/** The block a view runs at (nearcore's `ViewApplyState`). */
export interface ViewApplyState {
  /** The state as of the block (read only). */
  state: StateUpdate;
  params: RuntimeParams;
  blockHeight: bigint;
  blockTimestamp: bigint;
  epochHeight: bigint;
  /** 32 bytes: the view's random seed (the shard's state root). */
  randomSeed: Uint8Array;
  validatorStakes: ReadonlyMap<string, bigint>;
  /** The account's shard (which copy of a global contract it runs); 0 when absent. */
  shardId?: number;
}

export type CallFunctionResult =
  | { result: Uint8Array; logs: string[] }
  /** `vmError`: the error itself, for EXPERIMENTAL_call_function's structured answer. */
  | { error: string; vmError: FunctionCallError };

const EMPTY_ED25519 = { keyType: 0 as const, data: new Uint8Array(32) };

export function callFunction(
  view: ViewApplyState,
  accountId: string,
  account: Account,
  method: string,
  args: Uint8Array,
): CallFunctionResult {
  const { state, params } = view;
  const contract = accountContractCode(state, view.shardId ?? 0, accountId, account);
  const out = runContract({
    codeHash: contract?.codeHash ?? account.codeHash,
    code: contract?.code ?? (() => undefined),
    method,
    context: {
      currentAccountId: accountId,
      signerAccountId: accountId,
      signerAccountPk: EMPTY_ED25519,
      predecessorAccountId: accountId,
      input: args,
      promiseResults: [],
      blockHeight: view.blockHeight,
      blockTimestamp: view.blockTimestamp,
      epochHeight: view.epochHeight,
      accountBalance: account.amount,
      accountLockedBalance: account.locked,
      storageUsage: account.storageUsage,
      attachedDeposit: 0n,
      prepaidGas: params.vm.config.maxGasBurnt,
      randomSeed: view.randomSeed,
      isView: true,
      outputDataReceiverCount: 0,
      chainId: params.chainId,
      accountContract: accountContractOf(account),
    },
    config: params.vm.config,
    ext: contractExternal(state, accountId, view.validatorStakes, { readOnly: true }),
    actionHash: new Uint8Array(32),
    cache: params.vm.cache,
  });
  if (out.error)
    return { error: `wasm execution failed with error: ${out.error.debug()}`, vmError: out.error };
  const value = out.returnData.kind === 'Value' ? out.returnData.value : new Uint8Array(0);
  return { result: value, logs: out.logs };
}
