/**
 * Host functions for contract storage (nearcore logic.rs "storage"). Storage usage moves with every write and
 * removal: a new key adds key + value + `num_extra_bytes_record`, an overwrite the difference in value length,
 * a removal takes the whole record away. The old value goes to the register when there was one.
 *
 * The charges come in nearcore's order, which decides what a call that runs out of gas has paid: the host
 * function's base and byte costs, then, inside the External, the old value's bytes and the trie nodes the
 * lookup retrieved (`TOUCHING_TRIE_NODE`, then `READ_CACHED_TRIE_NODE`: runtime/contract-external.ts), then the
 * storage-proof limit, then the register. Reads and `has_key` pay no trie nodes (flat storage); a read pays
 * `storage_large_read_overhead_*` for a value over 4000 bytes (the largest value flat storage inlines).
 */

import { hostError } from '../vm-errors.js';
import { FREE_STORAGE_TRACKER, type VMLogic } from '../vm-logic.js';

/** nearcore's `INLINE_DISK_VALUE_THRESHOLD`. */
const INLINE_DISK_VALUE_THRESHOLD = 4000;

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
      const evicted = vm.ext.storageSet(vm.storageTracker, key, value);
      vm.recordedStorage.observe(vm.ext.recordedStorageSize());
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
      const found = vm.ext.storageGet(vm.storageTracker, key);
      let value: Uint8Array | undefined;
      if (found) {
        vm.gas.payPer(costs.storage_read_value_byte, BigInt(found.length));
        if (found.length > INLINE_DISK_VALUE_THRESHOLD) {
          vm.gas.payBase(costs.storage_large_read_overhead_base);
          vm.gas.payPer(costs.storage_large_read_overhead_byte, BigInt(found.length));
        }
        value = found.deref(FREE_STORAGE_TRACKER);
      }
      vm.recordedStorage.observe(vm.ext.recordedStorageSize());
      if (!value) return 0n;
      vm.registers.set(registerId, value);
      return 1n;
    },
    storage_remove(keyLen: bigint, keyPtr: bigint, registerId: bigint): bigint {
      vm.payBase();
      vm.prohibitedInView('storage_remove');
      vm.gas.payBase(costs.storage_remove_base);
      const key = readKey(vm, keyLen, keyPtr);
      vm.gas.payPer(costs.storage_remove_key_byte, BigInt(key.length));
      const removed = vm.ext.storageRemove(vm.storageTracker, key);
      vm.recordedStorage.observe(vm.ext.recordedStorageSize());
      if (!removed) return 0n;
      vm.storageUsage -= BigInt(key.length) + BigInt(removed.length) + extra;
      vm.registers.set(registerId, removed);
      return 1n;
    },
    storage_has_key(keyLen: bigint, keyPtr: bigint): bigint {
      vm.payBase();
      vm.gas.payBase(costs.storage_has_key_base);
      const key = readKey(vm, keyLen, keyPtr);
      vm.gas.payPer(costs.storage_has_key_byte, BigInt(key.length));
      const has = vm.ext.storageHas(vm.storageTracker, key);
      vm.recordedStorage.observe(vm.ext.recordedStorageSize());
      return has ? 1n : 0n;
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
