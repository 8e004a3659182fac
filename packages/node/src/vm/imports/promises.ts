/**
 * Host functions for promises (nearcore logic.rs "promises API", "promise API actions", yield/resume and
 * promise results). Creating a receipt pays its action-receipt fee (plus data-receipt fees for each
 * dependency); each action pays its send fee now and reserves its execution fee; attached gas is reserved
 * for the callee; attached deposits leave the call's balance.
 */
import {
  type Action,
  type GlobalContractDeployMode,
  type GlobalContractIdentifier,
  globalContractIdentifierLength,
} from '@shadebox/primitives';
import { execFee, sendFee, totalSendFees } from '../../config/fees.js';
import { ACTION_COST_INDEX, actionCostOf } from '../gas-profile.js';
import { hostError } from '../vm-errors.js';
import type { VMLogic } from '../vm-logic.js';
import { gasKeyImports } from './gas-keys.js';
import { chargeYieldResume } from './yield-resume.js';
import { yieldWithIdImports } from './yield-with-id.js';

export function promiseImports(vm: VMLogic) {
  const fees = vm.config.fees;
  const limits = vm.config.limits;

  function pushPromise(p: (typeof vm.promises)[number]): bigint {
    vm.promises.push(p);
    const limit = BigInt(limits.maxPromisesPerFunctionCallAction);
    if (BigInt(vm.promises.length) > limit)
      throw hostError.numberPromisesExceeded(BigInt(vm.promises.length), limit);
    return BigInt(vm.promises.length - 1);
  }

  /** The action-receipt fee, plus creation and execution of a data receipt per dependency. */
  function payForNewReceipt(sir: boolean, dependencySir: boolean[]): void {
    const r = fees.new_action_receipt;
    const d = fees.new_data_receipt_base;
    let burn = sendFee(r, sir);
    for (const depSir of dependencySir) burn += sendFee(d, depSir) + d.execution;
    // nearcore books the data receipts under new_action_receipt too (`pay_gas_for_new_receipt`).
    vm.gas.deductAction(ACTION_COST_INDEX.new_action_receipt, burn, burn + r.execution);
  }

  function promiseOf(idx: bigint) {
    const p = idx < BigInt(vm.promises.length) ? vm.promises[Number(idx)] : undefined;
    if (!p) throw hostError.invalidPromiseIndex(idx);
    return p;
  }

  /** The receipt a promise index names, and whether it goes to the current account. */
  function receiptOf(idx: bigint): { index: number; sir: boolean } {
    const p = promiseOf(idx);
    if (p.kind !== 'Receipt') throw hostError.cannotAppendActionToJointPromise();
    return { index: p.index, sir: vm.receipts.receiverOf(p.index) === vm.ctx.currentAccountId };
  }

  function batchCreate(accountIdLen: bigint, accountIdPtr: bigint, name: string): bigint {
    vm.payBase();
    vm.prohibitedInView(name);
    const accountId = vm.readAccountId(accountIdPtr, accountIdLen);
    payForNewReceipt(accountId === vm.ctx.currentAccountId, []);
    return pushPromise({ kind: 'Receipt', index: vm.receipts.createActionReceipt([], accountId) });
  }

  function batchThen(promiseIdx: bigint, accountIdLen: bigint, accountIdPtr: bigint, name: string): bigint {
    vm.payBase();
    vm.prohibitedInView(name);
    const accountId = vm.readAccountId(accountIdPtr, accountIdLen);
    const p = promiseOf(promiseIdx);
    const deps = p.kind === 'Receipt' ? [p.index] : p.indices;
    payForNewReceipt(
      accountId === vm.ctx.currentAccountId,
      deps.map((i) => vm.receipts.receiverOf(i) === accountId),
    );
    return pushPromise({ kind: 'Receipt', index: vm.receipts.createActionReceipt(deps, accountId) });
  }

  function functionCall(
    name: string,
    promiseIdx: bigint,
    methodNameLen: bigint,
    methodNamePtr: bigint,
    argsLen: bigint,
    argsPtr: bigint,
    amountPtr: bigint,
    gas: bigint,
    weight: bigint,
  ): void {
    vm.payBase();
    vm.prohibitedInView(name);
    const amount = vm.readU128(amountPtr);
    const methodBytes = vm.memoryOrRegister(methodNamePtr, methodNameLen);
    if (methodBytes.length === 0) throw hostError.emptyMethodName();
    const args = vm.memoryOrRegister(argsPtr, argsLen);
    const { index, sir } = receiptOf(promiseIdx);
    const bytes = BigInt(methodBytes.length + args.length);
    vm.payActionBase(fees.function_call_base, sir);
    vm.payActionPerByte(fees.function_call_byte, bytes, sir);
    vm.gas.prepay(gas);
    vm.attachToPromise(amount);
    // Method names travel as strings; invalid UTF-8 is replaced the way Rust's lossy conversion does.
    const methodName = Buffer.from(methodBytes).toString('utf8');
    vm.receipts.appendFunctionCall(index, methodName, args, amount, gas, weight);
  }

  /** Pays `action`'s fee (one charge) for the receipt `idx` names; returns that receipt. */
  function payActionFee(idx: bigint, action: Action): number {
    const { index, sir } = receiptOf(idx);
    const receiver = vm.receipts.receiverOf(index);
    const burn = totalSendFees(vm.config.feeContext, sir, [action], receiver);
    vm.gas.deductAction(actionCostOf(action), burn, burn + execFee(vm.config.feeContext, action, receiver));
    return index;
  }

  function appendWithFee(idx: bigint, action: Action): void {
    vm.receipts.append(payActionFee(idx, action), action);
  }

  return {
    promise_create(
      accountIdLen: bigint,
      accountIdPtr: bigint,
      methodNameLen: bigint,
      methodNamePtr: bigint,
      argsLen: bigint,
      argsPtr: bigint,
      amountPtr: bigint,
      gas: bigint,
    ): bigint {
      const idx = batchCreate(accountIdLen, accountIdPtr, 'promise_create');
      functionCall('promise_create', idx, methodNameLen, methodNamePtr, argsLen, argsPtr, amountPtr, gas, 0n);
      return idx;
    },
    promise_then(
      promiseIdx: bigint,
      accountIdLen: bigint,
      accountIdPtr: bigint,
      methodNameLen: bigint,
      methodNamePtr: bigint,
      argsLen: bigint,
      argsPtr: bigint,
      amountPtr: bigint,
      gas: bigint,
    ): bigint {
      const idx = batchThen(promiseIdx, accountIdLen, accountIdPtr, 'promise_then');
      functionCall('promise_then', idx, methodNameLen, methodNamePtr, argsLen, argsPtr, amountPtr, gas, 0n);
      return idx;
    },
    promise_and(promiseIdxPtr: bigint, promiseIdxCount: bigint): bigint {
      vm.payBase();
      vm.prohibitedInView('promise_and');
      vm.gas.payBase(vm.costs.promise_and_base);
      const memoryLen = promiseIdxCount * 8n;
      if (memoryLen > (1n << 64n) - 1n) throw hostError.integerOverflow();
      vm.gas.payPer(vm.costs.promise_and_per_promise, memoryLen);
      const raw = vm.readMemory(promiseIdxPtr, memoryLen);
      const view = new DataView(raw.buffer, raw.byteOffset, raw.length);
      const deps: number[] = [];
      const limit = BigInt(limits.maxNumberInputDataDependencies);
      for (let i = 0; i < Number(promiseIdxCount); i++) {
        const p = promiseOf(view.getBigUint64(i * 8, true));
        if (p.kind === 'Receipt') deps.push(p.index);
        else deps.push(...p.indices);
        if (BigInt(deps.length) > limit)
          throw hostError.numberInputDataDependenciesExceeded(BigInt(deps.length), limit);
      }
      return pushPromise({ kind: 'Joint', indices: deps });
    },
    promise_batch_create(accountIdLen: bigint, accountIdPtr: bigint): bigint {
      return batchCreate(accountIdLen, accountIdPtr, 'promise_batch_create');
    },
    /** The balance refund of the promise's receipt goes to this account instead of the current one. */
    promise_set_refund_to(promiseIdx: bigint, accountIdLen: bigint, accountIdPtr: bigint): void {
      vm.payBase();
      vm.prohibitedInView('promise_set_refund_to');
      const refundTo = vm.readAccountId(accountIdPtr, accountIdLen);
      const p = promiseOf(promiseIdx);
      if (p.kind !== 'Receipt') throw hostError.cannotSetRefundToOnJointPromise();
      vm.receipts.setRefundTo(p.index, refundTo);
    },
    promise_batch_then(promiseIdx: bigint, accountIdLen: bigint, accountIdPtr: bigint): bigint {
      return batchThen(promiseIdx, accountIdLen, accountIdPtr, 'promise_batch_then');
    },
    promise_batch_action_create_account(promiseIdx: bigint): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_create_account');
      appendWithFee(promiseIdx, { type: 'CreateAccount' });
    },
    promise_batch_action_deploy_contract(promiseIdx: bigint, codeLen: bigint, codePtr: bigint): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_deploy_contract');
      const code = vm.memoryOrRegister(codePtr, codeLen);
      const limit = BigInt(limits.maxContractSize);
      if (BigInt(code.length) > limit) throw hostError.contractSizeExceeded(BigInt(code.length), limit);
      const { index, sir } = receiptOf(promiseIdx);
      // Base fee, then per-byte fee, as two charges: running out on the first burns only what it reached.
      vm.payActionBase(fees.deploy_contract_base, sir);
      vm.payActionPerByte(fees.deploy_contract_byte, BigInt(code.length), sir);
      vm.receipts.append(index, { type: 'DeployContract', code });
    },
    promise_batch_action_function_call(
      promiseIdx: bigint,
      methodNameLen: bigint,
      methodNamePtr: bigint,
      argsLen: bigint,
      argsPtr: bigint,
      amountPtr: bigint,
      gas: bigint,
    ): void {
      functionCall(
        'promise_batch_action_function_call',
        promiseIdx,
        methodNameLen,
        methodNamePtr,
        argsLen,
        argsPtr,
        amountPtr,
        gas,
        0n,
      );
    },
    promise_batch_action_function_call_weight(
      promiseIdx: bigint,
      methodNameLen: bigint,
      methodNamePtr: bigint,
      argsLen: bigint,
      argsPtr: bigint,
      amountPtr: bigint,
      gas: bigint,
      weight: bigint,
    ): void {
      // nearcore names the unweighted function in this one's ProhibitedInView error.
      functionCall(
        'promise_batch_action_function_call',
        promiseIdx,
        methodNameLen,
        methodNamePtr,
        argsLen,
        argsPtr,
        amountPtr,
        gas,
        weight,
      );
    },
    promise_batch_action_transfer(promiseIdx: bigint, amountPtr: bigint): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_transfer');
      const amount = vm.readU128(amountPtr);
      const transfer: Action = { type: 'Transfer', deposit: amount };
      const index = payActionFee(promiseIdx, transfer);
      // The fee is paid even when the balance then falls short; no one-yocto subsidy on a transfer (it is for
      // function calls only).
      vm.deductBalance(amount);
      vm.receipts.append(index, transfer);
    },
    promise_batch_action_stake(promiseIdx: bigint, amountPtr: bigint, pkLen: bigint, pkPtr: bigint): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_stake');
      const amount = vm.readU128(amountPtr);
      const publicKey = vm.readPublicKey(pkPtr, pkLen);
      const { index, sir } = receiptOf(promiseIdx);
      vm.payActionBase(fees.stake, sir);
      vm.receipts.append(index, { type: 'Stake', stake: amount, publicKey: publicKey.decode() });
    },
    promise_batch_action_add_key_with_full_access(
      promiseIdx: bigint,
      pkLen: bigint,
      pkPtr: bigint,
      nonce: bigint,
    ): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_add_key_with_full_access');
      const publicKey = vm.readPublicKey(pkPtr, pkLen);
      const { index, sir } = receiptOf(promiseIdx);
      vm.payActionBase(fees.add_full_access_key, sir);
      vm.receipts.append(index, {
        type: 'AddKey',
        publicKey: publicKey.decode(),
        accessKey: { nonce, permission: { kind: 'FullAccess' } },
      });
    },
    promise_batch_action_add_key_with_function_call(
      promiseIdx: bigint,
      pkLen: bigint,
      pkPtr: bigint,
      nonce: bigint,
      allowancePtr: bigint,
      receiverIdLen: bigint,
      receiverIdPtr: bigint,
      methodNamesLen: bigint,
      methodNamesPtr: bigint,
    ): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_add_key_with_function_call');
      const publicKey = vm.readPublicKey(pkPtr, pkLen);
      const allowance = vm.readU128(allowancePtr);
      const receiverId = vm.readAccountId(receiverIdPtr, receiverIdLen);
      const raw = vm.memoryOrRegister(methodNamesPtr, methodNamesLen);
      const names = splitMethodNames(raw);
      const { index, sir } = receiptOf(promiseIdx);
      // Each name counts with a terminating NUL; base and per-byte fees are two charges.
      let bytes = 0n;
      for (const name of names) bytes += BigInt(name.length) + 1n;
      vm.payActionBase(fees.add_function_call_key_base, sir);
      vm.payActionPerByte(fees.add_function_call_key_byte, bytes, sir);
      // Then the key is decoded, then the names are checked as UTF-8 (when nearcore's receipt manager
      // appends the action, without gas): a bad key or name fails after the fees.
      const key = publicKey.decode();
      const methodNames = names.map(methodNameText);
      vm.receipts.append(index, {
        type: 'AddKey',
        publicKey: key,
        accessKey: {
          nonce,
          permission: {
            kind: 'FunctionCall',
            allowance: allowance > 0n ? allowance : null,
            receiverId,
            methodNames,
          },
        },
      });
    },
    promise_batch_action_delete_key(promiseIdx: bigint, pkLen: bigint, pkPtr: bigint): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_delete_key');
      const publicKey = vm.readPublicKey(pkPtr, pkLen);
      const { index, sir } = receiptOf(promiseIdx);
      vm.payActionBase(fees.delete_key, sir);
      vm.receipts.append(index, { type: 'DeleteKey', publicKey: publicKey.decode() });
    },
    promise_batch_action_delete_account(
      promiseIdx: bigint,
      beneficiaryLen: bigint,
      beneficiaryPtr: bigint,
    ): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_delete_account');
      const beneficiaryId = vm.readAccountId(beneficiaryPtr, beneficiaryLen);
      appendWithFee(promiseIdx, { type: 'DeleteAccount', beneficiaryId });
    },
    ...globalContractImports(vm, receiptOf),
    ...gasKeyImports(vm, receiptOf),
    ...yieldWithIdImports(vm, { pushPromise, payForNewReceipt }),
    promise_yield_create(
      methodNameLen: bigint,
      methodNamePtr: bigint,
      argsLen: bigint,
      argsPtr: bigint,
      gas: bigint,
      gasWeight: bigint,
      registerId: bigint,
    ): bigint {
      vm.payBase();
      vm.prohibitedInView('promise_yield_create');
      vm.gas.payBase(vm.costs.yield_create_base);
      const methodBytes = vm.memoryOrRegister(methodNamePtr, methodNameLen);
      if (methodBytes.length === 0) throw hostError.emptyMethodName();
      const args = vm.memoryOrRegister(argsPtr, argsLen);
      const bytes = BigInt(methodBytes.length + args.length);
      vm.gas.payPer(vm.costs.yield_create_byte, bytes);
      // The callback's gas is set aside now; it waits on one data dependency of its own (sir).
      vm.gas.prepay(gas);
      payForNewReceipt(true, [true]);
      vm.payActionBase(fees.function_call_base, true);
      vm.payActionPerByte(fees.function_call_byte, bytes, true);
      const { index, dataId } = vm.receipts.createPromiseYieldReceipt(vm.ctx.currentAccountId);
      vm.ext.yieldCreated(dataId);
      const idx = pushPromise({ kind: 'Receipt', index });
      vm.receipts.appendFunctionCall(
        index,
        Buffer.from(methodBytes).toString('utf8'),
        args,
        0n,
        gas,
        gasWeight,
      );
      vm.registers.set(registerId, dataId);
      return idx;
    },
    promise_yield_resume(
      dataIdLen: bigint,
      dataIdPtr: bigint,
      payloadLen: bigint,
      payloadPtr: bigint,
    ): number {
      const { id: dataId, payload } = chargeYieldResume(
        vm,
        'promise_yield_resume',
        dataIdLen,
        dataIdPtr,
        payloadLen,
        payloadPtr,
      );
      if (dataId.length !== 32) throw hostError.dataIdMalformed();
      if (!vm.ext.yieldIsPending(dataId)) return 0;
      vm.receipts.submitResumeData(dataId, payload);
      vm.ext.yieldResumed(dataId);
      return 1;
    },
    promise_results_count(): bigint {
      vm.payBase();
      vm.prohibitedInView('promise_results_count');
      return BigInt(vm.ctx.promiseResults.length);
    },
    promise_result(resultIdx: bigint, registerId: bigint): bigint {
      vm.payBase();
      vm.prohibitedInView('promise_result');
      const result =
        resultIdx < BigInt(vm.ctx.promiseResults.length)
          ? vm.ctx.promiseResults[Number(resultIdx)]
          : undefined;
      if (!result) throw hostError.invalidPromiseResultIndex(resultIdx);
      if (result.kind === 'NotReady') return 0n;
      if (result.kind === 'Failed') return 2n;
      vm.registers.set(registerId, result.data);
      return 1n;
    },
    promise_return(promiseIdx: bigint): void {
      vm.payBase();
      vm.gas.payBase(vm.costs.promise_return);
      vm.prohibitedInView('promise_return');
      const p = promiseOf(promiseIdx);
      if (p.kind !== 'Receipt') throw hostError.cannotReturnJointPromise();
      vm.returnData = { kind: 'ReceiptIndex', index: p.index };
    },
  };
}

const methodNameDecoder = new TextDecoder('utf-8', { fatal: true });

/** A function-call key's method names split on commas (nearcore's `split_method_names`): none for no bytes,
 * EmptyMethodName for an empty one. No gas: the bytes were paid for when read. */
export function splitMethodNames(raw: Uint8Array): Uint8Array[] {
  if (raw.length === 0) return [];
  const names: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= raw.length; i++) {
    if (i === raw.length || raw[i] === 0x2c) {
      if (i === start) throw hostError.emptyMethodName();
      names.push(raw.subarray(start, i));
      start = i + 1;
    }
  }
  return names;
}

export function methodNameText(name: Uint8Array): string {
  try {
    return methodNameDecoder.decode(name);
  } catch {
    throw hostError.invalidMethodName();
  }
}

/**
 * The global-contract batch actions (nearcore logic.rs `promise_batch_action_deploy_global_contract_impl` and
 * `promise_batch_action_use_global_contract_impl`): the base cost, ProhibitedInView, the code (checked against
 * `max_contract_size`) or the identifier (a 32-byte hash, else ContractCodeHashMalformed; or an account id),
 * then the action's base and per-byte send fees (per byte of code, or of the identifier) on the receipt.
 */
function globalContractImports(vm: VMLogic, receiptOf: (idx: bigint) => { index: number; sir: boolean }) {
  const fees = vm.config.fees;
  const deploy =
    (name: string, deployMode: GlobalContractDeployMode) => (idx: bigint, len: bigint, ptr: bigint) => {
      vm.payBase();
      vm.prohibitedInView(name);
      const code = vm.memoryOrRegister(ptr, len);
      const limit = BigInt(vm.config.limits.maxContractSize);
      if (BigInt(code.length) > limit) throw hostError.contractSizeExceeded(BigInt(code.length), limit);
      const { index, sir } = receiptOf(idx);
      vm.payActionBase(fees.deploy_global_contract_base, sir);
      vm.payActionPerByte(fees.deploy_global_contract_byte, BigInt(code.length), sir);
      vm.receipts.append(index, { type: 'DeployGlobalContract', code, deployMode });
    };
  const use =
    (name: string, read: (len: bigint, ptr: bigint) => GlobalContractIdentifier) =>
    (idx: bigint, len: bigint, ptr: bigint) => {
      vm.payBase();
      vm.prohibitedInView(name);
      const contractIdentifier = read(len, ptr);
      const { index, sir } = receiptOf(idx);
      vm.payActionBase(fees.use_global_contract_base, sir);
      vm.payActionPerByte(
        fees.use_global_contract_byte,
        BigInt(globalContractIdentifierLength(contractIdentifier)),
        sir,
      );
      vm.receipts.append(index, { type: 'UseGlobalContract', contractIdentifier });
    };
  return {
    promise_batch_action_deploy_global_contract: deploy(
      'promise_batch_action_deploy_global_contract',
      'CodeHash',
    ),
    promise_batch_action_deploy_global_contract_by_account_id: deploy(
      'promise_batch_action_deploy_global_contract_by_account_id',
      'AccountId',
    ),
    promise_batch_action_use_global_contract: use('promise_batch_action_use_global_contract', (len, ptr) => {
      const codeHash = vm.memoryOrRegister(ptr, len);
      if (codeHash.length !== 32) throw hostError.contractCodeHashMalformed();
      return { kind: 'CodeHash', codeHash };
    }),
    promise_batch_action_use_global_contract_by_account_id: use(
      'promise_batch_action_use_global_contract_by_account_id',
      (len, ptr) => ({ kind: 'AccountId', accountId: vm.readAccountId(ptr, len) }),
    ),
  };
}
