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
  return state.scan(prefix).map(({ key, value }) => ({
    publicKey: decodePublicKeyHandle(keySuffix(key, prefix)),
    accessKey: decodeAccessKey(value),
  }));
}

/** Removes every record of an account (the account, its keys, code and data), as DeleteAccount does. */
export function removeAccountRecords(state: StateUpdate, accountId: string): void {
  state.remove(accountKey(accountId));
  state.remove(contractCodeKey(accountId));
  for (const { key } of state.scan(accessKeyPrefix(accountId))) state.remove(key);
  for (const { key } of state.scan(contractDataPrefix(accountId))) state.remove(key);
}
