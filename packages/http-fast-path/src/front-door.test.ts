import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { listenBehindFastPath } from './front-door.js';

/** Sends raw bytes on a new connection and resolves with everything the server wrote until it closed. */
function exchange(port: number, bytes: string): { written: Promise<void>; text: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  const written = new Promise<void>((resolve) => socket.write(bytes, () => resolve()));
  const text = new Promise<string>((resolve, reject) => {
    let out = '';
    socket.on('data', (chunk) => {
      out += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
  return { written, text };
}

const post = (path: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const chunked = (path: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;

/** A front door whose answers wait until `release()`: `/fast/*` on the fast path, anything else on node:http. */
async function slowServer() {
  const waiting: Array<() => void> = [];
  const later = () => new Promise<void>((resolve) => waiting.push(resolve));
  const fallback = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      void later().then(() => {
        if (res.writableEnded) return;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`done ${req.url}`);
      });
    });
  });
  const front = await listenBehindFastPath(
    fallback,
    {
      rule: { acceptsPath: (path) => path.startsWith('/fast'), contentType: 'any' },
      handle: async (request) => {
        await later();
        return { status: 200, contentType: 'text/plain', body: `done ${request.path}` };
      },
      onError: (error) => assert.fail(String(error)),
      shuttingDown: (request) => ({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ stopping: request?.path ?? 'node:http' }),
      }),
    },
    0,
    '127.0.0.1',
  );
  const release = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { front, release, waiting, until };
}

describe('front door: stopping', () => {
  it('requests in flight get their answers, new ones a 503 with Connection: close, then it closes', async () => {
    const { front, release, waiting, until } = await slowServer();
    const port = front.address.port;
    const fast = exchange(port, post('/fast/a', '{}'));
    const slow = exchange(port, chunked('/other', '{}'));
    await Promise.all([fast.written, slow.written]);
    await until(() => waiting.length === 2);
    assert.equal(front.inFlight(), 2);

    front.beginStop();
    const refusedFast = exchange(port, post('/fast/b', '{}'));
    const refusedOther = exchange(port, chunked('/other', '{}'));
    const [fastRefusal, otherRefusal] = await Promise.all([refusedFast.text, refusedOther.text]);
    assert.match(fastRefusal, /^HTTP\/1\.1 503 /);
    assert.match(fastRefusal, /Connection: close/);
    assert.match(fastRefusal, /\{"stopping":"\/fast\/b"\}$/);
    assert.match(otherRefusal, /^HTTP\/1\.1 503 /);
    assert.match(otherRefusal, /\{"stopping":"node:http"\}$/);

    const closed = front.close(60_000);
    release();
    const [a, b] = await Promise.all([fast.text, slow.text]);
    assert.match(a, /^HTTP\/1\.1 200 [\s\S]*Connection: close[\s\S]*done \/fast\/a$/);
    assert.match(b, /^HTTP\/1\.1 200 [\s\S]*done \/other/);
    await closed;
  });

  it('requests still running when the grace period ends are answered with the 503, and their late answers dropped', async () => {
    const { front, release, waiting, until } = await slowServer();
    const port = front.address.port;
    const fast = exchange(port, post('/fast/a', '{}'));
    const slow = exchange(port, chunked('/other', '{}'));
    await Promise.all([fast.written, slow.written]);
    await until(() => waiting.length === 2);

    await front.close(0);
    const [a, b] = await Promise.all([fast.text, slow.text]);
    assert.match(a, /^HTTP\/1\.1 503 [\s\S]*\{"stopping":"\/fast\/a"\}$/);
    assert.match(b, /^HTTP\/1\.1 503 [\s\S]*\{"stopping":"node:http"\}$/);
    assert.equal((a.match(/HTTP\/1\.1/g) ?? []).length, 1, 'one answer only');
    release(); // the late answers go nowhere
    assert.equal(front.inFlight(), 0);
  });
});

/** Writes `bytes`, ends the client's side, and returns everything the server wrote until it closed. */
function sendAndEnd(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.end(bytes);
  });
}

describe('front door', () => {
  it('answers every relayed request of a client that pipelines them and ends its side', async () => {
    // node:http answers a moment later, as a handler that reads a body and calls the chain does.
    const fallback = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(`answer ${req.url}`);
        }, 20),
      );
    });
    const door = await listenBehindFastPath(
      fallback,
      {
        rule: { acceptsPath: () => false, contentType: 'any' },
        handle: () => ({ status: 500, contentType: 'text/plain', body: '' }),
        onError: () => undefined,
      },
      0,
      '127.0.0.1',
    );
    try {
      const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
      const post = (path: string) => `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`;
      const text = await sendAndEnd(door.address.port, get('/a') + post('/b') + get('/c'));
      assert.match(text, /answer \/a/);
      assert.match(text, /answer \/b/);
      assert.match(text, /answer \/c/);
    } finally {
      await door.close();
    }
  });
});
