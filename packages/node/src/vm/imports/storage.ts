/**
 * Host functions for contract storage (nearcore logic.rs "storage"). Storage usage moves with every write and
 * removal: a new key adds key + value + `num_extra_bytes_record`, an overwrite the difference in value length,
 * a removal takes the whole record away. The old value goes to the register when there was one.
 *
 * Trie-node costs (`touching_trie_node`, `read_cached_trie_node`) depend on the shape of nearcore's Merkle
 * trie, which this node does not keep; they are not charged (docs/deviations.md).
 */

import { hostError } from '../vm-errors.js';
import type { VMLogic } from '../vm-logic.js';

function readKey(vm: VMLogic, len: bigint, ptr: bigint): Uint8Array {
  const key = vm.memoryOrRegister(ptr, len);
  const limit = BigInt(vm.config.limits.maxLengthStorageKey);
  if (BigInt(key.length) > limit) throw hostError.keyLengthExceeded(BigInt(key.length), limit);
  return key;
}

export function storageImports(vm: VMLogic) {
  const costs = vm.costs;
  const extra = vm.config.numExtraBytesRecord;
  return {
    storage_write(
      keyLen: bigint,
      keyPtr: bigint,
      valueLen: bigint,
      valuePtr: bigint,
      registerId: bigint,
    ): bigint {
      vm.payBase();
      vm.prohibitedInView('storage_write');
      vm.gas.payBase(costs.storage_write_base);
      const key = readKey(vm, keyLen, keyPtr);
      const value = vm.memoryOrRegister(valuePtr, valueLen);
      const valueLimit = BigInt(vm.config.limits.maxLengthStorageValue);
      if (BigInt(value.length) > valueLimit)
        throw hostError.valueLengthExceeded(BigInt(value.length), valueLimit);
      vm.gas.payPer(costs.storage_write_key_byte, BigInt(key.length));
      vm.gas.payPer(costs.storage_write_value_byte, BigInt(value.length));
      const evicted = vm.ext.storageGet(key);
      if (evicted) vm.gas.payPer(costs.storage_write_evicted_byte, BigInt(evicted.length));
      vm.ext.storageSet(key, value);
      if (evicted) {
        vm.storageUsage = vm.storageUsage - BigInt(evicted.length) + BigInt(value.length);
        vm.registers.set(registerId, evicted);
        return 1n;
      }
      vm.storageUsage += BigInt(key.length) + BigInt(value.length) + extra;
      return 0n;
    },
    storage_read(keyLen: bigint, keyPtr: bigint, registerId: bigint): bigint {
      vm.payBase();
      vm.gas.payBase(costs.storage_read_base);
      const key = readKey(vm, keyLen, keyPtr);
      vm.gas.payPer(costs.storage_read_key_byte, BigInt(key.length));
      const value = vm.ext.storageGet(key);
      if (!value) return 0n;
      vm.gas.payPer(costs.storage_read_value_byte, BigInt(value.length));
      vm.registers.set(registerId, value);
      return 1n;
    },
    storage_remove(keyLen: bigint, keyPtr: bigint, registerId: bigint): bigint {
      vm.payBase();
      vm.prohibitedInView('storage_remove');
      vm.gas.payBase(costs.storage_remove_base);
      const key = readKey(vm, keyLen, keyPtr);
      vm.gas.payPer(costs.storage_remove_key_byte, BigInt(key.length));
      const removed = vm.ext.storageGet(key);
      if (!removed) return 0n;
      vm.gas.payPer(costs.storage_remove_ret_value_byte, BigInt(removed.length));
      vm.ext.storageRemove(key);
      vm.storageUsage -= BigInt(key.length) + BigInt(removed.length) + extra;
      vm.registers.set(registerId, removed);
      return 1n;
    },
    storage_has_key(keyLen: bigint, keyPtr: bigint): bigint {
      vm.payBase();
      vm.gas.payBase(costs.storage_has_key_base);
      const key = readKey(vm, keyLen, keyPtr);
      vm.gas.payPer(costs.storage_has_key_byte, BigInt(key.length));
      return vm.ext.storageHas(key) ? 1n : 0n;
    },
    storage_iter_prefix(): bigint {
      throw hostError.deprecated('storage_iter_prefix');
    },
    storage_iter_range(): bigint {
      throw hostError.deprecated('storage_iter_range');
    },
    storage_iter_next(): bigint {
      throw hostError.deprecated('storage_iter_next');
    },
  };
}
