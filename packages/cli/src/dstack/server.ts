/**
 * The simulated guest agent's HTTP server on a Unix socket, as dstack serves /var/run/dstack.sock: POST (or
 * GET) /Info, /GetQuote, /GetKey, /EmitEvent, /Version with JSON bodies and answers. A bad request is
 * HTTP 400 `{"error": "…"}` (the SDK raises an `error` field), an unknown path 404.
 */
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { DstackRequestError, type DstackSimulator } from './simulator.js';

const MAX_BODY = 1 << 20;

export interface RunningDstackServer {
  socket: string;
  close(): Promise<void>;
}

export class DstackSocketError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DstackSocketError';
  }
}

/** Whether something answers on the socket file (a stale file from a killed process does not). */
function socketInUse(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect({ path });
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

function route(sim: DstackSimulator, path: string, body: Record<string, unknown>): unknown {
  switch (path) {
    case '/Info':
      return sim.info();
    case '/GetQuote':
      return sim.getQuote(body);
    case '/GetKey':
      return sim.getKey(body);
    case '/EmitEvent':
      return sim.emitEvent(body);
    case '/Version':
      return sim.version();
    default:
      return undefined;
  }
}

function handle(sim: DstackSimulator, req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_BODY) {
      answer(res, 413, { error: 'request body too large' });
      req.destroy();
      return;
    }
    chunks.push(c);
  });
  req.on('end', () => {
    if (res.headersSent) return;
    if (req.method !== 'POST' && req.method !== 'GET') return answer(res, 405, { error: 'use POST' });
    const path = (req.url ?? '/').split('?')[0];
    let body: Record<string, unknown> = {};
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() !== '') {
      try {
        const parsed = JSON.parse(text) as unknown;
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
          return answer(res, 400, { error: 'expected a JSON object' });
        body = parsed as Record<string, unknown>;
      } catch {
        return answer(res, 400, { error: 'invalid JSON' });
      }
    }
    try {
      const out = route(sim, path, body);
      if (out === undefined) return answer(res, 404, { error: `unknown method ${path}` });
      answer(res, 200, out);
    } catch (error) {
      if (error instanceof DstackRequestError) return answer(res, 400, { error: error.message });
      answer(res, 500, { error: 'internal error' });
    }
  });
}

/** Serves `sim` on the Unix socket `socket`, replacing a stale socket file, refusing one in use. */
export async function startDstackServer(sim: DstackSimulator, socket: string): Promise<RunningDstackServer> {
  if (existsSync(socket)) {
    if (await socketInUse(socket))
      throw new DstackSocketError(
        `${socket} is in use by another process: stop it or choose another --socket`,
      );
    unlinkSync(socket);
  }
  const server = createServer((req, res) => handle(sim, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new DstackSocketError(`cannot listen on ${socket}: ${e.code ?? e.message}`)),
    );
    server.listen(socket, () => resolve());
  });
  // The agent API's container runs as another (non-root) user than this process: let it connect.
  chmodSync(socket, 0o666);
  return {
    socket,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
