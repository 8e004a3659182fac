/**
 * nearcore's answers to malformed and unanswerable requests, byte for byte where nearcore's are known, and the
 * node keeps serving after each one.
 *
 * Envelope (nearcore chain/jsonrpc lib.rs + jsonrpc-primitives message.rs): actix reads the body as
 * `web::Json<Message>`, and `Message` is an untagged enum whose last variant, `UnmatchedSub(Value)`, takes any
 * JSON value. So only a body that is not JSON, a wrong Content-Type or an oversized body get actix's plain-text
 * errors (400 / 400 / 413). Every JSON value that is not exactly a request — an unknown top-level key, a
 * `jsonrpc` other than "2.0", no `method`, no `id` (a notification), a batch, a scalar — is answered with
 * PARSE_ERROR "JSON RPC Request format was expected", `id: null`, HTTP 400. (docs/rpc.md and the reference notes
 * said an unknown key or a wrong version got the plain-text 400; the deserialiser cannot fail on valid JSON.)
 *
 * Key order: results and handler-error `cause`/`data` pass through serde_json's BTreeMap-backed `Value`, so
 * their keys are sorted; a request-validation cause is a typed enum (`name` then `info`).
 *
 * HTTP 422 (UNKNOWN_BLOCK for a numeric `block_id` below the head) cannot be reached on this node: blocks are
 * never garbage-collected and heights have no gaps, so every height up to the head exists. The status rule is
 * checked on `httpStatusOf` directly.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { base58Encode, ONE_NEAR as NEAR, sha256, transactionHash } from '@shadebox/primitives';
import {
  httpStatusOf,
  internalError,
  handlerError as makeHandlerError,
  parseError,
} from '../packages/node/src/rpc/rpc-error.js';
import { post, postRpc, type RawAnswer, sortedJson } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { buildTx, createAccount } from './support/transactions.js';
import { testRandom } from './test-random.js';

const rng = testRandom('test/rpc-malformed.test.ts');

const PLAIN = /^text\/plain/;

function parseErrorBody(message: string, id: unknown = null): string {
  return (
    `{"jsonrpc":"2.0","error":{"name":"REQUEST_VALIDATION_ERROR","cause":{"name":"PARSE_ERROR","info":` +
    `{"error_message":${JSON.stringify(message)}}},"code":-32700,"message":"Parse error",` +
    `"data":${JSON.stringify(message)}},"id":${JSON.stringify(id)}}`
  );
}

function handlerErrorBody(cause: unknown, data: unknown, id: unknown): string {
  return (
    `{"jsonrpc":"2.0","error":{"name":"HANDLER_ERROR","cause":${sortedJson(cause)},"code":-32000,` +
    `"message":"Server error","data":${sortedJson(data)}},"id":${JSON.stringify(id)}}`
  );
}

function assertBody(answer: RawAnswer, status: number, body: string) {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.text, body);
}

const FORMAT_EXPECTED = parseErrorBody('JSON RPC Request format was expected');

describe('malformed requests', { timeout: 120_000 }, () => {
  let t: TestNode;
  let url: string;
  let head: number;

  before(async () => {
    t = await startTestNode();
    url = t.url;
    await createAccount(url, t.rootSigner, 'alice.test.near', 10n * NEAR);
    head = (await rpc(url, 'block', { finality: 'optimistic' })).header.height;
  });

  after(async () => {
    await t?.stop();
  });

  /** After every malformed request: the node still answers. */
  async function alive() {
    const answer = await postRpc(url, 'status', null, 'alive');
    assert.equal(answer.status, 200);
    assert.equal(answer.json.result.chain_id, 'localnet');
  }

  test('a body that is not JSON: actix plain-text 400', async () => {
    for (const body of ['{"jsonrpc":', 'not json', '', '{"a":1}}']) {
      const answer = await post(url, body);
      assert.equal(answer.status, 400, body);
      assert.match(answer.contentType, PLAIN);
      assert.match(answer.text, /^Json deserialize error: /);
      await alive();
    }
  });

  test('a wrong or missing Content-Type: plain-text 400 "Content type error"; JSON subtypes are accepted', async () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'health', params: null };
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const answer = await post(url, request, { contentType });
      assert.equal(answer.status, 400, String(contentType));
      assert.match(answer.contentType, PLAIN);
      assert.equal(answer.text, 'Content type error');
      await alive();
    }
    for (const contentType of ['application/json; charset=utf-8', 'text/json', 'application/vnd.api+json']) {
      const answer = await post(url, request, { contentType });
      assertBody(answer, 200, '{"jsonrpc":"2.0","result":null,"id":1}');
    }
  });

  test('valid JSON that is not a request: PARSE_ERROR "JSON RPC Request format was expected", id null, 400', async () => {
    const bodies: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: 'status', params: null, extra: true }, // unknown top-level key
      { jsonrpc: '1.0', id: 1, method: 'status' },
      { jsonrpc: 2, id: 1, method: 'status' },
      { id: 1, method: 'status' }, // no jsonrpc
      { jsonrpc: '2.0', id: 1, params: [] }, // no method
      { jsonrpc: '2.0', id: 1, method: 5 },
      { jsonrpc: '2.0', method: 'status', params: null }, // a notification: no id
      [
        { jsonrpc: '2.0', id: 1, method: 'status' },
        { jsonrpc: '2.0', id: 2, method: 'health' },
      ], // a batch
      [],
      { jsonrpc: '2.0', result: 1, id: 1 }, // a response
      5,
      'status',
      null,
      {},
    ];
    for (const body of bodies) {
      const answer = await post(url, JSON.stringify(body));
      assertBody(answer, 400, FORMAT_EXPECTED);
      assert.match(answer.contentType, /^application\/json/);
      await alive();
    }
  });

  test('the id is echoed whatever its JSON type, null included', async () => {
    for (const id of [1, 'dontcare', null, { a: [1] }, 0.5, true]) {
      const answer = await postRpc(url, 'health', null, id);
      assertBody(answer, 200, `{"jsonrpc":"2.0","result":null,"id":${JSON.stringify(id)}}`);
    }
  });

  test('an unknown method: METHOD_NOT_FOUND, -32601, HTTP 400, data = the name', async () => {
    for (const method of ['no_such_method', 'EXPERIMENTAL_nothing', '']) {
      const answer = await postRpc(url, method, [], 9);
      assertBody(
        answer,
        400,
        `{"jsonrpc":"2.0","error":{"name":"REQUEST_VALIDATION_ERROR","cause":{"name":"METHOD_NOT_FOUND","info":` +
          `{"method_name":${JSON.stringify(method)}}},"code":-32601,"message":"Method not found","data":` +
          `${JSON.stringify(method)}},"id":9}`,
      );
      await alive();
    }
  });

  test("bad params, method by method: PARSE_ERROR with serde's message, HTTP 400", async () => {
    const cases: [string, unknown, string][] = [
      ['block', {}, 'Failed parsing args: invalid value: map, expected map with a single key'],
      [
        'block',
        { finality: 'latest' },
        'Failed parsing args: unknown variant `latest`, expected one of `optimistic`, `near-final`, `final`',
      ],
      [
        'block',
        { sync_checkpoint: 'now' },
        'Failed parsing args: unknown variant `now`, expected `genesis` or `earliest_available`',
      ],
      [
        'block',
        { block_id: 'nope' },
        'Failed parsing args: data did not match any variant of untagged enum BlockId',
      ],
      [
        'block',
        { block_id: -1 },
        'Failed parsing args: data did not match any variant of untagged enum BlockId',
      ],
      ['block', ['nope'], 'Failed parsing args: data did not match any variant of untagged enum BlockId'],
      ['block', [1, 2], 'Failed parsing args: invalid type: sequence, expected string or map'],
      ['query', { finality: 'final' }, 'Failed parsing args: missing field `request_type`'],
      [
        'query',
        { request_type: 'view_account', account_id: 'alice.test.near' },
        'Failed parsing args: no variant of enum BlockReference found in flattened data',
      ],
      [
        'query',
        { request_type: 'view_everything', finality: 'final', account_id: 'alice.test.near' },
        'Failed parsing args: unknown variant `view_everything`, expected one of `view_account`, `view_code`, ' +
          '`view_state`, `view_access_key`, `view_access_key_list`, `view_gas_key_nonces`, `call_function`, ' +
          '`view_global_contract_code`, `view_global_contract_code_by_account_id`',
      ],
      [
        'query',
        { request_type: 'view_account', finality: 'final' },
        'Failed parsing args: missing field `account_id`',
      ],
      [
        'query',
        { request_type: 'view_account', finality: 'final', account_id: 5 },
        'Failed parsing args: invalid type: integer `5`, expected a string',
      ],
      [
        'query',
        { request_type: 'view_state', finality: 'final', account_id: 'alice.test.near' },
        'Failed parsing args: missing field `prefix_base64`',
      ],
      [
        'query',
        { request_type: 'view_access_key', finality: 'final', account_id: 'alice.test.near' },
        'Failed parsing args: missing field `public_key`',
      ],
      [
        'query',
        { request_type: 'call_function', finality: 'final', account_id: 'alice.test.near', args_base64: '' },
        'Failed parsing args: missing field `method_name`',
      ],
      [
        'query',
        { request_type: 'call_function', finality: 'final', account_id: 'alice.test.near', method_name: 'm' },
        'Failed parsing args: missing field `args_base64`',
      ],
      ['query', ['account'], 'Failed parsing args: invalid type: sequence, expected struct RpcQueryRequest'],
      ['query', ['account', ''], 'Not enough query parameters provided'],
      ['query', ['nothing/alice.test.near', ''], 'Unknown path nothing'],
      ['query', ['call/alice.test.near', ''], 'Method name is missing'],
      ['query', ['access_key/alice.test.near/not-a-key', ''], 'Invalid public key'],
      ['chunk', {}, 'Failed parsing args: data did not match any variant of untagged enum ChunkReference'],
      [
        'chunk',
        { block_id: 1 },
        'Failed parsing args: data did not match any variant of untagged enum ChunkReference',
      ],
      [
        'chunk',
        { chunk_id: 'x' },
        'Failed parsing args: data did not match any variant of untagged enum ChunkReference',
      ],
      [
        'gas_price',
        [],
        'Failed parsing args: invalid length 0, expected struct RpcGasPriceRequest with 1 element',
      ],
      ['gas_price', ['nope'], 'Failed parsing args: data did not match any variant of untagged enum BlockId'],
      ['send_tx', {}, 'Failed parsing args: missing field `signed_tx_base64`'],
      ['send_tx', { signed_tx_base64: '!!!!' }, 'Failed parsing args: Invalid symbol 33, offset 0.'],
      ['send_tx', ['!!!!'], 'Failed to decode transaction: Invalid symbol 33, offset 0.'],
      ['send_tx', ['AAAA'], 'Failed to decode transaction: Unexpected length of input'],
      ['send_tx', ['a', 'b'], 'Unable to parse send request: too many params passed'],
      ['broadcast_tx_commit', ['AAAA'], 'Failed to decode transaction: Unexpected length of input'],
      ['broadcast_tx_async', ['!!!!'], 'Failed to decode transaction: Invalid symbol 33, offset 0.'],
      ['tx', {}, 'Failed parsing args: data did not match any variant of untagged enum TransactionInfo'],
      [
        'tx',
        { tx_hash: 'x', sender_account_id: 'alice.test.near' },
        'Failed parsing args: data did not match any variant of untagged enum TransactionInfo',
      ],
      ['tx', ['AAAA'], 'Failed to decode transaction: Unexpected length of input'],
      ['EXPERIMENTAL_receipt', {}, 'Failed parsing args: missing field `receipt_id`'],
      [
        'validators',
        'oldest',
        'Failed parsing args: unknown variant `oldest`, expected one of `epoch_id`, `block_id`, `latest`',
      ],
    ];
    const hash = base58Encode(sha256(new Uint8Array([1])));
    cases.push([
      'send_tx',
      { signed_tx_base64: (await validTx()).base64, wait_until: 'SOON' },
      'Failed parsing args: unknown variant `SOON`, expected one of `NONE`, `INCLUDED`, `EXECUTED_OPTIMISTIC`, ' +
        '`INCLUDED_FINAL`, `EXECUTED`, `FINAL`',
    ]);
    cases.push([
      'tx',
      { tx_hash: hash, sender_account_id: 'alice.test.near', wait_until: 'SOON' },
      'Failed parsing args: unknown variant `SOON`, expected one of `NONE`, `INCLUDED`, `EXECUTED_OPTIMISTIC`, ' +
        '`INCLUDED_FINAL`, `EXECUTED`, `FINAL`',
    ]);
    for (const [method, params, message] of cases) {
      const answer = await postRpc(url, method, params, 'p');
      assert.equal(answer.status, 400, `${method} ${JSON.stringify(params)}: ${answer.text}`);
      assert.equal(answer.text, parseErrorBody(message, 'p'), `${method} ${JSON.stringify(params)}`);
    }
    await alive();
  });

  async function validTx() {
    return buildTx(url, {
      signerId: 'alice.test.near',
      key: rng.keyPair(),
      nonce: 1n,
      receiverId: 'test.near',
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
  }

  test('two block references: `block` refuses a second key; a flattened reference (query) takes the first in key order', async () => {
    assertBody(
      await postRpc(url, 'block', { block_id: 1, finality: 'final' }, 'p'),
      400,
      parseErrorBody('Failed parsing args: invalid value: map, expected map with a single key', 'p'),
    );
    const account = await rpc(url, 'query', {
      finality: 'final',
      block_id: 1,
      request_type: 'view_account',
      account_id: 'test.near',
    });
    assert.equal(account.block_height, 1);
    const byFinality = await rpc(url, 'query', {
      sync_checkpoint: 'genesis',
      finality: 'optimistic',
      request_type: 'view_account',
      account_id: 'test.near',
    });
    assert.equal(byFinality.block_height, head);
  });

  test('UNKNOWN_BLOCK above the head: HTTP 200, for block, chunk, gas_price, query, protocol config', async () => {
    const h = head + 1000;
    assertBody(
      await postRpc(url, 'block', { block_id: h }, 1),
      200,
      handlerErrorBody(
        { name: 'UNKNOWN_BLOCK', info: {} },
        `DB Not Found Error: BLOCK HEIGHT: ${h} \n Cause: Unknown`,
        1,
      ),
    );
    assertBody(
      await postRpc(url, 'block', [h], 1),
      200,
      handlerErrorBody(
        { name: 'UNKNOWN_BLOCK', info: {} },
        `DB Not Found Error: BLOCK HEIGHT: ${h} \n Cause: Unknown`,
        1,
      ),
    );
    const missingHash = base58Encode(sha256(new TextEncoder().encode('missing')));
    assertBody(
      await postRpc(url, 'block', { block_id: missingHash }, 1),
      200,
      handlerErrorBody(
        { name: 'UNKNOWN_BLOCK', info: {} },
        `DB Not Found Error: BLOCK: ${missingHash} \n Cause: Unknown`,
        1,
      ),
    );
    assertBody(
      await postRpc(url, 'chunk', { block_id: h, shard_id: 0 }, 1),
      200,
      handlerErrorBody(
        { name: 'UNKNOWN_BLOCK', info: {} },
        `DB Not Found Error: BLOCK HEIGHT: ${h} \n Cause: Unknown`,
        1,
      ),
    );
    assertBody(
      await postRpc(url, 'gas_price', [h], 1),
      200,
      handlerErrorBody(
        { name: 'UNKNOWN_BLOCK', info: {} },
        `DB Not Found Error: BLOCK HEIGHT: ${h} \n Cause: Unknown`,
        1,
      ),
    );
    assertBody(
      await postRpc(url, 'query', { request_type: 'view_account', block_id: h, account_id: 'test.near' }, 1),
      200,
      handlerErrorBody(
        { name: 'UNKNOWN_BLOCK', info: { block_reference: { block_id: h } } },
        `DB Not Found Error: BLOCK HEIGHT: ${h} \n Cause: Unknown`,
        1,
      ),
    );
    assertBody(
      await postRpc(
        url,
        'query',
        { request_type: 'view_account', block_id: missingHash, account_id: 'test.near' },
        1,
      ),
      200,
      handlerErrorBody(
        { name: 'UNKNOWN_BLOCK', info: { block_reference: { block_id: missingHash } } },
        `DB Not Found Error: BLOCK HEADER: ${missingHash}`,
        1,
      ),
    );
    assertBody(
      await postRpc(url, 'EXPERIMENTAL_protocol_config', { block_id: h }, 1),
      200,
      handlerErrorBody({ name: 'UNKNOWN_BLOCK', info: {} }, `Block Not Found: BLOCK HEIGHT: ${h}`, 1),
    );
    await alive();
  });

  test('HTTP 422 rule (unreachable here: no height below the head is missing)', () => {
    const unknown = makeHandlerError('UNKNOWN_BLOCK', {}, 'x');
    assert.equal(httpStatusOf(unknown, { block_id: 5 }, 10), 422);
    assert.equal(httpStatusOf(unknown, { block_id: 10 }, 10), 200);
    assert.equal(httpStatusOf(unknown, { block_id: 'hash' }, 10), 200);
    assert.equal(httpStatusOf(unknown, [5], 10), 200);
    assert.equal(httpStatusOf(makeHandlerError('TIMEOUT_ERROR', undefined, 'Timeout'), null, 10), 408);
    assert.equal(httpStatusOf(internalError('x'), null, 10), 500);
    assert.equal(httpStatusOf(parseError('x'), null, 10), 400);
  });

  test('UNKNOWN_CHUNK, INVALID_SHARD_ID, UNKNOWN_RECEIPT, UNKNOWN_EPOCH, UNKNOWN_TRANSACTION: HTTP 200', async () => {
    const hash = base58Encode(sha256(new TextEncoder().encode('nothing')));
    assertBody(
      await postRpc(url, 'chunk', { chunk_id: hash }, 2),
      200,
      handlerErrorBody(
        { name: 'UNKNOWN_CHUNK', info: { chunk_hash: hash } },
        `Chunk Missing (unavailable on the node): ChunkHash(\`${hash}\`) \n Cause: Unknown`,
        2,
      ),
    );
    assertBody(
      await postRpc(url, 'chunk', { block_id: 1, shard_id: 7 }, 2),
      200,
      handlerErrorBody({ name: 'INVALID_SHARD_ID', info: { shard_id: 7 } }, 'Shard id 7 does not exist', 2),
    );
    assertBody(
      await postRpc(url, 'chunk', [[1, 7]], 2),
      200,
      handlerErrorBody({ name: 'INVALID_SHARD_ID', info: { shard_id: 7 } }, 'Shard id 7 does not exist', 2),
    );
    // EXPERIMENTAL_receipt's data is the serialised error itself.
    const receiptError = { name: 'UNKNOWN_RECEIPT', info: { receipt_id: hash } };
    assertBody(
      await postRpc(url, 'EXPERIMENTAL_receipt', { receipt_id: hash }, 2),
      200,
      handlerErrorBody(receiptError, receiptError, 2),
    );
    assertBody(
      await postRpc(url, 'validators', { epoch_id: hash }, 2),
      200,
      handlerErrorBody({ name: 'UNKNOWN_EPOCH' }, 'Unknown Epoch', 2),
    );
    for (const method of ['tx', 'EXPERIMENTAL_tx_status']) {
      assertBody(
        await postRpc(
          url,
          method,
          { tx_hash: hash, sender_account_id: 'alice.test.near', wait_until: 'NONE' },
          2,
        ),
        200,
        handlerErrorBody(
          { name: 'UNKNOWN_TRANSACTION', info: { requested_transaction_hash: hash } },
          `Transaction ${hash} doesn't exist`,
          2,
        ),
      );
    }
    await alive();
  });

  test('query: UNKNOWN_ACCOUNT, NO_CONTRACT_CODE as errors, an invalid account id as a parse error; a missing key and a failed call as result.error', async () => {
    const at = await rpc(url, 'block', { finality: 'final' });
    const where = { block_hash: at.header.hash, block_height: at.header.height };
    const q = (params: Record<string, unknown>) =>
      postRpc(url, 'query', { block_id: at.header.height, ...params }, 3);
    assertBody(
      await q({ request_type: 'view_account', account_id: 'ghost.test.near' }),
      200,
      handlerErrorBody(
        { name: 'UNKNOWN_ACCOUNT', info: { requested_account_id: 'ghost.test.near', ...where } },
        'account ghost.test.near does not exist while viewing',
        3,
      ),
    );
    // An invalid account id never reaches the handler: near-account-id's deserializer refuses it (PARSE_ERROR).
    const invalid =
      'Failed parsing args: invalid value: "Not.Valid!", the Account ID contains an invalid character \'N\' at index 0';
    assertBody(
      await q({ request_type: 'view_account', account_id: 'Not.Valid!' }),
      400,
      parseErrorBody(invalid, 3),
    );
    assertBody(
      await q({ request_type: 'view_code', account_id: 'alice.test.near' }),
      200,
      handlerErrorBody(
        { name: 'NO_CONTRACT_CODE', info: { contract_account_id: 'alice.test.near', ...where } },
        'Contract code for contract ID #alice.test.near has never been observed on the node',
        3,
      ),
    );
    const key = rng.keyPair().publicKeyString;
    assertBody(
      await q({ request_type: 'view_access_key', account_id: 'alice.test.near', public_key: key }),
      200,
      `{"jsonrpc":"2.0","result":${sortedJson({
        error: `access key ${key} does not exist while viewing`,
        logs: [],
        ...where,
      })},"id":3}`,
    );
    const noCode = await q({
      request_type: 'call_function',
      account_id: 'alice.test.near',
      method_name: 'm',
      args_base64: '',
    });
    assert.equal(noCode.status, 200);
    assert.deepEqual(Object.keys(noCode.json.result), ['block_hash', 'block_height', 'error', 'logs']);
    assert.equal(
      noCode.json.result.error,
      'wasm execution failed with error: CompilationError(CodeDoesNotExist { account_id: "alice.test.near" })',
    );
    assert.deepEqual(noCode.json.result.logs, []);
    await alive();
  });

  test('a body over 10 MiB: HTTP 413, and the server keeps serving', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'status',
      params: ['x'.repeat(10 * 1024 * 1024)],
    });
    const answer = await post(url, big);
    assert.equal(answer.status, 413);
    assert.equal(
      answer.text,
      `JSON payload (${Buffer.byteLength(big)} bytes) is larger than allowed (limit: ${10 * 1024 * 1024} bytes).`,
    );
    await alive();
    // Just under the limit is read (and answered as the method would).
    const fits = await postRpc(url, 'health', ['x'.repeat(1024 * 1024)], 1);
    assert.equal(fits.status, 200);
    await alive();
  });

  test('GET/HEAD /status and /health, GET /network_info and /metrics, 404 and 405', async () => {
    const status = await post(url, undefined, { method: 'GET', path: '/status', contentType: null });
    assert.equal(status.status, 200);
    // The HTTP endpoint writes the typed StatusResponse (struct order), not a sorted Value.
    assert.equal(Object.keys(status.json)[0], 'version');
    assert.equal(status.json.sync_info.latest_block_height, head);
    const health = await post(url, undefined, { method: 'GET', path: '/health', contentType: null });
    assertBody(health, 200, 'null');
    for (const path of ['/status', '/health']) {
      const answer = await post(url, undefined, { method: 'HEAD', path, contentType: null });
      assertBody(answer, 200, '');
    }
    const network = await post(url, undefined, { method: 'GET', path: '/network_info', contentType: null });
    assert.equal(network.status, 200);
    assert.equal(network.json.num_active_peers, 0);
    const metrics = await post(url, undefined, { method: 'GET', path: '/metrics', contentType: null });
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /near_block_height_head \d+/);

    assertBody(await post(url, undefined, { method: 'GET', path: '/unknown', contentType: null }), 404, '');
    assertBody(await post(url, '{}', { method: 'POST', path: '/unknown' }), 404, '');
    assertBody(await post(url, '{}', { method: 'PUT', path: '/' }), 405, '');
    assertBody(await post(url, undefined, { method: 'GET', path: '/', contentType: null }), 405, '');
    assertBody(
      await post(url, undefined, { method: 'HEAD', path: '/network_info', contentType: null }),
      405,
      '',
    );
    assertBody(await post(url, '{}', { method: 'POST', path: '/status' }), 405, '');
    await alive();
  });
});

describe('TIMEOUT_ERROR: HTTP 408 (manual production, 300 ms polling timeout)', { timeout: 60_000 }, () => {
  let t: TestNode;
  const timeout = (id: unknown) =>
    '{"jsonrpc":"2.0","error":{"name":"HANDLER_ERROR","cause":{"name":"TIMEOUT_ERROR"},"code":-32000,' +
    `"message":"Server error","data":"Timeout"},"id":${JSON.stringify(id)}}`;

  before(async () => {
    t = await startTestNode({ production: { kind: 'manual' }, txTimeoutMs: 300 });
  });

  after(async () => {
    await t?.stop();
  });

  test('send_tx, tx and EXPERIMENTAL_tx_status waiting on a pooled transaction; tx on an unknown one', async () => {
    const tx = await buildTx(t.url, {
      signerId: t.rootId,
      key: t.rootSigner.key,
      receiverId: t.rootId,
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    const started = Date.now();
    assertBody(await postRpc(t.url, 'send_tx', { signed_tx_base64: tx.base64 }, 1), 408, timeout(1));
    assert.ok(Date.now() - started >= 250);
    assertBody(await postRpc(t.url, 'broadcast_tx_commit', [tx.base64], 2), 408, timeout(2));
    const hash = base58Encode(transactionHash(tx.transaction));
    const byHash = { tx_hash: hash, sender_account_id: t.rootId };
    assertBody(await postRpc(t.url, 'tx', { ...byHash, wait_until: 'FINAL' }, 3), 408, timeout(3));
    assertBody(
      await postRpc(t.url, 'EXPERIMENTAL_tx_status', { ...byHash, wait_until: 'INCLUDED' }, 4),
      408,
      timeout(4),
    );
    // Known but not included: NONE answers at once.
    assertBody(
      await postRpc(t.url, 'tx', { ...byHash, wait_until: 'NONE' }, 5),
      200,
      '{"jsonrpc":"2.0","result":{"final_execution_status":"NONE"},"id":5}',
    );
    // An unknown transaction is waited for too (nearcore polls until its timeout), then TIMEOUT_ERROR.
    const unknown = base58Encode(sha256(new TextEncoder().encode('never sent')));
    assertBody(
      await postRpc(t.url, 'tx', { tx_hash: unknown, sender_account_id: t.rootId }, 6),
      408,
      timeout(6),
    );
    // Blocks come: the same wait now answers.
    t.node.producer.produce(4);
    const done = await postRpc(t.url, 'tx', { ...byHash, wait_until: 'FINAL' }, 7);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json.result.final_execution_status, 'FINAL');
  });
});
