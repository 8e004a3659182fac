/**
 * near-account-id's `ParseAccountError` texts, as nearcore's request parsing reports an invalid account id.
 */

/** near-account-id's `ParseAccountError` text for a reason of `accountIdError`. */
export function parseAccountErrorText(accountId: string, reason: string): string {
  if (reason.startsWith('too short')) return 'the Account ID is too short';
  if (reason.startsWith('too long')) return 'the Account ID is too long';
  const at = /at (\d+)$/.exec(reason);
  const index = at ? Number(at[1]) : reason.startsWith('starts') ? 0 : accountId.length - 1;
  const char = JSON.stringify(accountId[index] ?? '').slice(1, -1);
  if (reason.startsWith('invalid character'))
    return `the Account ID contains an invalid character '${char}' at index ${index}`;
  return `the Account ID has a redundant separator '${char}' at index ${index}`;
}
