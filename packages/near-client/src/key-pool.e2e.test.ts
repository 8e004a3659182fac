/** The key pool against a real started node: concurrent sends, nonce and expiry recovery. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import { fullAccessKey, KeyPair, ONE_NEAR } from '@shadebox/primitives';
import { block } from './block.js';
import { InvalidTransactionError } from './invalid-transaction.js';
import { KeyPool } from './key-pool.js';
import { outcomeResult } from './outcome-result.js';
import { RpcClient } from './rpc-client.js';
import { sendTransaction } from './send-transaction.js';
import { viewAccessKey } from './view-access-key.js';

describe('KeyPool against a node', () => {
  let node: RunningNode;
  let root: { accountId: string; key: KeyPair };
  /** Methods of every request the counting client sent. */
  const sent: string[] = [];
  let rpc: RpcClient;

  before(async () => {
    node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
    const [account] = node.accounts;
    root = { accountId: account.accountId, key: KeyPair.fromString(account.secretKey) };
    rpc = new RpcClient(node.rpcUrl, {
      timeoutMs: 20_000,
      fetch: (url, init) => {
        sent.push(JSON.parse(String(init?.body)).method);
        return fetch(url, init);
      },
    });
  });
  after(() => node?.stop());

  /** A new account with `keys` full-access keys, all already on chain. */
  async function accountWithKeys(accountId: string, count: number): Promise<KeyPair[]> {
    const keys = Array.from({ length: count }, () => KeyPair.fromRandom());
    const funder = new KeyPool(rpc, root.accountId, [root.key]);
    outcomeResult(
      await funder.send(accountId, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 10n * ONE_NEAR },
        ...keys.map((k) => ({ type: 'AddKey' as const, publicKey: k.publicKey, accessKey: fullAccessKey() })),
      ]),
    );
    return keys;
  }

  it('concurrent sends over several keys never collide', async () => {
    const keys = await accountWithKeys('many.test.near', 3);
    const before = await Promise.all(
      keys.map((k) => viewAccessKey(rpc, 'many.test.near', k.publicKeyString)),
    );
    const pool = new KeyPool(rpc, 'many.test.near', keys);
    assert.equal(pool.size, 3);
    sent.length = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, () => pool.send(root.accountId, [{ type: 'Transfer', deposit: 1n }])),
    );
    for (const o of outcomes) assert.equal(outcomeResult(o), null);
    assert.equal(sent.filter((m) => m === 'send_tx').length, 12, 'no send was refused and retried');
    const after = await Promise.all(keys.map((k) => viewAccessKey(rpc, 'many.test.near', k.publicKeyString)));
    const used = after.reduce((sum, k, i) => sum + (k.nonce - before[i].nonce), 0n);
    assert.equal(used, 12n);
  });

  it('waits for a free key, and keys added later are used', async () => {
    const [first, second] = await accountWithKeys('grow.test.near', 2);
    const nonceOf = async (k: KeyPair) =>
      (await viewAccessKey(rpc, 'grow.test.near', k.publicKeyString)).nonce;
    const before = [await nonceOf(first), await nonceOf(second)];
    const pool = new KeyPool(rpc, 'grow.test.near', [first]);
    const sends = Array.from({ length: 4 }, () =>
      pool.send(root.accountId, [{ type: 'Transfer', deposit: 1n }]),
    );
    pool.addKeys([second]);
    assert.equal(pool.size, 2);
    await Promise.all(sends);
    const used = [(await nonceOf(first)) - before[0], (await nonceOf(second)) - before[1]];
    assert.equal(used[0] + used[1], 4n);
    assert.ok(used[1] > 0n, 'the added key took waiting sends');
  });

  it('recovers from InvalidNonce when the key was used behind its back', async () => {
    const [key] = await accountWithKeys('race.test.near', 1);
    const pool = new KeyPool(rpc, 'race.test.near', [key]);
    outcomeResult(await pool.send(root.accountId, [{ type: 'Transfer', deposit: 1n }]));
    // Another signer with the same key moves the nonce on.
    const other = new KeyPool(rpc, 'race.test.near', [key]);
    for (let i = 0; i < 3; i++)
      outcomeResult(await other.send(root.accountId, [{ type: 'Transfer', deposit: 1n }]));
    sent.length = 0;
    outcomeResult(await pool.send(root.accountId, [{ type: 'Transfer', deposit: 1n }]));
    assert.deepEqual(
      sent.filter((m) => m === 'send_tx' || m === 'query'),
      ['send_tx', 'send_tx'],
      'refused once (nonce taken from the error), then accepted',
    );
  });

  it('signs again with a recent block hash after Expired', async () => {
    const [key] = await accountWithKeys('old.test.near', 1);
    const pool = new KeyPool(rpc, 'old.test.near', [key], { blockHashMaxAgeMs: 60_000 });
    const old = await block(rpc, { finality: 'final' });
    await rpc.call('sandbox_fast_forward', { delta_height: 110 });
    pool.useBlockHash(old.header.hash);
    sent.length = 0;
    outcomeResult(await pool.send(root.accountId, [{ type: 'Transfer', deposit: 1n }]));
    assert.deepEqual(
      sent.filter((m) => m !== 'query'),
      ['send_tx', 'block', 'send_tx'],
    );
  });

  it('other refusals are thrown, and the next send still works', async () => {
    const [key] = await accountWithKeys('poor.test.near', 1);
    const pool = new KeyPool(rpc, 'poor.test.near', [key]);
    const error = await pool
      .send(root.accountId, [{ type: 'Transfer', deposit: 1000n * ONE_NEAR }])
      .catch((e) => e);
    assert.ok(error instanceof InvalidTransactionError, String(error));
    assert.equal(error.variant, 'NotEnoughBalance');
    outcomeResult(await pool.send(root.accountId, [{ type: 'Transfer', deposit: 1n }]));
  });

  it('sign gives consecutive nonces from one key without sending', async () => {
    const [key] = await accountWithKeys('burst.test.near', 1);
    const pool = new KeyPool(rpc, 'burst.test.near', [key]);
    const start = (await viewAccessKey(rpc, 'burst.test.near', key.publicKeyString)).nonce;
    const a = await pool.sign(root.accountId, [{ type: 'Transfer', deposit: 1n }]);
    const b = await pool.sign(root.accountId, [{ type: 'Transfer', deposit: 1n }]);
    assert.deepEqual([a.nonce, b.nonce], [start + 1n, start + 2n]);
    assert.equal(a.publicKey, key.publicKeyString);
    assert.notEqual(a.hash, b.hash);
  });

  it('raiseNonce lifts a key above the chain nonce it is told, never lowers it', async () => {
    const [key] = await accountWithKeys('told.test.near', 1);
    const pool = new KeyPool(rpc, 'told.test.near', [key]);
    const start = (await viewAccessKey(rpc, 'told.test.near', key.publicKeyString)).nonce;
    // Not read yet: the nonce told is taken as is, without a view_access_key.
    pool.raiseNonce(key.publicKeyString, start + 10n);
    sent.length = 0;
    const a = await pool.sign(root.accountId, [{ type: 'Transfer', deposit: 1n }]);
    assert.equal(a.nonce, start + 11n);
    assert.ok(!sent.includes('query'), 'the nonce was not read from the chain');
    // Lower than what the pool signed with: no effect.
    pool.raiseNonce(key.publicKeyString, start + 1n);
    const b = await pool.sign(root.accountId, [{ type: 'Transfer', deposit: 1n }]);
    assert.equal(b.nonce, start + 12n);
    pool.raiseNonce(KeyPair.fromRandom().publicKeyString, 1_000n); // not in the pool: ignored
    pool.raiseNonce(key.publicKeyString, start + 20n);
    const c = await pool.sign(root.accountId, [{ type: 'Transfer', deposit: 1n }]);
    assert.equal(c.nonce, start + 21n);
    outcomeResult(await sendTransaction(rpc, c.bytes, 'EXECUTED'));
  });
});
