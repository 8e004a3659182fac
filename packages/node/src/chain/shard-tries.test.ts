/**
 * The chain's state roots are its shards' tries (chain/shard-tries.ts): every chunk's root is the trie of the
 * shard's flat state after it, built here from scratch with the library; headers commit to them as nearcore's;
 * the node column holds exactly the nodes of the roots still kept (GC and revert move the reference counts
 * back); a restart continues the trie, and a home without tries gets them rebuilt with the same root.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  base58Decode,
  base58Encode,
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  parsePublicKey,
  sha256,
  signTransaction,
  transactionHash,
} from '@shadebox/primitives';
import { createEphemeralHome } from '../config/init-home.js';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import type { PendingTransaction } from '../runtime/apply-chunk.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
import { accountKey, StateColumn } from '../state/state-keys.js';
import { stateKeyShard, trieKeyOf } from '../state/trie-keys.js';
import type { KeyValueStore } from '../store/key-value-store.js';
import { WriteBatch } from '../store/key-value-store.js';
import { openMemoryStore } from '../store/memory-store.js';
import {
  applyTrieChanges,
  decodeRawNode,
  EMPTY_ROOT,
  isEmptyRoot,
  MemoryTrieStorage,
  type TrieStorage,
} from '../trie/index.js';
import { Chain } from './chain.js';
import { Col } from './columns.js';
import { stateRecordsAt } from './dump-state.js';
import { GarbageCollector } from './garbage-collector.js';
import { revertBatch } from './revert.js';
import { TRIE_META_KEY } from './shard-tries.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function openChain(store: KeyValueStore, home: ReturnType<typeof createEphemeralHome>): Chain {
  return new Chain({
    store,
    genesis: home.genesis,
    params: runtimeParamsFrom(loadRuntimeConfig(home.genesis.protocol_version), home.genesis.chain_id),
    validatorKey: KeyPair.fromString(home.validatorKey.secret_key),
    validatorAccountId: home.validatorKey.account_id,
  });
}

/** Each shard's root built from scratch over the flat state at `height` (the keys `keep` accepts). */
function rootsFromFlatState(
  chain: Chain,
  height: number,
  keep: (key: Uint8Array) => boolean = () => true,
): string[] {
  const perShard = Array.from(
    { length: chain.numShards },
    () => [] as { key: Uint8Array; value: Uint8Array }[],
  );
  for (const { key, value } of chain.state.scan(new Uint8Array(0), height)) {
    if (!keep(key)) continue;
    perShard[stateKeyShard(key, (id) => chain.shardOf(id))].push({ key: trieKeyOf(key), value });
  }
  return perShard.map((changes) =>
    base58Encode(applyTrieChanges(new MemoryTrieStorage(), EMPTY_ROOT, changes).newRoot),
  );
}

/** Every node and value reachable from `root`, by hex hash. */
function reachable(storage: TrieStorage, root: Uint8Array, into: Set<string>): void {
  if (isEmptyRoot(root)) return;
  const stack = [root];
  while (stack.length > 0) {
    const hash = stack.pop() as Uint8Array;
    if (into.has(hex(hash))) continue;
    into.add(hex(hash));
    const bytes = storage.get(hash);
    assert.ok(bytes, `node ${base58Encode(hash)} is stored`);
    const { node } = decodeRawNode(bytes);
    if (node.kind === 'leaf' || node.kind === 'branch') {
      // Values are the flat state's: the node column holds nodes only.
      if (node.value) assert.equal(storage.get(node.value.hash), undefined, 'no value in the node column');
    }
    if (node.kind === 'branch') for (const child of node.children) if (child) stack.push(child);
    if (node.kind === 'extension') stack.push(node.child);
  }
}

function storedNodes(store: KeyValueStore): Set<string> {
  const out = new Set<string>();
  for (const { key } of store.range(Col.TrieNodes)) out.add(hex(key));
  return out;
}

/** The nodes of the post-states of the blocks from `from` to the head. */
function nodesOfKept(chain: Chain, from: number): Set<string> {
  const out = new Set<string>();
  for (let h = from; h <= chain.head.height; h++) {
    const block = chain.head.height === h ? chain.head : chain.storedBlockByHeight(h);
    if (!block?.chunkExtras) continue;
    for (let s = 0; s < chain.numShards; s++)
      reachable(chain.tries.storage, chain.stateRootOf(block, s), out);
  }
  return out;
}

class Sender {
  nonce = 1n;
  readonly key: KeyPair;
  constructor(
    readonly chain: Chain,
    home: ReturnType<typeof createEphemeralHome>,
  ) {
    this.key = KeyPair.fromString(home.validatorKey.secret_key);
  }

  tx(receiverId: string, actions: Parameters<typeof createTransaction>[0]['actions']): PendingTransaction {
    const tx = createTransaction({
      signerId: this.chain.validatorAccountId,
      publicKey: this.key.publicKey,
      nonce: ++this.nonce,
      receiverId,
      blockHash: base58Decode(this.chain.head.hash),
      actions,
    });
    const signedTransaction = signTransaction(tx, this.key);
    return {
      signedTransaction,
      hash: transactionHash(tx),
      size: encodeSignedTransaction(signedTransaction).length,
    };
  }
}

/** Blocks with account creations (with a key), transfers and key deletions, checked root by root. */
function runActivity(chain: Chain, sender: Sender, rounds: number, tag: string): void {
  const key = parsePublicKey(KeyPair.fromRandom('ed25519').publicKeyString);
  for (let i = 0; i < rounds; i++) {
    const account = `${tag}${i}.${chain.validatorAccountId}`;
    const txs = [
      sender.tx(account, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 10n ** 24n },
        { type: 'AddKey', publicKey: key, accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } } },
      ]),
    ];
    if (i > 0)
      txs.push(
        sender.tx(`${tag}${i - 1}.${chain.validatorAccountId}`, [{ type: 'DeleteKey', publicKey: key }]),
      );
    const produced = chain.produceBlock(txs);
    assert.deepEqual(produced.dropped, []);
    assert.equal(produced.included.length, txs.length);
    checkRoots(chain);
  }
  for (let i = 0; i < 3; i++) {
    chain.produceBlock([]);
    checkRoots(chain);
  }
  const last = `${tag}${rounds - 1}.${chain.validatorAccountId}`;
  assert.ok(chain.stateValue(accountKey(last), chain.head.height), `${last} exists`);
}

/** The head's chunk roots are the tries of the flat state; the header commits to the previous chunks' roots. */
function checkRoots(chain: Chain): void {
  const head = chain.head;
  assert.deepEqual(
    head.chunkExtras.map((e) => e.stateRoot),
    rootsFromFlatState(chain, head.height),
    `roots at ${head.height}`,
  );
  const view = JSON.parse(head.viewJson) as {
    header: { prev_state_root: string };
    chunks: Array<{ prev_state_root: string }>;
  };
  const prev = chain.blockByHeight(head.height - 1);
  if (prev) {
    assert.deepEqual(
      view.chunks.map((c) => c.prev_state_root),
      prev.chunkExtras.map((e) => e.stateRoot),
    );
  }
  if (chain.numShards === 1) {
    // merklize of one root: its borsh hash (sha256 of the 32 bytes), not the root itself.
    assert.equal(
      view.header.prev_state_root,
      base58Encode(sha256(base58Decode(view.chunks[0].prev_state_root))),
    );
  }
}

describe('the chain state roots are the shards trie roots', () => {
  it('genesis and every block: the root of the flat state, headers committing to it (one shard)', () => {
    const home = createEphemeralHome({ epochLength: 10 });
    const chain = openChain(openMemoryStore(), home);
    checkRoots(chain);
    const genesisView = JSON.parse(chain.head.viewJson) as { chunks: Array<{ prev_state_root: string }> };
    assert.equal(genesisView.chunks[0].prev_state_root, chain.head.chunkExtras[0].stateRoot);
    runActivity(chain, new Sender(chain, home), 6, 'a');
    // The store holds exactly the nodes of the kept states (no GC: all of them).
    assert.deepEqual(storedNodes(chain.store), nodesOfKept(chain, chain.genesisHeight));
    // A proof trie at an old block reads its state.
    const old = chain.blockByHeight(chain.genesisHeight + 2)!;
    const items = chain.trieAt(old, 0).iteratePrefix(new Uint8Array([0]));
    assert.ok(items.length > 0);
  });

  it('two shards: each chunk root is the trie of its shard', () => {
    const home = createEphemeralHome({ epochLength: 10, numShards: 2 });
    const chain = openChain(openMemoryStore(), home);
    assert.equal(chain.numShards, 2);
    checkRoots(chain);
    runActivity(chain, new Sender(chain, home), 6, 'b');
    assert.notEqual(chain.head.chunkExtras[0].stateRoot, chain.head.chunkExtras[1].stateRoot);
  });

  it('GC leaves exactly the nodes of the kept blocks, revert takes a block back to the nodes before it', () => {
    const home = createEphemeralHome({ epochLength: 5 });
    const chain = openChain(openMemoryStore(), home);
    const gc = new GarbageCollector(chain, { numEpochsToKeep: 3, mode: 'delete', heightsPerStep: 100 });
    const sender = new Sender(chain, home);
    runActivity(chain, sender, 4, 'g');
    const snapshotHeight = chain.head.height;
    const before = storedNodes(chain.store);
    runActivity(chain, sender, 3, 'r');
    chain.rewindTo(snapshotHeight, revertBatch(chain, snapshotHeight));
    assert.deepEqual(storedNodes(chain.store), before);
    checkRoots(chain);
    runActivity(chain, sender, 20, 'c');
    gc.collectAll();
    const tail = chain.earliestHeight();
    assert.ok(tail > chain.genesisHeight + 5, `collected up to ${tail}`);
    // nearcore's rule: collecting a block applies its deletions, so the state before the tail is kept too.
    assert.deepEqual(storedNodes(chain.store), nodesOfKept(chain, tail - 1));
    assert.equal([...chain.store.range(Col.TrieChanges, { end: new Uint8Array(8) })].length, 0);
  });

  it('a restart continues the trie; a home without tries gets them rebuilt at the head with the same roots', () => {
    const home = createEphemeralHome({ epochLength: 10 });
    const store = openMemoryStore();
    const chain = openChain(store, home);
    const sender = new Sender(chain, home);
    runActivity(chain, sender, 3, 'x');
    const again = openChain(store, home);
    assert.equal(again.rebuiltTries, undefined);
    const sender2 = new Sender(again, home);
    sender2.nonce = sender.nonce;
    runActivity(again, sender2, 3, 'y');

    // An older home: no trie column, no trie changes, no marker.
    const head = again.head;
    const expected = head.chunkExtras.map((e) => e.stateRoot);
    const wipe = new WriteBatch();
    for (const col of [Col.TrieNodes, Col.TrieChanges])
      for (const { key } of store.range(col)) wipe.delete(col, key);
    wipe.delete(Col.Meta, TRIE_META_KEY);
    store.commit(wipe);
    const rebuilt = openChain(store, home);
    assert.deepEqual(rebuilt.rebuiltTries, { height: head.height, roots: expected });
    assert.deepEqual(
      rebuilt.head.chunkExtras.map((e) => e.stateRoot),
      expected,
    );
    const sender3 = new Sender(rebuilt, home);
    sender3.nonce = sender2.nonce;
    runActivity(rebuilt, sender3, 2, 'z');
    assert.equal(openChain(store, home).rebuiltTries, undefined);

    // A home of the earlier layout (marker 1: values kept beside the nodes, counted): its node column is
    // dropped and the tries rebuilt at the head, so nothing of the old counts is left to leak.
    const older = rebuilt.head;
    const marked = new WriteBatch();
    marked.put(Col.Meta, TRIE_META_KEY, Uint8Array.of(1));
    const strayValue = sha256(Uint8Array.of(1, 2, 3));
    marked.put(Col.TrieNodes, strayValue, Uint8Array.of(1, 0, 0, 0, 1, 2, 3));
    store.commit(marked);
    const relaid = openChain(store, home);
    assert.equal(relaid.rebuiltTries?.height, older.height);
    assert.deepEqual(
      relaid.head.chunkExtras.map((e) => e.stateRoot),
      older.chunkExtras.map((e) => e.stateRoot),
    );
    assert.equal(store.get(Col.TrieNodes, strayValue), undefined, 'the earlier layout is gone');
    assert.deepEqual(storedNodes(store), nodesOfKept(relaid, relaid.head.height));
    assert.equal(openChain(store, home).rebuiltTries, undefined);
  });

  it('a chain started from a state dump has the roots of the dumped records as its genesis roots', () => {
    const home = createEphemeralHome({ epochLength: 10 });
    const chain = openChain(openMemoryStore(), home);
    runActivity(chain, new Sender(chain, home), 4, 'd');
    const records = stateRecordsAt(chain, chain.head.height);
    const dumped = { ...home, genesis: { ...home.genesis, genesis_height: chain.head.height, records } };
    const restarted = openChain(openMemoryStore(), dumped);
    // The records hold everything but the bandwidth scheduler's state (no `StateRecord` carries it, as in
    // nearcore's dump), so the new genesis is the dumped block's trie without that key.
    const withoutScheduler = rootsFromFlatState(
      chain,
      chain.head.height,
      (key) => key[0] !== StateColumn.BandwidthSchedulerState,
    );
    assert.deepEqual(
      restarted.head.chunkExtras.map((e) => e.stateRoot),
      withoutScheduler,
    );
    assert.notDeepEqual(
      withoutScheduler,
      chain.head.chunkExtras.map((e) => e.stateRoot),
    );
  });
});
