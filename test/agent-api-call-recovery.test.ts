/**
 * `/call` when things go wrong, against a real node with chain signatures: a call the node drops at inclusion
 * (the agent's balance drained in the same block by a transfer from another key of the agent account) is
 * followed, re-sent once and answered once; a call that can never fit the balance gets 422
 * `insufficient_balance` at once; every failed call is logged as one line with its method and reason.
 * The block that drops the call also holds a top-up after it, so the re-send finds the money it needs.
 *
 * The node runs in manual mode, so the test decides what shares a block; a pump makes blocks every 20 ms
 * whenever the test does not hold them.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadAgentApiConfig, type RunningAgentApi, startAgentApi } from '@shadebox/agent-api';
import {
  availableBalance,
  broadcastTxAsync,
  KeyPool,
  RpcClient,
  viewAccessKeyList,
  viewAccount,
} from '@shadebox/near-client';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import {
  base58Encode,
  base64Decode,
  decodeSignedTransaction,
  KeyPair,
  ONE_NEAR,
  TGAS,
} from '@shadebox/primitives';
import { startChainSignatures } from '../packages/cli/src/chain-signatures/service.js';
import { captureLogs, fnCall, ready } from './agent-stack-helpers.js';

const CODEHASH = 'd'.repeat(64);

describe('/call recovery and failures', () => {
  let node: RunningNode;
  let rpc: RpcClient;
  let owner: KeyPool;
  let stopSignatures: () => Promise<void>;
  let mpcContractId: string;
  let proxy: Server;
  /** Hashes of the transactions the agent API sent with send_tx, through the recording proxy. */
  const agentSends: string[] = [];
  let api: RunningAgentApi;
  let agentId: string;
  const logs = captureLogs();
  let pump: NodeJS.Timeout | undefined;
  const startBlocks = () => {
    pump ??= setInterval(() => node.producer.produce(1), 20);
  };
  const stopBlocks = () => {
    clearInterval(pump);
    pump = undefined;
  };

  before(async () => {
    // send_tx answers TIMEOUT_ERROR after 500 ms, so a dropped transaction is followed soon.
    node = await startNode({
      memory: true,
      rpcPort: 0,
      production: { kind: 'manual' },
      txTimeoutMs: 500,
      log: silentLogger,
    });
    startBlocks();
    const [root] = node.accounts;
    rpc = new RpcClient(node.rpcUrl, 20_000);
    owner = new KeyPool(rpc, root.accountId, [KeyPair.fromString(root.secretKey)]);
    const cs = await startChainSignatures({
      rpcUrl: node.rpcUrl,
      home: null,
      root: { accountId: root.accountId, secretKey: root.secretKey },
      log: silentLogger,
    });
    stopSignatures = () => cs.stop();
    mpcContractId = cs.mpcContractId;
    await owner.send('agent.test.near', [fnCall('approve_codehash', { codehash: CODEHASH })]);

    // The agent API reaches the node through a proxy that notes every send_tx.
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks).toString();
      const request = JSON.parse(body);
      if (request.method === 'send_tx') {
        const tx = decodeSignedTransaction(base64Decode(request.params.signed_tx_base64));
        if (tx.signedTransaction.transaction.signerId === agentId) agentSends.push(base58Encode(tx.hash));
      }
      const upstream = await fetch(node.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const config = loadAgentApiConfig({
      CHAIN_ACCOUNT_ID: root.accountId,
      CHAIN_ACCOUNT_SECRET_KEY: root.secretKey,
      AGENT_CONTRACT_ID: 'agent.test.near',
      NEAR_RPC_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      AGENT_CODEHASH: CODEHASH,
      AGENT_API_PORT: '0',
      TEE_MODE: 'local',
    });
    api = await startAgentApi({ ...config, retryInitialMs: 50, retryMaxMs: 300 }, { log: logs.log });
    agentId = await ready(api, 60_000);
  });

  after(async () => {
    startBlocks();
    await api?.stop();
    await stopSignatures?.();
    stopBlocks();
    await new Promise<void>((r) => (proxy ? proxy.close(() => r()) : r()));
    await node?.stop();
  });

  async function call(body: unknown) {
    const r = await fetch(`${api.url}/call`, { method: 'POST', body: JSON.stringify(body) });
    return { status: r.status, json: await r.json() };
  }

  const nonceSum = async () =>
    (await viewAccessKeyList(rpc, agentId)).reduce((sum, k) => sum + BigInt(k.nonce), 0n);

  it('a call the node drops at inclusion is re-sent once and answered once', async () => {
    // A key of the test's own on the agent account, to spend from it beside the agent API.
    const drainKey = KeyPair.fromRandom();
    const addKey = await rpc.call('sandbox_patch_state', {
      records: [
        {
          AccessKey: {
            account_id: agentId,
            public_key: drainKey.publicKeyString,
            access_key: { nonce: 0, permission: 'FullAccess' },
          },
        },
      ],
    });
    assert.deepEqual(addKey, {});
    const drainer = new KeyPool(rpc, agentId, [drainKey]);
    await call({ methodName: 'get_mpc_contract_id', args: {} }); // warms the pricing and the nonces
    const noncesBefore = await nonceSum();
    const sendsBefore = agentSends.length;
    logs.lines.length = 0;

    stopBlocks();
    // Leave the agent 0.05 NEAR: the call (0.1 NEAR prepaid) passes the RPC's check against the head, but in
    // the block the drain comes first (arrival order) and the call no longer fits.
    const account = (await viewAccount(rpc, agentId))!;
    const drain = await drainer.sign('test.near', [
      { type: 'Transfer', deposit: availableBalance(account) - ONE_NEAR / 20n },
    ]);
    const inPool = async (hash: string | undefined, signer: string) => {
      if (!hash) return false;
      const status = await rpc
        .call('tx', { tx_hash: hash, sender_account_id: signer, wait_until: 'NONE' })
        .catch(() => undefined);
      return status?.final_execution_status === 'NONE';
    };
    await broadcastTxAsync(rpc, drain.bytes);
    assert.ok(await inPool(drain.hash, agentId), 'the drain waits in the pool');
    const answer = call({ methodName: 'get_mpc_contract_id', args: {} });
    const deadline = Date.now() + 30_000;
    while (!(await inPool(agentSends[sendsBefore], agentId))) {
      assert.ok(Date.now() < deadline, 'the call reaches the pool');
      await new Promise((r) => setTimeout(r, 20));
    }
    // Money for the re-send, in the same block after the call: the call is dropped, the re-send will fit.
    owner.forgetNonces();
    const topUp = await owner.sign(agentId, [{ type: 'Transfer', deposit: ONE_NEAR / 2n }]);
    await broadcastTxAsync(rpc, topUp.bytes);
    assert.ok(await inPool(topUp.hash, 'test.near'), 'the top-up waits in the pool');
    node.producer.produce(1);
    startBlocks();

    const r = await answer;
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal(r.json, mpcContractId);
    assert.equal(agentSends.length - sendsBefore, 2, 'the original and one re-send');
    const dropped = await rpc
      .call('tx', { tx_hash: agentSends[sendsBefore], sender_account_id: agentId, wait_until: 'NONE' })
      .catch((e) => e);
    assert.equal(dropped?.causeName, 'UNKNOWN_TRANSACTION', 'the original never executed');
    // The drain used the test's key once; the agent's keys were used once in all.
    assert.equal((await nonceSum()) - noncesBefore, 2n);
    const resent = logs.lines.filter((l) => l.includes('re-sending it once'));
    assert.equal(resent.length, 1);
    assert.match(resent[0], /"methodName":"get_mpc_contract_id"/);
    assert.ok(!logs.lines.some((l) => l.includes('call failed')), logs.lines.join('\n'));
  });

  it('a call that can never fit fails at once with 422 insufficient_balance, naming cost and balance', async () => {
    logs.lines.length = 0;
    const r = await call({
      methodName: 'request_signature',
      args: { path: 'ethereum-1', payload: '01'.repeat(32), key_type: 'Ecdsa' },
      gas: String(1000n * TGAS),
    });
    assert.equal(r.status, 422, JSON.stringify(r.json));
    assert.equal(r.json.error.code, 'insufficient_balance');
    assert.match(
      r.json.error.message,
      /^the call can cost 1\.\d+ NEAR \(\d+ yoctoNEAR\) but the agent account holds \d\.\d+ NEAR \(\d+ yoctoNEAR\) available/,
    );
    const failed = logs.lines.filter((l) => l.includes('call failed'));
    assert.equal(failed.length, 1, 'one line');
    const line = JSON.parse(failed[0]);
    assert.equal(line.methodName, 'request_signature');
    assert.equal(line.code, 'insufficient_balance');
    assert.match(line.reason, /can cost/);
  });

  it('logs a contract failure as one line with the method and the reason', async () => {
    logs.lines.length = 0;
    const r = await call({ methodName: 'no_such_method', args: {} });
    assert.equal(r.status, 404, JSON.stringify(r.json));
    assert.equal(r.json.error.code, 'method_not_found');
    const failed = logs.lines.filter((l) => l.includes('call failed'));
    assert.equal(failed.length, 1, logs.lines.join('\n'));
    const line = JSON.parse(failed[0]);
    assert.equal(line.methodName, 'no_such_method');
    assert.equal(line.level, 'warn');
    assert.equal(line.reason, r.json.error.message);
  });
});
