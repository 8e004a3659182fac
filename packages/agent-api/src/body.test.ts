import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { jsonDepth, parseJsonBody, readBody } from './body.js';
import { HttpError } from './http-error.js';

describe('request bodies', () => {
  it('empty is {}, JSON parses, nesting is measured outside strings', () => {
    assert.deepEqual(parseJsonBody(Buffer.from('')), {});
    assert.deepEqual(parseJsonBody(Buffer.from('  \n')), {});
    assert.deepEqual(parseJsonBody(Buffer.from('{"a":[1,{"b":"[[[["}]}')), { a: [1, { b: '[[[[' }] });
    assert.equal(jsonDepth('{"a":[1,{"b":"[[[[\\"["}]}'), 3);
  });

  it('refuses bad JSON and deep nesting with 400', () => {
    assert.throws(
      () => parseJsonBody(Buffer.from('{')),
      (e) => e instanceof HttpError && e.code === 'invalid_json',
    );
    assert.throws(
      () => parseJsonBody(Buffer.from(`${'['.repeat(33)}${']'.repeat(33)}`)),
      (e) => e instanceof HttpError && e.status === 400 && e.code === 'too_deep',
    );
  });

  it('a body over the limit, declared or chunked, is answered 413; one at the limit is read whole', async () => {
    const limit = 256 * 1024;
    const server = createServer((req, res) => {
      readBody(req, limit).then(
        (body) => res.end(`ok ${body.length}`),
        (e: HttpError) => {
          res.writeHead(e.status, { connection: 'close' });
          res.end(e.code);
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const send = (size: number, chunked: boolean) =>
      new Promise<string>((resolve, reject) => {
        const headers: Record<string, string> = chunked
          ? { 'transfer-encoding': 'chunked' }
          : { 'content-length': String(size) };
        const req = request({ port, host: '127.0.0.1', method: 'POST', headers }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(`${res.statusCode} ${text}`));
        });
        req.on('error', reject);
        // In pieces, as a client sending a large body does.
        for (let sent = 0; sent < size; sent += 65536)
          req.write(Buffer.alloc(Math.min(65536, size - sent), 120));
        req.end();
      });
    try {
      for (let i = 0; i < 10; i++) {
        assert.equal(await send(limit * 4, false), '413 body_too_large');
        assert.equal(await send(limit * 4, true), '413 body_too_large');
      }
      assert.equal(await send(limit, false), `200 ok ${limit}`);
      assert.equal(await send(limit, true), `200 ok ${limit}`);
    } finally {
      server.close();
    }
  });
});
