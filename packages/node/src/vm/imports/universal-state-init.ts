/**
 * The NEP-655 host functions (nearcore 2.14, behind `universal_accounts`, on from protocol 87):
 *
 * - `universal_state_init_to_account_id(len, ptr, register_id)`: the `0u…` id of the state-init bytes (memory or
 *   register) into a register: SHA3-256 over the bytes exactly as given, never a re-encoding. Pays `base`,
 *   `universal_state_init_to_account_id_base`, the read, then `universal_state_init_to_account_id_byte` per byte.
 * - `promise_batch_action_universal_state_init(promise_index, len, ptr, amount_ptr)`: appends a
 *   UniversalStateInit carrying those bytes verbatim and the u128 deposit to a promise's batch. Not in views.
 *   Pays the action's send fee as the action is priced when it executes: base, per entry and per byte of the
 *   payload, and one `add_full_access_key` per committed key (universal-state-init-fees.ts; bytes that do not
 *   decode count no entry and no key). The deposit leaves the balance.
 *
 * Neither checks that the bytes decode or that the promise's receiver is their id: the new receipt's validation
 * does (`MalformedUniversalStateInit`, `InvalidUniversalStateInitReceiver`), failing the calling function.
 */
import { universalAccountIdOfRaw, universalStateInitCounts } from '@shadebox/primitives';
import { universalStateInitFees } from '../../config/universal-state-init-fees.js';
import { hostError } from '../vm-errors.js';
import type { VMLogic } from '../vm-logic.js';

export function universalStateInitImports(vm: VMLogic) {
  const c = vm.costs;
  const fees = vm.config.fees;

  return {
    universal_state_init_to_account_id(len: bigint, ptr: bigint, registerId: bigint): void {
      vm.payBase();
      vm.gas.payBase(c.universal_state_init_to_account_id_base);
      const raw = vm.memoryOrRegister(ptr, len);
      vm.gas.payPer(c.universal_state_init_to_account_id_byte, BigInt(raw.length));
      vm.registers.set(registerId, Buffer.from(universalAccountIdOfRaw(raw), 'utf8'));
    },
    promise_batch_action_universal_state_init(
      promiseIdx: bigint,
      len: bigint,
      ptr: bigint,
      amountPtr: bigint,
    ): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_universal_state_init');
      const raw = vm.memoryOrRegister(ptr, len).slice();
      const amount = vm.readU128(amountPtr);
      const p = promiseIdx < BigInt(vm.promises.length) ? vm.promises[Number(promiseIdx)] : undefined;
      if (!p) throw hostError.invalidPromiseIndex(promiseIdx);
      if (p.kind !== 'Receipt') throw hostError.cannotAppendActionToJointPromise();
      const sir = vm.receipts.receiverOf(p.index) === vm.ctx.currentAccountId;
      const counts = universalStateInitCounts(raw);
      const f = universalStateInitFees(fees);
      vm.payActionBase(f.base, sir);
      vm.payActionPerByte(f.entry, BigInt(counts.numEntries), sir);
      vm.payActionPerByte(f.byte, BigInt(counts.numBytes), sir);
      vm.payActionPerByte(fees.add_full_access_key, BigInt(counts.numKeys), sir);
      vm.deductBalance(amount);
      vm.receipts.append(p.index, { type: 'UniversalStateInit', stateInit: raw, deposit: amount });
    },
  };
}
