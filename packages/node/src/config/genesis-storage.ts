/** What genesis records weigh: each account's storage usage and the total supply they hold. */
import {
  accessKeyFromView,
  encodeAccessKey,
  parsePublicKey,
  publicKeyTrieIdLength,
} from '@shadebox/primitives';
import type { AccessKeyValue, StateRecord } from './genesis.js';
import type { RuntimeConfig } from './runtime-config.js';

function base64Length(text: string): number {
  return Buffer.from(text, 'base64').length;
}

/** Borsh length of an `AccessKey` (nonce u64 + permission enum). */
function accessKeyBorshLength(accessKey: AccessKeyValue): number {
  const permission = accessKey.permission;
  if (permission === 'FullAccess') return 8 + 1;
  // A gas key (NEP-611): its borsh, with GasKeyInfo.
  if (!('FunctionCall' in permission)) {
    return encodeAccessKey(accessKeyFromView(accessKey as never)).length;
  }
  const { allowance, receiver_id, method_names } = permission.FunctionCall;
  let length = 8 + 1 + (allowance === null ? 1 : 17) + 4 + Buffer.byteLength(receiver_id, 'utf8') + 4;
  for (const name of method_names) length += 4 + Buffer.byteLength(name, 'utf8');
  return length;
}

/**
 * The storage usage of every genesis account, computed as nearcore's genesis `StorageComputer`
 * (runtime/runtime/src/genesis.rs) does; nearcore ignores the `storage_usage` written in the records and uses
 * these. Account: `num_bytes_account`; access key: borsh(public key) + borsh(access key) +
 * `num_extra_bytes_record`; contract: code length; data: key + value + `num_extra_bytes_record`.
 */
export function computeGenesisStorageUsage(
  records: StateRecord[],
  runtimeConfig: RuntimeConfig,
): Map<string, bigint> {
  const { numBytesAccount, numExtraBytesRecord } = runtimeConfig.storageUsage;
  const usage = new Map<string, bigint>();
  const add = (accountId: string, bytes: bigint) =>
    usage.set(accountId, (usage.get(accountId) ?? 0n) + bytes);
  for (const record of records) {
    if ('Account' in record) add(record.Account.account_id, numBytesAccount);
    else if ('AccessKey' in record) {
      const { account_id, public_key, access_key } = record.AccessKey;
      // The stored length: an ML-DSA-65 key is stored as its 33-byte handle.
      const publicKeyLength = publicKeyTrieIdLength(parsePublicKey(public_key));
      add(account_id, BigInt(publicKeyLength + accessKeyBorshLength(access_key)) + numExtraBytesRecord);
    } else if ('Contract' in record)
      add(record.Contract.account_id, BigInt(base64Length(record.Contract.code)));
    else if ('GasKeyNonce' in record) {
      const { account_id, public_key } = record.GasKeyNonce;
      add(account_id, BigInt(1 + parsePublicKey(public_key).data.length + 2 + 8) + numExtraBytesRecord);
    } else if ('Data' in record) {
      const { account_id, data_key, value } = record.Data;
      add(account_id, BigInt(base64Length(data_key) + base64Length(value)) + numExtraBytesRecord);
    }
  }
  return usage;
}

/** Sum of `amount + locked` over the Account records (`get_initial_supply`). */
export function totalSupplyOf(records: StateRecord[]): bigint {
  let total = 0n;
  for (const record of records) {
    if ('Account' in record)
      total += BigInt(record.Account.account.amount) + BigInt(record.Account.account.locked);
  }
  return total;
}
