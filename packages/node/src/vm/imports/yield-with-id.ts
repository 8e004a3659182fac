/**
 * `promise_yield_create_with_id` and `promise_yield_resume_with_yield_id` (nearcore `YieldWithId`, protocol 85,
 * `yield_with_id_host_fns`): a yield named by a 32-byte id the contract chooses, so that whoever resumes it
 * needs only that id. An id is taken while its yield waits; resuming by id or the timeout frees it.
 *
 * Order of charges and checks as near-vm-runner's logic.rs: `base`, `yield_create_with_id_base` (not
 * `yield_create_base`), the attached amount, method name (EmptyMethodName), arguments and yield id
 * (YieldIdMalformed unless 32 bytes), `yield_create_byte` per method and argument byte; an id already taken
 * returns u64::MAX with nothing more charged; otherwise the yield receipt is created, then the callback's gas
 * is prepaid, the receipt and function-call fees are paid, the amount is attached (one-yocto subsidy
 * included) and the callback appended. Resuming charges like `promise_yield_resume` and answers 0 for an id
 * no waiting yield has.
 */
import { hostError } from '../vm-errors.js';
import type { VMLogic } from '../vm-logic.js';
import { chargeYieldResume } from './yield-resume.js';

const U64_MAX = 2n ** 64n - 1n;
const YIELD_ID_LENGTH = 32;

export interface YieldWithIdHelpers {
  pushPromise(p: { kind: 'Receipt'; index: number }): bigint;
  payForNewReceipt(sir: boolean, dependencySir: boolean[]): void;
}

export function yieldWithIdImports(vm: VMLogic, helpers: YieldWithIdHelpers) {
  const fees = vm.config.fees;
  return {
    promise_yield_create_with_id(
      methodNameLen: bigint,
      methodNamePtr: bigint,
      argsLen: bigint,
      argsPtr: bigint,
      amountPtr: bigint,
      gas: bigint,
      gasWeight: bigint,
      yieldIdLen: bigint,
      yieldIdPtr: bigint,
    ): bigint {
      vm.payBase();
      vm.prohibitedInView('promise_yield_create_with_id');
      vm.gas.payBase(vm.costs.yield_create_with_id_base);
      const amount = vm.readU128(amountPtr);
      const methodBytes = vm.memoryOrRegister(methodNamePtr, methodNameLen);
      if (methodBytes.length === 0) throw hostError.emptyMethodName();
      const args = vm.memoryOrRegister(argsPtr, argsLen);
      const yieldId = vm.memoryOrRegister(yieldIdPtr, yieldIdLen);
      if (yieldId.length !== YIELD_ID_LENGTH) throw hostError.yieldIdMalformed();
      const bytes = BigInt(methodBytes.length + args.length);
      vm.gas.payPer(vm.costs.yield_create_byte, bytes);
      if (vm.ext.yieldIdDataId(yieldId) !== undefined) return U64_MAX;
      const { index, dataId } = vm.receipts.createPromiseYieldReceipt(vm.ctx.currentAccountId);
      vm.ext.setYieldIdMapping(yieldId, dataId);
      vm.ext.yieldCreated(dataId);
      vm.gas.prepay(gas);
      helpers.payForNewReceipt(true, [true]);
      const idx = helpers.pushPromise({ kind: 'Receipt', index });
      vm.payActionBase(fees.function_call_base, true);
      vm.payActionPerByte(fees.function_call_byte, bytes, true);
      vm.attachToPromise(amount);
      const methodName = Buffer.from(methodBytes).toString('utf8');
      vm.receipts.appendFunctionCall(index, methodName, args, amount, gas, gasWeight);
      return idx;
    },
    promise_yield_resume_with_yield_id(
      yieldIdLen: bigint,
      yieldIdPtr: bigint,
      payloadLen: bigint,
      payloadPtr: bigint,
    ): number {
      const { id: yieldId, payload } = chargeYieldResume(
        vm,
        'promise_yield_resume_with_yield_id',
        yieldIdLen,
        yieldIdPtr,
        payloadLen,
        payloadPtr,
      );
      if (yieldId.length !== YIELD_ID_LENGTH) throw hostError.yieldIdMalformed();
      const dataId = vm.ext.yieldIdDataId(yieldId);
      if (dataId === undefined || !vm.ext.yieldIsPending(dataId)) return 0;
      vm.receipts.submitResumeData(dataId, payload);
      vm.ext.yieldResumed(dataId);
      vm.ext.removeYieldIdMappings(dataId);
      return 1;
    },
  };
}
