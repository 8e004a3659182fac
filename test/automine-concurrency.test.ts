/**
 * Automine under concurrent clients (issue 32): bursts of concurrent near-api-js 7 transactions — contract calls
 * and `request_signature` through the agent contract, answered by the MPC responder — all succeed, and a burst
 * makes a bounded number of blocks, well under the 100-block transaction validity period. Several clients
 * sharing one key send the same nonce at once: the block keeps the first, drops the others at inclusion, and
 * their `send_tx` waits out the timeout as on nearcore. Automine used to count those waits as work and made
 * empty blocks back to back until the timeout (thousands), so near-api-js's re-send of the same transaction
 * after the TIMEOUT_ERROR came back `Expired` instead of `InvalidNonce` (which near-api-js retries with a new
 * nonce).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import { base58Decode, ONE_NEAR, KeyPair as PrimitivesKeyPair, TGAS } from '@shadebox/primitives';
import { Account, actions, JsonRpcProvider, KeyPair, KeyPairSigner } from 'near-api-js';
import { type ChainSignatures, startChainSignatures } from '../packages/cli/src/chain-signatures/service.js';
import type { Json } from './support/raw-rpc.js';
import { keyNonce, rpc } from './support/rpc-calls.js';
import { buildTx } from './support/transactions.js';
import { wat } from './vm-wat-helpers.js';

/** `send_tx`'s wait (nearcore's polling_timeout is 10 s): short, so a dropped transaction's client retries soon. */
const TX_TIMEOUT_MS = 2000;
/** Concurrent clients per burst. */
const CLIENTS = 10;
const ROUNDS = 3;
/** Blocks a burst may make: well under the genesis transaction_validity_period (100). A contract call spans about
 * five blocks, a signature about ten; bursts overlap them. */
const MAX_BLOCKS_PER_BURST = 60;
/** The genesis yield_timeout_length_in_blocks. */
const YIELD_TIMEOUT_BLOCKS = 200;

/** A contract whose `bump` writes one storage key. */
const COUNTER = `(module
  (import "env" "storage_write" (func $sw (param i64 i64 i64 i64 i64) (result i64)))
  (memory (export "memory") 1)
  (data (i32.const 0) "kv")
  (func (export "bump") (drop (call $sw (i64.const 1) (i64.const 0) (i64.const 1) (i64.const 1) (i64.const 0)))))`;

describe('automine under concurrent clients', () => {
  let node: RunningNode;
  let cs: ChainSignatures;
  let provider: JsonRpcProvider;
  let root: Account;
  const account = (accountId: string, key: KeyPair) =>
    new Account(accountId, provider, new KeyPairSigner(key));

  /** Runs one burst and returns how many blocks it made (from its first request to its last answer). */
  async function burst<T>(run: () => Promise<T>): Promise<{ result: T; blocks: number }> {
    const start = node.chain.head.height;
    const result = await run();
    return { result, blocks: node.chain.head.height - start };
  }

  /** A new account with `amount` and its own full-access key. */
  async function newAccount(prefix: string, amount: bigint): Promise<{ id: string; key: KeyPair }> {
    const key = KeyPair.fromRandom('ed25519');
    await root.createSubAccount({
      accountOrPrefix: prefix,
      publicKey: key.getPublicKey(),
      nearToTransfer: amount,
    });
    return { id: `${prefix}.${root.accountId}`, key };
  }

  before(async () => {
    node = await startNode({ memory: true, rpcPort: 0, log: silentLogger, txTimeoutMs: TX_TIMEOUT_MS });
    const [r] = node.accounts;
    cs = await startChainSignatures({
      rpcUrl: node.rpcUrl,
      home: null,
      root: { accountId: r.accountId, secretKey: r.secretKey },
      log: silentLogger,
      fetch: node.fetch,
      subscribeToBlocks: (listener) => {
        const onBlock = (block: { height: number; hash: string }) => listener(block);
        node.chain.on('block', onBlock);
        return () => node.chain.off('block', onBlock);
      },
    });
    provider = new JsonRpcProvider({ url: node.rpcUrl });
    root = account(r.accountId, KeyPair.fromString(r.secretKey as never));
  });
  after(async () => {
    await cs?.stop();
    await node?.stop();
  });

  it('a transaction dropped at inclusion makes no blocks while its client waits; its re-send is InvalidNonce, not Expired', async () => {
    const signer = {
      signerId: root.accountId,
      key: PrimitivesKeyPair.fromString(node.accounts[0].secretKey),
    };
    const nonce = (await keyNonce(node.rpcUrl, signer.signerId, signer.key.publicKeyString)) + 1n;
    const final = (await rpc(node.rpcUrl, 'block', { finality: 'final' })).header.hash as string;
    // Two transactions of one key with the same nonce, in the pool together: the block applies the first.
    const [first, second] = await Promise.all(
      [1n, 2n].map((deposit) =>
        buildTx(node.rpcUrl, {
          ...signer,
          receiverId: signer.signerId,
          actions: [{ type: 'Transfer', deposit }],
          nonce,
          blockHash: base58Decode(final),
        }),
      ),
    );
    node.producer.setMode({ kind: 'manual' });
    const send = (tx: { base64: string }) =>
      rpc(node.rpcUrl, 'send_tx', { signed_tx_base64: tx.base64, wait_until: 'FINAL' }).then(
        (result: Json) => ({ result }),
        (error: unknown) => ({ error: String(error) }),
      );
    const start = node.chain.head.height;
    const answers = Promise.all([send(first), send(second)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    node.producer.setMode({ kind: 'automine' });
    const [a, b] = await answers;
    assert.ok('result' in a, `the first is applied: ${JSON.stringify(a)}`);
    assert.match(
      String((b as { error: string }).error),
      /timed out/,
      'the dropped one times out, as on nearcore',
    );
    const made = node.chain.head.height - start;
    assert.ok(made <= 5, `${made} blocks while the dropped transaction's client waited ${TX_TIMEOUT_MS} ms`);
    // The re-send a client makes after the TIMEOUT_ERROR: refused for its used nonce, which clients retry.
    const again = await send(second);
    assert.match(String((again as { error: string }).error), /InvalidNonce/);
    assert.doesNotMatch(String((again as { error: string }).error), /Expired/);
  });

  it(`${CLIENTS} concurrent callFunctions of near-api-js clients sharing one key all succeed, in bounded bursts`, async () => {
    const owner = await newAccount('counter', 20n * ONE_NEAR);
    await account(owner.id, owner.key).deployContract(await wat(COUNTER));
    for (let round = 0; round < ROUNDS; round++) {
      // One near-api-js Account per call, as separate clients (processes, services) of the same key: each reads
      // the key's nonce and sends the next one, so most collide and retry.
      const { result, blocks } = await burst(() =>
        Promise.allSettled(
          Array.from({ length: CLIENTS }, (_, i) =>
            account(owner.id, owner.key).callFunction({
              contractId: owner.id,
              methodName: 'bump',
              args: { round, i },
            }),
          ),
        ),
      );
      const failed = result.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      assert.deepEqual(
        failed.map((f) => String(f.reason)),
        [],
        `round ${round}: every call succeeds`,
      );
      assert.ok(blocks <= MAX_BLOCKS_PER_BURST, `round ${round}: ${blocks} blocks for ${CLIENTS} calls`);
    }
  });

  it(`${CLIENTS} concurrent request_signature calls through the agent contract all get signatures, in bounded bursts`, async () => {
    const codehash = 'c'.repeat(64);
    const call = (a: Account, methodName: string, args: Json, receiverId = cs.agentContractId) =>
      a.signAndSendTransaction({
        receiverId,
        actions: [actions.functionCall(methodName, Buffer.from(JSON.stringify(args)), 100n * TGAS, 0n)],
        throwOnFailure: false,
        waitUntil: 'EXECUTED',
      }) as Promise<Json>;
    assert.ok('SuccessValue' in (await call(root, 'approve_codehash', { codehash })).status);
    // Agents with a key each; in the last round all requests are the first agent's, from clients sharing its key.
    const agents = [];
    for (let i = 0; i < CLIENTS; i++) agents.push(await newAccount(`agent${i}`, 5n * ONE_NEAR));
    await Promise.all(agents.map((a) => call(account(a.id, a.key), 'register_agent', { codehash })));
    for (let round = 0; round < ROUNDS; round++) {
      const shared = round === ROUNDS - 1;
      const { result, blocks } = await burst(() =>
        Promise.allSettled(
          agents.map((a, i) =>
            call(account(shared ? agents[0].id : a.id, shared ? agents[0].key : a.key), 'request_signature', {
              path: `path-${i}`,
              payload: (round * CLIENTS + i + 1).toString(16).padStart(2, '0').repeat(32),
              key_type: 'Ecdsa',
            }),
          ),
        ),
      );
      const outcomes = result.map((r) =>
        r.status === 'rejected'
          ? String(r.reason)
          : 'SuccessValue' in r.value.status
            ? 'signed'
            : JSON.stringify(r.value.status),
      );
      assert.deepEqual(
        outcomes,
        Array(CLIENTS).fill('signed'),
        `round ${round}${shared ? ' (one shared key)' : ''}`,
      );
      // Clients sharing a key collide on its nonce again at each retry, so their calls land one after another
      // over a few timeouts (and the pending yields get a block every 600 ms meanwhile): that burst is longer, and
      // bounded by the yield timeout (200 blocks), which no request may reach.
      const bound = shared ? YIELD_TIMEOUT_BLOCKS : MAX_BLOCKS_PER_BURST;
      assert.ok(blocks < bound, `round ${round}: ${blocks} blocks for ${CLIENTS} signatures`);
    }
  });
});
