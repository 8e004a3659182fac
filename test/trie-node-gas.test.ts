/**
 * End to end: trie-node gas of a write-heavy call on a real node running a real contract of the corpus (the
 * near-examples fungible token, sdk 4.1.1): one receipt of four `ft_transfer` actions writes the sender's
 * balance, four holders' balances and STATE. What nearcore would charge is worked out from the node's own
 * `view_state` proof of the state the receipt's chunk started from, by nearcore's rules (runtime/runtime/src/
 * ext.rs `storage_set`: every node on the key's path plus the old value, once per key per chunk; the chunk's
 * `AccountingState` calls a hash seen before a cached read; reads pay nothing but a read's value is seen;
 * ../shared/reference/nearcore-trie.md §1.3-1.6) and compared with the receipt's gas profile over RPC.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { lookupValueRef, proofStorage, Trie, TrieAccountingCache } from '@shadebox/node/trie';
import { base64Decode, ONE_NEAR, sha256, TGAS, utf8Encode } from '@shadebox/primitives';
import type { Json } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { sendTx } from './support/transactions.js';

const FT = new URL('../../shared/corpus/misc/near-examples-FT__fungible_token.wasm', import.meta.url);
const TRIE_NODE_GAS = 2_280_000_000n; // touching_trie_node = read_cached_trie_node at protocols 83-87
const HOLDERS = ['h0', 'h1', 'h2', 'h3'];

const dataKey = (accountId: string, key: Uint8Array) =>
  new Uint8Array([0x09, ...utf8Encode(accountId), 0x2c, ...key]);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function functionCall(methodName: string, args: object, deposit: bigint, gas = 30n * TGAS) {
  return { type: 'FunctionCall' as const, methodName, args: utf8Encode(JSON.stringify(args)), gas, deposit };
}

async function contractState(url: string, accountId: string, blockId: number | string): Promise<Json> {
  return rpc(url, 'query', {
    request_type: 'view_state',
    block_id: blockId,
    account_id: accountId,
    prefix_base64: '',
    include_proof: true,
  });
}

describe('trie-node gas of a write-heavy receipt, against the node’s own proofs', () => {
  let t: TestNode;
  const ft = 'ft.test.near';
  let outcome: Json;
  let preState: Json;
  let afterState: Json;

  before(async () => {
    t = await startTestNode();
    const root = t.rootSigner;
    const holders = HOLDERS.map((h) => `${h}.${root.accountId}`);
    const deployed = await sendTx(t.url, {
      signerId: root.accountId,
      key: root.key,
      receiverId: ft,
      actions: [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 50n * ONE_NEAR },
        { type: 'DeployContract', code: await readFile(FT) },
        functionCall('new_default_meta', { owner_id: root.accountId, total_supply: '1000000000' }, 0n),
        ...holders.map((id) => functionCall('storage_deposit', { account_id: id }, ONE_NEAR / 100n)),
      ],
    });
    assert.ok('SuccessValue' in deployed.status, JSON.stringify(deployed.status));
    const transfers = await sendTx(t.url, {
      signerId: root.accountId,
      key: root.key,
      receiverId: ft,
      actions: holders.map((id, i) =>
        functionCall('ft_transfer', { receiver_id: id, amount: `${100 + i}` }, 1n),
      ),
    });
    assert.ok('SuccessValue' in transfers.status, JSON.stringify(transfers.status));
    outcome = (transfers.receipts_outcome as Json[]).find((o) => o.outcome.executor_id === ft);
    const block = await rpc(t.url, 'block', { block_id: outcome.block_hash });
    // The receipt ran in this block's chunk, which started from the previous block's post-state.
    preState = await contractState(t.url, ft, block.header.prev_hash);
    afterState = await contractState(t.url, ft, outcome.block_hash);
  });
  after(() => t.stop());

  it('the receipt pays every node of every written key’s path and old value once, as nearcore', (ctx) => {
    const profile = outcome.outcome.metadata.gas_profile as Json[];
    const gasOf = (cost: string) => BigInt(profile.find((e: Json) => e.cost === cost)?.gas_used ?? 0);
    const proof = (preState.proof as string[]).map(base64Decode);
    // The proof holds the nodes; the values (referenced by hash) come with the answer.
    const storage = proofStorage(proof);
    for (const { value } of preState.values as Json[]) {
      const bytes = base64Decode(value);
      storage.putRaw(sha256(bytes), bytes);
    }
    const chunkTrie = new Trie(storage, sha256(proof[0]), { accounting: new TrieAccountingCache() });

    // The keys the receipt wrote: those whose value changed, and STATE (near-sdk writes it after every
    // method that takes `&mut self`, here unchanged).
    const valuesOf = (state: Json) =>
      new Map((state.values as Json[]).map(({ key, value }) => [hex(base64Decode(key)), value as string]));
    const [was, is] = [valuesOf(preState), valuesOf(afterState)];
    const changed = [...is.keys()].filter((k) => is.get(k) !== was.get(k));
    const state = hex(utf8Encode('STATE'));
    assert.equal(changed.length, 1 + HOLDERS.length, 'the sender’s and the holders’ balances');
    assert.ok(was.has(state));

    // nearcore's order inside each ft_transfer: read STATE, read and write the sender's balance, read and write
    // the receiver's, write STATE. A key written earlier in the chunk is in the overlay: no lookup at all.
    const holderIds = HOLDERS.map((h) => Buffer.from(`${h}.${t.rootId}`));
    const isHolder = (k: string) => holderIds.some((id) => Buffer.from(k, 'hex').includes(id));
    const sender = changed.find((k) => !isHolder(k))!;
    const written = new Set<string>();
    const accounting = chunkTrie.accounting!;
    let charged = { dbReads: 0, memReads: 0 };
    const read = (k: string) => {
      if (written.has(k)) return;
      const ref = lookupValueRef(chunkTrie.storage, chunkTrie.root, dataKey(ft, Buffer.from(k, 'hex')));
      if (ref !== null) accounting.track(ref.hash);
    };
    const write = (k: string) => {
      if (written.has(k)) return;
      written.add(k);
      const start = accounting.getCounts();
      const ref = chunkTrie.getRef(dataKey(ft, Buffer.from(k, 'hex')));
      if (ref !== null) chunkTrie.derefValue(ref);
      const d = accounting.countsSince(start);
      charged = { dbReads: charged.dbReads + d.dbReads, memReads: charged.memReads + d.memReads };
    };
    for (const holder of changed.filter((k) => k !== sender)) {
      read(state);
      read(sender);
      write(sender);
      read(holder);
      write(holder);
      write(state);
    }
    assert.ok(charged.dbReads > 10, `a real path: ${JSON.stringify(charged)}`);
    assert.equal(gasOf('TOUCHING_TRIE_NODE'), BigInt(charged.dbReads) * TRIE_NODE_GAS);
    assert.equal(gasOf('READ_CACHED_TRIE_NODE'), BigInt(charged.memReads) * TRIE_NODE_GAS);
    const trieGas = BigInt(charged.dbReads + charged.memReads) * TRIE_NODE_GAS;
    const burnt = BigInt(outcome.outcome.gas_burnt);
    ctx.diagnostic(
      `${charged.dbReads} touched + ${charged.memReads} cached nodes = ${trieGas} gas, ` +
        `${Number((trieGas * 10000n) / burnt) / 100}% of the receipt's ${burnt}`,
    );
  });
});
