/**
 * Global contract code and deployment nonces in the state (nearcore `TrieKey::GlobalContractCode`, column 18,
 * and `TrieKey::GlobalContractNonce`, column 19, keyed by the borsh of the identifier). nearcore keeps one trie
 * per shard, so a shard sees a global contract only once the distribution receipt has reached it; our state is
 * one key space for all shards, so the shard id follows the identifier in the key.
 */
import {
  BorshReader,
  BorshWriter,
  type GlobalContractIdentifier,
  writeGlobalContractIdentifier,
} from '@shadebox/primitives';
import type { StateUpdate } from './state-update.js';

export const GLOBAL_CONTRACT_CODE_COLUMN = 18;
export const GLOBAL_CONTRACT_NONCE_COLUMN = 19;

function key(column: number, shardId: number, id: GlobalContractIdentifier): Uint8Array {
  const w = new BorshWriter();
  w.u8(column);
  writeGlobalContractIdentifier(w, id);
  w.u32(shardId);
  return w.toBytes();
}

export function globalContractCodeKey(shardId: number, id: GlobalContractIdentifier): Uint8Array {
  return key(GLOBAL_CONTRACT_CODE_COLUMN, shardId, id);
}

export function getGlobalContractCode(
  state: StateUpdate,
  shardId: number,
  id: GlobalContractIdentifier,
): Uint8Array | undefined {
  return state.get(globalContractCodeKey(shardId, id));
}

export function hasGlobalContractCode(
  state: StateUpdate,
  shardId: number,
  id: GlobalContractIdentifier,
): boolean {
  return state.has(globalContractCodeKey(shardId, id));
}

export function setGlobalContractCode(
  state: StateUpdate,
  shardId: number,
  id: GlobalContractIdentifier,
  code: Uint8Array,
): void {
  state.set(globalContractCodeKey(shardId, id), code);
}

export function getGlobalContractNonce(
  state: StateUpdate,
  shardId: number,
  id: GlobalContractIdentifier,
): bigint {
  const bytes = state.get(key(GLOBAL_CONTRACT_NONCE_COLUMN, shardId, id));
  return bytes ? new BorshReader(bytes).u64() : 0n;
}

export function setGlobalContractNonce(
  state: StateUpdate,
  shardId: number,
  id: GlobalContractIdentifier,
  nonce: bigint,
): void {
  state.set(key(GLOBAL_CONTRACT_NONCE_COLUMN, shardId, id), new BorshWriter(8).u64(nonce).toBytes());
}
