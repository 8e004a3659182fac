/**
 * The gas-key batch actions (NEP-611, linked when `gas_key_host_fns` is on, protocol 85): a contract funds a
 * gas key of the receipt's receiver, or adds one, as nearcore's logic.rs
 * `promise_batch_action_transfer_to_gas_key` / `…_add_gas_key_with_full_access` /
 * `…_add_gas_key_with_function_call` do. There is no withdraw host function (nearcore has none).
 *
 * Charges, in nearcore's order: base; the public key read; then the action fees, each split into what is
 * burnt now (send) and what is reserved for the receiver (execution). A key that does not decode fails with
 * InvalidPublicKey only after the fees are paid; a nonce count above u16 fails with IntegerOverflow.
 */

import { type Action, type PublicKey, publicKeyTrieIdLength } from '@shadebox/primitives';
import {
  gasKeyAddKeyExecFee,
  gasKeyAddKeySendFee,
  gasKeyTransferExecFee,
  gasKeyTransferSendFee,
} from '../../config/gas-key-fees.js';
import { ACTION_COST_INDEX } from '../gas-profile.js';
import { hostError } from '../vm-errors.js';
import type { VMLogic } from '../vm-logic.js';
import type { HostFunction } from './host-functions.js';
import { methodNameText, splitMethodNames } from './promises.js';

type ReceiptOf = (promiseIdx: bigint) => { index: number; sir: boolean };

export function gasKeyImports(vm: VMLogic, receiptOf: ReceiptOf): Record<string, HostFunction> {
  if (vm.config.gasKeyHostFns === false) return {};
  const fees = vm.config.fees;

  function receiverIdLen(index: number): bigint {
    return BigInt(Buffer.byteLength(vm.receipts.receiverOf(index)));
  }

  /** The key length an execution (storage) fee is priced on: from `fix_ml_dsa_cost_charging` (87) the key's
   * on-trie length (33 bytes for ML-DSA-65), before it and for a key that does not decode the bytes passed in,
   * as nearcore's `gas_key_exec_pk_len`. Send fees stay on the bytes passed in. */
  function execKeyLen(publicKey: { decode(): PublicKey }, pkLen: bigint): bigint {
    if (!vm.config.feeContext.fixMlDsaCostCharging) return pkLen;
    try {
      return BigInt(publicKeyTrieIdLength(publicKey.decode()));
    } catch {
      return pkLen;
    }
  }

  /** u64 → u16 as nearcore's `NonceIndex::try_from`, IntegerOverflow above. */
  function nonceCount(numNonces: bigint): number {
    if (numNonces > 0xffffn) throw hostError.integerOverflow();
    return Number(numNonces);
  }

  /** The fees of adding a gas key's nonces: send part burnt, execution part reserved. */
  function payAddGasKeyFees(index: number, sir: boolean, execPkLen: bigint, numNonces: number): void {
    const send = gasKeyAddKeySendFee(fees, sir);
    const exec = gasKeyAddKeyExecFee(fees, receiverIdLen(index), execPkLen, numNonces);
    // Booked in the gas profile as nearcore's pay_gas_key_add_key_fees: the send part under the nonce writes,
    // the per-byte reservation (nothing burnt) under the gas-key bytes.
    vm.gas.deductAction(ACTION_COST_INDEX.gas_key_nonce_write_base, send, send + exec.base);
    vm.gas.deductAction(ACTION_COST_INDEX.gas_key_byte, 0n, exec.perByte);
  }

  return {
    promise_batch_action_transfer_to_gas_key(
      promiseIdx: bigint,
      pkLen: bigint,
      pkPtr: bigint,
      amountPtr: bigint,
    ): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_transfer_to_gas_key');
      const publicKey = vm.readPublicKey(pkPtr, pkLen);
      const amount = vm.readU128(amountPtr);
      const { index, sir } = receiptOf(promiseIdx);
      const send = gasKeyTransferSendFee(fees, sir, pkLen);
      const exec = gasKeyTransferExecFee(fees, receiverIdLen(index), execKeyLen(publicKey, pkLen));
      vm.gas.deductAction(ACTION_COST_INDEX.gas_key_transfer_base, send.base, send.base + exec.base);
      vm.gas.deductAction(ACTION_COST_INDEX.gas_key_byte, send.perByte, send.perByte + exec.perByte);
      vm.deductBalance(amount);
      const action: Action = { type: 'TransferToGasKey', publicKey: publicKey.decode(), deposit: amount };
      vm.receipts.append(index, action);
    },
    promise_batch_action_add_gas_key_with_full_access(
      promiseIdx: bigint,
      pkLen: bigint,
      pkPtr: bigint,
      numNonces: bigint,
    ): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_add_gas_key_with_full_access');
      const publicKey = vm.readPublicKey(pkPtr, pkLen);
      const n = nonceCount(numNonces);
      const { index, sir } = receiptOf(promiseIdx);
      vm.payActionBase(fees.add_full_access_key, sir);
      payAddGasKeyFees(index, sir, execKeyLen(publicKey, pkLen), n);
      vm.receipts.append(index, {
        type: 'AddKey',
        publicKey: publicKey.decode(),
        accessKey: {
          nonce: 0n,
          permission: { kind: 'GasKeyFullAccess', gasKeyInfo: { balance: 0n, numNonces: n } },
        },
      });
    },
    promise_batch_action_add_gas_key_with_function_call(
      promiseIdx: bigint,
      pkLen: bigint,
      pkPtr: bigint,
      numNonces: bigint,
      allowancePtr: bigint,
      receiverIdLen_: bigint,
      receiverIdPtr: bigint,
      methodNamesLen: bigint,
      methodNamesPtr: bigint,
    ): void {
      vm.payBase();
      vm.prohibitedInView('promise_batch_action_add_gas_key_with_function_call');
      const publicKey = vm.readPublicKey(pkPtr, pkLen);
      const n = nonceCount(numNonces);
      const allowance = vm.readU128(allowancePtr);
      const receiverId = vm.readAccountId(receiverIdPtr, receiverIdLen_);
      const names = splitMethodNames(vm.memoryOrRegister(methodNamesPtr, methodNamesLen));
      const { index, sir } = receiptOf(promiseIdx);
      let bytes = 0n;
      for (const name of names) bytes += BigInt(name.length) + 1n;
      vm.payActionBase(fees.add_function_call_key_base, sir);
      vm.payActionPerByte(fees.add_function_call_key_byte, bytes, sir);
      payAddGasKeyFees(index, sir, execKeyLen(publicKey, pkLen), n);
      const key = publicKey.decode();
      const methodNames = names.map(methodNameText);
      vm.receipts.append(index, {
        type: 'AddKey',
        publicKey: key,
        accessKey: {
          nonce: 0n,
          permission: {
            kind: 'GasKeyFunctionCall',
            gasKeyInfo: { balance: 0n, numNonces: n },
            allowance: allowance > 0n ? allowance : null,
            receiverId,
            methodNames,
          },
        },
      });
    },
  };
}
