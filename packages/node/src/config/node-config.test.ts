import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { publicKeyToString } from '@shadebox/primitives';
import { testRandom } from '../../../../test/test-random.js';
import { ConfigFileError } from './config-file-error.js';
import {
  createKeyFile,
  defaultNodeConfig,
  durationToMs,
  effectiveGcNumEpochsToKeep,
  msToDuration,
  parseKeyFile,
  parseListenAddr,
  parseNodeConfig,
  serializeKeyFile,
  serializeNodeConfig,
} from './node-config.js';

const rng = testRandom('packages/node/src/config/node-config.test.ts');

function configError(fn: () => unknown): ConfigFileError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigFileError) return error;
    throw error;
  }
  throw new Error('expected a ConfigFileError');
}

describe('defaultNodeConfig', () => {
  it('has nearcore defaults, loopback RPC and automine', () => {
    const config = defaultNodeConfig();
    assert.equal(config.rpc.addr, '127.0.0.1:3030');
    assert.equal(config.rpc.limits_config.json_payload_max_size, 10 * 1024 * 1024);
    assert.deepEqual(config.rpc.polling_config, {
      polling_interval: { secs: 0, nanos: 500_000_000 },
      polling_timeout: { secs: 10, nanos: 0 },
    });
    assert.deepEqual(config.rpc.cors_allowed_origins, ['*']);
    assert.equal(config.archive, false);
    assert.equal(config.gc_num_epochs_to_keep, 5);
    assert.equal(config.tracked_shards_config, 'AllShards');
    assert.equal(config.trie_viewer_state_size_limit, 50_000);
    assert.deepEqual(config.store, { path: 'data' });
    assert.deepEqual(config.shadebox, { production: 'automine', block_time_ms: 1000 });
    assert.deepEqual(
      [config.genesis_file, config.validator_key_file, config.node_key_file],
      ['genesis.json', 'validator_key.json', 'node_key.json'],
    );
    assert.equal(config.max_gas_burnt_view, undefined);
  });

  it('takes options', () => {
    const config = defaultNodeConfig({
      rpcAddr: '0.0.0.0:4000',
      production: 'interval',
      blockTimeMs: 250,
      archive: true,
    });
    assert.equal(config.rpc.addr, '0.0.0.0:4000');
    assert.deepEqual(config.shadebox, { production: 'interval', block_time_ms: 250 });
    assert.equal(config.archive, true);
  });
});

describe('parseNodeConfig', () => {
  it('round-trips the default and fills every missing field', () => {
    const config = defaultNodeConfig();
    assert.deepEqual(parseNodeConfig(JSON.parse(serializeNodeConfig(config))), config);
    assert.deepEqual(parseNodeConfig({}), config);
  });

  it('reads a neard-style config.json and ignores the sections it does not use', () => {
    const neard = {
      genesis_file: 'genesis.json',
      validator_key_file: 'validator_key.json',
      node_key_file: 'node_key.json',
      rpc: {
        addr: '0.0.0.0:3030',
        prometheus_addr: null,
        cors_allowed_origins: ['*'],
        polling_config: {
          polling_interval: { secs: 0, nanos: 200000000 },
          polling_timeout: { secs: 20, nanos: 0 },
        },
        limits_config: { json_payload_max_size: 1073741824 },
        enable_debug_rpc: true,
        experimental_debug_pages_src_path: null,
      },
      telemetry: { endpoints: [] },
      network: { addr: '0.0.0.0:24567', boot_nodes: '' },
      consensus: { min_num_peers: 3 },
      tracked_shards_config: 'AllShards',
      gc_num_epochs_to_keep: 2,
      store: { path: null, max_open_files: 3000 },
    };
    const config = parseNodeConfig(neard);
    assert.equal(config.rpc.addr, '0.0.0.0:3030');
    assert.equal(durationToMs(config.rpc.polling_config.polling_interval), 200);
    assert.equal(config.rpc.limits_config.json_payload_max_size, 1073741824);
    assert.equal(config.rpc.enable_debug_rpc, true);
    assert.equal(config.gc_num_epochs_to_keep, 2);
    assert.equal(effectiveGcNumEpochsToKeep(config), 3);
    assert.equal(config.store.path, 'data');
    assert.equal('network' in config, false);
  });

  it('names the file and every bad field', () => {
    const error = configError(() =>
      parseNodeConfig(
        {
          rpc: { addr: 'localhost', polling_config: { polling_timeout: { secs: 1, nanos: 1_000_000_000 } } },
          shadebox: { production: 'turbo', block_time_ms: 0 },
          tracked_shards_config: { Shards: [] },
          archive: 'yes',
        },
        '/home/x/config.json',
      ),
    );
    assert.equal(error.file, '/home/x/config.json');
    assert.equal(error.field, 'rpc.addr');
    assert.deepEqual(error.issues.map((issue) => issue.field).sort(), [
      'archive',
      'rpc.addr',
      'rpc.polling_config.polling_timeout',
      'shadebox.block_time_ms',
      'shadebox.production',
      'tracked_shards_config',
    ]);
    assert.match(error.message, /^\/home\/x\/config\.json: rpc\.addr: expected "host:port", got "localhost"/);
    assert.match(
      error.message,
      /shadebox\.production: expected one of automine, interval, manual, got "turbo"/,
    );
    assert.equal(configError(() => parseNodeConfig([])).field, '$');
  });

  it('keeps a max_gas_burnt_view override', () => {
    assert.equal(
      parseNodeConfig({ max_gas_burnt_view: 300_000_000_000_000 }).max_gas_burnt_view,
      300_000_000_000_000,
    );
    assert.equal(configError(() => parseNodeConfig({ max_gas_burnt_view: -1 })).field, 'max_gas_burnt_view');
  });

  it('reads the store map budget, absent by default, 0 allowed, a non-integer refused', () => {
    assert.equal(defaultNodeConfig().shadebox.store_map_budget_mb, undefined);
    assert.equal(parseNodeConfig({}).shadebox.store_map_budget_mb, undefined);
    assert.equal(parseNodeConfig({ shadebox: { store_map_budget_mb: 48 } }).shadebox.store_map_budget_mb, 48);
    assert.equal(parseNodeConfig({ shadebox: { store_map_budget_mb: 0 } }).shadebox.store_map_budget_mb, 0);
    for (const bad of [-1, 1.5, '32']) {
      assert.equal(
        configError(() => parseNodeConfig({ shadebox: { store_map_budget_mb: bad } })).field,
        'shadebox.store_map_budget_mb',
      );
    }
  });
});

describe('durations and addresses', () => {
  it('converts {secs, nanos}', () => {
    assert.deepEqual(msToDuration(500), { secs: 0, nanos: 500_000_000 });
    assert.deepEqual(msToDuration(10_250), { secs: 10, nanos: 250_000_000 });
    assert.equal(durationToMs({ secs: 10, nanos: 0 }), 10_000);
  });

  it('parses listen addresses', () => {
    assert.deepEqual(parseListenAddr('127.0.0.1:3030'), { host: '127.0.0.1', port: 3030 });
    assert.deepEqual(parseListenAddr('[::1]:0'), { host: '::1', port: 0 });
    assert.deepEqual(parseListenAddr('localhost:8080'), { host: 'localhost', port: 8080 });
    for (const bad of ['3030', '127.0.0.1', '1.2.3.4:70000', 'a b:1', '[::1]'])
      assert.equal(parseListenAddr(bad), null, bad);
  });
});

describe('key files', () => {
  const pair = rng.keyPair('ed25519');

  it('writes nearcore KeyFile fields and reads them back', () => {
    const key = createKeyFile('test.near', pair);
    assert.deepEqual(Object.keys(JSON.parse(serializeKeyFile(key))), [
      'account_id',
      'public_key',
      'secret_key',
    ]);
    assert.equal(key.public_key, publicKeyToString(pair.publicKey));
    assert.equal(key.secret_key, pair.toString());
    assert.match(key.secret_key, /^ed25519:/);
    assert.deepEqual(parseKeyFile(JSON.parse(serializeKeyFile(key)), 'validator_key.json'), key);
  });

  it('accepts the old private_key name', () => {
    const key = createKeyFile('node', pair);
    const old = { account_id: 'node', public_key: key.public_key, private_key: key.secret_key };
    assert.equal(parseKeyFile(old, 'node_key.json').secret_key, key.secret_key);
  });

  it('refuses a public key that is not the secret key’s, without printing the secret', () => {
    const key = createKeyFile('test.near', pair);
    const other = publicKeyToString(rng.keyPair('ed25519').publicKey);
    const error = configError(() => parseKeyFile({ ...key, public_key: other }, 'validator_key.json'));
    assert.equal(error.file, 'validator_key.json');
    assert.equal(error.field, 'public_key');
    assert.match(error.message, /is not the public key of secret_key/);
    assert.ok(!error.message.includes(key.secret_key.slice(8)));
  });

  it('refuses a bad account id, a bad secret and missing fields', () => {
    assert.equal(
      configError(() => parseKeyFile({ ...createKeyFile('test.near', pair), account_id: 'Bad!' }, 'k')).field,
      'account_id',
    );
    const badSecret = configError(() =>
      parseKeyFile({ account_id: 'a.near', public_key: 'x', secret_key: 'ed25519:abc' }, 'k'),
    );
    assert.equal(badSecret.field, 'secret_key');
    assert.ok(!badSecret.message.includes('ed25519:abc'));
    assert.deepEqual(
      configError(() => parseKeyFile({ account_id: 'a.near' }, 'k')).issues.map((i) => i.field),
      ['secret_key', 'public_key'],
    );
  });
});
