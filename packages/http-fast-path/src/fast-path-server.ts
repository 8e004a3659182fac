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
import { httpDate } from './http-date.js';
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
  /** The answer to a request that arrives while the server stops, or that is still unanswered when it must
   * end (default: a plain-text 503). */
  shuttingDown?: (request: SimpleRequest | undefined) => FastAnswer;
}

/** A fast path server that can stop without leaving a request unanswered. */
export interface FastPathServer extends Server {
  /** From now on every new request is answered with `shuttingDown` and its connection closed; answers still
   * being made go out, each closing its connection. */
  beginStop(): void;
  /** Requests being answered now. */
  inFlight(): number;
  /** Answers every request still in flight with `shuttingDown` (their late answers are dropped) and ends
   * every connection, except those relayed to node:http: they end when node:http ends its side. */
  endAll(): void;
}

export const SHUTTING_DOWN: FastAnswer = {
  status: 503,
  contentType: 'text/plain; charset=utf-8',
  body: 'Service Unavailable: shutting down',
};

const INTERNAL_ERROR: FastAnswer = {
  status: 500,
  contentType: 'text/plain; charset=utf-8',
  body: 'Internal Server Error',
};

function responseText(answer: FastAnswer, cors: string, keepAlive: boolean): string {
  return (
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Unknown'}\r\n` +
    `content-type: ${answer.contentType}\r\n${answer.headers ?? ''}${cors}` +
    `Date: ${httpDate()}\r\n` +
    (keepAlive ? 'Connection: keep-alive\r\nKeep-Alive: timeout=65\r\n' : 'Connection: close\r\n') +
    `Content-Length: ${Buffer.byteLength(answer.body)}\r\n\r\n${answer.body}`
  );
}

/** A TCP server answering simple requests itself and relaying every other connection to `node:http`. */
export function createFastPathServer(options: FastPathOptions): FastPathServer {
  const { rule, handle, onError } = options;
  const corsHeaders = options.corsHeaders ?? '';
  const shuttingDown = options.shuttingDown ?? (() => SHUTTING_DOWN);
  let stopping = false;
  /** Each connection: whether it is answering a request, and a way to answer it with `shuttingDown` now
   * (false when it had none to answer). */
  const connections = new Map<Socket, { busy(): boolean; relayed(): boolean; answerNow(): boolean }>();
  // Half-open: a client may send its requests and then end its side (FIN); its answers still go out.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    socket.setNoDelay(true);
    let pending: Buffer | undefined;
    let pendingSince = 0;
    let busy = false;
    let relayed = false;
    /** The client has ended its side: close ours once every complete request is answered. */
    let clientEnded = false;
    /** The request being answered, while `busy`. */
    let current: SimpleRequest | undefined;
    connections.set(socket, {
      busy: () => current !== undefined,
      relayed: () => relayed,
      answerNow: () => {
        if (current === undefined || socket.destroyed) return false;
        const request = current;
        current = undefined;
        socket.end(responseText(shuttingDown(request), request.origin ? corsHeaders : '', false));
        return true;
      },
    });
    socket.on('close', () => connections.delete(socket));

    const relay = () => {
      relayed = true;
      socket.removeListener('data', onData);
      socket.pause();
      /** This side answered the client itself (node:http was gone). */
      let refusedHere = false;
      const upstream: Socket = connect(options.fallbackPort(), '127.0.0.1', () => {
        if (pending?.length) upstream.write(pending);
        pending = undefined;
        socket.pipe(upstream);
        upstream.pipe(socket);
        socket.resume();
      });
      upstream.setNoDelay(true);
      upstream.on('error', () => {
        // The server stops and node:http closed its port before it took this connection (or reset it unread):
        // the client still gets the shutting-down answer, not a closed socket.
        if (stopping && upstream.bytesRead === 0 && !socket.destroyed) {
          refusedHere = true;
          socket.unpipe(upstream);
          // What the client still sends is read and dropped: unread bytes at close would reset the connection.
          socket.resume();
          socket.end(responseText(shuttingDown(undefined), '', false));
          return;
        }
        socket.destroy();
      });
      socket.on('close', () => upstream.destroy());
      // After node:http closes its side, what it wrote is still flushed to the client.
      upstream.on('close', (hadError) => {
        if (refusedHere) return;
        if (hadError) socket.destroy();
        else socket.end();
      });
    };

    const reply = (answer: FastAnswer, request: SimpleRequest) => {
      // While the server stops, each answer closes its connection.
      const keepAlive = request.keepAlive && !stopping;
      socket.write(responseText(answer, request.origin ? corsHeaders : '', keepAlive));
      if (!keepAlive) socket.end();
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
        if (stopping) {
          reply(shuttingDown(request), request);
          return;
        }
        let answer: FastAnswer | Promise<FastAnswer>;
        try {
          answer = handle(request);
        } catch (error) {
          onError(error);
          answer = INTERNAL_ERROR;
        }
        if (answer instanceof Promise) {
          busy = true;
          current = request;
          answer
            .catch((error: unknown) => {
              onError(error);
              return INTERNAL_ERROR;
            })
            .then((a) => {
              busy = false;
              // Already answered by endAll() (the server stopped first), or the client is gone.
              if (current !== request || socket.destroyed) return;
              current = undefined;
              reply(a, request);
              if (request.keepAlive && !stopping) drain();
            });
          return;
        }
        reply(answer, request);
        // An answer given while the server stops closed the connection.
        if (!request.keepAlive || stopping) return;
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
  return Object.assign(server, {
    beginStop() {
      stopping = true;
    },
    inFlight() {
      let count = 0;
      for (const connection of connections.values()) if (connection.busy()) count++;
      return count;
    },
    endAll() {
      for (const [socket, connection] of connections) {
        if (connection.relayed()) continue;
        if (!connection.answerNow()) socket.end();
      }
    },
  });
}
