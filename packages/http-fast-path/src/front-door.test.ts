import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { listenBehindFastPath } from './front-door.js';

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
    const fallback = createServer((req, res) => {
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
