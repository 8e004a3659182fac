/**
 * A `node:http` server behind a fast path: node:http listens on a private loopback port, the fast path on the
 * public one, and closing stops both with every connection.
 *
 * Closing never leaves a request without an answer: from `beginStop()` (or `close()`) on, every new request on
 * either side is answered with the `shuttingDown` answer (503) and its connection closed; requests already
 * being answered get their answer, for up to `graceMs`; those still running then get the `shuttingDown`
 * answer, and only then are the connections ended.
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Server, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createFastPathServer, type FastPathOptions, SHUTTING_DOWN } from './fast-path-server.js';

/** How long `close()` lets requests in flight finish before it answers them itself. */
export const DEFAULT_STOP_GRACE_MS = 3_000;
/** How long ended connections get to flush their last answer before they are destroyed. */
const FLUSH_MS = 1_000;

export interface FrontDoor {
  /** The public address. */
  address: AddressInfo;
  /** Refuse new requests (503, connection closed) from now on; requests in flight carry on. */
  beginStop(): void;
  /** Requests being answered now, on both sides. */
  inFlight(): number;
  /** Stops: refuses new requests, waits up to `graceMs` for those in flight, answers the rest with the
   * shutting-down answer, then closes every connection and both servers. */
  close(graceMs?: number): Promise<void>;
}

export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function listenBehindFastPath(
  fallback: HttpServer,
  options: Omit<FastPathOptions, 'fallbackPort'>,
  port: number,
  host: string,
): Promise<FrontDoor> {
  // The fast path answers a client that sends its requests and then ends its side (FIN); node:http, by default,
  // drops the requests still unanswered at that FIN. Relayed connections get the same answers as direct ones.
  (fallback as HttpServer & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;

  let stopping = false;
  const shuttingDown = options.shuttingDown ?? (() => SHUTTING_DOWN);
  // node:http's side: its handlers run only while the server runs; while it stops, new requests are refused.
  const active = new Set<ServerResponse>();
  const handlers = fallback.listeners('request') as Array<
    (req: IncomingMessage, res: ServerResponse) => void
  >;
  fallback.removeAllListeners('request');
  fallback.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (stopping) {
      req.resume();
      refuse(res, shuttingDown);
      return;
    }
    active.add(res);
    res.once('close', () => active.delete(res));
    for (const handler of handlers) handler.call(fallback, req, res);
  });

  await listen(fallback, 0, '127.0.0.1');
  const fallbackPort = (fallback.address() as AddressInfo).port;
  const front = createFastPathServer({ ...options, fallbackPort: () => fallbackPort });
  const sockets = new Set<Socket>();
  front.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  try {
    await listen(front, port, host);
  } catch (error) {
    await new Promise<void>((resolve) => fallback.close(() => resolve()));
    throw error;
  }
  const inFlight = () => front.inFlight() + [...active].filter((res) => !res.writableEnded).length;
  const beginStop = () => {
    stopping = true;
    front.beginStop();
  };
  let closing: Promise<void> | undefined;
  return {
    address: front.address() as AddressInfo,
    beginStop,
    inFlight,
    close(graceMs = DEFAULT_STOP_GRACE_MS) {
      closing ??= (async () => {
        beginStop();
        const closed = Promise.all([
          new Promise<void>((resolve) => front.close(() => resolve())),
          new Promise<void>((resolve) => fallback.close(() => resolve())),
        ]);
        const deadline = Date.now() + graceMs;
        while (inFlight() > 0 && Date.now() < deadline) await sleep(10);
        // Whatever is still running is answered now; its own answer, if it ever comes, is dropped.
        const flushed: Promise<void>[] = [];
        for (const res of active) {
          if (res.headersSent) res.destroy();
          else flushed.push(new Promise<void>((resolve) => refuse(res, shuttingDown, resolve)));
        }
        front.endAll();
        await Promise.race([Promise.all(flushed), sleep(FLUSH_MS)]);
        fallback.closeAllConnections();
        // Ended connections flush their last answer, then close; any left after that are destroyed.
        const flushDeadline = Date.now() + FLUSH_MS;
        while (sockets.size > 0 && Date.now() < flushDeadline) await sleep(10);
        for (const socket of sockets) socket.destroy();
        await closed;
      })();
      return closing;
    },
  };
}

/** Writes the shutting-down answer on a node:http response and closes its connection. */
function refuse(
  res: ServerResponse,
  shuttingDown: NonNullable<FastPathOptions['shuttingDown']>,
  done?: () => void,
): void {
  const answer = shuttingDown(undefined);
  res.writeHead(answer.status, {
    'content-type': answer.contentType,
    'content-length': String(Buffer.byteLength(answer.body)),
    connection: 'close',
    ...parseHeaderLines(answer.headers),
  });
  res.end(answer.body, done);
}

function parseHeaderLines(lines: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of (lines ?? '').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}
