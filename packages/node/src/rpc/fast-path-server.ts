/**
 * The RPC's front door. Almost every request a NEAR client sends has one shape: `POST /` with a
 * `Content-Length`, a JSON content type and a small body. Those are parsed and answered here, straight off the
 * socket, which spares the per-request stream objects of `node:http` (a large share of a read's cost). Any
 * other request — another method or path, chunked or large bodies, `Expect`, HTTP/1.0, anything this parser
 * does not fully understand — turns the whole connection over to the `node:http` server behind it: the bytes
 * read so far and everything after them are relayed unchanged, so those requests get exactly its answers.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { HttpAnswer } from './jsonrpc.js';

/** Requests larger than this (head or body) go to `node:http`, which enforces the real limits. */
const MAX_HEAD_BYTES = 8 * 1024;
const MAX_BODY_BYTES = 1024 * 1024;
/** A request still incomplete this long after its first byte is dropped with its connection (node:http's
 * `headersTimeout` is 60 s too). */
const REQUEST_TIMEOUT_MS = 60_000;

export type FastHandler = (body: string) => HttpAnswer | Promise<HttpAnswer>;

interface SimpleRequest {
  body: string;
  /** Bytes after this request (the next pipelined request, if any). */
  rest: Buffer;
  origin: boolean;
  keepAlive: boolean;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** A complete simple request at the start of `buf`, 'incomplete' to wait for more bytes, or 'other'. */
export function parseSimpleRequest(buf: Buffer): SimpleRequest | 'incomplete' | 'other' {
  const headEnd = buf.indexOf(HEAD_END);
  if (headEnd < 0) {
    // A bare LF anywhere (not part of CRLF) is not this parser's business: node:http answers it.
    for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1))
      if (i === 0 || buf[i - 1] !== 13) return 'other';
    return buf.length > MAX_HEAD_BYTES ? 'other' : 'incomplete';
  }
  if (headEnd > MAX_HEAD_BYTES) return 'other';
  const head = buf.toString('latin1', 0, headEnd);
  const lines = head.split('\r\n');
  if (lines[0] !== 'POST / HTTP/1.1') return 'other';
  let length = -1;
  let json = false;
  let origin = false;
  let keepAlive = true;
  let host = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(':');
    if (colon <= 0) return 'other';
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    switch (name) {
      case 'content-length':
        if (length >= 0 || !/^\d{1,7}$/.test(value)) return 'other';
        length = Number(value);
        break;
      case 'content-type':
        if (json) return 'other';
        json = value.toLowerCase().split(';')[0].trim() === 'application/json';
        if (!json) return 'other';
        break;
      case 'host':
        host = true;
        break;
      case 'origin':
        origin = true;
        break;
      case 'connection': {
        const v = value.toLowerCase();
        if (v === 'close') keepAlive = false;
        else if (v !== 'keep-alive') return 'other';
        break;
      }
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return 'other';
      default:
        if (name.includes(' ') || name.includes('\t')) return 'other';
    }
  }
  if (length < 0 || !json || !host || length > MAX_BODY_BYTES) return 'other';
  const bodyStart = headEnd + 4;
  if (buf.length < bodyStart + length) return 'incomplete';
  return {
    body: buf.toString('utf8', bodyStart, bodyStart + length),
    rest: buf.subarray(bodyStart + length),
    origin,
    keepAlive,
  };
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  408: 'Request Timeout',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};

function responseBytes(answer: HttpAnswer, cors: string, keepAlive: boolean): string {
  const body = Buffer.byteLength(answer.body);
  return (
    `HTTP/1.1 ${answer.status} ${STATUS_TEXT[answer.status] ?? 'OK'}\r\n` +
    `content-type: ${answer.contentType}\r\n${cors}` +
    `Date: ${new Date().toUTCString()}\r\n` +
    (keepAlive ? 'Connection: keep-alive\r\nKeep-Alive: timeout=65\r\n' : 'Connection: close\r\n') +
    `Content-Length: ${body}\r\n\r\n${answer.body}`
  );
}

/**
 * A TCP server answering simple requests with `handle` and relaying every other connection to `fallback`
 * (listening on `fallbackPort` of 127.0.0.1).
 */
export function createFastPathServer(
  handle: FastHandler,
  corsHeaders: string,
  fallback: { port: () => number },
  onError: (error: unknown) => void,
): Server {
  return createServer((socket) => {
    socket.setNoDelay(true);
    let pending: Buffer | undefined;
    let pendingSince = 0;
    let busy = false;
    let relayed = false;

    const relay = () => {
      relayed = true;
      socket.removeListener('data', onData);
      socket.pause();
      const upstream: Socket = connect(fallback.port(), '127.0.0.1', () => {
        if (pending?.length) upstream.write(pending);
        pending = undefined;
        socket.pipe(upstream);
        upstream.pipe(socket);
        socket.resume();
      });
      upstream.setNoDelay(true);
      upstream.on('error', () => socket.destroy());
      socket.on('close', () => upstream.destroy());
      upstream.on('close', () => socket.destroy());
    };

    const reply = (answer: HttpAnswer, request: SimpleRequest) => {
      socket.write(responseBytes(answer, request.origin ? corsHeaders : '', request.keepAlive));
      if (!request.keepAlive) socket.end();
    };

    const drain = () => {
      while (!busy && !relayed && pending && pending.length > 0) {
        const request = parseSimpleRequest(pending);
        if (request === 'incomplete') {
          if (Date.now() - pendingSince > REQUEST_TIMEOUT_MS) socket.destroy();
          return;
        }
        if (request === 'other') {
          relay();
          return;
        }
        pending = request.rest.length > 0 ? request.rest : undefined;
        pendingSince = Date.now();
        let answer: HttpAnswer | Promise<HttpAnswer>;
        try {
          answer = handle(request.body);
        } catch (error) {
          onError(error);
          answer = { status: 500, contentType: 'text/plain; charset=utf-8', body: 'Internal Server Error' };
        }
        if (answer instanceof Promise) {
          busy = true;
          answer
            .catch((error: unknown) => {
              onError(error);
              return {
                status: 500,
                contentType: 'text/plain; charset=utf-8',
                body: 'Internal Server Error',
              } as const;
            })
            .then((a) => {
              busy = false;
              if (socket.destroyed) return;
              reply(a, request);
              if (request.keepAlive) drain();
            });
          return;
        }
        reply(answer, request);
        if (!request.keepAlive) return;
      }
    };

    const onData = (chunk: Buffer) => {
      if (!pending) pendingSince = Date.now();
      pending = pending ? Buffer.concat([pending, chunk]) : chunk;
      drain();
    };
    socket.on('data', onData);
    socket.on('error', () => socket.destroy());
    // Idle keep-alive connections close after 65 s, as node:http's keepAliveTimeout (relayed ones by it).
    socket.setTimeout(65_000, () => {
      if (!busy && !relayed) socket.destroy();
    });
  });
}
