/**
 * The key `shadebox call` signs with: `--key` when given, else a key of the account found in the home's
 * key files — `validator_key.json` (test.near's key, written by `shadebox node init` / `up`) and any other
 * JSON file in the node home or the stack home holding `{account_id, secret_key}`, or a list or named entries
 * of them, `{accountId, secretKey}` too (the funded dev accounts of dev_accounts.json, the chain-signature
 * accounts of mpc_accounts.json).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { KeyPair } from '@shadebox/primitives';
import { UsageError } from '../usage-error.js';
import { NotFoundError } from './not-found-error.js';

/** The account a call is sent from when neither --as nor --key says otherwise. */
export const DEFAULT_SIGNER = 'test.near';

export interface SigningKey {
  accountId: string;
  keyPair: KeyPair;
  /** Where the key came from: `--key` or a file's path. */
  source: string;
}

interface KeyEntry {
  accountId: string;
  secretKey: string;
}

export function signingKey(
  command: string,
  nodeHome: string,
  flags: { as?: string | undefined; key?: string | undefined },
): SigningKey {
  const accountId = flags.as ?? DEFAULT_SIGNER;
  if (flags.key !== undefined) {
    try {
      return { accountId, keyPair: KeyPair.fromString(flags.key), source: '--key' };
    } catch {
      throw new UsageError(
        command,
        'invalid value for --key: expected a secret key ed25519:… or secp256k1:…',
        '--key',
      );
    }
  }
  for (const file of keyFiles(nodeHome)) {
    const entry = readEntries(file).find((e) => e.accountId === accountId);
    if (entry === undefined) continue;
    try {
      return { accountId, keyPair: KeyPair.fromString(entry.secretKey), source: file };
    } catch {
      // A malformed key in a file that is not ours to judge: keep looking.
    }
  }
  throw new NotFoundError(
    'key',
    accountId,
    `no key of ${accountId} in ${nodeHome} or beside it: pass --key ed25519:… (and --as ACCOUNT), or --home DIR of the stack that holds it`,
  );
}

/** validator_key.json first, then the other JSON files of the node home and of its stack home. */
function keyFiles(nodeHome: string): string[] {
  const dirs = basename(nodeHome) === 'node' ? [nodeHome, dirname(nodeHome)] : [nodeHome];
  const files = [join(nodeHome, 'validator_key.json')];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (name.endsWith('.json') && !files.includes(path)) files.push(path);
    }
  }
  return files;
}

/** The account keys a JSON file holds, in whichever of the shapes above; none when it is something else. */
function readEntries(file: string): KeyEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  // A list, `{accounts: [...]}`, one entry, or an object of named entries (mpc_accounts.json).
  const list = Array.isArray(json)
    ? json
    : Array.isArray((json as { accounts?: unknown })?.accounts)
      ? (json as { accounts: unknown[] }).accounts
      : typeof json === 'object' && json !== null
        ? [json, ...Object.values(json)]
        : [];
  const out: KeyEntry[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const o = item as Record<string, unknown>;
    const accountId = o.account_id ?? o.accountId;
    const secretKey = o.secret_key ?? o.secretKey ?? o.private_key ?? o.privateKey;
    if (typeof accountId === 'string' && typeof secretKey === 'string') out.push({ accountId, secretKey });
  }
  return out;
}
