/** The chain's caches of parsed records: bounded in entries and in bytes, oldest out first. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyPair } from '@shadebox/primitives';
import { createEphemeralHome } from '../config/init-home.js';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
import { openMemoryStore } from '../store/memory-store.js';
import { BlockProducer } from './block-producer.js';
import { Chain } from './chain.js';
import { RecentRecords } from './recent-records.js';
import { TxPool } from './tx-pool.js';

describe('RecentRecords', () => {
  it('keeps at most `entries` records, the newest', () => {
    const cache = new RecentRecords<string>({ entries: 3, bytes: 1000 });
    for (const k of ['a', 'b', 'c', 'd', 'e']) cache.set(k, k.toUpperCase(), 10);
    assert.equal(cache.size, 3);
    assert.equal(cache.bytes, 30);
    assert.deepEqual(
      ['a', 'b', 'c', 'd', 'e'].map((k) => cache.get(k)),
      [undefined, undefined, 'C', 'D', 'E'],
    );
  });

  it('keeps at most `bytes` bytes of records, and never one larger than that by itself', () => {
    const evicted: string[] = [];
    const cache = new RecentRecords<string>({ entries: 100, bytes: 100 });
    cache.onEvict = (key) => evicted.push(key);
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    cache.set('c', 'C', 40);
    assert.deepEqual([cache.size, cache.bytes], [2, 80]);
    assert.deepEqual(evicted, ['a']);
    cache.set('huge', 'H', 101);
    assert.equal(cache.get('huge'), undefined);
    assert.deepEqual([cache.size, cache.bytes], [2, 80]);
    // Setting a kept key again replaces it (its old size is given back) and makes it the newest.
    cache.set('b', 'B2', 10);
    cache.set('d', 'D', 60);
    assert.deepEqual([cache.get('b'), cache.get('c'), cache.get('d')], ['B2', undefined, 'D']);
    assert.deepEqual([cache.size, cache.bytes], [2, 70]);
    cache.clear();
    assert.deepEqual([cache.size, cache.bytes], [0, 0]);
  });
});

describe('the chain caches', () => {
  it('stay within their limits however many blocks are made, and evicted blocks are read from the store', () => {
    const home = createEphemeralHome({ epochLength: 5 });
    const limits = { records: { entries: 16, bytes: 8 * 1024 }, blocks: { entries: 8, bytes: 1 << 20 } };
    const chain = new Chain({
      store: openMemoryStore(),
      genesis: home.genesis,
      params: runtimeParamsFrom(loadRuntimeConfig(home.genesis.protocol_version), home.genesis.chain_id),
      validatorKey: KeyPair.fromString(home.validatorKey.secret_key),
      validatorAccountId: home.validatorKey.account_id,
      cacheLimits: limits,
    });
    const producer = new BlockProducer(chain, new TxPool(), { kind: 'manual' }, { hasWaiters: () => false });
    producer.produce(40);
    const usage = chain.cacheUsage();
    assert.equal(usage.blocks.entries, 8);
    assert.ok(usage.blocks.bytes > 0 && usage.blocks.bytes <= limits.blocks.bytes);
    for (const kind of ['transactions', 'outcomes', 'receipts'] as const) {
      assert.ok(usage[kind].entries <= 16 && usage[kind].bytes <= 8 * 1024, kind);
    }
    // Blocks no longer cached are still served, by height and by hash.
    const first = chain.blockByHeight(chain.genesisHeight + 1);
    assert.equal(first?.height, chain.genesisHeight + 1);
    assert.equal(chain.blockByHash(first.hash)?.height, first.height);
    assert.equal(chain.cacheUsage().blocks.entries, 8);

    // A byte limit smaller than a few blocks binds before the entry limit.
    const blockBytes = JSON.stringify(chain.head).length;
    const small = new Chain({
      store: openMemoryStore(),
      genesis: home.genesis,
      params: runtimeParamsFrom(loadRuntimeConfig(home.genesis.protocol_version), home.genesis.chain_id),
      validatorKey: KeyPair.fromString(home.validatorKey.secret_key),
      validatorAccountId: home.validatorKey.account_id,
      cacheLimits: { ...limits, blocks: { entries: 1000, bytes: Math.floor(blockBytes * 3.5) } },
    });
    new BlockProducer(small, new TxPool(), { kind: 'manual' }, { hasWaiters: () => false }).produce(20);
    const smallUsage = small.cacheUsage().blocks;
    assert.ok(smallUsage.entries >= 2 && smallUsage.entries <= 4, `${smallUsage.entries} blocks kept`);
    assert.ok(smallUsage.bytes <= blockBytes * 3.5);
  });
});
