/**
 * Borsh of `AccountId`: a String that must be a valid account id. nearcore validates it while decoding
 * (core/account-id/src/borsh.rs), so a transaction or receipt with a malformed id does not decode at all.
 */
import { accountIdError } from './account-id.js';
import type { BorshReader, BorshWriter } from './borsh.js';
import { BorshError } from './errors.js';

export function writeAccountId(w: BorshWriter, accountId: string): void {
  const reason = accountIdError(accountId);
  if (reason !== null)
    throw new BorshError(`invalid account id ${JSON.stringify(String(accountId).slice(0, 80))}: ${reason}`);
  w.string(accountId);
}

export function readAccountId(r: BorshReader): string {
  const at = r.offset;
  const accountId = r.string();
  const reason = accountIdError(accountId);
  if (reason !== null) throw new BorshError(`invalid account id: ${reason}`, at);
  return accountId;
}
