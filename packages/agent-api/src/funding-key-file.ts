/**
 * `CHAIN_ACCOUNT_SECRET_KEY_FILE`: the funding account's key in a file, as container engines pass secrets
 * (`/run/secrets/<name>`). The file holds what `CHAIN_ACCOUNT_SECRET_KEY` would (`ed25519:…`/`secp256k1:…`
 * or a seed phrase; surrounding white space ignored), or a NEAR credentials file (`{"account_id", "public_key",
 * "secret_key"}`, `private_key` read for `secret_key`). It is read when the configuration is loaded, to refuse
 * a bad file at once, and again by the boot when it funds the agent; the key is never kept: the configuration
 * holds the path only, the bytes read are zeroed once decoded. Errors name the file, never its content.
 */
import { readFileSync } from 'node:fs';
import type { KeyPair } from '@shadebox/primitives';
import { ConfigError, parseSecretKey } from './config.js';

export const FUNDING_KEY_FILE_VARIABLE = 'CHAIN_ACCOUNT_SECRET_KEY_FILE';

/** The key in the file `path` (absolute); a `ConfigError` naming the file when it cannot be read or holds no key. */
export function readFundingKeyFile(path: string): KeyPair {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      FUNDING_KEY_FILE_VARIABLE,
      `${path}: cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? 'error')})`,
    );
  }
  let text: string;
  try {
    text = bytes.toString('utf8').trim();
  } finally {
    bytes.fill(0);
  }
  let value: unknown = text;
  if (text.startsWith('{')) {
    try {
      const json = JSON.parse(text);
      value = json?.secret_key ?? json?.private_key;
    } catch {
      value = undefined;
    }
    if (typeof value !== 'string') {
      throw new ConfigError(
        FUNDING_KEY_FILE_VARIABLE,
        `${path}: not a NEAR credentials file (expected JSON with "secret_key")`,
      );
    }
  }
  try {
    return parseSecretKey({ name: FUNDING_KEY_FILE_VARIABLE, value: value as string });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    throw new ConfigError(FUNDING_KEY_FILE_VARIABLE, `${path}: ${e.problems[0].message}`);
  }
}
