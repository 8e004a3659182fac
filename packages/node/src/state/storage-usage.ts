/**
 * Storage usage accounting, as nearcore counts it: every record costs its key and value bytes plus
 * `num_extra_bytes_record`; an account itself costs `num_bytes_account`.
 */
import {
  type AccessKey,
  encodeAccessKey,
  type PublicKey,
  type PublicKeyHandle,
  publicKeyTrieIdLength,
} from '@shadebox/primitives';

export interface StorageUsageConfig {
  numBytesAccount: bigint;
  numExtraBytesRecord: bigint;
}

/** The key counts with its stored length (`trie_id_len`): an ML-DSA-65 key is stored as a 33-byte handle. */
export function accessKeyStorageUsage(
  cfg: StorageUsageConfig,
  publicKey: PublicKey | PublicKeyHandle,
  key: AccessKey,
): bigint {
  return BigInt(publicKeyTrieIdLength(publicKey) + encodeAccessKey(key).length) + cfg.numExtraBytesRecord;
}

/** Accounts whose storage fits in this many bytes need no balance to cover it (NEP-448 zero-balance accounts). */
export const ZERO_BALANCE_ACCOUNT_STORAGE_LIMIT = 770n;

/** How much more balance `account` needs to pay for its storage; 0n when it is covered. */
export function insufficientStorageStake(
  account: { amount: bigint; locked: bigint; storageUsage: bigint },
  storageAmountPerByte: bigint,
): bigint {
  if (account.storageUsage <= ZERO_BALANCE_ACCOUNT_STORAGE_LIMIT) return 0n;
  const required = account.storageUsage * storageAmountPerByte;
  const available = account.amount + account.locked;
  return required > available ? required - available : 0n;
}
