/**
 * Bodies the fuzzer (fuzz/) found answered wrongly, each as nearcore answers it: nesting deeper than serde_json's
 * recursion limit (which crashed the node through the stack of the params walk), method names and param keys
 * that are Object.prototype's, and bodies that are not UTF-8 (through the HTTP server, whose reader serde_json is).
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { startRpcServer } from './http-server.js';
import { createInMemoryRpcContext } from './in-memory-context.js';
import { handleJsonRpc, recursionLimitError } from './jsonrpc.js';
import type { RpcContext } from './rpc-context.js';

function postRaw(
  url: string,
  body: Buffer,
  chunked: boolean,
): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (chunked) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = String(body.length);
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          contentType: String(res.headers['content-type']),
          text: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('hostile request bodies', () => {
  let ctx: RpcContext;
  before(() => {
    ctx = createInMemoryRpcContext({ blocks: 3 });
  });

  const request = (method: string, params: string) =>
    `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`;

  test('nesting: 127 levels are read, 128 are refused as serde_json refuses them, a million do not crash', async () => {
    // The envelope is one level: params nested 126 deep make 127.
    const ok = await handleJsonRpc(ctx, request('gas_price', `${'['.repeat(126)}${']'.repeat(126)}`));
    assert.equal(ok.status, 400);
    assert.equal(JSON.parse(ok.body).error.cause.name, 'PARSE_ERROR');
    const deep = await handleJsonRpc(ctx, request('gas_price', `${'['.repeat(127)}${']'.repeat(127)}`));
    assert.equal(deep.status, 400);
    assert.equal(deep.contentType, 'text/plain; charset=utf-8');
    // The 127th bracket of the params, after the envelope's text up to `"params":`.
    const column = request('gas_price', '').length - 1 + 127;
    assert.equal(deep.body, `Json deserialize error: recursion limit exceeded at line 1 column ${column}`);
    for (const method of ['query', 'block', 'changes']) {
      const huge = await handleJsonRpc(
        ctx,
        request(method, `${'{"a":'.repeat(1_000_000)}1${'}'.repeat(1_000_000)}`),
      );
      assert.equal(huge.status, 400, method);
      assert.match(huge.body, /^Json deserialize error: recursion limit exceeded/);
    }
    assert.equal(recursionLimitError('["[[[[","{{{{"]'), undefined);
    assert.equal(
      recursionLimitError(`\n ${'['.repeat(200)}`),
      'recursion limit exceeded at line 2 column 129',
    );
  });

  test("Object.prototype's names are unknown methods, not internal errors", async () => {
    for (const method of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
      const answer = await handleJsonRpc(ctx, request(method, '[]'));
      assert.equal(answer.status, 400, method);
      const json = JSON.parse(answer.body);
      assert.equal(json.error.cause.name, 'METHOD_NOT_FOUND', method);
      assert.deepEqual(json.error.cause.info, { method_name: method });
    }
  });

  test("params keyed by Object.prototype's names are unknown fields", async () => {
    for (const [method, params] of [
      ['gas_price', '{"toString":[1]}'],
      ['EXPERIMENTAL_receipt', '{"toString":1,"receipt_id":"11111111111111111111111111111111"}'],
      [
        'query',
        '{"request_type":"view_account","account_id":"test.near","finality":"final","constructor":1}',
      ],
      ['block', '{"hasOwnProperty":1}'],
    ]) {
      const json = JSON.parse((await handleJsonRpc(ctx, request(method, params))).body);
      assert.notEqual(json.error?.name, 'INTERNAL_ERROR', `${method} ${params}: ${JSON.stringify(json)}`);
    }
  });

  describe('over HTTP', () => {
    let url: string;
    let close: () => Promise<void>;
    before(async () => {
      const server = await startRpcServer(ctx, {
        host: '127.0.0.1',
        port: 0,
        log: pino({ level: 'silent' }),
      });
      url = server.url;
      close = server.close;
    });
    after(() => close());

    test('a body that is not UTF-8 is refused as not JSON, on the fast path and through node:http', async () => {
      const body = Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'),
        Buffer.from([0xff]),
        Buffer.from('status","params":[]}'),
      ]);
      // With a Content-Length (the fast path) and chunked (relayed to node:http).
      for (const chunked of [false, true]) {
        const res = await postRaw(url, body, chunked);
        assert.equal(res.status, 400);
        assert.match(res.contentType, /^text\/plain/);
        assert.equal(res.text, 'Json deserialize error: invalid unicode code point');
      }
      const fine = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"health","params":[]}',
      });
      assert.equal(fine.status, 200);
    });

    test('a body nested a million deep through node:http does not end the server', async () => {
      const body = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      assert.equal(res.status, 400);
      assert.match(
        await res.text(),
        /^Json deserialize error: recursion limit exceeded at line 1 column 128$/,
      );
      const fine = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"health","params":[]}',
      });
      assert.equal(fine.status, 200);
    });
  });
});
