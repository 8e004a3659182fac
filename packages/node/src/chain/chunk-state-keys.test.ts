/**
 * The keys nearcore's runtime writes on its own, checked against values derived here by hand from nearcore's
 * rules (runtime/runtime/src/bandwidth_scheduler, core/primitives/src/bandwidth_scheduler.rs, the yield queue
 * of runtime/runtime/src/lib.rs), and the roots they give, rebuilt from scratch with the trie library over the
 * expected key set:
 * - every chunk rewrites its shard's `BandwidthSchedulerState` (key `0f`): no bandwidth request on this node,
 *   every link allowed, so each link's allowance goes `min(a + max_shard_bandwidth / n, max_allowance) −
 *   base_bandwidth` and the sanity hash `sha256(previous ‖ sha256(borsh(Vec<ShardId>)))`;
 * - nothing else at genesis or per chunk (no delayed, buffered or yield indices while they stay empty);
 * - a yield's timeout goes into the queue of the shard that ran it (keys `0a`, `0b ‖ index`), each shard's
 *   queue counting from 0; an older home's one queue becomes shard 0's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  base58Decode,
  base58Encode,
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  sha256,
  signTransaction,
  transactionHash,
} from '@shadebox/primitives';
import { createEphemeralHome } from '../config/init-home.js';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import type { PendingTransaction } from '../runtime/apply-chunk.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
import { getPromiseYieldIndices, migrateLegacyPromiseYieldQueue } from '../state/receipt-state.js';
import {
  bandwidthSchedulerStateKey,
  legacyPromiseYieldIndicesKey,
  legacyPromiseYieldTimeoutKey,
  promiseYieldIndicesKey,
  promiseYieldTimeoutKey,
  StateColumn,
} from '../state/state-keys.js';
import { StateUpdate } from '../state/state-update.js';
import { stateKeyShard, trieKeyOf } from '../state/trie-keys.js';
import { openMemoryStore } from '../store/memory-store.js';
import { applyTrieChanges, EMPTY_ROOT, MemoryTrieStorage } from '../trie/index.js';
import { wat } from '../vm/prepare/test-helpers.js';
import { Chain } from './chain.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ''), 'hex'));
const u64le = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(v));
  return b.toString('hex');
};

/**
 * The expected `BandwidthSchedulerState` bytes: tag 00 (V1), u32 link count, (sender, receiver, allowance) u64s
 * sender-major, the 32-byte sanity hash. The hashes were computed once by hand from the rule above:
 * sha256(borsh([0])) = ca888f40…, sha256(borsh([0,1,2,3])) = dc21a2c3….
 */
function schedulerStateHex(numShards: number, allowance: number, sanityHash: string): string {
  let out = `00${Buffer.from(Uint32Array.of(numShards * numShards).buffer).toString('hex')}`;
  for (let s = 0; s < numShards; s++)
    for (let r = 0; r < numShards; r++) out += u64le(s) + u64le(r) + u64le(allowance);
  return out + sanityHash;
}
const SANITY_ONE_SHARD = [
  '90366329a306885e44e53c49426e0eeba415df29c8e68e1093dda0a66030331a',
  '038b1ba35fb77fb356f167faa881c808a8570c8040e6c3bfe948f8dffc380b31',
  '4db19909b094a8668c87493885bd1aceba8e7ec4ea878564e95d6e0223629efc',
];
const SANITY_FOUR_SHARDS = [
  'b30ee7debc3f6ea7802f025e818f035446b3bcd606b198a6b0dfd470749e81a4',
  '1b283152512c668f52585981826b432275529f160dbdf99e1999a3bc319f0ba4',
  '4ae8185ec5572279a90835c66a33e7f309251c96d3dde36d21b977861418422a',
];

function openChain(numShards: number) {
  const home = createEphemeralHome({ epochLength: 100, numShards });
  const chain = new Chain({
    store: openMemoryStore(),
    genesis: home.genesis,
    params: runtimeParamsFrom(loadRuntimeConfig(home.genesis.protocol_version), home.genesis.chain_id),
    validatorKey: KeyPair.fromString(home.validatorKey.secret_key),
    validatorAccountId: home.validatorKey.account_id,
  });
  const key = KeyPair.fromString(home.validatorKey.secret_key);
  let nonce = 1n;
  const tx = (receiverId: string, actions: Parameters<typeof createTransaction>[0]['actions']) => {
    const t = createTransaction({
      signerId: chain.validatorAccountId,
      publicKey: key.publicKey,
      nonce: ++nonce,
      receiverId,
      blockHash: base58Decode(chain.head.hash),
      actions,
    });
    const signedTransaction = signTransaction(t, key);
    return {
      signedTransaction,
      hash: transactionHash(t),
      size: encodeSignedTransaction(signedTransaction).length,
    } satisfies PendingTransaction;
  };
  return { chain, tx };
}

/** Each shard's flat state at `height` as trie keys (the shard suffix gone), by hex key. */
function trieKeySets(chain: Chain, height: number): Map<string, Uint8Array>[] {
  const perShard = Array.from({ length: chain.numShards }, () => new Map<string, Uint8Array>());
  for (const { key, value } of chain.state.scan(new Uint8Array(0), height))
    perShard[stateKeyShard(key, (id) => chain.shardOf(id))].set(hex(trieKeyOf(key)), value);
  return perShard;
}

function rootOf(keys: Map<string, Uint8Array>): string {
  const changes = [...keys].map(([k, value]) => ({ key: fromHex(k), value }));
  return base58Encode(applyTrieChanges(new MemoryTrieStorage(), EMPTY_ROOT, changes).newRoot);
}

/**
 * The head's chunk roots equal the tries of `expected` (the keys the block's records give, with the scheduler
 * key's value as derived by hand), and each trie holds that value under nearcore's bare key `0f`.
 */
function assertRoots(chain: Chain, expectedScheduler: string, recordKeys: Map<string, Uint8Array>[]): void {
  const head = chain.head;
  for (let shard = 0; shard < chain.numShards; shard++) {
    const expected = new Map(recordKeys[shard]);
    expected.set('0f', fromHex(expectedScheduler));
    assert.equal(
      head.chunkExtras[shard].stateRoot,
      rootOf(expected),
      `root of shard ${shard} at ${head.height}`,
    );
    // The trie references the value by length and hash (the bytes are the flat state's).
    const ref = chain.trieAt(head, shard).getRef(Uint8Array.of(15));
    assert.deepEqual(ref && { length: ref.length, hash: hex(ref.hash) }, {
      length: expectedScheduler.length / 2,
      hash: hex(sha256(fromHex(expectedScheduler))),
    });
  }
}

/** The head's keys other than the scheduler's (what the transactions and genesis records give). */
function recordKeysAt(chain: Chain): Map<string, Uint8Array>[] {
  const sets = trieKeySets(chain, chain.head.height);
  for (const set of sets) set.delete('0f');
  return sets;
}

describe('the state nearcore writes on every chunk', () => {
  it('genesis holds the records only; every chunk of one shard rewrites BandwidthSchedulerState', () => {
    const { chain, tx } = openChain(1);
    const genesis = trieKeySets(chain, chain.head.height);
    assert.equal(chain.head.chunkExtras[0].stateRoot, rootOf(genesis[0]));
    assert.deepEqual(
      [...genesis[0].keys()].filter((k) => !['00', '01', '02', '09'].includes(k.slice(0, 2))),
      [],
      'no queue index or scheduler key at genesis',
    );

    // One shard: fair share 4 500 000, base bandwidth min(100 000, 4 500 000 − 4 194 304) = 100 000, so the
    // one link's allowance is min(a + 4 500 000, 4 500 000) − 100 000 = 4 400 000 from the first chunk on.
    chain.produceBlock([]);
    const first = schedulerStateHex(1, 4_400_000, SANITY_ONE_SHARD[0]);
    assert.equal(
      first,
      '00 01000000 0000000000000000 0000000000000000 8023430000000000'.replace(/ /g, '') +
        SANITY_ONE_SHARD[0],
    );
    assertRoots(chain, first, recordKeysAt(chain));
    assert.deepEqual(recordKeysAt(chain), [new Map([...genesis[0]])], 'an empty chunk writes nothing else');

    const receiver = `t5.${chain.validatorAccountId}`;
    const produced = chain.produceBlock([
      tx(receiver, [{ type: 'CreateAccount' }, { type: 'Transfer', deposit: 10n ** 24n }]),
    ]);
    assert.deepEqual(produced.dropped, []);
    assertRoots(chain, schedulerStateHex(1, 4_400_000, SANITY_ONE_SHARD[1]), recordKeysAt(chain));
    chain.produceBlock([]);
    const records = recordKeysAt(chain);
    assert.ok(records[0].has(hex(Buffer.from(`\u0000${receiver}`))), 'the account was created');
    assert.deepEqual(
      [...records[0].keys()].filter((k) => !['00', '01', '02', '09'].includes(k.slice(0, 2))),
      [],
      'no delayed, buffered or yield index written while empty',
    );
    assertRoots(chain, schedulerStateHex(1, 4_400_000, SANITY_ONE_SHARD[2]), records);
  });

  it('four shards: each shard keeps the same state of 16 links, allowances growing to the cap', () => {
    const { chain } = openChain(4);
    // Fair share 4 500 000 / 4 = 1 125 000; base min(100 000, 305 696 / 3) = 100 000; cap 4 500 000.
    const allowances = [1_025_000, 2_050_000, 3_075_000, 4_100_000, 4_400_000, 4_400_000];
    allowances.forEach((allowance, i) => {
      chain.produceBlock([]);
      if (i < SANITY_FOUR_SHARDS.length) {
        assertRoots(chain, schedulerStateHex(4, allowance, SANITY_FOUR_SHARDS[i]), recordKeysAt(chain));
        return;
      }
      for (let shard = 0; shard < 4; shard++) {
        // The bytes from the flat state; the trie references them by hash.
        const bytes =
          chain.stateValue(bandwidthSchedulerStateKey(shard), chain.head.height) ?? new Uint8Array();
        assert.equal(
          hex(chain.trieAt(chain.head, shard).getRef(Uint8Array.of(15))?.hash ?? new Uint8Array()),
          hex(sha256(bytes)),
        );
        const value = hex(bytes);
        assert.equal(
          value.slice(0, -64),
          schedulerStateHex(4, allowance, ''),
          `allowances after ${i + 1} chunks`,
        );
      }
    });
  });

  it('a yield goes into the queue of the shard that ran it, each queue counting from 0', () => {
    const { chain, tx } = openChain(2);
    const code = wat(`(module
      (import "env" "promise_yield_create" (func $yield (param i64 i64 i64 i64 i64 i64 i64) (result i64)))
      (memory 1)
      (data (i32.const 0) "cb")
      (func (export "yield")
        (drop (call $yield (i64.const 2) (i64.const 0) (i64.const 0) (i64.const 0)
          (i64.const 5000000000000) (i64.const 0) (i64.const 1))))
      (func (export "cb")))`);
    // One account on each shard.
    const accounts: string[] = [];
    for (let i = 0; accounts.length < 2; i++) {
      const id = `y${i}.${chain.validatorAccountId}`;
      if (!accounts.some((a) => chain.shardOf(a) === chain.shardOf(id))) accounts.push(id);
    }
    chain.produceBlock(
      accounts.map((id) =>
        tx(id, [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit: 10n ** 25n },
          { type: 'DeployContract', code },
          {
            type: 'FunctionCall',
            methodName: 'yield',
            args: new Uint8Array(),
            gas: 30n * 10n ** 12n,
            deposit: 0n,
          },
        ]),
      ),
    );
    chain.produceBlock([]); // the receipts run here
    const keys = trieKeySets(chain, chain.head.height);
    for (const account of accounts) {
      const shard = chain.shardOf(account);
      // PromiseYieldIndices { first_index: 0, next_available_index: 1 } and the timeout at index 0.
      assert.equal(
        hex(keys[shard].get('0a') ?? new Uint8Array()),
        u64le(0) + u64le(1),
        `indices of ${shard}`,
      );
      const timeout = keys[shard].get(`0b${u64le(0)}`);
      assert.ok(timeout, `timeout #0 of shard ${shard}`);
      assert.ok(
        Buffer.from(timeout).includes(Buffer.from(account)),
        'the timeout names the yielding account',
      );
      assert.equal(keys[shard].get(`0b${u64le(1)}`), undefined);
      const trie = chain.trieAt(chain.head, shard);
      assert.equal(
        hex(trie.getRef(Uint8Array.of(10))?.hash ?? new Uint8Array()),
        hex(sha256(fromHex(u64le(0) + u64le(1)))),
      );
    }
    for (let shard = 0; shard < 2; shard++) {
      const expected = keys[shard];
      assert.equal(chain.head.chunkExtras[shard].stateRoot, rootOf(expected));
    }
    // In the tries the queue's keys are nearcore's: `0a` and `0b ‖ u64`, no shard id.
    const queueKeys = [...keys[0].keys(), ...keys[1].keys()].filter(
      (k) => k.startsWith('0a') || k.startsWith('0b'),
    );
    assert.deepEqual(
      queueKeys.map((k) => k.length).sort((a, b) => a - b),
      [2, 2, 18, 18],
    );
    // In the flat state they carry the shard after nearcore's key.
    const flat = [...chain.state.scan(Uint8Array.of(StateColumn.PromiseYieldIndices), chain.head.height)];
    assert.deepEqual(
      flat.map(({ key }) => hex(key)),
      ['0a00000000', '0a01000000'],
    );
  });

  it("an older home's single yield queue moves to the end of shard 0's, in order", () => {
    const state = new StateUpdate(undefined, -1);
    const entry = (n: number) => Uint8Array.of(n, n, n);
    state.set(legacyPromiseYieldIndicesKey(), fromHex(u64le(3) + u64le(5)));
    state.set(legacyPromiseYieldTimeoutKey(3n), entry(3));
    state.set(legacyPromiseYieldTimeoutKey(4n), entry(4));
    state.set(promiseYieldIndicesKey(0), fromHex(u64le(0) + u64le(1)));
    state.set(promiseYieldTimeoutKey(0, 0n), entry(0));
    state.commit({ type: 'migration' });
    assert.equal(migrateLegacyPromiseYieldQueue(state), true);
    state.commit({ type: 'migration' });
    assert.deepEqual(getPromiseYieldIndices(state, 0), { firstIndex: 0n, nextAvailableIndex: 3n });
    assert.deepEqual(
      [0n, 1n, 2n].map((i) => state.get(promiseYieldTimeoutKey(0, i))),
      [entry(0), entry(3), entry(4)],
    );
    assert.deepEqual(
      [
        legacyPromiseYieldIndicesKey(),
        legacyPromiseYieldTimeoutKey(3n),
        legacyPromiseYieldTimeoutKey(4n),
      ].map((k) => state.get(k)),
      [undefined, undefined, undefined],
    );
    assert.equal(migrateLegacyPromiseYieldQueue(state), false);
  });
});
