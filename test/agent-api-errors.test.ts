/**
 * The agent API's errors against a real node with the built-in agent and signer contracts: a missing method
 * is 404 from /call and /view, a panic is 422 with the contract's own message, other execution failures are
 * 422 sentences, nearcore's error object is under `details`, and bad `request_signature` arguments of the
 * built-in agent contract (the README's `"payload":"<32-byte hex>"`, odd or non-hex payloads, an argument it
 * does not take) are refused with 400 before any transaction is paid, while a `0x` or uppercase payload is
 * signed; another contract's `request_signature` (a WAT contract echoing its input) gets its arguments as sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadAgentApiConfig, type RunningAgentApi, startAgentApi } from '@shadebox/agent-api';
import {
  derivedPublicKey,
  type EcdsaSignatureResponse,
  najToSecp256k1PublicKey,
  recoverEcdsaPublicKey,
} from '@shadebox/mpc';
import { outcomeResult } from '@shadebox/near-client';
import { ONE_NEAR } from '@shadebox/primitives';
import { type Chain, captureLogs, fnCall, ready, startChain } from './agent-stack-helpers.js';
import { wat } from './vm-wat-helpers.js';

const CODEHASH = 'e'.repeat(64);
/** Another contract with a `request_signature` method: it returns its input unchanged. */
const ECHO = 'echo.test.near';
const ECHO_WAT = `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory 1)
  (func (export "request_signature")
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 0))
    (call $value_return (call $register_len (i64.const 0)) (i64.const 0))))`;
type Json = ReturnType<typeof JSON.parse>;

describe('agent API errors against the built-in contracts', () => {
  let chain: Chain;
  let api: RunningAgentApi;

  before(async () => {
    chain = await startChain();
    outcomeResult(
      await chain.owner.send('agent.test.near', [fnCall('approve_codehash', { codehash: CODEHASH })]),
    );
    outcomeResult(
      await chain.owner.send(ECHO, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 5n * ONE_NEAR },
        { type: 'DeployContract', code: await wat(ECHO_WAT) },
      ]),
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
      AGENT_API_ALLOW_CONTRACTS: ECHO,
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
    const bad: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ path: 'ethereum-1', payload: '<32-byte hex>', key_type: 'Ecdsa' }, 'args.payload', /not hex/],
      [{ path: 'ethereum-1', payload: 'ab'.repeat(31), key_type: 'Ecdsa' }, 'args.payload', /got 31 bytes/],
      [{ path: 'ethereum-1', payload: `0x${'ab'.repeat(31)}` }, 'args.payload', /got 31 bytes/],
      [{ path: 'ethereum-1', payload: `${'ab'.repeat(31)}a` }, 'args.payload', /not hex/],
      [{ path: 'ethereum-1', payload: `0x${'ab'.repeat(31)}zz` }, 'args.payload', /not hex/],
      [{ path: 'ethereum-1', payload: 'ab'.repeat(16), key_type: 'Eddsa' }, 'args.payload', /32 to 1232/],
      [{ path: 'ethereum-1', payload: 'ab'.repeat(32), key_type: 'ecdsa' }, 'args.key_type', /Eddsa/],
      [{ payload: 'ab'.repeat(32) }, 'args.path', /string/],
      // An argument the contract does not take: it would be paid for, and a large one ran out of gas.
      [
        { path: 'ethereum-1', payload: 'ab'.repeat(32), memo: 'm'.repeat(200_000) },
        'args.memo',
        /not an argument of request_signature/,
      ],
    ];
    for (const [args, field, message] of bad) {
      const r = await post('call', { methodName: 'request_signature', args });
      assert.equal(r.status, 400, r.text.slice(0, 300));
      assert.equal(r.json.error.code, 'invalid_field');
      assert.equal(r.json.error.field, field, r.text.slice(0, 300));
      assert.match(r.json.error.message, message);
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

  it('a 0x or uppercase payload is signed as the digest it spells, under the derived key', async () => {
    const digest = 'C0FFEE'.padEnd(64, '5A');
    const derived = najToSecp256k1PublicKey(
      derivedPublicKey(chain.signerKey, 'agent.test.near', 'ethereum-1', 0),
    );
    for (const payload of [`0x${digest.toLowerCase()}`, `0X${digest}`, digest]) {
      const r = await post('call', {
        methodName: 'request_signature',
        args: { path: 'ethereum-1', payload },
      });
      assert.equal(r.status, 200, `${payload}: ${r.text}`);
      const recovered = recoverEcdsaPublicKey(r.json as EcdsaSignatureResponse, Buffer.from(digest, 'hex'));
      assert.deepEqual(recovered, derived, payload);
    }
  });

  it("another contract's request_signature gets its arguments as sent", async () => {
    const args = { path: 7, payload: '0xAB', key_type: 'anything', memo: 'kept' };
    const r = await post('call', { methodName: 'request_signature', contractId: ECHO, args });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, args);
  });
});
