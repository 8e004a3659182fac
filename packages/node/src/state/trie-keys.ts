/**
 * From the flat state to the shards' tries. The flat state is one key space for all shards, laid out as
 * nearcore's `TrieKey`; the tries are one per shard, as nearcore's. Every flat key is its trie key but global
 * contract code and nonces, which carry the shard after the identifier here (state/global-contract-state.ts)
 * and sit in that shard's trie without it. A key belongs to its account's shard; the shard-wide singletons
 * (promise-yield indices and timeouts) to the shard whose chunk wrote them, and when a trie is rebuilt from the
 * flat state, to shard 0.
 */
import { GLOBAL_CONTRACT_CODE_COLUMN, GLOBAL_CONTRACT_NONCE_COLUMN } from './global-contract-state.js';
import { StateColumn } from './state-keys.js';

const ACCESS_KEY_SEPARATOR = StateColumn.AccessKey;
const ACCOUNT_DATA_SEPARATOR = 0x2c;
const SHARD_SUFFIX_BYTES = 4;
const utf8d = new TextDecoder();

function isGlobalContractKey(key: Uint8Array): boolean {
  return key[0] === GLOBAL_CONTRACT_CODE_COLUMN || key[0] === GLOBAL_CONTRACT_NONCE_COLUMN;
}

/** The key in the shard's trie of a flat-state key. */
export function trieKeyOf(key: Uint8Array): Uint8Array {
  return isGlobalContractKey(key) ? key.subarray(0, key.length - SHARD_SUFFIX_BYTES) : key;
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
  if (isGlobalContractKey(key)) {
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
