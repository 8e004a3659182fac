/**
 * Keys of the state, laid out like nearcore's `TrieKey` (core/primitives/src/trie_key.rs): a one-byte column,
 * the account id, and for per-account records a separator and the record's own key. Keeping nearcore's
 * layout means every key of one account shares the prefix `column ‖ account_id`, so scans by prefix work.
 */
import { encodePublicKeyHandle, type PublicKey, publicKeyHandle } from '@shadebox/primitives';

export const StateColumn = {
  Account: 0,
  ContractCode: 1,
  AccessKey: 2,
  ReceivedData: 3,
  PostponedReceiptId: 4,
  PendingDataCount: 5,
  PostponedReceipt: 6,
  DelayedReceiptOrIndices: 7,
  ContractData: 9,
  PromiseYieldIndices: 10,
  PromiseYieldTimeout: 11,
  PromiseYieldReceipt: 12,
  /** nearcore's `BandwidthSchedulerState` (col 15): one per shard, rewritten by every chunk. */
  BandwidthSchedulerState: 15,
  /** nearcore's `PromiseYieldStatus` (col 20): a yield created and not yet delivered, or its resume sent. */
  PromiseYieldStatus: 20,
} as const;

/** nearcore uses the column byte itself as the access-key separator and ',' for contract data. */
const ACCESS_KEY_SEPARATOR = StateColumn.AccessKey;
const ACCOUNT_DATA_SEPARATOR = 0x2c;

const utf8 = new TextEncoder();

function withAccount(column: number, accountId: string, extra: number): { buf: Uint8Array; offset: number } {
  const id = utf8.encode(accountId);
  const buf = new Uint8Array(1 + id.length + extra);
  buf[0] = column;
  buf.set(id, 1);
  return { buf, offset: 1 + id.length };
}

export function accountKey(accountId: string): Uint8Array {
  return withAccount(StateColumn.Account, accountId, 0).buf;
}

export function contractCodeKey(accountId: string): Uint8Array {
  return withAccount(StateColumn.ContractCode, accountId, 0).buf;
}

/** Prefix of every access key of `accountId`. */
export function accessKeyPrefix(accountId: string): Uint8Array {
  const { buf, offset } = withAccount(StateColumn.AccessKey, accountId, 1);
  buf[offset] = ACCESS_KEY_SEPARATOR;
  return buf;
}

/** An ML-DSA-65 key is stored under its digest (nearcore's `PublicKeyHandle`, primitives/public-key-handle.ts). */
export function accessKeyKey(accountId: string, publicKey: PublicKey): Uint8Array {
  const pk = encodePublicKeyHandle(publicKeyHandle(publicKey));
  const { buf, offset } = withAccount(StateColumn.AccessKey, accountId, 1 + pk.length);
  buf[offset] = ACCESS_KEY_SEPARATOR;
  buf.set(pk, offset + 1);
  return buf;
}

/** A gas key's nonce (NEP-611, nearcore `TrieKey::GasKeyNonce`): the access key's own key, then the nonce
 * index as a little-endian u16. It sorts right after its access key and shares the account's key prefix. */
export function gasKeyNonceKey(accountId: string, publicKey: PublicKey, index: number): Uint8Array {
  const ak = accessKeyKey(accountId, publicKey);
  const buf = new Uint8Array(ak.length + 2);
  buf.set(ak);
  buf[ak.length] = index & 0xff;
  buf[ak.length + 1] = index >>> 8;
  return buf;
}

/** Prefix of every contract-data record of `accountId`. */
export function contractDataPrefix(accountId: string): Uint8Array {
  const { buf, offset } = withAccount(StateColumn.ContractData, accountId, 1);
  buf[offset] = ACCOUNT_DATA_SEPARATOR;
  return buf;
}

export function contractDataKey(accountId: string, key: Uint8Array): Uint8Array {
  const { buf, offset } = withAccount(StateColumn.ContractData, accountId, 1 + key.length);
  buf[offset] = ACCOUNT_DATA_SEPARATOR;
  buf.set(key, offset + 1);
  return buf;
}

/** A per-account record keyed by a 32-byte id (data id or receipt id): `column ‖ account ‖ ',' ‖ id`. */
export function accountRecordKey(column: number, accountId: string, id: Uint8Array): Uint8Array {
  const { buf, offset } = withAccount(column, accountId, 1 + id.length);
  buf[offset] = ACCOUNT_DATA_SEPARATOR;
  buf.set(id, offset + 1);
  return buf;
}

/**
 * The shard-wide keys (nearcore keeps one trie per shard, each with its own yield queue and scheduler state):
 * our state is one key space for all shards, so the shard id follows nearcore's key as a u32 LE
 * (state/trie-keys.ts strips it). Homes made before had the yield queue's keys without it (shard 0's).
 */
export const SHARD_SUFFIX_BYTES = 4;

function withShard(trieKey: Uint8Array, shardId: number): Uint8Array {
  const buf = new Uint8Array(trieKey.length + SHARD_SUFFIX_BYTES);
  buf.set(trieKey);
  new DataView(buf.buffer).setUint32(trieKey.length, shardId, true);
  return buf;
}

export function promiseYieldIndicesKey(shardId: number): Uint8Array {
  return withShard(Uint8Array.of(StateColumn.PromiseYieldIndices), shardId);
}

export function promiseYieldTimeoutKey(shardId: number, index: bigint): Uint8Array {
  return withShard(legacyPromiseYieldTimeoutKey(index), shardId);
}

export function bandwidthSchedulerStateKey(shardId: number): Uint8Array {
  return withShard(Uint8Array.of(StateColumn.BandwidthSchedulerState), shardId);
}

/** The yield queue's keys as homes made before the shard suffix hold them (one queue for all shards). */
export function legacyPromiseYieldIndicesKey(): Uint8Array {
  return Uint8Array.of(StateColumn.PromiseYieldIndices);
}

export function legacyPromiseYieldTimeoutKey(index: bigint): Uint8Array {
  const buf = new Uint8Array(9);
  buf[0] = StateColumn.PromiseYieldTimeout;
  new DataView(buf.buffer).setBigUint64(1, index, true);
  return buf;
}

/** The part of a key after `prefix` (e.g. the borsh public key after an access-key prefix). */
export function keySuffix(key: Uint8Array, prefix: Uint8Array): Uint8Array {
  return key.subarray(prefix.length);
}
