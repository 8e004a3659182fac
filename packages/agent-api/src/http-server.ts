/**
 * The HTTP wiring of the agent API: `POST {BASE_PATH}/<route>` with a Content-Length is answered straight off
 * the socket by the fast path; everything else (health, OpenAPI, CORS preflights, other verbs and paths,
 * large or chunked bodies) goes to node:http. Every body that is written is redacted first.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type FastAnswer, listenBehindFastPath } from '@shadebox/http-fast-path';
import { readBody } from './body.js';
import type { AgentApiStatus } from './boot.js';
import { type Answer, errorAnswer, success } from './error-answer.js';
import { HttpError } from './http-error.js';
import { listenError } from './listen-error.js';
import { type AgentApiLogger, errorMessage } from './logger.js';
import { openApiDocument } from './openapi.js';
import { answerPost, type Route } from './routes.js';

export const BASE_PATH = '/api/agent';

/** How long a stopping agent API lets calls in flight finish (their transactions are already sent) before it
 * answers them with 503 shutting_down. */
const STOP_GRACE_MS = 4_000;

/** The answer to a request that arrives while the agent API stops, or that it could not finish before it
 * stopped (docs/agent-api.md#errors). */
const SHUTTING_DOWN: Answer = {
  status: 503,
  body: {
    error: {
      code: 'shutting_down',
      message:
        'the agent API is shutting down; send the request again once it runs (a call cut short may have reached the chain: check before you resend it)',
    },
  },
};

export interface ServeOptions {
  routes: Record<string, Route>;
  state: AgentApiStatus;
  port: number;
  host: string;
  /** `Access-Control-Allow-Origin`; no CORS headers when unset. */
  corsOrigin?: string;
  redact(text: string): string;
  log: AgentApiLogger;
}

export interface AgentApiServer {
  port: number;
  close(): Promise<void>;
}

export async function serveAgentApi(o: ServeOptions): Promise<AgentApiServer> {
  const { routes, state, log } = o;
  const corsHeaders: Record<string, string> = o.corsOrigin
    ? { 'access-control-allow-origin': o.corsOrigin, vary: 'Origin' }
    : {};

  /** The JSON text of an answer's body, secrets removed. */
  const answerText = (answer: Answer) =>
    o.redact(JSON.stringify(answer.body === undefined ? null : answer.body));

  function send(res: ServerResponse, answer: Answer): void {
    // Already answered: the server stopped and answered it with shutting_down.
    if (res.headersSent || res.writableEnded) return;
    const text = answerText(answer);
    res.writeHead(answer.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
      ...corsHeaders,
      ...answer.headers,
    });
    res.end(text);
  }

  /** Every request the fast path does not take. */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The path without query or fragment (cheaper than a URL object on every request).
    const raw = req.url ?? '/';
    const end = raw.search(/[?#]/);
    const path = (end === -1 ? raw : raw.slice(0, end)).replace(/\/+$/, '');
    const method = req.method ?? 'GET';
    // GET /health at the root answers as {BASE_PATH}/health does (probes that know only the port).
    const isRootHealth = path === '/health';
    if (!isRootHealth && !path.startsWith(`${BASE_PATH}/`)) {
      throw new HttpError(404, 'not_found', `no route ${path || '/'}: the agent API is under ${BASE_PATH}/`);
    }
    const name = isRootHealth ? 'health' : path.slice(BASE_PATH.length + 1);
    if (o.corsOrigin && method === 'OPTIONS') {
      req.resume();
      res.writeHead(204, {
        ...corsHeaders,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    if (name === 'health' || name === 'openapi.json') {
      if (method !== 'GET' && method !== 'HEAD') {
        throw new HttpError(405, 'method_not_allowed', `${name} takes GET`, undefined, {
          allow: 'GET, HEAD',
        });
      }
      req.resume();
      if (name === 'openapi.json') return send(res, success(openApiDocument(`${BASE_PATH}`)));
      const { stage, ready: isReady, accountId, lastError } = state;
      return send(res, {
        status: isReady ? 200 : 503,
        body: {
          status: isReady ? 'ok' : 'booting',
          stage,
          ready: isReady,
          ...(accountId ? { accountId } : {}),
          ...(!isReady && lastError ? { lastError } : {}),
        },
      });
    }
    const route = Object.hasOwn(routes, name) ? routes[name] : undefined;
    if (!route) {
      throw new HttpError(
        404,
        'not_found',
        `no route ${path}: the routes are POST ${Object.keys(routes).join(', ')} and GET health, openapi.json under ${BASE_PATH}`,
      );
    }
    if (method !== route.method) {
      throw new HttpError(405, 'method_not_allowed', `${name} takes ${route.method}`, undefined, {
        allow: route.method,
      });
    }
    const bytes = await readBody(req);
    send(res, await answerPost(state, route.handler, bytes, log));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      // The client went away mid-body ('aborted'): nobody to answer, and not an error of the service.
      if (res.headersSent || req.errored) {
        res.destroy();
        return;
      }
      if (e instanceof HttpError && e.status === 413) res.setHeader('connection', 'close');
      send(res, errorAnswer(e, log));
    });
  });
  server.requestTimeout = 120_000;
  // As the fast path (65 s): one connection carries fast-path and relayed answers, and node:http's default of
  // 5 s closed relayed ones under a client that reused them in the meantime.
  server.keepAliveTimeout = 65_000;

  // The public port: `POST {BASE_PATH}/<route>` with a Content-Length is answered straight off the socket,
  // everything else is relayed to node:http above (see @shadebox/http-fast-path).
  const fastPaths = new Map(
    Object.entries(routes)
      .filter(([, route]) => route.method === 'POST')
      .map(([name, route]) => [`${BASE_PATH}/${name}`, route.handler]),
  );
  const fastHeaders = Object.entries({ 'cache-control': 'no-store', ...corsHeaders })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const toFast = (answer: Answer): FastAnswer => ({
    status: answer.status,
    contentType: 'application/json; charset=utf-8',
    body: answerText(answer),
    headers: answer.headers
      ? fastHeaders +
        Object.entries(answer.headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('')
      : fastHeaders,
  });
  const front = await listenBehindFastPath(
    server,
    {
      rule: { acceptsPath: (path) => fastPaths.has(path), contentType: 'any' },
      handle: (request) => {
        const answer = answerPost(state, fastPaths.get(request.path)!, request.body, log);
        return answer instanceof Promise ? answer.then(toFast) : toFast(answer);
      },
      onError: (e) => log.error({ error: errorMessage(e) }, 'request failed'),
      shuttingDown: () => toFast(SHUTTING_DOWN),
    },
    o.port,
    o.host,
  ).catch((error: unknown) => {
    throw listenError(error, o.host, o.port);
  });
  return { port: front.address.port, close: () => front.close(STOP_GRACE_MS) };
}
