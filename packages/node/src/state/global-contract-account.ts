/**
 * `AccountV2` (core/primitives-core/src/account.rs), the form of an account that uses a global contract:
 * u128::MAX as a sentinel where AccountV1 has its amount, the `BorshVersionedAccount` tag 0 (V2), then amount
 * u128, locked u128, storage_usage u64 and the `AccountContract`. Accounts without a global contract stay
 * AccountV1, as nearcore keeps them.
 */
import {
  BorshReader,
  BorshWriter,
  cryptoHashToString,
  type GlobalContractIdentifier,
  readAccountContract,
  writeAccountContract,
} from '@shadebox/primitives';
import type { Account } from './account.js';

const U128_MAX = (1n << 128n) - 1n;

export function isAccountV2(bytes: Uint8Array): boolean {
  if (bytes.length < 17) return false;
  for (let i = 0; i < 16; i++) if (bytes[i] !== 0xff) return false;
  return true;
}

export function encodeAccountV2(account: Account, id: GlobalContractIdentifier): Uint8Array {
  const w = new BorshWriter();
  w.u128(U128_MAX).u8(0);
  w.u128(account.amount).u128(account.locked).u64(account.storageUsage);
  writeAccountContract(
    w,
    id.kind === 'CodeHash'
      ? { kind: 'Global', codeHash: id.codeHash }
      : { kind: 'GlobalByAccount', accountId: id.accountId },
  );
  return w.toBytes();
}

export function decodeAccountV2(bytes: Uint8Array): Account {
  const r = new BorshReader(bytes);
  r.u128();
  const tag = r.u8();
  if (tag !== 0) throw new Error(`unknown account version tag ${tag}`);
  const amount = r.u128();
  const locked = r.u128();
  const storageUsage = r.u64();
  const contract = readAccountContract(r);
  r.finish();
  const account: Account = { amount, locked, codeHash: new Uint8Array(32), storageUsage };
  if (contract.kind === 'Local') account.codeHash = contract.codeHash;
  else if (contract.kind === 'Global')
    account.globalContract = { kind: 'CodeHash', codeHash: contract.codeHash };
  else if (contract.kind === 'GlobalByAccount')
    account.globalContract = { kind: 'AccountId', accountId: contract.accountId };
  return account;
}

/** `global_contract_hash` / `global_contract_account_id` of `AccountView`, present only when set. */
export function globalContractViewFields(id: GlobalContractIdentifier | undefined): {
  global_contract_hash?: string;
  global_contract_account_id?: string;
} {
  if (!id) return {};
  return id.kind === 'CodeHash'
    ? { global_contract_hash: cryptoHashToString(id.codeHash) }
    : { global_contract_account_id: id.accountId };
}
