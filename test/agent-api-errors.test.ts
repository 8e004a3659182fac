/**
 * The agent API's errors against a real node with the built-in agent and signer contracts: a missing method
 * is 404 from /call and /view, a panic is 422 with the contract's own message, other execution failures are
 * 422 sentences, nearcore's error object is under `details`, and bad `request_signature` arguments (the
 * README's `"payload":"<32-byte hex>"` among them) are refused with 400 before any transaction is paid.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadAgentApiConfig, type RunningAgentApi, startAgentApi } from '@shadebox/agent-api';
import { outcomeResult } from '@shadebox/near-client';
import { type Chain, captureLogs, fnCall, ready, startChain } from './agent-stack-helpers.js';

const CODEHASH = 'e'.repeat(64);
type Json = ReturnType<typeof JSON.parse>;

describe('agent API errors against the built-in contracts', () => {
  let chain: Chain;
  let api: RunningAgentApi;

  before(async () => {
    chain = await startChain();
    outcomeResult(
      await chain.owner.send('agent.test.near', [fnCall('approve_codehash', { codehash: CODEHASH })]),
    );
    const config = loadAgentApiConfig({
      CHAIN_ACCOUNT_ID: 'test.near',
      CHAIN_ACCOUNT_SECRET_KEY: chain.root.secretKey,
      AGENT_CONTRACT_ID: 'agent.test.near',
      NEAR_RPC_URL: chain.node.rpcUrl,
      AGENT_CODEHASH: CODEHASH,
      AGENT_API_PORT: '0',
      TEE_MODE: 'local',
      AGENT_KEY_POOL_SIZE: '2',
      AGENT_FUNDING_AMOUNT: '2',
    });
    api = await startAgentApi({ ...config, retryInitialMs: 50, retryMaxMs: 300 }, { log: captureLogs().log });
    await ready(api, 60_000);
  });
  after(async () => {
    await api?.stop();
    await chain?.stop();
  });

  const post = async (route: string, body: unknown) => {
    const r = await fetch(`${api.url}/${route}`, { method: 'POST', body: JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, json: JSON.parse(text) as Json, text };
  };
  const balance = async () => BigInt((await post('getBalance', {})).json.balance);

  it('a method the contract lacks is 404 method_not_found from /call and /view, nearcore under details', async () => {
    const call = await post('call', { methodName: 'no_such_method', args: {} });
    assert.equal(call.status, 404, call.text);
    assert.equal(call.json.error.code, 'method_not_found');
    assert.equal(call.json.error.field, 'methodName');
    assert.doesNotMatch(call.json.error.message, /ActionError|MethodResolveError|[{}]/);
    assert.deepEqual(call.json.error.details.ActionError.kind, {
      FunctionCallError: { MethodResolveError: 'MethodNotFound' },
    });
    const view = await post('view', { methodName: 'no_such_method', args: {} });
    assert.equal(view.status, 404, view.text);
    assert.equal(view.json.error.code, 'method_not_found');
    assert.match(JSON.stringify(view.json.error.details), /MethodNotFound/);
  });

  it("a panic is 422 contract_panic with the contract's own message", async () => {
    const view = await post('view', { methodName: 'get_agent', args: { account_id: 'nobody.test.near' } });
    assert.equal(view.status, 422, view.text);
    assert.equal(view.json.error.code, 'contract_panic');
    assert.equal(view.json.error.message, 'no worker found');
    // register_agent of an unapproved codehash panics in a paid transaction.
    const call = await post('call', { methodName: 'register_agent', args: { codehash: 'f'.repeat(64) } });
    assert.equal(call.status, 422, call.text);
    assert.equal(call.json.error.code, 'contract_panic');
    assert.doesNotMatch(call.json.error.message, /[{}]|Smart contract panicked/);
    assert.match(JSON.stringify(call.json.error.details), /Smart contract panicked/);
  });

  it('other execution failures are 422 sentences', async () => {
    // request_signature needs 25 Tgas, which the API checks; 5 Tgas for another method runs out of gas.
    const call = await post('call', {
      methodName: 'register_agent',
      args: { codehash: CODEHASH },
      gas: '300000000000',
    });
    assert.equal(call.status, 422, call.text);
    assert.equal(call.json.error.code, 'contract_error');
    assert.match(call.json.error.message, /gas/);
    assert.doesNotMatch(call.json.error.message, /[{}]/);
    // A view of a method that writes state: nearcore refuses it in a view.
    const view = await post('view', { methodName: 'register_agent', args: { codehash: CODEHASH } });
    assert.equal(view.status, 422, view.text);
    assert.equal(view.json.error.code, 'contract_error');
    assert.doesNotMatch(view.json.error.message, /^wasm execution failed/);
  });

  it("the README's payload and other bad request_signature args are 400 before any transaction", async () => {
    const before = await balance();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ path: 'ethereum-1', payload: '<32-byte hex>', key_type: 'Ecdsa' }, 'args.payload'],
      [{ path: 'ethereum-1', payload: 'ab'.repeat(31), key_type: 'Ecdsa' }, 'args.payload'],
      [{ path: 'ethereum-1', payload: `0x${'ab'.repeat(32)}` }, 'args.payload'],
      [{ path: 'ethereum-1', payload: 'ab'.repeat(16), key_type: 'Eddsa' }, 'args.payload'],
      [{ path: 'ethereum-1', payload: 'ab'.repeat(32), key_type: 'ecdsa' }, 'args.key_type'],
      [{ payload: 'ab'.repeat(32) }, 'args.path'],
    ];
    for (const [args, field] of bad) {
      const r = await post('call', { methodName: 'request_signature', args });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.error.code, 'invalid_field');
      assert.equal(r.json.error.field, field, r.text);
      assert.doesNotMatch(r.json.error.message, /payload_v2|request\./);
    }
    // Nothing was paid: not one transaction left the agent account.
    assert.equal(await balance(), before);
    // The same route signs a well-formed request.
    const ok = await post('call', {
      methodName: 'request_signature',
      args: { path: 'ethereum-1', payload: 'ab'.repeat(32), key_type: 'Ecdsa' },
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.scheme, 'Secp256k1');
  });
});
