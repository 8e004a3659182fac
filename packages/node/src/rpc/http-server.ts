/**
 * The RPC's HTTP server: `POST /` for JSON-RPC, `GET|HEAD /status` and `/health`, `GET /network_info` and
 * `/metrics`, and the extra routes for people (explorer-routes.ts: `/explorer`, `/events/blocks`, `GET /` from a
 * browser). Bodies over the limit (10 MiB by default, nearcore's `json_payload_max_size`) get HTTP 413 before
 * they are read whole. CORS is open, as nearcore's default `cors_allowed_origins: ["*"]`.
 */

import { isUtf8 } from 'node:buffer';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenBehindFastPath } from '@shadebox/http-fast-path';
import type { Logger } from 'pino';
import { defaultExplorerDir, ExplorerRoutes } from './explorer-routes.js';
import type { ExplorerSettings } from './explorer-settings.js';
import { type HttpAnswer, handleJsonRpc, requestIdOf, shuttingDownAnswer } from './jsonrpc.js';
import { health, networkInfo, status } from './methods/node-info.js';
import type { RpcContext } from './rpc-context.js';
import { defaultViewWorkers, ViewWorkerPool } from './view-worker-pool.js';

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface RpcServerOptions {
  host: string;
  port: number;
  maxBodyBytes?: number;
  log: Logger;
  /** The built explorer page (rpc/explorer-routes.ts); default: `@shadebox/explorer`'s dist/. */
  explorerDir?: string;
  /** What `GET /explorer/settings.json` answers, read on each request (explorer-settings.ts); default
   * `{"evm":null}`. */
  explorerSettings?: () => ExplorerSettings;
  /** Worker threads for `call_function` views, started on the first view (rpc/view-worker-pool.ts); 0 runs
   * them on the RPC's thread. Default: `defaultViewWorkers()`. A context that has a pool keeps it. */
  viewWorkers?: number;
}

export interface RpcServer {
  url: string;
  address: AddressInfo;
  /** Refuses new requests from now on (503, see `shuttingDownAnswer`); those in flight carry on. */
  beginStop(): void;
  /** Stops: requests in flight get their answer (or, after a grace period, the 503), then it closes. */
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, HEAD, OPTIONS',
  'access-control-allow-headers': 'content-type',
};

export async function startRpcServer(ctx: RpcContext, options: RpcServerOptions): Promise<RpcServer> {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const counters = { requests: 0, errors: 0 };
  const extra = new ExplorerRoutes(ctx, options.explorerDir ?? defaultExplorerDir, options.explorerSettings);
  const workers = options.viewWorkers ?? defaultViewWorkers();
  if (!ctx.viewWorkers && workers > 0) {
    ctx.viewWorkers = new ViewWorkerPool(
      workers,
      {
        protocolVersion: ctx.chain.params.protocolVersion,
        chainId: ctx.chain.params.chainId,
        validatorStakes: ctx.chain.validatorStakes(),
      },
      (error) => options.log.warn({ err: error }, 'view worker failed; its views run on the RPC thread'),
    );
  }
  const pool = ctx.viewWorkers;
  const server: Server = createServer((req, res) => {
    counters.requests++;
    route(ctx, req, res, maxBody, options.log, counters, extra).catch((error) => {
      counters.errors++;
      options.log.error({ err: error }, 'rpc request failed');
      if (!res.headersSent)
        send(res, { status: 500, contentType: 'text/plain; charset=utf-8', body: 'Internal Server Error' });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  // node:http listens on a private loopback port; the public port is the fast path, which relays to it every
  // request it does not answer itself (@shadebox/http-fast-path).
  const front = await listenBehindFastPath(
    server,
    {
      rule: { acceptsPath: (path) => path === '/', contentType: 'json', maxBodyBytes: maxBody },
      handle: (request) => {
        counters.requests++;
        const answer = () =>
          handleJsonRpc(ctx, request.body, (e) => options.log.error({ err: e }, 'rpc method failed'));
        // A view a worker can answer from the body alone goes there whole (rpc/view-body-job.ts).
        const byWorker =
          pool && request.body.includes('"call_function"')
            ? pool.runBody(ctx.chain, request.body, answer)
            : undefined;
        return byWorker ?? answer();
      },
      corsHeaders: Object.entries(CORS)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join(''),
      onError: (error) => {
        counters.errors++;
        options.log.error({ err: error }, 'rpc request failed');
      },
      // A request that arrives while the node stops, or that it cannot finish: 503 with a JSON-RPC error.
      shuttingDown: (request) => shuttingDownAnswer(requestIdOf(request?.body)),
    },
    options.port,
    options.host,
  );
  const address = front.address;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  ctx.rpcAddr = `${host}:${address.port}`;
  return {
    url: `http://${host}:${address.port}`,
    address,
    beginStop: () => {
      extra.endStreams();
      front.beginStop();
    },
    close: async () => {
      extra.endStreams();
      await front.close();
      await pool?.close();
    },
  };
}

/** CORS headers go only to requests that carry an `Origin` (browsers always send one cross-origin), as
 * nearcore's actix-cors middleware does. */
function corsFor(res: ServerResponse): typeof CORS | undefined {
  return res.req.headers.origin === undefined ? undefined : CORS;
}

function send(res: ServerResponse, answer: HttpAnswer, head = false): void {
  // Already answered: the server stopped and answered it with the 503 (http-fast-path's front door).
  if (res.headersSent || res.writableEnded) return;
  const cors = corsFor(res);
  res.writeHead(
    answer.status,
    cors ? { 'content-type': answer.contentType, ...cors } : { 'content-type': answer.contentType },
  );
  res.end(head ? undefined : answer.body);
}

/** The GET routes write nearcore's typed structs as they are (field order), not a sorted `Value`. */
const json = (value: unknown): HttpAnswer => ({
  status: 200,
  contentType: 'application/json',
  body: JSON.stringify(value),
});

async function route(
  ctx: RpcContext,
  req: IncomingMessage,
  res: ServerResponse,
  maxBody: number,
  log: Logger,
  counters: { requests: number; errors: number },
  extra: ExplorerRoutes,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  const method = req.method ?? 'GET';
  if (method === 'OPTIONS') {
    res.writeHead(204, CORS);
    res.end();
    return;
  }
  if (extra.handle(req, res, path, corsFor(res) ?? {})) return;
  if (path === '/' && method === 'POST') {
    if (!isJsonContentType(req.headers['content-type'])) {
      req.resume();
      send(res, { status: 400, contentType: 'text/plain; charset=utf-8', body: 'Content type error' });
      return;
    }
    // Callbacks rather than awaits: a read is answered in the turn its body arrives.
    readBody(req, maxBody, (body) => {
      if (body === NOT_UTF8) {
        // serde_json reads bytes and refuses invalid UTF-8; decoding with replacement characters would not.
        send(res, {
          status: 400,
          contentType: 'text/plain; charset=utf-8',
          body: 'Json deserialize error: invalid unicode code point',
        });
        return;
      }
      if (typeof body !== 'string') {
        // actix-web's JsonPayloadError::OverflowKnownLength / Overflow.
        send(res, {
          status: 413,
          contentType: 'text/plain; charset=utf-8',
          body:
            body.declared !== undefined
              ? `JSON payload (${body.declared} bytes) is larger than allowed (limit: ${maxBody} bytes).`
              : `JSON payload has exceeded limit (${maxBody} bytes).`,
        });
        return;
      }
      let answer: HttpAnswer | Promise<HttpAnswer>;
      try {
        answer = handleJsonRpc(ctx, body, (e) => log.error({ err: e }, 'rpc method failed'));
      } catch (error) {
        // A throw here is inside a stream callback: uncaught, it would end the process.
        log.error({ err: error }, 'rpc request failed');
        send(res, { status: 500, contentType: 'text/plain; charset=utf-8', body: 'Internal Server Error' });
        return;
      }
      if (answer instanceof Promise) {
        answer.then(
          (a) => send(res, a),
          (error) => {
            log.error({ err: error }, 'rpc request failed');
            if (!res.headersSent)
              send(res, {
                status: 500,
                contentType: 'text/plain; charset=utf-8',
                body: 'Internal Server Error',
              });
          },
        );
      } else send(res, answer);
    });
    return;
  }
  const head = method === 'HEAD';
  if (method === 'GET' || head) {
    if (path === '/status') return send(res, json(status(ctx)), head);
    if (path === '/health') return send(res, json(health()), head);
  }
  if (method === 'GET') {
    if (path === '/network_info') return send(res, json(networkInfo(ctx)));
    if (path === '/metrics') {
      const body = [
        '# TYPE near_block_height_head gauge',
        `near_block_height_head ${ctx.chain.head.height}`,
        '# TYPE near_rpc_total_count counter',
        `near_rpc_total_count ${counters.requests}`,
        '# TYPE near_receipts_in_flight gauge',
        `near_receipts_in_flight ${ctx.chain.pendingReceiptCount}`,
        '',
      ].join('\n');
      return send(res, { status: 200, contentType: 'text/plain; charset=utf-8', body });
    }
  }
  // actix-web: a known resource without a route for the method answers 405, an unknown path 404; both with an
  // empty body.
  req.resume();
  const known = path === '/' || ['/status', '/health', '/network_info', '/metrics'].includes(path);
  res.writeHead(known ? 405 : 404, { 'content-length': '0', ...corsFor(res) });
  res.end();
}

/** actix-web's `JsonConfig` check: a JSON subtype (`application/json`, `text/json`…) or a `+json` suffix. */
function isJsonContentType(header: string | undefined): boolean {
  const mime = (header ?? '').split(';')[0].trim().toLowerCase();
  const slash = mime.indexOf('/');
  if (slash <= 0) return false;
  const subtype = mime.slice(slash + 1);
  return subtype === 'json' || subtype.endsWith('+json');
}

const NOT_UTF8 = Symbol('not UTF-8');

/** The body as text, `NOT_UTF8`, or `{declared}` when it is longer than `max` bytes (the rest is not kept). */
function readBody(
  req: IncomingMessage,
  max: number,
  onBody: (body: string | typeof NOT_UTF8 | { declared?: number }) => void,
): void {
  const header = req.headers['content-length'];
  const declared = header === undefined ? undefined : Number(header);
  if (declared !== undefined && declared > max) {
    req.resume();
    onBody({ declared });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > max) {
      over = true;
      chunks.length = 0;
      onBody({});
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (over) return;
    const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    onBody(isUtf8(bytes) ? bytes.toString('utf8') : NOT_UTF8);
  });
  // A client that goes away mid-body: nothing to answer (and an unhandled 'error' would end the process).
  req.on('error', () => {
    over = true;
  });
}
