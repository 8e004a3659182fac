/**
 * The RPC's front door (packages/node/src/rpc/fast-path-server.ts) on raw sockets: plain JSON POSTs are
 * answered directly, in order, however the bytes arrive; anything else on a connection — even after fast
 * requests — is relayed to node:http and answered exactly as before; a client vanishing mid-body harms nothing.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import {
  base58Decode,
  base64Encode,
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  signTransaction,
} from '@shadebox/primitives';

const post = (payload: string, extra = '') =>
  `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n${extra}\r\n${payload}`;
const rpcBody = (id: number | string, method: string, params: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** Reads HTTP responses (Content-Length framed) from a socket. */
class Reader {
  private buf = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  closed = false;
  /** Bytes received so far. */
  received = 0;
  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      this.buf = Buffer.concat([this.buf, chunk]);
      this.waiting?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }
  async next(): Promise<{ status: number; headers: string; body: string }> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = this.buf.toString('latin1', 0, end);
        const status = Number(head.split(' ')[1]);
        if (/transfer-encoding: chunked/i.test(head)) {
          // node:http frames its answers in chunks.
          let at = end + 4;
          const parts: Buffer[] = [];
          for (;;) {
            const lineEnd = this.buf.indexOf('\r\n', at);
            if (lineEnd < 0) break;
            const size = Number.parseInt(this.buf.toString('latin1', at, lineEnd), 16);
            if (this.buf.length < lineEnd + 2 + size + 2) break;
            if (size === 0) {
              const body = Buffer.concat(parts).toString('utf8');
              this.buf = this.buf.subarray(lineEnd + 4);
              return { status, headers: head, body };
            }
            parts.push(this.buf.subarray(lineEnd + 2, lineEnd + 2 + size));
            at = lineEnd + 2 + size + 2;
          }
        } else {
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
          if (this.buf.length >= end + 4 + length) {
            const body = this.buf.toString('utf8', end + 4, end + 4 + length);
            this.buf = this.buf.subarray(end + 4 + length);
            return { status, headers: head, body };
          }
        }
      }
      if (this.closed) throw new Error('connection closed before a whole response');
      if (Date.now() > deadline) throw new Error('no response in time');
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
  }
}

async function open(url: string): Promise<Reader> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return new Reader(socket);
}

describe('RPC front door', () => {
  let node: RunningNode;
  before(async () => {
    node = await startNode({ memory: true, rpcPort: 0, log: silentLogger, production: { kind: 'manual' } });
  });
  after(() => node.stop());

  it('answers pipelined requests in order on one connection', async () => {
    const r = await open(node.rpcUrl);
    r.socket.write(
      post(rpcBody(1, 'status', [])) + post(rpcBody(2, 'gas_price', [null])) + post(rpcBody(3, 'nope', [])),
    );
    const answers = [await r.next(), await r.next(), await r.next()];
    assert.deepEqual(
      answers.map((a) => [a.status, JSON.parse(a.body).id]),
      [
        [200, 1],
        [200, 2],
        [400, 3],
      ],
    );
    assert.match(answers[2].body, /METHOD_NOT_FOUND/);
    r.socket.destroy();
  });

  it('reads a request that arrives one byte at a time', async () => {
    const r = await open(node.rpcUrl);
    const bytes = Buffer.from(post(rpcBody('slow', 'health', [])));
    for (const byte of bytes) {
      r.socket.write(Buffer.of(byte));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const answer = await r.next();
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.body), { jsonrpc: '2.0', result: null, id: 'slow' });
    r.socket.destroy();
  });

  it('relays the rest of a connection to node:http once a request is not a plain JSON POST', async () => {
    const r = await open(node.rpcUrl);
    r.socket.write(post(rpcBody(1, 'health', [])));
    assert.equal((await r.next()).status, 200);
    r.socket.write('GET /status HTTP/1.1\r\nHost: x\r\n\r\n');
    const status = await r.next();
    assert.equal(status.status, 200);
    assert.equal(JSON.parse(status.body).chain_id, 'localnet');
    // After the hand-over, a plain POST on the same connection is still answered (now by node:http).
    r.socket.write(post(rpcBody(2, 'health', [])));
    assert.deepEqual(JSON.parse((await r.next()).body), { jsonrpc: '2.0', result: null, id: 2 });
    r.socket.write(post(rpcBody(3, 'health', []), '').replace('application/json', 'text/plain'));
    const wrongType = await r.next();
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body, 'Content type error');
    r.socket.destroy();
  });

  it('keeps the order behind an answer that waits', async () => {
    const me = node.accounts[0];
    const key = KeyPair.fromString(me.secretKey);
    const tx = createTransaction({
      signerId: me.accountId,
      publicKey: key.publicKey,
      nonce: 1n,
      receiverId: 'someone.test.near',
      blockHash: base58Decode(node.chain.head.hash),
      actions: [{ type: 'Transfer', deposit: 1n }],
    });
    const signed = base64Encode(encodeSignedTransaction(signTransaction(tx, key)));
    const r = await open(node.rpcUrl);
    // Pooled (manual production): the wait below can only end when a block is made.
    r.socket.write(post(rpcBody('send', 'send_tx', { signed_tx_base64: signed, wait_until: 'NONE' })));
    assert.match((await r.next()).body, /"final_execution_status":"NONE"/);
    r.socket.write(
      post(rpcBody('wait', 'tx', { signed_tx_base64: signed, wait_until: 'INCLUDED' })) +
        post(rpcBody('after', 'health', [])),
    );
    const before = r.received;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(r.received, before, 'the read behind the wait is not answered first');
    node.producer.produce(1);
    const first = await r.next();
    const second = await r.next();
    assert.equal(JSON.parse(first.body).id, 'wait');
    assert.match(first.body, /"final_execution_status":"INCLUDED"/);
    assert.equal(JSON.parse(second.body).id, 'after');
    r.socket.destroy();
  });

  it('closes after answering a request with Connection: close, and adds CORS only for an Origin', async () => {
    const r = await open(node.rpcUrl);
    r.socket.write(post(rpcBody(1, 'health', []), 'Origin: http://localhost:5173\r\nConnection: close\r\n'));
    const answer = await r.next();
    assert.match(answer.headers, /access-control-allow-origin: \*/i);
    assert.match(answer.headers, /Connection: close/);
    await new Promise<void>((resolve) => (r.closed ? resolve() : r.socket.once('close', () => resolve())));
    const plain = await open(node.rpcUrl);
    plain.socket.write(post(rpcBody(2, 'health', [])));
    assert.doesNotMatch((await plain.next()).headers, /access-control/i);
    plain.socket.destroy();
  });

  it('hands a request with bare LF line endings to node:http, which refuses it', async () => {
    const r = await open(node.rpcUrl);
    r.socket.write('POST / HTTP/1.1\nHost: x\nContent-Type: application/json\nContent-Length: 2\n\n{}');
    const answer = await Promise.race([
      r.next().then((a) => a.status),
      new Promise<string>((resolve) => r.socket.once('close', () => resolve('closed'))),
    ]);
    assert.ok(answer === 400 || answer === 'closed', `answered ${answer}`);
    r.socket.destroy();
  });

  it('survives clients that vanish mid-request and keeps serving', async () => {
    for (let i = 0; i < 20; i++) {
      const r = await open(node.rpcUrl);
      const bytes = post(rpcBody(i, 'status', []));
      r.socket.end(bytes.slice(0, 20 + i * 5));
    }
    const r = await open(node.rpcUrl);
    r.socket.write(post(rpcBody('alive', 'health', [])));
    assert.equal(JSON.parse((await r.next()).body).id, 'alive');
    r.socket.destroy();
  });
});
