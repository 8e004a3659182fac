/**
 * From the flat state to the shards' tries. The flat state is one key space for all shards, laid out as
 * nearcore's `TrieKey`; the tries are one per shard, as nearcore's. Every flat key is its trie key but global
 * contract code and nonces and the per-shard keys without an account (the promise-yield queue, the bandwidth
 * scheduler's state), which carry their shard after nearcore's key here (state/global-contract-state.ts,
 * state/state-keys.ts) and sit in that shard's trie without it. A key of an account belongs to the account's
 * shard. The yield queue's keys of homes made before the suffix (one queue) belong to shard 0.
 */
import { GLOBAL_CONTRACT_CODE_COLUMN, GLOBAL_CONTRACT_NONCE_COLUMN } from './global-contract-state.js';
import { SHARD_SUFFIX_BYTES, StateColumn } from './state-keys.js';

const ACCESS_KEY_SEPARATOR = StateColumn.AccessKey;
const ACCOUNT_DATA_SEPARATOR = 0x2c;
const utf8d = new TextDecoder();

/** Whether a flat key ends with its shard id (legacy yield-queue keys have nearcore's length and do not). */
function hasShardSuffix(key: Uint8Array): boolean {
  switch (key[0]) {
    case GLOBAL_CONTRACT_CODE_COLUMN:
    case GLOBAL_CONTRACT_NONCE_COLUMN:
    case StateColumn.BandwidthSchedulerState:
      return true;
    case StateColumn.PromiseYieldIndices:
      return key.length === 1 + SHARD_SUFFIX_BYTES;
    case StateColumn.PromiseYieldTimeout:
      return key.length === 9 + SHARD_SUFFIX_BYTES;
    default:
      return false;
  }
}

/** The key in the shard's trie of a flat-state key. */
export function trieKeyOf(key: Uint8Array): Uint8Array {
  return hasShardSuffix(key) ? key.subarray(0, key.length - SHARD_SUFFIX_BYTES) : key;
}

/** The account a per-account key belongs to, or undefined for the shard-wide keys. */
export function stateKeyAccount(key: Uint8Array): string | undefined {
  switch (key[0]) {
    case StateColumn.Account:
    case StateColumn.ContractCode:
      return utf8d.decode(key.subarray(1));
    case StateColumn.AccessKey: {
      const at = key.indexOf(ACCESS_KEY_SEPARATOR, 1);
      return at < 0 ? undefined : utf8d.decode(key.subarray(1, at));
    }
    case StateColumn.DelayedReceiptOrIndices:
    case StateColumn.PromiseYieldIndices:
    case StateColumn.PromiseYieldTimeout:
    case StateColumn.BandwidthSchedulerState:
    case GLOBAL_CONTRACT_CODE_COLUMN:
    case GLOBAL_CONTRACT_NONCE_COLUMN:
      return undefined;
    default: {
      // `column ‖ account ‖ ',' ‖ …`: account ids never contain ','.
      const at = key.indexOf(ACCOUNT_DATA_SEPARATOR, 1);
      return at < 0 ? undefined : utf8d.decode(key.subarray(1, at));
    }
  }
}

/** The shard whose trie holds a flat-state key when the tries are rebuilt from the flat state. */
export function stateKeyShard(key: Uint8Array, shardOf: (accountId: string) => number): number {
  if (hasShardSuffix(key)) {
    const view = new DataView(
      key.buffer,
      key.byteOffset + key.length - SHARD_SUFFIX_BYTES,
      SHARD_SUFFIX_BYTES,
    );
    return view.getUint32(0, true);
  }
  const account = stateKeyAccount(key);
  return account === undefined ? 0 : shardOf(account);
}
