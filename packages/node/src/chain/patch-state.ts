/**
 * `sandbox_patch_state`: nearcore's `StateRecord` JSON (`Account`, `AccessKey`, `Contract`, `Data`) checked and
 * decoded (`parseStatePatch`), then written at the end of the next block (`applyStatePatch`), after its
 * transactions and receipts, as nearcore's runtime applies a `SandboxStatePatch`.
 *
 * Records are written as given, as nearcore writes them: an `Account` record's `storage_usage` included, and
 * `AccessKey`, `Contract` and `Data` records leave the account's storage usage as it was (near-workspaces
 * patches an account with `storage_usage: 0`, then its key and code, and expects the whole balance available).
 * Only an `Account` record without `storage_usage` (nearcore requires the field) gets its account's storage
 * usage recomputed from its records as of the end of the block, the way genesis counts it
 * (state/storage-usage.ts): `num_bytes_account`, plus each access key, the contract code and each data record.
 * A `Contract` record sets the account's code hash to the hash of the code. Total supply in block headers is
 * not adjusted for patched balances.
 */
import { ShadeboxError } from '@shadebox/errors';
import {
  type AccessKey,
  accessKeyFromView,
  base58Decode,
  base64Decode,
  decodeAccessKey,
  decodePublicKeyHandle,
  isValidAccountId,
  type PublicKey,
  parsePublicKey,
  sha256,
} from '@shadebox/primitives';
import { EMPTY_CODE_HASH } from '../state/account.js';
import {
  accessKeyPrefix,
  contractCodeKey,
  contractDataKey,
  contractDataPrefix,
  keySuffix,
} from '../state/state-keys.js';
import type { StateUpdate } from '../state/state-update.js';
import { accessKeyStorageUsage, type StorageUsageConfig } from '../state/storage-usage.js';
import { getAccount, setAccessKey, setAccount } from '../state/typed-state.js';

/** One decoded patch record. */
export type PatchRecord =
  | {
      kind: 'Account';
      accountId: string;
      amount: bigint;
      locked: bigint;
      /** Absent: the account keeps its current code hash (empty for a new account). */
      codeHash?: Uint8Array;
      /** Absent: recomputed from the account's records. */
      storageUsage?: bigint;
    }
  | { kind: 'AccessKey'; accountId: string; publicKey: PublicKey; accessKey: AccessKey }
  | { kind: 'Contract'; accountId: string; code: Uint8Array }
  | { kind: 'Data'; accountId: string; key: Uint8Array; value: Uint8Array };

/** A record that is not a valid StateRecord; the message says which and why. */
export class StatePatchError extends ShadeboxError {}

const U128_MAX = (1n << 128n) - 1n;

/** Checks and decodes `records` (the `records` param). Throws StatePatchError. */
export function parseStatePatch(records: unknown[]): PatchRecord[] {
  return records.map((record, i) => parseRecord(record, `records[${i}]`));
}

function parseRecord(record: unknown, path: string): PatchRecord {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    throw new StatePatchError(`${path}: expected a StateRecord object`);
  }
  const keys = Object.keys(record);
  if (keys.length !== 1) throw new StatePatchError(`${path}: expected exactly one variant key`);
  const kind = keys[0];
  const body = field(record, kind, path, 'object') as Record<string, unknown>;
  const p = `${path}.${kind}`;
  const accountId = field(body, 'account_id', p, 'string') as string;
  if (!isValidAccountId(accountId)) {
    throw new StatePatchError(`${p}.account_id: invalid account id ${JSON.stringify(accountId)}`);
  }
  switch (kind) {
    case 'Account': {
      const account = field(body, 'account', p, 'object') as Record<string, unknown>;
      const codeHash = account.code_hash;
      if (codeHash !== undefined && typeof codeHash !== 'string') {
        throw new StatePatchError(`${p}.account.code_hash: expected a base58 string`);
      }
      return {
        kind,
        accountId,
        amount: u128(account.amount, `${p}.account.amount`),
        locked: account.locked === undefined ? 0n : u128(account.locked, `${p}.account.locked`),
        ...(codeHash === undefined ? {} : { codeHash: hash32(codeHash, `${p}.account.code_hash`) }),
        ...(account.storage_usage === undefined
          ? {}
          : { storageUsage: u64(account.storage_usage, `${p}.account.storage_usage`) }),
      };
    }
    case 'AccessKey': {
      const publicKeyText = field(body, 'public_key', p, 'string') as string;
      let publicKey: PublicKey;
      let accessKey: AccessKey;
      try {
        publicKey = parsePublicKey(publicKeyText);
      } catch (error) {
        throw new StatePatchError(`${p}.public_key: ${(error as Error).message}`);
      }
      try {
        accessKey = accessKeyFromView(body.access_key, `${p}.access_key`);
      } catch (error) {
        throw new StatePatchError((error as Error).message);
      }
      return { kind, accountId, publicKey, accessKey };
    }
    case 'Contract':
      return { kind, accountId, code: b64(body.code, `${p}.code`) };
    case 'Data':
      return {
        kind,
        accountId,
        key: b64(body.data_key, `${p}.data_key`),
        value: b64(body.value, `${p}.value`),
      };
    default:
      throw new StatePatchError(
        `${path}: unsupported StateRecord variant \`${kind}\`, expected one of \`Account\`, \`AccessKey\`, \`Contract\`, \`Data\``,
      );
  }
}

function field(o: object, name: string, path: string, type: 'object' | 'string'): unknown {
  const v = (o as Record<string, unknown>)[name];
  if (v === undefined) throw new StatePatchError(`${path}: missing field \`${name}\``);
  const ok =
    type === 'string' ? typeof v === 'string' : v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!ok)
    throw new StatePatchError(`${path}.${name}: expected ${type === 'string' ? 'a string' : 'an object'}`);
  return v;
}

function u128(v: unknown, path: string): bigint {
  if (typeof v !== 'string' || !/^(0|[1-9][0-9]*)$/.test(v) || BigInt(v) > U128_MAX) {
    throw new StatePatchError(`${path}: expected a u128 as a decimal string`);
  }
  return BigInt(v);
}

function u64(v: unknown, path: string): bigint {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new StatePatchError(`${path}: expected a u64 number`);
  }
  return BigInt(v);
}

function hash32(v: string, path: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(v);
  } catch {
    throw new StatePatchError(`${path}: not base58`);
  }
  if (bytes.length !== 32) throw new StatePatchError(`${path}: expected 32 bytes`);
  return bytes;
}

function b64(v: unknown, path: string): Uint8Array {
  if (typeof v !== 'string') throw new StatePatchError(`${path}: expected a base64 string`);
  try {
    return base64Decode(v);
  } catch {
    throw new StatePatchError(`${path}: invalid base64`);
  }
}

/** The account ids `records` touch. */
export function patchedAccounts(records: readonly PatchRecord[]): Set<string> {
  return new Set(records.map((r) => r.accountId));
}

/**
 * Writes `records` into `state` (one shard's update for the block being made), recomputes the storage usage
 * of the accounts they touch, and commits with `cause`. Records of an account that does not exist once the
 * patch is written are skipped (the RPC refuses such patches up front; this covers an account deleted in
 * between).
 */
export function applyStatePatch(
  state: StateUpdate,
  records: readonly PatchRecord[],
  cfg: StorageUsageConfig,
  cause: Parameters<StateUpdate['commit']>[0],
): void {
  const exists = (id: string) =>
    getAccount(state, id) !== undefined || records.some((r) => r.kind === 'Account' && r.accountId === id);
  const codeHashes = new Map<string, Uint8Array>();
  for (const r of records) {
    if (!exists(r.accountId)) continue;
    switch (r.kind) {
      case 'Account': {
        const current = getAccount(state, r.accountId);
        setAccount(state, r.accountId, {
          amount: r.amount,
          locked: r.locked,
          codeHash: r.codeHash ?? current?.codeHash ?? EMPTY_CODE_HASH,
          storageUsage: r.storageUsage ?? current?.storageUsage ?? 0n,
        });
        break;
      }
      case 'AccessKey':
        setAccessKey(state, r.accountId, r.publicKey, r.accessKey);
        break;
      case 'Contract':
        state.set(contractCodeKey(r.accountId), r.code);
        codeHashes.set(r.accountId, sha256(r.code));
        break;
      case 'Data':
        state.set(contractDataKey(r.accountId, r.key), r.value);
        break;
    }
  }
  // The last Account record of each account decides: its storage_usage, or a recount when it has none.
  const usage = new Map<string, bigint | 'recount'>();
  for (const r of records) if (r.kind === 'Account') usage.set(r.accountId, r.storageUsage ?? 'recount');
  for (const id of patchedAccounts(records)) {
    const account = getAccount(state, id);
    if (!account) continue;
    account.codeHash = codeHashes.get(id) ?? account.codeHash;
    const given = usage.get(id);
    if (given === 'recount') account.storageUsage = storageUsageOf(state, id, cfg);
    else if (given !== undefined) account.storageUsage = given;
    setAccount(state, id, account);
  }
  state.commit(cause);
}

/** An account's storage usage counted from its records, as genesis counts it. */
export function storageUsageOf(state: StateUpdate, accountId: string, cfg: StorageUsageConfig): bigint {
  let usage = cfg.numBytesAccount;
  const keyPrefix = accessKeyPrefix(accountId);
  for (const { key, value } of state.scan(keyPrefix)) {
    const handle = decodePublicKeyHandle(keySuffix(key, keyPrefix));
    usage += accessKeyStorageUsage(cfg, handle, decodeAccessKey(value));
  }
  const code = state.get(contractCodeKey(accountId));
  if (code) usage += BigInt(code.length);
  const dataPrefix = contractDataPrefix(accountId);
  for (const { key, value } of state.scan(dataPrefix)) {
    usage += BigInt(key.length - dataPrefix.length + value.length) + cfg.numExtraBytesRecord;
  }
  return usage;
}
