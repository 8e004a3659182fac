import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { publicKeyToString } from '@shadebox/primitives';
import { testRandom } from '../../../../test/test-random.js';
import { accountIdToShardId, EMPTY_CODE_HASH, type GenesisConfig, numSeatsPerShard } from './genesis.js';
import { createDefaultGenesis, NEAR } from './genesis-defaults.js';
import { GENESIS_FIELD_ORDER, parseGenesis, serializeGenesis } from './genesis-json.js';
import { computeGenesisStorageUsage, totalSupplyOf } from './genesis-storage.js';
import { formatGenesisTime, parseGenesisTime } from './genesis-time.js';
import { GENESIS_RULES, InvalidGenesisError, validateGenesis } from './genesis-validation.js';
import { loadRuntimeConfig } from './runtime-config.js';

const rng = testRandom('packages/node/src/config/genesis.test.ts');

const runtimeConfig = loadRuntimeConfig();
const publicKey = publicKeyToString(rng.keyPair('ed25519').publicKey);
const validatorKey = { account_id: 'test.near', public_key: publicKey };

function fresh(options: Partial<Parameters<typeof createDefaultGenesis>[0]> = {}): GenesisConfig {
  return createDefaultGenesis({
    validatorKey,
    runtimeConfig,
    genesisTime: new Date('2025-01-02T03:04:05.678Z'),
    ...options,
  });
}

/** A deep copy as JSON, to break on purpose. */
// biome-ignore lint/suspicious/noExplicitAny: tests poke at arbitrary JSON
function copy(genesis: GenesisConfig): any {
  return JSON.parse(JSON.stringify(genesis));
}

function paths(json: unknown): string[] {
  return validateGenesis(json).map((issue) => issue.path);
}

describe('createDefaultGenesis', () => {
  const genesis = fresh();

  it('has the localnet values of neard init', () => {
    assert.equal(genesis.protocol_version, 86);
    assert.equal(genesis.chain_id, 'localnet');
    assert.equal(genesis.genesis_time, '2025-01-02T03:04:05.678Z');
    assert.equal(genesis.genesis_height, 0);
    assert.equal(genesis.epoch_length, 500);
    assert.equal(genesis.gas_limit, 1_000_000_000_000_000);
    assert.equal(genesis.min_gas_price, '100000000');
    assert.equal(genesis.max_gas_price, '10000000000000000000000');
    assert.equal(genesis.transaction_validity_period, 100);
    assert.equal(genesis.num_block_producer_seats, 50);
    assert.deepEqual(genesis.num_block_producer_seats_per_shard, [50]);
    assert.deepEqual(genesis.avg_hidden_validator_seats_per_shard, [0]);
    assert.deepEqual(genesis.shard_layout, { V0: { num_shards: 1, version: 0 } });
    assert.deepEqual(genesis.protocol_upgrade_stake_threshold, [4, 5]);
    assert.deepEqual(genesis.online_min_threshold, [9, 10]);
    assert.deepEqual(genesis.online_max_threshold, [99, 100]);
    assert.deepEqual(genesis.gas_price_adjustment_rate, [1, 100]);
    assert.deepEqual(genesis.protocol_reward_rate, [1, 10]);
    assert.deepEqual(genesis.max_inflation_rate, [1, 20]);
    assert.equal(genesis.protocol_treasury_account, 'test.near');
    assert.equal(genesis.fishermen_threshold, (10n * NEAR).toString());
    assert.equal(genesis.dynamic_resharding, false);
    assert.equal(genesis.use_production_config, false);
  });

  it('stakes the validator as nearcore localnet does, with its key as the full-access key', () => {
    assert.deepEqual(genesis.validators, [
      { account_id: 'test.near', public_key: publicKey, amount: (50_000_000n * NEAR).toString() },
    ]);
    assert.deepEqual(genesis.records, [
      {
        Account: {
          account_id: 'test.near',
          account: {
            amount: (1_000_000_000n * NEAR).toString(),
            locked: (50_000_000n * NEAR).toString(),
            code_hash: EMPTY_CODE_HASH,
            storage_usage: 182,
            version: 'V1',
          },
        },
      },
      {
        AccessKey: {
          account_id: 'test.near',
          public_key: publicKey,
          access_key: { nonce: 0, permission: 'FullAccess' },
        },
      },
    ]);
  });

  it('sets total_supply to the exact sum of amount + locked', () => {
    assert.equal(genesis.total_supply, '1050000000000000000000000000000000');
    const more = fresh({
      accounts: [
        { accountId: 'alice.test.near', publicKey, amount: 7n },
        { accountId: 'bob.test.near', publicKey, amount: 10n ** 30n + 1n },
      ],
      balance: 3n,
      stake: 5n,
    });
    assert.equal(more.total_supply, (3n + 5n + 7n + 10n ** 30n + 1n).toString());
    assert.equal(totalSupplyOf(more.records).toString(), more.total_supply);
    assert.deepEqual(validateGenesis(more), []);
  });

  it('spreads validator seats over the shards of a V0 layout', () => {
    const four = fresh({ numShards: 4, chainId: 'devnet' });
    assert.equal(four.chain_id, 'devnet');
    assert.deepEqual(four.shard_layout, { V0: { num_shards: 4, version: 0 } });
    assert.deepEqual(four.num_block_producer_seats_per_shard, [13, 13, 12, 12]);
    assert.deepEqual(four.avg_hidden_validator_seats_per_shard, [0, 0, 0, 0]);
    assert.deepEqual(numSeatsPerShard(3, 1), [1, 1, 1]);
  });

  it('refuses zero shards, no stake and a bad validator id', () => {
    assert.throws(() => fresh({ numShards: 0 }), /numShards must be a positive integer/);
    assert.throws(() => fresh({ numShards: 1.5 }), RangeError);
    assert.throws(() => fresh({ stake: 0n }), /stake must be positive/);
    assert.throws(
      () => fresh({ validatorKey: { account_id: 'Not Valid', public_key: publicKey } }),
      (error: unknown) =>
        error instanceof InvalidGenesisError &&
        error.issues.some((i) => i.path === 'validators[0].account_id'),
    );
  });

  it('is valid and survives serialisation in nearcore field order', () => {
    assert.deepEqual(validateGenesis(genesis), []);
    const text = serializeGenesis(genesis);
    assert.deepEqual(Object.keys(JSON.parse(text)), GENESIS_FIELD_ORDER);
    assert.deepEqual(parseGenesis(JSON.parse(text)), genesis);
  });
});

describe('computeGenesisStorageUsage', () => {
  it('counts account, access keys, code and data as nearcore genesis does', () => {
    const usage = computeGenesisStorageUsage(
      [
        fresh().records[0],
        fresh().records[1],
        {
          AccessKey: {
            account_id: 'test.near',
            public_key: publicKey,
            access_key: {
              nonce: 5,
              permission: {
                FunctionCall: { allowance: '1', receiver_id: 'app.near', method_names: ['a', 'bc'] },
              },
            },
          },
        },
        { Contract: { account_id: 'test.near', code: Buffer.from('0123456789').toString('base64') } },
        {
          Data: {
            account_id: 'test.near',
            data_key: Buffer.from('k').toString('base64'),
            value: Buffer.from('vv').toString('base64'),
          },
        },
      ],
      runtimeConfig,
    );
    const fullAccessKey = 33 + 9 + 40;
    // nonce 8 + tag 1 + Some(u128) 17 + "app.near" 4+8 + vec 4 + (4+1) + (4+2), then 33 + 40
    const functionCallKey = 33 + (8 + 1 + 17 + 12 + 4 + 5 + 6) + 40;
    assert.equal(usage.get('test.near'), BigInt(100 + fullAccessKey + functionCallKey + 10 + (1 + 2 + 40)));
  });
});

describe('validateGenesis', () => {
  const base = fresh();

  it('has one rule for every field genesis.json holds', () => {
    const fields = GENESIS_RULES.flatMap((rule) => ('field' in rule ? [rule.field] : []));
    assert.deepEqual([...fields].sort(), [...GENESIS_FIELD_ORDER].sort());
    for (const rule of GENESIS_RULES) {
      if ('relation' in rule) for (const field of rule.relation) assert.ok(fields.includes(field), field);
    }
  });

  it('reports a missing required field, and fills optional ones with nearcore defaults', () => {
    const g = copy(base);
    delete g.epoch_length;
    delete g.target_validator_mandates_per_shard;
    delete g.shard_layout;
    assert.deepEqual(validateGenesis(g), [{ path: 'epoch_length', message: 'missing' }]);
    g.epoch_length = 500;
    const parsed = parseGenesis(g);
    assert.equal(parsed.target_validator_mandates_per_shard, 68);
    assert.deepEqual(parsed.shard_layout, { V0: { num_shards: 1, version: 0 } });
  });

  it('reports a total_supply that is not the sum of the balances', () => {
    const g = copy(base);
    g.total_supply = '1050000000000000000000000000000001';
    const issues = validateGenesis(g);
    assert.equal(issues.length, 1);
    assert.equal(issues[0].path, 'total_supply');
    assert.match(
      issues[0].message,
      /is 1050000000000000000000000000000001 but the Account records hold 1050000000000000000000000000000000/,
    );
  });

  it('reports bad account ids wherever they are', () => {
    const g = copy(base);
    g.records.push({
      Account: { account_id: 'UPPER.near', account: { ...g.records[0].Account.account, locked: '0' } },
    });
    g.protocol_treasury_account = 'a';
    const found = paths(g);
    assert.ok(found.includes('records[2].Account.account_id'), found.join());
    assert.ok(found.includes('protocol_treasury_account'), found.join());
  });

  it('reports zero shards and a layout this node does not support', () => {
    const zero = copy(base);
    zero.shard_layout = { V0: { num_shards: 0, version: 0 } };
    assert.deepEqual(
      validateGenesis(zero).map((i) => i.path),
      ['shard_layout.V0.num_shards'],
    );
    const v2 = copy(base);
    v2.shard_layout = {
      V2: {
        boundary_accounts: [],
        shard_ids: [0],
        id_to_index_map: { 0: 0 },
        index_to_id_map: { 0: 0 },
        version: 0,
      },
    };
    assert.match(validateGenesis(v2)[0].message, /only V0 is supported/);
    const mismatch = copy(base);
    mismatch.shard_layout = { V0: { num_shards: 2, version: 0 } };
    assert.deepEqual(paths(mismatch), [
      'num_block_producer_seats_per_shard',
      'avg_hidden_validator_seats_per_shard',
    ]);
  });

  it('enforces nearcore semantic checks', () => {
    const noValidators = copy(base);
    noValidators.validators = [];
    assert.match(validateGenesis(noValidators)[0].message, /no validators/);

    const stakeMismatch = copy(base);
    stakeMismatch.validators[0].amount = '1';
    assert.match(
      validateGenesis(stakeMismatch)[0].message,
      /validator accounts do not match staked accounts/,
    );

    const orphanKey = copy(base);
    orphanKey.records[1].AccessKey.account_id = 'ghost.near';
    assert.deepEqual(validateGenesis(orphanKey), [
      { path: 'records[1].AccessKey.account_id', message: 'access key account ghost.near does not exist' },
    ]);

    const duplicate = copy(base);
    duplicate.records.push(structuredClone(duplicate.records[0]));
    duplicate.total_supply = (2n * BigInt(base.total_supply)).toString();
    assert.ok(validateGenesis(duplicate).some((i) => /duplicate account id test\.near/.test(i.message)));

    const thresholds = copy(base);
    thresholds.online_max_threshold = [1, 2];
    thresholds.gas_price_adjustment_rate = [1, 1];
    assert.deepEqual(paths(thresholds), ['online_max_threshold', 'gas_price_adjustment_rate']);
  });

  it('reports wrong types and encodings with their path', () => {
    const g = copy(base);
    g.min_gas_price = 100000000;
    g.gas_limit = '1000000000000000';
    g.records[0].Account.account.amount = '-5';
    g.records[1].AccessKey.public_key = 'ed25519:notbase58!';
    g.genesis_time = '2025-02-30T00:00:00Z';
    g.protocol_version = 82;
    assert.deepEqual(paths(g).sort(), [
      'gas_limit',
      'genesis_time',
      'min_gas_price',
      'protocol_version',
      'records[0].Account.account.amount',
      'records[1].AccessKey.public_key',
    ]);
    assert.ok(
      validateGenesis(g).some((i) => i.message === 'this node runs protocol versions 83 to 87, got 82'),
    );
    assert.deepEqual(validateGenesis('nope'), [{ path: '$', message: 'expected a JSON object, got "nope"' }]);
  });

  it('throws InvalidGenesisError from parseGenesis with every issue', () => {
    const g = copy(base);
    delete g.chain_id;
    g.epoch_length = 0;
    assert.throws(
      () => parseGenesis(g),
      (error: unknown) =>
        error instanceof InvalidGenesisError &&
        error.issues.length === 2 &&
        /chain_id: missing; epoch_length: must be at least 1/.test(error.message),
    );
  });
});

describe('genesis time', () => {
  it('formats like chrono AutoSi: 0, 3, 6 or 9 fraction digits', () => {
    assert.equal(formatGenesisTime(1_700_000_000_000_000_000n), '2023-11-14T22:13:20Z');
    assert.equal(formatGenesisTime(1_700_000_000_120_000_000n), '2023-11-14T22:13:20.120Z');
    assert.equal(formatGenesisTime(1_700_000_000_123_456_000n), '2023-11-14T22:13:20.123456Z');
    assert.equal(formatGenesisTime(1_700_000_000_123_456_789n), '2023-11-14T22:13:20.123456789Z');
    assert.equal(formatGenesisTime(1_700_000_000_000_000_001n), '2023-11-14T22:13:20.000000001Z');
  });

  it('gives the date and time toISOString gives, from the UTC fields (no time zone data read)', () => {
    const instants = [0, 951_782_400_000, 1_709_164_800_000, 4_107_542_399_000, 253_402_300_799_000];
    for (let i = 1; i <= 200; i++) instants.push((i * 1_234_567_891_000) % 253_402_300_800_000);
    for (const millis of instants) {
      const expected = `${new Date(millis).toISOString().slice(0, 19)}Z`;
      assert.equal(formatGenesisTime(BigInt(millis) * 1_000_000n), expected);
    }
  });

  it('parses RFC 3339 with offsets and nanoseconds', () => {
    assert.equal(parseGenesisTime('2023-11-14T22:13:20.123456789Z'), 1_700_000_000_123_456_789n);
    assert.equal(parseGenesisTime('2023-11-15T00:13:20.5+02:00'), 1_700_000_000_500_000_000n);
    assert.equal(parseGenesisTime('2022-11-15T05:17:59.578706Z'), 1_668_489_479_578_706_000n);
    for (const bad of [
      '2023-11-14 22:13:20Z',
      '2023-13-01T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2023-11-14T22:13:20',
      '1969-12-31T23:59:59Z',
    ]) {
      assert.throws(() => parseGenesisTime(bad), RangeError, bad);
    }
  });
});

describe('accountIdToShardId', () => {
  it('puts everything in shard 0 of a single-shard layout', () => {
    for (const id of ['test.near', 'a', 'zzz.near'])
      assert.equal(accountIdToShardId({ V0: { num_shards: 1, version: 0 } }, id), 0);
  });

  it('uses sha256(account id)[0..8] little-endian modulo num_shards, covering every shard', () => {
    const layout = { V0: { num_shards: 4, version: 0 } };
    const digest = createHash('sha256').update('test.near').digest();
    let low = 0n;
    for (let i = 7; i >= 0; i--) low = (low << 8n) | BigInt(digest[i]);
    assert.equal(accountIdToShardId(layout, 'test.near'), Number(low % 4n));
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) seen.add(accountIdToShardId(layout, `user${i}.test.near`));
    assert.deepEqual([...seen].sort(), [0, 1, 2, 3]);
  });
});
