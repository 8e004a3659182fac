/**
 * Typed reads and writes of accounts, access keys and contract data on a StateUpdate.
 */
import {
  type AccessKey,
  decodeAccessKey,
  decodePublicKeyHandle,
  encodeAccessKey,
  type PublicKey,
  type PublicKeyHandle,
} from '@shadebox/primitives';
import { type Account, decodeAccount, encodeAccount } from './account.js';
import {
  accessKeyKey,
  accessKeyPrefix,
  accountKey,
  contractCodeKey,
  contractDataPrefix,
  gasKeyNonceKey,
  keySuffix,
} from './state-keys.js';
import type { StateUpdate } from './state-update.js';

export function getAccount(state: StateUpdate, accountId: string): Account | undefined {
  const bytes = state.get(accountKey(accountId));
  return bytes ? decodeAccount(bytes) : undefined;
}

export function setAccount(state: StateUpdate, accountId: string, account: Account): void {
  state.set(accountKey(accountId), encodeAccount(account));
}

export function getAccessKey(
  state: StateUpdate,
  accountId: string,
  publicKey: PublicKey,
): AccessKey | undefined {
  const bytes = state.get(accessKeyKey(accountId, publicKey));
  return bytes ? decodeAccessKey(bytes) : undefined;
}

export function setAccessKey(
  state: StateUpdate,
  accountId: string,
  publicKey: PublicKey,
  key: AccessKey,
): void {
  state.set(accessKeyKey(accountId, publicKey), encodeAccessKey(key));
}

export function removeAccessKey(state: StateUpdate, accountId: string, publicKey: PublicKey): void {
  state.remove(accessKeyKey(accountId, publicKey));
}

export function listAccessKeys(
  state: StateUpdate,
  accountId: string,
): Array<{ publicKey: PublicKeyHandle; accessKey: AccessKey }> {
  const prefix = accessKeyPrefix(accountId);
  const keys: Array<{ publicKey: PublicKeyHandle; accessKey: AccessKey }> = [];
  for (const { key, value } of state.scan(prefix)) {
    const suffix = keySuffix(key, prefix);
    // Gas-key nonces live under the access key's key with a u16 index after the key handle.
    if (suffix.length !== (suffix[0] === 1 ? 65 : 33)) continue;
    keys.push({ publicKey: decodePublicKeyHandle(suffix), accessKey: decodeAccessKey(value) });
  }
  return keys;
}

/** The nonce `index` of a gas key (a u64 in state), or undefined. */
export function getGasKeyNonce(
  state: StateUpdate,
  accountId: string,
  publicKey: PublicKey,
  index: number,
): bigint | undefined {
  const bytes = state.get(gasKeyNonceKey(accountId, publicKey, index));
  return bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readBigUInt64LE(0) : undefined;
}

export function setGasKeyNonce(
  state: StateUpdate,
  accountId: string,
  publicKey: PublicKey,
  index: number,
  nonce: bigint,
): void {
  const bytes = new Uint8Array(8);
  Buffer.from(bytes.buffer).writeBigUInt64LE(nonce, 0);
  state.set(gasKeyNonceKey(accountId, publicKey, index), bytes);
}

export function removeGasKeyNonce(
  state: StateUpdate,
  accountId: string,
  publicKey: PublicKey,
  index: number,
): void {
  state.remove(gasKeyNonceKey(accountId, publicKey, index));
}

/** Removes every record of an account (the account, its keys, code and data), as DeleteAccount does. */
export function removeAccountRecords(state: StateUpdate, accountId: string): void {
  state.remove(accountKey(accountId));
  state.remove(contractCodeKey(accountId));
  for (const { key } of state.scan(accessKeyPrefix(accountId))) state.remove(key);
  for (const { key } of state.scan(contractDataPrefix(accountId))) state.remove(key);
}
