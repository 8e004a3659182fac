/**
 * The agent API against RPC providers that fail, through the fault-injecting proxy
 * (packages/near-client/test-support/fault-proxy.ts) in front of a real node with chain signatures:
 * - started while every provider in NEAR_RPC_URL is down, it answers 503 `not_ready` with its stage and boots
 *   once one of them is back;
 * - `/call`s through a provider that loses requests and answers, resets, cuts answers, answers 429 with
 *   Retry-After, 5xx, or an InvalidNonce for a transaction the node executed: each is answered, or fails with
 *   a documented error, and the chain — read block by block — holds each call's transaction at most once,
 *   every answered one exactly once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadAgentApiConfig, type RunningAgentApi, startAgentApi } from '@shadebox/agent-api';
import { RpcError } from '@shadebox/near-client';
import { base64Decode } from '@shadebox/primitives';
import {
  type Fault,
  type FaultProxy,
  PASS,
  randomFaults,
  startFaultProxy,
} from '../packages/near-client/test-support/fault-proxy.js';
import { type Chain, captureLogs, fnCall, ready, startChain, until } from './agent-stack-helpers.js';

const CODEHASH = 'f'.repeat(64);

const FAULTS: Fault[] = [
  { kind: 'drop-request' },
  { kind: 'drop-response' },
  { kind: 'reset', forwarded: false },
  { kind: 'reset', forwarded: true },
  { kind: 'truncate' },
  { kind: 'nonce-used' },
  { kind: 'status', status: 429, retryAfter: '1' },
  { kind: 'status', status: 503 },
  { kind: 'status', status: 502, forwarded: true },
  { kind: 'status', status: 504, forwarded: true },
  { kind: 'delay', ms: 200 },
  { kind: 'delay', ms: 2_500 },
];

/** The error codes a `/call` may fail with when the chain misbehaves (docs/agent-api.md#errors). */
const DOCUMENTED = new Set(['chain_unreachable', 'chain_timeout', 'chain_error', 'transaction_dropped']);

describe('the agent API through faulty RPC providers', () => {
  let chain: Chain;
  let first: FaultProxy;
  let second: FaultProxy;
  let api: RunningAgentApi;
  const logs = captureLogs();

  before(async () => {
    chain = await startChain();
    await chain.owner.send('agent.test.near', [fnCall('approve_codehash', { codehash: CODEHASH })]);
    first = await startFaultProxy(chain.node.rpcUrl);
    second = await startFaultProxy(chain.node.rpcUrl);
  });
  after(async () => {
    await api?.stop();
    await first?.close();
    await second?.close();
    await chain?.stop();
  });

  async function post(route: string, body: unknown) {
    const r = await fetch(`${api.url}/${route}`, { method: 'POST', body: JSON.stringify(body) });
    return { status: r.status, json: await r.json() };
  }

  it('starts while every provider is down, answers 503 not_ready with its stage, boots when one is back', async () => {
    await first.down();
    await second.down();
    const config = loadAgentApiConfig({
      CHAIN_ACCOUNT_ID: chain.root.accountId,
      CHAIN_ACCOUNT_SECRET_KEY: chain.root.secretKey,
      AGENT_CONTRACT_ID: 'agent.test.near',
      NEAR_RPC_URL: `${first.url},${second.url}`,
      NEAR_RPC_TIMEOUT_MS: '1500',
      AGENT_CODEHASH: CODEHASH,
      AGENT_API_PORT: '0',
      AGENT_KEY_POOL_SIZE: '4',
      TEE_MODE: 'local',
    });
    api = await startAgentApi({ ...config, retryInitialMs: 50, retryMaxMs: 500 }, { log: logs.log });
    await until('a failed funding attempt', () => api.status().lastError !== undefined);
    const health = await fetch(`${api.url}/health`);
    assert.equal(health.status, 503);
    const body = await health.json();
    assert.equal(body.status, 'booting');
    assert.equal(body.stage, 'fund');
    assert.match(body.lastError, /no RPC endpoint answered/, 'health says why the boot waits');
    const call = await post('getAccountId', {});
    assert.equal(call.status, 503);
    assert.equal(call.json.error.code, 'not_ready');
    assert.equal(call.json.error.stage, 'fund');
    assert.match(api.status().lastError!, /no RPC endpoint answered/);

    await second.up();
    const agentId = await ready(api, 60_000);
    assert.equal((await post('getAccountId', {})).json.accountId, agentId);
    assert.equal(first.log.length, 0, 'the provider that stayed down was never reached');
  });

  it('every /call through a faulty provider is answered once or fails with a documented error', {
    timeout: 240_000,
  }, async () => {
    const agentId = api.status().accountId!;
    const fromHeight = (await chain.rpc.call('block', { finality: 'optimistic' })).header.height as number;
    // Every fault hits send_tx in turn, then one in three at random; other calls get one in three at random.
    const random = randomFaults(6, 0.3, FAULTS);
    let sends = 0;
    second.setPlan((request) =>
      request.method === 'send_tx' && sends < FAULTS.length ? FAULTS[sends++] : random(request),
    );
    const count = 16;
    const answers = await Promise.all(
      Array.from({ length: count }, (_, n) =>
        post('call', { methodName: 'get_mpc_contract_id', args: { n } }),
      ),
    );
    second.setPlan(PASS);
    assert.equal(sends, FAULTS.length, 'every fault hit a send_tx');
    const answered = new Set<number>();
    answers.forEach((a, n) => {
      if (a.status === 200) {
        assert.equal(a.json, 'signer.test.near');
        answered.add(n);
      } else {
        assert.ok(DOCUMENTED.has(a.json.error?.code), `call ${n}: ${a.status} ${JSON.stringify(a.json)}`);
      }
    });

    // The chain, chunk by chunk: which calls' transactions it holds, and how many times.
    const head = (await chain.rpc.call('block', { finality: 'optimistic' })).header.height as number;
    const onChain = new Map<number, number>();
    for (let height = fromHeight + 1; height <= head; height++) {
      const block = await chain.rpc.call('block', { block_id: height }).catch((e) => {
        if (e instanceof RpcError && e.causeName === 'UNKNOWN_BLOCK') return undefined;
        throw e;
      });
      if (!block) continue;
      for (const header of block.chunks) {
        if (header.height_included !== height) continue;
        const chunk = await chain.rpc.call('chunk', { chunk_id: header.chunk_hash });
        for (const tx of chunk.transactions) {
          if (tx.signer_id !== agentId) continue;
          const fc = tx.actions[0]?.FunctionCall;
          if (fc?.method_name !== 'get_mpc_contract_id') continue;
          const { n } = JSON.parse(Buffer.from(base64Decode(fc.args)).toString());
          onChain.set(n, (onChain.get(n) ?? 0) + 1);
        }
      }
    }
    assert.ok(answered.size > 0);
    for (const [n, times] of onChain) assert.equal(times, 1, `call ${n} executed ${times} times`);
    for (const n of answered) assert.equal(onChain.get(n), 1, `answered call ${n} is on chain`);
    answers.forEach((a, n) => {
      if (a.json.error?.code === 'transaction_dropped') assert.equal(onChain.has(n), false);
    });
    // Faults over: the service goes on.
    const after = await post('call', { methodName: 'get_mpc_contract_id', args: {} });
    assert.equal(after.status, 200);
  });
});
