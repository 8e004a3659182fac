import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { publicKeyToString } from '@shadebox/primitives';
import { testRandom } from '../../../../test/test-random.js';
import { ConfigFileError } from './config-file-error.js';
import { validateGenesis } from './genesis-validation.js';
import { createEphemeralHome, HomeExistsError, initHome, loadHome } from './init-home.js';
import { createKeyFile, serializeKeyFile } from './node-config.js';

const rng = testRandom('packages/node/src/config/init-home.test.ts');

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shadebox-home-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function rejectsWithConfigError(promise: Promise<unknown>): Promise<ConfigFileError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConfigFileError) return error;
    throw error;
  }
  throw new Error('expected a ConfigFileError');
}

async function editJson(path: string, edit: (json: Record<string, unknown>) => void): Promise<void> {
  const json = JSON.parse(await readFile(path, 'utf8'));
  edit(json);
  await writeFile(path, JSON.stringify(json, null, 2));
}

describe('initHome and loadHome', () => {
  it('writes the four files and reads back the same home', async () => {
    const home = await initHome(dir, { numShards: 2, genesisTime: 1_700_000_000_000_000_000n });
    for (const name of ['genesis.json', 'config.json', 'validator_key.json', 'node_key.json']) {
      assert.ok((await stat(join(dir, name))).isFile(), name);
    }
    assert.equal(home.dir, dir);
    assert.deepEqual(await loadHome(dir), home);
    assert.equal(home.genesis.genesis_time, '2023-11-14T22:13:20Z');
    assert.deepEqual(home.genesis.shard_layout, { V0: { num_shards: 2, version: 0 } });
    assert.equal(home.validatorKey.account_id, 'test.near');
    assert.equal(home.nodeKey.account_id, 'node');
    assert.notEqual(home.nodeKey.public_key, home.validatorKey.public_key);
    assert.deepEqual(
      home.genesis.validators.map((v) => [v.account_id, v.public_key]),
      [['test.near', home.validatorKey.public_key]],
    );
  });

  it('writes key files readable by the owner only', async () => {
    await initHome(dir);
    for (const name of ['validator_key.json', 'node_key.json']) {
      assert.equal((await stat(join(dir, name))).mode & 0o777, 0o600, name);
    }
    assert.equal((await stat(join(dir, 'genesis.json'))).mode & 0o077, 0o044);
  });

  it('writes nearcore-shaped files', async () => {
    await initHome(dir, { rpcAddr: '127.0.0.1:0', production: 'manual' });
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    assert.equal(config.rpc.addr, '127.0.0.1:0');
    assert.deepEqual(config.rpc.polling_config.polling_interval, { secs: 0, nanos: 500000000 });
    assert.deepEqual(config.shadebox, { production: 'manual', block_time_ms: 1000 });
    const genesis = JSON.parse(await readFile(join(dir, 'genesis.json'), 'utf8'));
    assert.deepEqual(validateGenesis(genesis), []);
    assert.equal(typeof genesis.total_supply, 'string');
    assert.equal(typeof genesis.gas_limit, 'number');
    const key = JSON.parse(await readFile(join(dir, 'validator_key.json'), 'utf8'));
    assert.deepEqual(Object.keys(key), ['account_id', 'public_key', 'secret_key']);
  });

  it('creates a missing directory', async () => {
    const nested = join(dir, 'a', 'b');
    await initHome(nested);
    assert.equal((await loadHome(nested)).dir, nested);
  });

  it('refuses to overwrite an existing home unless forced', async () => {
    const first = await initHome(dir);
    await assert.rejects(initHome(dir), (error: unknown) => {
      assert.ok(error instanceof HomeExistsError);
      assert.equal(error.existing.length, 4);
      assert.match(error.message, /already holds a node home .*pass force/);
      return true;
    });
    // Nothing was touched.
    assert.deepEqual(await loadHome(dir), first);
    const second = await initHome(dir, { force: true });
    assert.notEqual(second.validatorKey.secret_key, first.validatorKey.secret_key);
    assert.deepEqual(await loadHome(dir), second);
  });

  it('refuses even when only one file of a home is there', async () => {
    await writeFile(join(dir, 'node_key.json'), '{}');
    await assert.rejects(
      initHome(dir),
      (error: unknown) => error instanceof HomeExistsError && error.existing.length === 1,
    );
  });

  it('reuses a given validator key and account', async () => {
    const pair = rng.keyPair('ed25519');
    const home = await initHome(dir, {
      validatorSecretKey: pair.toString(),
      accountId: 'validator.test.near',
    });
    assert.equal(home.validatorKey.public_key, publicKeyToString(pair.publicKey));
    assert.equal(home.genesis.validators[0].account_id, 'validator.test.near');
    assert.equal(home.genesis.protocol_treasury_account, 'validator.test.near');
  });
});

describe('loadHome errors', () => {
  it('says a directory is not a home', async () => {
    const error = await rejectsWithConfigError(loadHome(dir));
    assert.equal(error.file, join(dir, 'config.json'));
    assert.match(error.message, /not an initialised node home/);
  });

  it('names genesis.json and the field when total_supply is wrong', async () => {
    await initHome(dir);
    await editJson(join(dir, 'genesis.json'), (g) => {
      g.total_supply = '1';
    });
    const error = await rejectsWithConfigError(loadHome(dir));
    assert.equal(error.file, join(dir, 'genesis.json'));
    assert.equal(error.field, 'total_supply');
    assert.match(error.message, /genesis\.json: total_supply: is 1 but the Account records hold/);
  });

  it('names every broken genesis field', async () => {
    await initHome(dir);
    await editJson(join(dir, 'genesis.json'), (g) => {
      delete g.chain_id;
      g.shard_layout = { V0: { num_shards: 0, version: 0 } };
      (g.validators as { account_id: string }[])[0].account_id = 'NOT VALID';
    });
    const error = await rejectsWithConfigError(loadHome(dir));
    const fields = error.issues.map((issue) => issue.field);
    for (const field of ['chain_id', 'shard_layout.V0.num_shards', 'validators[0].account_id']) {
      assert.ok(fields.includes(field), `${field} in ${fields.join(', ')}`);
    }
  });

  it('reports invalid JSON and a missing file', async () => {
    await initHome(dir);
    await writeFile(join(dir, 'config.json'), '{"rpc": ');
    let error = await rejectsWithConfigError(loadHome(dir));
    assert.equal(error.file, join(dir, 'config.json'));
    assert.match(error.message, /not valid JSON/);

    await initHome(dir, { force: true });
    await rm(join(dir, 'node_key.json'));
    error = await rejectsWithConfigError(loadHome(dir));
    assert.equal(error.file, join(dir, 'node_key.json'));
    assert.match(error.message, /file not found/);
  });

  it('reports a bad config.json field', async () => {
    await initHome(dir);
    await editJson(join(dir, 'config.json'), (c) => {
      (c.rpc as Record<string, unknown>).addr = 3030;
    });
    const error = await rejectsWithConfigError(loadHome(dir));
    assert.equal(error.field, 'rpc.addr');
  });

  it('follows the file names config.json gives', async () => {
    await initHome(dir);
    await editJson(join(dir, 'config.json'), (c) => {
      c.genesis_file = 'other-genesis.json';
    });
    const error = await rejectsWithConfigError(loadHome(dir));
    assert.equal(error.file, join(dir, 'other-genesis.json'));
  });

  it('refuses a validator key that genesis does not stake', async () => {
    await initHome(dir);
    const stranger = createKeyFile('other.test.near');
    await writeFile(join(dir, 'validator_key.json'), serializeKeyFile(stranger));
    let error = await rejectsWithConfigError(loadHome(dir));
    assert.equal(error.file, join(dir, 'validator_key.json'));
    assert.equal(error.field, 'account_id');
    assert.match(
      error.message,
      /other\.test\.near is not a validator in genesis\.json \(validators: test\.near\)/,
    );

    await writeFile(join(dir, 'validator_key.json'), serializeKeyFile(createKeyFile('test.near')));
    error = await rejectsWithConfigError(loadHome(dir));
    assert.equal(error.field, 'public_key');
    assert.match(error.message, /is not the staking key of test\.near/);
  });

  it('refuses a key file whose public key does not match its secret', async () => {
    await initHome(dir);
    await editJson(join(dir, 'node_key.json'), (k) => {
      k.public_key = publicKeyToString(rng.keyPair('ed25519').publicKey);
    });
    const error = await rejectsWithConfigError(loadHome(dir));
    assert.equal(error.file, join(dir, 'node_key.json'));
    assert.equal(error.field, 'public_key');
  });
});

describe('createEphemeralHome', () => {
  it('builds the same objects in memory', () => {
    const home = createEphemeralHome({ chainId: 'memory', production: 'interval', blockTimeMs: 100 });
    assert.equal(home.dir, null);
    assert.equal(home.genesis.chain_id, 'memory');
    assert.deepEqual(validateGenesis(home.genesis), []);
    assert.deepEqual(home.config.shadebox, { production: 'interval', block_time_ms: 100 });
    assert.equal(home.genesis.validators[0].public_key, home.validatorKey.public_key);
    assert.notEqual(createEphemeralHome().validatorKey.secret_key, home.validatorKey.secret_key);
  });
});
