/**
 * Deterministic account ids (NEP-616): `0s` + the hex of the last 20 bytes of keccak256 of the borsh of the
 * account's initial state (nearcore core/primitives/src/utils.rs `derive_near_deterministic_account_id`).
 * Such an account has no keys: it is created by a transfer (an account without code) or by the
 * DeterministicStateInit action, which gives it a global contract and its first contract data.
 */
import { hexEncode } from './encoding.js';
import { keccak256 } from './hash.js';

const PREFIX = '0s';

/** `0s` + 40 lowercase hex characters (near-account-id's `AccountType::NearDeterministicAccount`). */
export function isNearDeterministicAccount(accountId: string): boolean {
  if (accountId.length !== 42 || !accountId.startsWith(PREFIX)) return false;
  for (let i = 2; i < 42; i++) {
    const c = accountId.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

/** The deterministic account id of a state init, given the borsh of its `DeterministicAccountStateInit`. */
export function deterministicAccountIdOfBorsh(stateInitBorsh: Uint8Array): string {
  return `${PREFIX}${hexEncode(keccak256(stateInitBorsh).subarray(12))}`;
}
