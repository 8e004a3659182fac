/**
 * The RPC port's extra routes for people rather than clients (docs/rpc.md, "Extra routes"):
 * - `GET /explorer` and `/explorer/<file>`: the explorer page, static files built by `@shadebox/explorer`
 *   (read from disk once; the node loads no UI code);
 * - `GET /explorer/settings.json`: what the page reads at load (explorer-settings.ts: the local EVM chain);
 * - `GET /events/blocks`: server-sent events, one `block` event per new head (`{"height","hash"}`) and one
 *   `rewind` event when `sandbox_revert` moves the head back;
 * - `GET /` from a browser (an `Accept` that names `text/html`) is redirected to `/explorer`; every other
 *   `GET /` keeps nearcore's empty 405.
 */

import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { BlockRecord } from '../chain/records.js';
import { type ExplorerSettings, NO_EXPLORER_SETTINGS } from './explorer-settings.js';
import type { RpcContext } from './rpc-context.js';

export const EXPLORER_PATH = '/explorer';
export const BLOCK_EVENTS_PATH = '/events/blocks';
export const EXPLORER_SETTINGS_PATH = `${EXPLORER_PATH}/settings.json`;

/** A comment line on idle streams, so proxies and browsers keep them open. */
const KEEP_ALIVE_MS = 15_000;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** Where the built page is: `@shadebox/explorer`'s dist/, or undefined when it is not installed. */
export function defaultExplorerDir(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('@shadebox/explorer/dist/index.html'));
  } catch {
    return undefined;
  }
}

/** A browser's navigation asks for HTML first; curl (`*\/*`) and JSON-RPC clients do not name it. */
export function isBrowserNavigation(req: IncomingMessage): boolean {
  return /(^|,)\s*text\/html\b/i.test(req.headers.accept ?? '');
}

export class ExplorerRoutes {
  private readonly files = new Map<string, Buffer | null>();
  private readonly streams = new Set<ServerResponse>();
  private stopping = false;
  private where: string | undefined | (() => string | undefined);

  /** `dir` may be a function, called on the first request of a file: resolving the package at start loads
   * Node's package-exports resolver into a node nobody may ever browse. */
  constructor(
    private readonly ctx: RpcContext,
    dir: string | undefined | (() => string | undefined),
    /** Read on every request of the settings: they change once services beside the node start. */
    private readonly settings: () => ExplorerSettings = () => NO_EXPLORER_SETTINGS,
  ) {
    this.where = dir;
  }

  private get dir(): string | undefined {
    if (typeof this.where === 'function') this.where = this.where();
    return this.where;
  }

  /** Answers the request when it is one of these routes; false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse, path: string, cors: Record<string, string>): boolean {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return false;
    if (path === '/' && method === 'GET' && isBrowserNavigation(req)) {
      req.resume();
      res.writeHead(302, { location: `${EXPLORER_PATH}/`, 'content-length': '0' });
      res.end();
      return true;
    }
    if (path === BLOCK_EVENTS_PATH && method === 'GET') {
      this.openStream(req, res, cors);
      return true;
    }
    if (path === EXPLORER_SETTINGS_PATH) {
      req.resume();
      const body = Buffer.from(JSON.stringify(this.settings()));
      res.writeHead(200, {
        'content-type': CONTENT_TYPES['.json'],
        'content-length': String(body.length),
        'cache-control': 'no-store',
        ...cors,
      });
      res.end(method === 'HEAD' ? undefined : body);
      return true;
    }
    if (path === EXPLORER_PATH || path.startsWith(`${EXPLORER_PATH}/`)) {
      req.resume();
      this.serveFile(res, path.slice(EXPLORER_PATH.length + 1) || 'index.html', method === 'HEAD');
      return true;
    }
    return false;
  }

  /** Ends every open event stream and refuses new ones (the server is stopping). */
  endStreams(): void {
    this.stopping = true;
    for (const res of this.streams) res.end();
    this.streams.clear();
  }

  private serveFile(res: ServerResponse, name: string, head: boolean): void {
    const body = /^[a-z0-9][a-z0-9._-]*$/i.test(name) ? this.read(name) : null;
    if (!body) {
      const text =
        this.dir === undefined || this.read('index.html') === null
          ? 'The explorer is not built: run `npm run build -w @shadebox/explorer`.\n'
          : 'Not Found\n';
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(head ? undefined : text);
      return;
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(name)] ?? 'application/octet-stream',
      'content-length': String(body.length),
      'cache-control': 'no-cache',
    });
    res.end(head ? undefined : body);
  }

  private read(name: string): Buffer | null {
    if (this.dir === undefined) return null;
    let body = this.files.get(name);
    if (body === undefined) {
      try {
        body = readFileSync(join(this.dir, name));
      } catch {
        body = null;
      }
      this.files.set(name, body);
    }
    return body;
  }

  private openStream(req: IncomingMessage, res: ServerResponse, cors: Record<string, string>): void {
    req.resume();
    if (this.stopping) {
      res.writeHead(503, { 'content-length': '0' });
      res.end();
      return;
    }
    // The producer's chain: on the archival endpoint `ctx.chain` is a read view that emits nothing.
    const chain = this.ctx.producer.chain;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...cors,
    });
    const send = (event: string, block: BlockRecord) =>
      res.write(`event: ${event}\ndata: ${JSON.stringify({ height: block.height, hash: block.hash })}\n\n`);
    const onBlock = (block: BlockRecord) => send('block', block);
    const onRewind = (block: BlockRecord) => send('rewind', block);
    send('block', chain.head);
    chain.on('block', onBlock);
    chain.on('rewind', onRewind);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();
    this.streams.add(res);
    res.once('close', () => {
      clearInterval(keepAlive);
      chain.off('block', onBlock);
      chain.off('rewind', onRewind);
      this.streams.delete(res);
    });
  }
}
