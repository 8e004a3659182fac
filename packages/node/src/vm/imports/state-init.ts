/**
 * The NEP-616 host functions (nearcore logic.rs, enabled at protocol 82 with deterministic account ids):
 * `promise_batch_action_state_init` (the global contract by its 32-byte code hash) and
 * `promise_batch_action_state_init_by_account_id` append a DeterministicStateInit action to a promise's batch
 * and return its action index; `set_state_init_data_entry` adds a data entry to that action.
 *
 * Order as nearcore: base cost, not in views, the arguments read (memory or register), the promise's receipt,
 * then the fees: `deterministic_state_init_base` with the action; `deterministic_state_init_entry` plus
 * `deterministic_state_init_byte` × (key + value bytes) with each entry. The deposit leaves the balance.
 */
import type { GlobalContractIdentifier } from '@shadebox/primitives';
import { setStateInitEntry, stateInit } from '@shadebox/primitives';
import { HostError, hostError } from '../vm-errors.js';
import type { VMLogic } from '../vm-logic.js';

/** An action index that names no DeterministicStateInit action of the receipt. */
const invalidActionIndex = (action_index: bigint) =>
  new HostError('InvalidActionIndex', `${action_index} does not correspond to a state init action`, {
    action_index,
  });

export function stateInitImports(vm: VMLogic) {
  const fees = vm.config.fees;

  /** The receipt a promise index names, and whether it goes to the current account. */
  function receiptOf(promiseIdx: bigint): { index: number; sir: boolean } {
    const p = promiseIdx < BigInt(vm.promises.length) ? vm.promises[Number(promiseIdx)] : undefined;
    if (!p) throw hostError.invalidPromiseIndex(promiseIdx);
    if (p.kind !== 'Receipt') throw hostError.cannotAppendActionToJointPromise();
    return { index: p.index, sir: vm.receipts.receiverOf(p.index) === vm.ctx.currentAccountId };
  }

  function appendStateInit(promiseIdx: bigint, code: GlobalContractIdentifier, amountPtr: bigint): bigint {
    const amount = vm.readU128(amountPtr);
    const { index, sir } = receiptOf(promiseIdx);
    vm.payActionBase(fees.deterministic_state_init_base, sir);
    vm.deductBalance(amount);
    const actions = vm.receipts.actionReceipts[index].actions;
    vm.receipts.append(index, {
      type: 'DeterministicStateInit',
      stateInit: stateInit(code, []),
      deposit: amount,
    });
    return BigInt(actions.length - 1);
  }

  return {
    promise_batch_action_state_init(
      promiseIdx: bigint,
      codeLen: bigint,
      codePtr: bigint,
      amountPtr: bigint,
    ): bigint {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_state_init');
      const codeHash = vm.memoryOrRegister(codePtr, codeLen);
      if (codeHash.length !== 32) throw hostError.contractCodeHashMalformed();
      return appendStateInit(promiseIdx, { kind: 'CodeHash', codeHash: codeHash.slice() }, amountPtr);
    },
    promise_batch_action_state_init_by_account_id(
      promiseIdx: bigint,
      accountIdLen: bigint,
      accountIdPtr: bigint,
      amountPtr: bigint,
    ): bigint {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_state_init_by_account_id');
      const accountId = vm.readAccountId(accountIdPtr, accountIdLen);
      return appendStateInit(promiseIdx, { kind: 'AccountId', accountId }, amountPtr);
    },
    set_state_init_data_entry(
      promiseIdx: bigint,
      actionIdx: bigint,
      keyLen: bigint,
      keyPtr: bigint,
      valueLen: bigint,
      valuePtr: bigint,
    ): void {
      vm.payBase();
      vm.prohibitedInView('set_state_init_data_entry');
      const { index, sir } = receiptOf(promiseIdx);
      const key = vm.memoryOrRegister(keyPtr, keyLen).slice();
      const value = vm.memoryOrRegister(valuePtr, valueLen).slice();
      vm.payActionBase(fees.deterministic_state_init_entry, sir);
      vm.payActionPerByte(fees.deterministic_state_init_byte, BigInt(key.length + value.length), sir);
      const actions = vm.receipts.actionReceipts[index].actions;
      const action = actionIdx < BigInt(actions.length) ? actions[Number(actionIdx)] : undefined;
      if (action?.type !== 'DeterministicStateInit') throw invalidActionIndex(actionIdx);
      setStateInitEntry(action.stateInit, key, value);
    },
  };
}
