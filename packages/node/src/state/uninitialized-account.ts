/**
 * An uninitialized universal account (NEP-655, protocol 87; nearcore core/primitives-core/src/account.rs
 * `UninitializedAccountV1`): a `0u…` account a transfer created before its UniversalStateInit ran. It holds a
 * balance, its storage usage and the `bootstrap_nonce` its one self-signed transaction must follow, nothing
 * else: no stake, no contract, no keys, no data.
 *
 * Borsh: u128::MAX as the sentinel where AccountV1 has its amount, the `BorshVersionedAccount` tag 1, then
 * amount u128, storage_usage u64, bootstrap_nonce u64.
 */
import { BorshReader, BorshWriter } from '@shadebox/primitives';
import type { Account } from './account.js';

const U128_MAX = (1n << 128n) - 1n;
const TAG_UNINITIALIZED = 1;

/** A sentinel-prefixed account record whose version tag is the uninitialized one. */
export function isUninitializedAccountBytes(bytes: Uint8Array): boolean {
  if (bytes.length < 17) return false;
  for (let i = 0; i < 16; i++) if (bytes[i] !== 0xff) return false;
  return bytes[16] === TAG_UNINITIALIZED;
}

export function encodeUninitializedAccount(account: Account, bootstrapNonce: bigint): Uint8Array {
  const w = new BorshWriter();
  w.u128(U128_MAX).u8(TAG_UNINITIALIZED);
  w.u128(account.amount).u64(account.storageUsage).u64(bootstrapNonce);
  return w.toBytes();
}

export function decodeUninitializedAccount(bytes: Uint8Array): Account {
  const r = new BorshReader(bytes);
  r.u128();
  r.u8();
  const amount = r.u128();
  const storageUsage = r.u64();
  const bootstrapNonce = r.u64();
  r.finish();
  return {
    amount,
    locked: 0n,
    codeHash: new Uint8Array(32),
    storageUsage,
    uninitialized: { bootstrapNonce },
  };
}

/** `Account::new_uninitialized`: what a transfer to a missing `0u…` id (or the state init itself) creates. */
export function newUninitializedAccount(
  amount: bigint,
  storageUsage: bigint,
  bootstrapNonce: bigint,
): Account {
  return {
    amount,
    locked: 0n,
    codeHash: new Uint8Array(32),
    storageUsage,
    uninitialized: { bootstrapNonce },
  };
}
