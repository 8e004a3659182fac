/**
 * The account record as stored in state. Encoded with borsh in nearcore's `AccountV1` field order
 * (amount u128, locked u128, code_hash [32], storage_usage u64). An account that uses a global contract is
 * an `AccountV2` (global-contract-account.ts).
 */
import { BorshReader, BorshWriter, base58Encode, type GlobalContractIdentifier } from '@shadebox/primitives';
import {
  decodeAccountV2,
  encodeAccountV2,
  globalContractViewFields,
  isAccountV2,
} from './global-contract-account.js';
import {
  decodeUninitializedAccount,
  encodeUninitializedAccount,
  isUninitializedAccountBytes,
} from './uninitialized-account.js';

export interface Account {
  amount: bigint;
  locked: bigint;
  /** 32 bytes; all zeroes when no contract is deployed. */
  codeHash: Uint8Array;
  storageUsage: bigint;
  /** The global contract the account runs (then `codeHash` is all zeroes), if any. */
  globalContract?: GlobalContractIdentifier;
  /** Set while a universal (`0u…`) account waits for its UniversalStateInit (uninitialized-account.ts). */
  uninitialized?: { bootstrapNonce: bigint };
}

export const EMPTY_CODE_HASH = new Uint8Array(32);
const EMPTY_CODE_HASH_B58 = '11111111111111111111111111111111';

export function newAccount(amount: bigint, storageUsage = 0n): Account {
  return { amount, locked: 0n, codeHash: EMPTY_CODE_HASH, storageUsage };
}

export function encodeAccount(account: Account): Uint8Array {
  if (account.uninitialized) return encodeUninitializedAccount(account, account.uninitialized.bootstrapNonce);
  if (account.globalContract) return encodeAccountV2(account, account.globalContract);
  const w = new BorshWriter();
  w.u128(account.amount);
  w.u128(account.locked);
  w.fixedBytes(account.codeHash);
  w.u64(account.storageUsage);
  return w.toBytes();
}

export function decodeAccount(bytes: Uint8Array): Account {
  if (isUninitializedAccountBytes(bytes)) return decodeUninitializedAccount(bytes);
  if (isAccountV2(bytes)) return decodeAccountV2(bytes);
  const r = new BorshReader(bytes);
  const account = { amount: r.u128(), locked: r.u128(), codeHash: r.fixedBytes(32), storageUsage: r.u64() };
  r.finish();
  return account;
}

/**
 * The JSON of `view_account` (without block_hash/block_height), as nearcore's AccountView. `state` and
 * `bootstrap_nonce` appear only for an uninitialized universal account (nearcore 2.14 omits `state` when it is
 * `Initialized` and `bootstrap_nonce` when absent), so every other account prints as before.
 */
export function accountToView(account: Account) {
  return {
    amount: account.amount.toString(),
    locked: account.locked.toString(),
    code_hash: account.codeHash.every((b) => b === 0) ? EMPTY_CODE_HASH_B58 : base58Encode(account.codeHash),
    storage_usage: Number(account.storageUsage),
    storage_paid_at: 0,
    ...globalContractViewFields(account.globalContract),
    ...(account.uninitialized
      ? { state: 'uninitialized' as const, bootstrap_nonce: Number(account.uninitialized.bootstrapNonce) }
      : {}),
  };
}
