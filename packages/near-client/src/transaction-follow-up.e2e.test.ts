/**
 * A send without an answer, against a real node: a transaction the node drops at inclusion (its signer's
 * balance drained by a transfer from another key in the same block) is found dropped and re-sent once with
 * its own nonce; a transaction whose `send_tx` response is lost is found executed and not signed again.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import {
  base58Encode,
  base64Decode,
  decodeSignedTransaction,
  fullAccessKey,
  KeyPair,
  ONE_NEAR,
} from '@shadebox/primitives';
import { KeyPool, type ResendInfo } from './key-pool.js';
import { outcomeResult } from './outcome-result.js';
import { RpcClient } from './rpc-client.js';
import { RpcError } from './rpc-error.js';
import { broadcastTxAsync } from './send-transaction.js';
import { viewAccessKey } from './view-access-key.js';
import { viewAccount } from './view-account.js';

/** The hash of the transaction a `send_tx` request carries. */
function sentTxHash(body: string): string | undefined {
  const request = JSON.parse(body);
  if (request.method !== 'send_tx') return undefined;
  return base58Encode(decodeSignedTransaction(base64Decode(request.params.signed_tx_base64)).hash);
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a send without an answer, followed with tx', () => {
  let node: RunningNode;
  let root: KeyPool;
  let rpc: RpcClient;
  let pump: NodeJS.Timeout | undefined;

  /** Blocks every 20 ms (the node is in manual mode so that the test decides what shares a block). */
  const startBlocks = () => {
    pump ??= setInterval(() => node.producer.produce(1), 20);
  };
  const stopBlocks = () => {
    clearInterval(pump);
    pump = undefined;
  };

  before(async () => {
    // send_tx waits 400 ms before TIMEOUT_ERROR, so the follow-up starts soon.
    node = await startNode({
      memory: true,
      rpcPort: 0,
      production: { kind: 'manual' },
      txTimeoutMs: 400,
      log: silentLogger,
    });
    const [account] = node.accounts;
    rpc = new RpcClient(node.rpcUrl, 20_000);
    root = new KeyPool(rpc, account.accountId, [KeyPair.fromString(account.secretKey)]);
    startBlocks();
  });
  after(async () => {
    stopBlocks();
    await node?.stop();
  });

  async function accountWithKeys(accountId: string, amount: bigint, count: number): Promise<KeyPair[]> {
    const keys = Array.from({ length: count }, () => KeyPair.fromRandom());
    outcomeResult(
      await root.send(accountId, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: amount },
        ...keys.map((k) => ({ type: 'AddKey' as const, publicKey: k.publicKey, accessKey: fullAccessKey() })),
      ]),
    );
    return keys;
  }

  it('a transaction dropped at inclusion is re-sent once with its own nonce, and executes once', async () => {
    const [callKey, drainKey] = await accountWithKeys('drop.test.near', 2n * ONE_NEAR, 2);
    await accountWithKeys('payee.test.near', ONE_NEAR, 1);
    const sentHashes: string[] = [];
    const counting = new RpcClient(node.rpcUrl, {
      timeoutMs: 20_000,
      fetch: (url, init) => {
        const hash = sentTxHash(String(init?.body));
        if (hash) sentHashes.push(hash);
        return fetch(url, init);
      },
    });
    const pool = new KeyPool(counting, 'drop.test.near', [callKey], {
      followUp: { dropConfirmMs: 300, pollMs: 50 },
    });
    const drainer = new KeyPool(rpc, 'drop.test.near', [drainKey]);
    const nonceBefore = (await viewAccessKey(rpc, 'drop.test.near', callKey.publicKeyString)).nonce;
    const payeeBefore = (await viewAccount(rpc, 'payee.test.near'))!.amount;

    stopBlocks();
    // Both pass the RPC's checks against the head; in the block the drain comes first (arrival order), so the
    // transfer no longer fits and the node drops it.
    const drain = await drainer.sign('test.near', [{ type: 'Transfer', deposit: 19n * (ONE_NEAR / 10n) }]);
    await broadcastTxAsync(rpc, drain.bytes);
    const resends: ResendInfo[] = [];
    const sending = pool.send('payee.test.near', [{ type: 'Transfer', deposit: ONE_NEAR / 2n }], {
      onResend: async (info) => {
        resends.push(info);
        // Money for the re-send, from outside, before it goes.
        outcomeResult(await root.send('drop.test.near', [{ type: 'Transfer', deposit: ONE_NEAR }]));
      },
    });
    await waitFor('the transfer in the pool', async () => {
      if (sentHashes.length === 0) return false;
      const status = await rpc
        .call('tx', { tx_hash: sentHashes[0], sender_account_id: 'drop.test.near', wait_until: 'NONE' })
        .catch(() => undefined);
      return status?.final_execution_status === 'NONE';
    });
    node.producer.produce(1);
    startBlocks();

    const outcome = await sending;
    assert.equal(outcomeResult(outcome), null);
    assert.equal(resends.length, 1, 'one re-send');
    assert.equal(sentHashes.length, 2, 'send_tx went out twice: the original and its re-send');
    assert.equal(outcome.transaction.hash, sentHashes[1]);
    // The dropped transaction is unknown to the chain; the re-send used its nonce.
    const dropped = await rpc
      .call('tx', { tx_hash: sentHashes[0], sender_account_id: 'drop.test.near', wait_until: 'NONE' })
      .catch((e) => e);
    assert.ok(dropped instanceof RpcError && dropped.causeName === 'UNKNOWN_TRANSACTION');
    assert.equal(resends[0].nonce, nonceBefore + 1n);
    assert.equal(BigInt(outcome.transaction.nonce), nonceBefore + 1n);
    const nonceAfter = (await viewAccessKey(rpc, 'drop.test.near', callKey.publicKeyString)).nonce;
    assert.equal(nonceAfter, nonceBefore + 1n, 'the key was used once');
    const payeeAfter = (await viewAccount(rpc, 'payee.test.near'))!.amount;
    assert.equal(payeeAfter - payeeBefore, ONE_NEAR / 2n, 'the transfer executed exactly once');
  });

  describe('through a proxy that loses the response of the first send_tx', () => {
    let proxy: Server;
    let proxyUrl: string;
    let lost = 0;

    before(async () => {
      proxy = createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const body = Buffer.concat(chunks).toString();
        const upstream = await fetch(node.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const text = await upstream.text();
        if (sentTxHash(body) && lost === 0) {
          // The node executed it; the client never hears.
          lost++;
          req.socket.destroy();
          return;
        }
        res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((r) => proxy.close(() => r())));

    it('finds the transaction executed and does not sign it again', async () => {
      const [key] = await accountWithKeys('lost.test.near', 2n * ONE_NEAR, 1);
      const sends: string[] = [];
      const client = new RpcClient(proxyUrl, {
        timeoutMs: 20_000,
        fetch: (url, init) => {
          const hash = sentTxHash(String(init?.body));
          if (hash) sends.push(hash);
          return fetch(url, init);
        },
      });
      const pool = new KeyPool(client, 'lost.test.near', [key], { followUp: { pollMs: 50 } });
      const nonceBefore = (await viewAccessKey(rpc, 'lost.test.near', key.publicKeyString)).nonce;
      const before = (await viewAccount(rpc, 'payee.test.near'))!.amount;
      let resent = 0;
      const outcome = await pool.send('payee.test.near', [{ type: 'Transfer', deposit: ONE_NEAR / 4n }], {
        onResend: () => {
          resent++;
        },
      });
      assert.equal(lost, 1, 'the response was lost');
      assert.equal(outcomeResult(outcome), null);
      assert.equal(resent, 0);
      // The transport asks again with the same bytes (the same transaction, which the node knows): never another one.
      assert.deepEqual(
        [...new Set(sends)],
        [outcome.transaction.hash],
        'one transaction, never signed again',
      );
      assert.equal((await viewAccessKey(rpc, 'lost.test.near', key.publicKeyString)).nonce, nonceBefore + 1n);
      const after = (await viewAccount(rpc, 'payee.test.near'))!.amount;
      assert.equal(after - before, ONE_NEAR / 4n, 'executed once');
      // The pool goes on with the next nonce.
      const next = await pool.send('payee.test.near', [{ type: 'Transfer', deposit: 1n }]);
      assert.equal(BigInt(next.transaction.nonce), nonceBefore + 2n);
    });
  });
});
