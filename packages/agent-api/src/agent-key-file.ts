/**
 * `AGENT_KEY_FILE`: the development opt-in that keeps one agent account across restarts (without it the
 * agent's key is new at every boot, as the interface document says). The file is a NEAR key file:
 *
 *   {"account_id": "<implicit account: hex of the public key>", "public_key": "ed25519:…",
 *    "secret_key": "ed25519:…"}
 *
 * created at the first boot (mode 0600, a fresh random key) and read at the next ones. `private_key` is taken
 * for `secret_key` (near-cli's credential files); `account_id` and `public_key`, when present, must be the
 * key's. The key pool's keys derive from the agent key (`poolKeysOf`), so a restart finds them on the
 * account and adds none. Errors name the file, never its content.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hexEncode, KEY_TYPE_ED25519, KeyPair } from '@shadebox/primitives';
import { ConfigError } from './config.js';

const VARIABLE = 'AGENT_KEY_FILE';

/** The file's JSON. */
export interface AgentKeyFileContent {
  account_id: string;
  public_key: string;
  secret_key: string;
}

function invalid(path: string, what: string): ConfigError {
  return new ConfigError(VARIABLE, `${path}: ${what}`);
}

/** The key in `path`, or null when there is no such file. A file that is not a valid key file is a
 * `ConfigError` naming the file. */
export function readAgentKeyFile(path: string): KeyPair | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw invalid(path, `cannot be read (${code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // The parser's message may quote the text: it is not repeated.
    throw invalid(path, 'not JSON: expected {"account_id","public_key","secret_key"}');
  }
  const file = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const secret = file.secret_key ?? file.private_key;
  if (typeof secret !== 'string' || !secret.startsWith('ed25519:')) {
    throw invalid(path, 'expected "secret_key": an ed25519:… secret key (the agent account is implicit)');
  }
  let key: KeyPair;
  try {
    key = KeyPair.fromString(secret);
  } catch {
    throw invalid(path, '"secret_key" is not a valid ed25519 secret key');
  }
  if (file.public_key !== undefined && file.public_key !== key.publicKeyString) {
    throw invalid(path, '"public_key" is not the public key of "secret_key"');
  }
  if (file.account_id !== undefined && file.account_id !== agentAccountIdOf(key)) {
    throw invalid(path, '"account_id" is not the implicit account of the key (hex of its public key)');
  }
  return key;
}

/**
 * The key in `path`, or, when there is none, a new one from `seed` (32 bytes) written there first (mode
 * 0600). Creation is atomic: written under a temporary name and hard-linked into place, so a concurrent boot
 * either wins or reads the winner's complete file.
 */
export function loadOrCreateAgentKeyFile(path: string, seed: Uint8Array): { key: KeyPair; created: boolean } {
  const existing = readAgentKeyFile(path);
  if (existing) return { key: existing, created: false };
  const key = KeyPair.fromSecretBytes(KEY_TYPE_ED25519, seed);
  const content: AgentKeyFileContent = {
    account_id: agentAccountIdOf(key),
    public_key: key.publicKeyString,
    secret_key: key.toString(),
  };
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  let fd: number;
  try {
    fd = openSync(tmp, 'wx', 0o600);
  } catch (error) {
    throw invalid(path, `cannot be created (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    writeSync(fd, `${JSON.stringify(content, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw invalid(path, `cannot be created (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    const other = readAgentKeyFile(path);
    if (other) return { key: other, created: false };
    throw invalid(path, 'cannot be created');
  } finally {
    unlinkSync(tmp);
  }
  return { key, created: true };
}

/** The implicit account of an ed25519 key: the hex of its public key. */
export function agentAccountIdOf(key: KeyPair): string {
  return hexEncode(key.publicKey.data);
}

/**
 * The key pool of a kept agent key: key i's 32-byte ed25519 seed is
 * sha256("shadebox agent key pool:" + i + ":" + the agent's secret key string), so every boot with the same
 * file has the same pool (the keys a restart finds on the account are not added again).
 */
export function poolKeysOf(agentKey: KeyPair, count: number): KeyPair[] {
  return Array.from({ length: count }, (_, i) =>
    KeyPair.fromSecretBytes(
      KEY_TYPE_ED25519,
      new Uint8Array(
        createHash('sha256').update(`shadebox agent key pool:${i}:${agentKey.toString()}`, 'utf8').digest(),
      ),
    ),
  );
}
