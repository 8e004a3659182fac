/**
 * The per-index nonces of a gas key (nearcore `TrieKey::GasKeyNonce`, core/primitives/src/trie_key.rs): stored
 * under the access-key column, the access key's own state key followed by the u16 index little-endian; the
 * value is the nonce, a borsh u64. Read and advanced by DelegateV2 with a gas-key nonce.
 */
import type { PublicKey } from '@shadebox/primitives';
import { accessKeyKey } from './state-keys.js';
import type { StateUpdate } from './state-update.js';

export function gasKeyNonceKey(accountId: string, publicKey: PublicKey, index: number): Uint8Array {
  const base = accessKeyKey(accountId, publicKey);
  const key = new Uint8Array(base.length + 2);
  key.set(base);
  new DataView(key.buffer).setUint16(base.length, index, true);
  return key;
}

export function getGasKeyNonce(
  state: StateUpdate,
  accountId: string,
  publicKey: PublicKey,
  index: number,
): bigint | undefined {
  const bytes = state.get(gasKeyNonceKey(accountId, publicKey, index));
  if (!bytes) return undefined;
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0, true);
}

export function setGasKeyNonce(
  state: StateUpdate,
  accountId: string,
  publicKey: PublicKey,
  index: number,
  nonce: bigint,
): void {
  const value = new Uint8Array(8);
  new DataView(value.buffer).setBigUint64(0, nonce, true);
  state.set(gasKeyNonceKey(accountId, publicKey, index), value);
}
