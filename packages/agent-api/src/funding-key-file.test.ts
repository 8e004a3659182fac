import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { KeyPair } from '@shadebox/primitives';
import { ConfigError, loadAgentApiConfig } from './config.js';
import { readFundingKeyFile } from './funding-key-file.js';

const dir = mkdtempSync(join(tmpdir(), 'funding-key-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const key = KeyPair.fromRandom();
const base = {
  CHAIN_ACCOUNT_ID: 'test.near',
  AGENT_CONTRACT_ID: 'agent.test.near',
  NEAR_RPC_URL: 'http://127.0.0.1:3030',
  AGENT_CODEHASH: 'a'.repeat(64),
  TEE_MODE: 'local',
};

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadAgentApiConfig(env);
  } catch (e) {
    assert.ok(e instanceof ConfigError);
    return e;
  }
  assert.fail('expected a ConfigError');
}

describe('CHAIN_ACCOUNT_SECRET_KEY_FILE', () => {
  it('reads a key alone (white space around it) or a NEAR credentials file', () => {
    assert.equal(readFundingKeyFile(file('plain', `\n${key.toString()}\n`)).toString(), key.toString());
    const credentials = file(
      'credentials.json',
      JSON.stringify({
        account_id: 'test.near',
        public_key: key.publicKeyString,
        private_key: key.toString(),
      }),
    );
    assert.equal(readFundingKeyFile(credentials).publicKeyString, key.publicKeyString);
  });

  it('is checked at load and kept as its path only, never as the key', () => {
    const path = file('secret', key.toString());
    const c = loadAgentApiConfig({ ...base, CHAIN_ACCOUNT_SECRET_KEY_FILE: path });
    assert.equal(c.fundingKeyFile, path);
    assert.equal(c.fundingKey, undefined);
    assert.equal(
      JSON.stringify(c, (_, v) => (typeof v === 'bigint' ? String(v) : v)).includes(key.toString().slice(8)),
      false,
    );
  });

  it('refuses a missing, unreadable or wrong file naming the file, never the content', () => {
    const missing = refusal({ ...base, CHAIN_ACCOUNT_SECRET_KEY_FILE: join(dir, 'nowhere') });
    assert.equal(missing.variable, 'CHAIN_ACCOUNT_SECRET_KEY_FILE');
    assert.match(missing.message, /nowhere: cannot be read \(no such file\)$/);
    const secretLooking = 'ed25519:notbase58butsecret0OIl';
    const wrong = refusal({ ...base, CHAIN_ACCOUNT_SECRET_KEY_FILE: file('wrong', secretLooking) });
    assert.match(
      wrong.message,
      /wrong: expected an ed25519:\/secp256k1: secret key or a 12–24 word seed phrase$/,
    );
    assert.equal(wrong.message.includes('notbase58'), false);
    const json = refusal({ ...base, CHAIN_ACCOUNT_SECRET_KEY_FILE: file('bad.json', '{"secret":1}') });
    assert.match(json.message, /bad\.json: not a NEAR credentials file/);
    if (process.getuid?.() !== 0) {
      const locked = file('locked', key.toString());
      chmodSync(locked, 0o000);
      assert.match(
        refusal({ ...base, CHAIN_ACCOUNT_SECRET_KEY_FILE: locked }).message,
        /locked: cannot be read \(EACCES\)$/,
      );
    }
  });

  it('takes the place of CHAIN_ACCOUNT_SECRET_KEY, not both', () => {
    const e = refusal({
      ...base,
      CHAIN_ACCOUNT_SECRET_KEY: key.toString(),
      CHAIN_ACCOUNT_SECRET_KEY_FILE: file('k', key.toString()),
    });
    assert.equal(e.variable, 'CHAIN_ACCOUNT_SECRET_KEY_FILE');
    assert.match(e.message, /not both$/);
    const none = refusal(base);
    assert.equal(none.variable, 'CHAIN_ACCOUNT_SECRET_KEY');
    assert.match(none.message, /or CHAIN_ACCOUNT_SECRET_KEY_FILE to a file holding it$/);
  });

  it('NEAR_RPC_TIMEOUT_MS sets the request timeout', () => {
    const c = loadAgentApiConfig({
      ...base,
      CHAIN_ACCOUNT_SECRET_KEY: key.toString(),
      NEAR_RPC_TIMEOUT_MS: '2500',
    });
    assert.equal(c.rpcTimeoutMs, 2500);
    assert.equal(
      refusal({ ...base, CHAIN_ACCOUNT_SECRET_KEY: key.toString(), NEAR_RPC_TIMEOUT_MS: '5' }).variable,
      'NEAR_RPC_TIMEOUT_MS',
    );
  });
});
