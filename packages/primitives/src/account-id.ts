/**
 * Account ids, as the `near-account-id` crate (core/account-id/src/lib.rs) parses them:
 * 2..=64 bytes of `a-z 0-9` and the separators `- _ .`, with no separator at either end and no two
 * separators in a row. (`account_id_validity_rules_version: 2`, protocol 83, changes where these rules are
 * applied — host functions of the VM now reject invalid ids with `InvalidAccountId` instead of building
 * receipts for them — not the rules themselves; see core/parameters/res/runtime_configs/83.yaml.)
 */

import { isNearDeterministicAccount } from './deterministic-account-id.js';
import { utf8Encode } from './encoding.js';
import { InvalidAccountIdError } from './errors.js';
import { sha256 } from './hash.js';
import { isUniversalAccount } from './universal-account-id.js';

export const MIN_ACCOUNT_ID_LENGTH = 2;
export const MAX_ACCOUNT_ID_LENGTH = 64;
export const SYSTEM_ACCOUNT_ID = 'system';

/** The reason an id is invalid, or null when it is valid. The first violation wins, as in nearcore. */
export function accountIdError(accountId: string): string | null {
  if (typeof accountId !== 'string') return 'not a string';
  // nearcore measures bytes; any non-ASCII character is invalid anyway, so only the reported reason differs.
  const length = Buffer.byteLength(accountId, 'utf8');
  if (length < MIN_ACCOUNT_ID_LENGTH) return `too short (${length} bytes, minimum ${MIN_ACCOUNT_ID_LENGTH})`;
  if (length > MAX_ACCOUNT_ID_LENGTH) return `too long (${length} bytes, maximum ${MAX_ACCOUNT_ID_LENGTH})`;
  let lastWasSeparator = true;
  for (let i = 0; i < accountId.length; i++) {
    const c = accountId.charCodeAt(i);
    let separator: boolean;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) separator = false;
    else if (c === 0x2d || c === 0x5f || c === 0x2e) separator = true;
    else
      return `invalid character ${JSON.stringify(String.fromCodePoint(accountId.codePointAt(i) ?? c))} at ${i}`;
    if (separator && lastWasSeparator) {
      return i === 0
        ? `starts with separator '${accountId[i]}'`
        : `redundant separator '${accountId[i]}' at ${i}`;
    }
    lastWasSeparator = separator;
  }
  if (lastWasSeparator) return `ends with separator '${accountId[accountId.length - 1]}'`;
  return null;
}

export function isValidAccountId(accountId: unknown): accountId is string {
  return typeof accountId === 'string' && accountIdError(accountId) === null;
}

export function validateAccountId(accountId: string): string {
  const reason = accountIdError(accountId);
  if (reason !== null) throw new InvalidAccountIdError(String(accountId), reason);
  return accountId;
}

function isLowerHex(s: string, from: number): boolean {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

/** 64 lowercase hex characters: hex of an ed25519 public key. */
export function isNearImplicitAccount(accountId: string): boolean {
  return accountId.length === 64 && isLowerHex(accountId, 0);
}

/** `0x` + 40 lowercase hex characters: the last 20 bytes of keccak256 of a secp256k1 public key. */
export function isEthImplicitAccount(accountId: string): boolean {
  return accountId.length === 42 && accountId.startsWith('0x') && isLowerHex(accountId, 2);
}

/**
 * Any id an account can only get without CreateAccount: NEAR-implicit, ETH-implicit, deterministic (NEP-616)
 * or universal (NEP-655) — near-account-id 3.0's `AccountType::is_implicit`, which nearcore 2.14 applies to
 * CreateAccount at every protocol version. Whether a transfer may create a universal account depends on the
 * protocol version (check-action.ts).
 */
export function isImplicitAccount(accountId: string): boolean {
  return (
    isNearImplicitAccount(accountId) ||
    isEthImplicitAccount(accountId) ||
    isNearDeterministicAccount(accountId) ||
    isUniversalAccount(accountId)
  );
}

/** No `.` in the id; `system` is not top-level (near-account-id `is_top_level`). */
export function isTopLevelAccount(accountId: string): boolean {
  return accountId !== SYSTEM_ACCOUNT_ID && !accountId.includes('.');
}

/** `app.alice.near` → `alice.near`; a top-level id has no parent (null). */
export function parentAccountId(accountId: string): string | null {
  const dot = accountId.indexOf('.');
  return dot < 0 ? null : accountId.slice(dot + 1);
}

/** True when `child` is a direct sub-account of `parent` (`app.alice.near` of `alice.near`, not of `near`). */
export function isSubAccountOf(child: string, parent: string): boolean {
  if (!child.endsWith(parent)) return false;
  const head = child.slice(0, child.length - parent.length);
  return head.length > 0 && head.indexOf('.') === head.length - 1;
}

/**
 * ShardLayout V0 mapping: the first 8 bytes of sha256(account id) as a little-endian u64, modulo the number
 * of shards (core/primitives/src/shard_layout/v0.rs, `ShardLayoutV0::account_id_to_shard_id`).
 */
export function accountIdToShardId(accountId: string, numShards: number): number {
  if (!Number.isSafeInteger(numShards) || numShards < 1)
    throw new RangeError(`invalid number of shards: ${numShards}`);
  if (numShards === 1) return 0;
  const hash = sha256(utf8Encode(accountId));
  const value = new DataView(hash.buffer, hash.byteOffset, 8).getBigUint64(0, true);
  return Number(value % BigInt(numShards));
}
