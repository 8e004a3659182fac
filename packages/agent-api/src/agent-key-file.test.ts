import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { testRandom } from '../../../test/test-random.js';
import {
  agentAccountIdOf,
  loadOrCreateAgentKeyFile,
  poolKeysOf,
  readAgentKeyFile,
} from './agent-key-file.js';
import { ConfigError, loadAgentApiConfig } from './config.js';

const rng = testRandom('packages/agent-api/src/agent-key-file.test.ts');
const dir = mkdtempSync(join(tmpdir(), 'shadebox-agent-key-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const base = {
  CHAIN_ACCOUNT_ID: 'test.near',
  CHAIN_ACCOUNT_SECRET_KEY: rng.keyPair().toString(),
  AGENT_CONTRACT_ID: 'agent.test.near',
  NEAR_RPC_URL: 'http://127.0.0.1:3030',
  AGENT_CODEHASH: 'a'.repeat(64),
  TEE_MODE: 'local',
};

describe('AGENT_KEY_FILE', () => {
  it('is created once (0600, a NEAR key file of the implicit account) and read back the same', () => {
    const path = join(dir, 'created.json');
    assert.equal(readAgentKeyFile(path), null);
    const first = loadOrCreateAgentKeyFile(path, rng.bytes(32));
    assert.equal(first.created, true);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const file = JSON.parse(readFileSync(path, 'utf8'));
    assert.deepEqual(file, {
      account_id: agentAccountIdOf(first.key),
      public_key: first.key.publicKeyString,
      secret_key: first.key.toString(),
    });
    assert.match(file.account_id, /^[0-9a-f]{64}$/);
    // The next boot's fresh seed is not used: the file's key is.
    const second = loadOrCreateAgentKeyFile(path, rng.bytes(32));
    assert.equal(second.created, false);
    assert.equal(second.key.toString(), first.key.toString());
  });

  it("takes near-cli's private_key and a file with the secret key alone", () => {
    const key = rng.keyPair();
    const path = join(dir, 'near-cli.json');
    writeFileSync(path, JSON.stringify({ account_id: agentAccountIdOf(key), private_key: key.toString() }));
    assert.equal(readAgentKeyFile(path)?.publicKeyString, key.publicKeyString);
    writeFileSync(path, JSON.stringify({ secret_key: key.toString() }));
    assert.equal(readAgentKeyFile(path)?.publicKeyString, key.publicKeyString);
  });

  it('the pool keys derive from the agent key: the same for the same key, others for another', () => {
    const key = rng.keyPair();
    const pool = poolKeysOf(key, 3).map((k) => k.publicKeyString);
    assert.equal(new Set(pool).size, 3);
    assert.deepEqual(
      poolKeysOf(key, 4).map((k) => k.publicKeyString),
      [...pool, poolKeysOf(key, 4)[3].publicKeyString],
    );
    assert.ok(!pool.includes(key.publicKeyString));
    assert.notDeepEqual(
      poolKeysOf(rng.keyPair(), 3).map((k) => k.publicKeyString),
      pool,
    );
  });

  it('a malformed file is a ConfigError naming AGENT_KEY_FILE and the file, never the key', () => {
    const key = rng.keyPair();
    const other = rng.keyPair();
    const secret = key.toString();
    const cases: Array<[string, string, RegExp]> = [
      ['not-json.json', `{"secret_key": "${secret}"`, /not JSON/],
      ['no-key.json', JSON.stringify({ account_id: agentAccountIdOf(key) }), /expected "secret_key"/],
      ['bad-key.json', JSON.stringify({ secret_key: `${secret.slice(0, 20)}` }), /not a valid ed25519/],
      [
        'secp.json',
        JSON.stringify({ secret_key: rng.keyPair('secp256k1').toString() }),
        /expected "secret_key"/,
      ],
      [
        'wrong-public.json',
        JSON.stringify({ public_key: other.publicKeyString, secret_key: secret }),
        /"public_key" is not the public key/,
      ],
      [
        'wrong-account.json',
        JSON.stringify({ account_id: agentAccountIdOf(other), secret_key: secret }),
        /"account_id" is not the implicit account/,
      ],
    ];
    for (const [name, text, message] of cases) {
      const path = join(dir, name);
      writeFileSync(path, text);
      for (const load of [
        () => readAgentKeyFile(path),
        () => loadAgentApiConfig({ ...base, AGENT_KEY_FILE: path }),
      ]) {
        assert.throws(load, (e: unknown) => {
          assert.ok(e instanceof ConfigError, String(e));
          assert.equal(e.variable, 'AGENT_KEY_FILE');
          assert.ok(e.message.startsWith(`AGENT_KEY_FILE: ${path}: `), e.message);
          assert.match(e.message, message);
          assert.ok(!e.message.includes(secret.slice(8, 30)), 'no key in the message');
          return true;
        });
      }
    }
    const directory = join(dir, 'a-directory');
    mkdirSync(directory);
    assert.throws(() => readAgentKeyFile(directory), /cannot be read \(EISDIR\)/);
  });

  it('config: resolved to an absolute path; a missing directory or dstack mode is refused', () => {
    const path = join(dir, 'config.json');
    assert.equal(loadAgentApiConfig({ ...base, AGENT_KEY_FILE: path }).agentKeyFile, path);
    assert.equal(loadAgentApiConfig(base).agentKeyFile, undefined);
    assert.throws(
      () => loadAgentApiConfig({ ...base, AGENT_KEY_FILE: join(dir, 'nowhere', 'key.json') }),
      /AGENT_KEY_FILE: .*nowhere\/key\.json: its directory does not exist/,
    );
    assert.throws(
      () => loadAgentApiConfig({ ...base, TEE_MODE: 'dstack', AGENT_KEY_FILE: path }),
      /AGENT_KEY_FILE: only in local mode/,
    );
  });
});
