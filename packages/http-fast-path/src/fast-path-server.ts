/**
 * A server's front door. Almost every request a client of ours sends has one shape: a `POST` with a
 * `Content-Length` and a small body to one of a few paths. Those are parsed and answered here, straight off
 * the socket, which spares the per-request stream objects of `node:http` (a large share of a small request's
 * cost). Any other request — another method or path, chunked or large bodies, `Expect`, HTTP/1.0, anything
 * the parser does not fully understand — turns the whole connection over to the `node:http` server behind
 * it: the bytes read so far and everything after them are relayed unchanged, so those requests get exactly
 * its answers. Requests on one connection are answered in order (pipelined ones wait for the one before).
 */
import { STATUS_CODES } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { parseSimpleRequest, type SimpleRequest, type SimpleRequestRule } from './parse-simple-request.js';

/** A request still incomplete this long after its first byte is dropped with its connection (node:http's
 * `headersTimeout` is 60 s too). */
const REQUEST_TIMEOUT_MS = 60_000;
/** Idle keep-alive connections close after this long. */
const KEEP_ALIVE_MS = 65_000;

export interface FastAnswer {
  status: number;
  contentType: string;
  body: string;
  /** More header lines, each `name: value\r\n`. */
  headers?: string;
}

export type FastHandler = (request: SimpleRequest) => FastAnswer | Promise<FastAnswer>;

export interface FastPathOptions {
  rule: SimpleRequestRule;
  handle: FastHandler;
  /** Header lines (`name: value\r\n`) added to the answers of requests that carry an `Origin`. */
  corsHeaders?: string;
  /** Where every other connection goes: the `node:http` server's port on 127.0.0.1. */
  fallbackPort: () => number;
  /** A handler that threw or rejected; the client gets a plain-text 500. */
  onError: (error: unknown) => void;
}

const INTERNAL_ERROR: FastAnswer = {
  status: 500,
  contentType: 'text/plain; charset=utf-8',
  body: 'Internal Server Error',
};

function responseText(answer: FastAnswer, cors: string, keepAlive: boolean): string {
  return (
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Unknown'}\r\n` +
    `content-type: ${answer.contentType}\r\n${answer.headers ?? ''}${cors}` +
    `Date: ${new Date().toUTCString()}\r\n` +
    (keepAlive ? 'Connection: keep-alive\r\nKeep-Alive: timeout=65\r\n' : 'Connection: close\r\n') +
    `Content-Length: ${Buffer.byteLength(answer.body)}\r\n\r\n${answer.body}`
  );
}

/** A TCP server answering simple requests itself and relaying every other connection to `node:http`. */
export function createFastPathServer(options: FastPathOptions): Server {
  const { rule, handle, onError } = options;
  const corsHeaders = options.corsHeaders ?? '';
  // Half-open: a client may send its requests and then end its side (FIN); its answers still go out.
  return createServer({ allowHalfOpen: true }, (socket) => {
    socket.setNoDelay(true);
    let pending: Buffer | undefined;
    let pendingSince = 0;
    let busy = false;
    let relayed = false;
    /** The client has ended its side: close ours once every complete request is answered. */
    let clientEnded = false;

    const relay = () => {
      relayed = true;
      socket.removeListener('data', onData);
      socket.pause();
      const upstream: Socket = connect(options.fallbackPort(), '127.0.0.1', () => {
        if (pending?.length) upstream.write(pending);
        pending = undefined;
        socket.pipe(upstream);
        upstream.pipe(socket);
        socket.resume();
      });
      upstream.setNoDelay(true);
      upstream.on('error', () => socket.destroy());
      socket.on('close', () => upstream.destroy());
      // After node:http closes its side, what it wrote is still flushed to the client.
      upstream.on('close', (hadError) => (hadError ? socket.destroy() : socket.end()));
    };

    const reply = (answer: FastAnswer, request: SimpleRequest) => {
      socket.write(responseText(answer, request.origin ? corsHeaders : '', request.keepAlive));
      if (!request.keepAlive) socket.end();
    };

    const drain = () => {
      drainRequests();
      if (clientEnded && !busy && !relayed && !socket.destroyed) socket.end();
    };

    const drainRequests = () => {
      while (!busy && !relayed && pending && pending.length > 0) {
        const request = parseSimpleRequest(pending, rule);
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
        let answer: FastAnswer | Promise<FastAnswer>;
        try {
          answer = handle(request);
        } catch (error) {
          onError(error);
          answer = INTERNAL_ERROR;
        }
        if (answer instanceof Promise) {
          busy = true;
          answer
            .catch((error: unknown) => {
              onError(error);
              return INTERNAL_ERROR;
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
    socket.on('end', () => {
      clientEnded = true;
      // A relayed connection is ended by the pipe, after node:http's answer.
      if (!relayed) drain();
    });
    socket.on('error', () => socket.destroy());
    // Relayed connections are timed by node:http itself.
    socket.setTimeout(KEEP_ALIVE_MS, () => {
      if (!busy && !relayed) socket.destroy();
    });
  });
}
