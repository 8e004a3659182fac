/**
 * Turns genesis records (nearcore's `StateRecord` JSON) into the initial state, computing each account's
 * storage usage from its records as nearcore does at genesis.
 */
import { accessKeyFromView, base58Decode, base64Decode, parsePublicKey, sha256 } from '@shadebox/primitives';
import { type Account, EMPTY_CODE_HASH } from '../state/account.js';
import { contractCodeKey, contractDataKey } from '../state/state-keys.js';
import type { StateUpdate } from '../state/state-update.js';
import { accessKeyStorageUsage, type StorageUsageConfig } from '../state/storage-usage.js';
import { setAccessKey, setAccount, setGasKeyNonce } from '../state/typed-state.js';

export type StateRecordJson =
  | {
      Account: {
        account_id: string;
        account: {
          amount: string;
          locked: string;
          code_hash?: string;
          /** NEP-655: `"uninitialized"` for a universal account waiting for its state init (a state dump's). */
          state?: 'initialized' | 'uninitialized';
          bootstrap_nonce?: number;
        };
      };
    }
  | { AccessKey: { account_id: string; public_key: string; access_key: unknown } }
  | { Contract: { account_id: string; code: string } }
  | { Data: { account_id: string; data_key: string; value: string } }
  | { GasKeyNonce: { account_id: string; public_key: string; index: number; nonce: number } };

export function applyGenesisRecords(
  state: StateUpdate,
  records: StateRecordJson[],
  cfg: StorageUsageConfig,
): void {
  const accounts = new Map<string, Account>();
  const usage = new Map<string, bigint>();
  const codeHashes = new Map<string, Uint8Array>();
  const addUsage = (id: string, n: bigint) => usage.set(id, (usage.get(id) ?? 0n) + n);
  for (const record of records) {
    if ('Account' in record) {
      const { account_id, account } = record.Account;
      const codeHash = account.code_hash ? base58Decode(account.code_hash) : EMPTY_CODE_HASH;
      accounts.set(account_id, {
        amount: BigInt(account.amount),
        locked: BigInt(account.locked),
        codeHash,
        storageUsage: 0n,
        ...(account.state === 'uninitialized'
          ? { uninitialized: { bootstrapNonce: BigInt(account.bootstrap_nonce ?? 0) } }
          : {}),
      });
    } else if ('AccessKey' in record) {
      const { account_id, public_key, access_key } = record.AccessKey;
      const pk = parsePublicKey(public_key);
      const key = accessKeyFromView(access_key as never);
      setAccessKey(state, account_id, pk, key);
      addUsage(account_id, accessKeyStorageUsage(cfg, pk, key));
    } else if ('Contract' in record) {
      const code = base64Decode(record.Contract.code);
      state.set(contractCodeKey(record.Contract.account_id), code);
      addUsage(record.Contract.account_id, BigInt(code.length));
      codeHashes.set(record.Contract.account_id, sha256(code));
    } else if ('GasKeyNonce' in record) {
      // A gas key's nonce (NEP-611): key, u16 index, u64 nonce, plus the record overhead.
      const { account_id, public_key, index, nonce } = record.GasKeyNonce;
      const pk = parsePublicKey(public_key);
      setGasKeyNonce(state, account_id, pk, index, BigInt(nonce));
      addUsage(account_id, BigInt(1 + pk.data.length + 2 + 8) + cfg.numExtraBytesRecord);
    } else if ('Data' in record) {
      const key = base64Decode(record.Data.data_key);
      const value = base64Decode(record.Data.value);
      state.set(contractDataKey(record.Data.account_id, key), value);
      addUsage(record.Data.account_id, BigInt(key.length + value.length) + cfg.numExtraBytesRecord);
    }
  }
  for (const [id, account] of accounts) {
    account.storageUsage = cfg.numBytesAccount + (usage.get(id) ?? 0n);
    account.codeHash = codeHashes.get(id) ?? account.codeHash;
    setAccount(state, id, account);
  }
  state.commit({ type: 'initial_state' });
}
