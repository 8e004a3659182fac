import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, connect, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createFastPathServer } from './fast-path-server.js';

/** How many complete responses (head and Content-Length body) `text` holds. */
function completeResponses(text: string): number {
  let count = 0;
  for (let at = 0; ; count++) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd < 0) return count;
    const length = /content-length: (\d+)/i.exec(text.slice(at, headEnd));
    const end = headEnd + 4 + Number(length?.[1] ?? 0);
    if (text.length < end) return count;
    at = end;
  }
}

/** Sends raw bytes and collects what the server writes until it holds `count` complete responses. */
function exchange(port: number, bytes: string, count: number, endAfterWrite = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (completeResponses(text) >= count) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
    if (endAfterWrite) socket.end(bytes);
    else socket.write(bytes);
  });
}

const post = (path: string, body: string, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('fast-path server', () => {
  let fallback: HttpServer;
  let front: Server;
  let port: number;
  const errors: unknown[] = [];

  before(async () => {
    fallback = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(418, { 'content-type': 'text/plain', 'x-from': 'node-http' });
      res.end(`fallback ${req.method} ${req.url}`);
    });
    await new Promise<void>((r) => fallback.listen(0, '127.0.0.1', r));
    front = createFastPathServer({
      rule: { acceptsPath: (path) => path.startsWith('/fast'), contentType: 'any' },
      handle: (request) => {
        if (request.path === '/fast/throw') throw new Error('boom');
        const answer = { status: 200, contentType: 'application/json', body: JSON.stringify(request.body) };
        // An asynchronous answer that takes longer than the next one: order must still hold.
        if (request.path === '/fast/slow') return new Promise((r) => setTimeout(() => r(answer), 30));
        return { ...answer, headers: 'x-fast: 1\r\n' };
      },
      corsHeaders: 'access-control-allow-origin: *\r\n',
      fallbackPort: () => (fallback.address() as AddressInfo).port,
      onError: (e) => errors.push(e),
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    port = (front.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((r) => front.close(r));
    await new Promise((r) => fallback.close(r));
  });

  it('answers a simple request itself, with its extra headers, CORS only with an Origin', async () => {
    const plain = await exchange(port, post('/fast/a', '{"x":1}'), 1);
    assert.match(plain, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(plain, /x-fast: 1\r\n/);
    assert.doesNotMatch(plain, /access-control/);
    assert.ok(plain.endsWith(JSON.stringify('{"x":1}')));
    const cors = await exchange(port, post('/fast/a', '', 'Origin: http://a\r\n'), 1);
    assert.match(cors, /access-control-allow-origin: \*\r\n/);
  });

  it('answers pipelined requests in order, a slow one first', async () => {
    const text = await exchange(port, post('/fast/slow', '1') + post('/fast/b', '2'), 2);
    assert.ok(text.indexOf('"1"') < text.indexOf('"2"'), text);
  });

  it('relays other requests to node:http, bytes already read included', async () => {
    const text = await exchange(port, 'GET /status HTTP/1.1\r\nHost: x\r\n\r\n', 1);
    assert.match(text, /^HTTP\/1\.1 418 /);
    assert.match(text, /fallback GET \/status/);
    const afterSimple = await exchange(port, post('/fast/a', '1') + post('/elsewhere', '2'), 2);
    assert.match(afterSimple, /fallback POST \/elsewhere/);
  });

  it('turns a throwing handler into a plain-text 500 and reports it', async () => {
    const text = await exchange(port, post('/fast/throw', ''), 1);
    assert.match(text, /^HTTP\/1\.1 500 Internal Server Error\r\n/);
    assert.equal((errors.at(-1) as Error).message, 'boom');
  });

  it('answers a client that ends its side right after its requests', async () => {
    const text = await exchange(port, post('/fast/slow', '1') + post('/fast/b', '2'), 2, true);
    assert.ok(text.indexOf('"1"') < text.indexOf('"2"'), text);
    const relayed = await exchange(port, 'GET /x HTTP/1.1\r\nHost: x\r\n\r\n', 1, true);
    assert.match(relayed, /fallback GET \/x/);
  });
});

describe('fast-path server, stopping', () => {
  it('answers a relayed request with the shutting-down answer when node:http is already gone, not a closed socket', async () => {
    // A port that refuses connections: node:http stopped listening before it took the relayed connection.
    const closed = createHttpServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const gonePort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const front = createFastPathServer({
      rule: { acceptsPath: (path) => path === '/', contentType: 'any' },
      handle: () => ({ status: 200, contentType: 'text/plain', body: 'fast' }),
      fallbackPort: () => gonePort,
      onError: () => {},
      shuttingDown: () => ({ status: 503, contentType: 'application/json', body: '{"stopping":true}' }),
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const frontPort = (front.address() as AddressInfo).port;
      front.beginStop();
      // Chunked: not the fast path's shape, so the connection is relayed.
      const chunked =
        'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n';
      const text = await exchange(frontPort, chunked, 1);
      assert.match(text, /^HTTP\/1\.1 503 /);
      assert.match(text, /Connection: close\r\n/);
      assert.ok(text.endsWith('{"stopping":true}'), text);
    } finally {
      await new Promise((r) => front.close(r));
    }
  });
});
