/**
 * The JSON-RPC 2.0 envelope as nearcore reads and writes it (chain/jsonrpc/src/lib.rs, jsonrpc-primitives
 * message.rs). The body is deserialised by actix as `web::Json<Message>`, where `Message` is an untagged enum
 * ending in a catch-all `UnmatchedSub(Value)`: so only a body that is not JSON at all gets actix's plain-text
 * HTTP 400. Every JSON value that is not exactly a request — `{jsonrpc: "2.0", method: <string>, params?, id}`,
 * no other key — is a notification, a response, a batch or unmatched, and gets PARSE_ERROR "JSON RPC Request
 * format was expected" with `id: null` (HTTP 400). Requests are dispatched to their method.
 *
 * Results (and handler-error causes and data) are written with sorted keys, as nearcore's `serde_json::Value`
 * writes them (sorted-json.ts).
 */
import { stringifyJson } from '../chain/json.js';
import { NODE_STOPPING_MESSAGE, NodeStoppingError } from '../chain/node-stopping-error.js';
import { envelope, isRequest, recursionLimitError } from './jsonrpc-message.js';
import { METHODS } from './methods/index.js';
import { CACHEABLE_METHODS, type CachedAnswer, ReadCache } from './read-cache.js';
import type { RpcContext } from './rpc-context.js';
import { httpStatusOf, internalError, methodNotFound, parseError, RpcResponseError } from './rpc-error.js';

export { recursionLimitError };

export interface HttpAnswer {
  status: number;
  contentType: 'application/json' | 'text/plain; charset=utf-8';
  body: string;
}

function plain(status: number, body: string): HttpAnswer {
  return { status, contentType: 'text/plain; charset=utf-8', body };
}

/**
 * Answers one JSON-RPC request body. Synchronous when the method is (reads, cached answers); a promise only for
 * methods that wait (transactions), so the read path costs no extra turns of the event loop.
 */
export function handleJsonRpc(
  ctx: RpcContext,
  body: string,
  onError?: (e: unknown) => void,
): HttpAnswer | Promise<HttpAnswer> {
  const tooDeep = recursionLimitError(body);
  if (tooDeep) return plain(400, `Json deserialize error: ${tooDeep}`);
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch (e) {
    return plain(400, `Json deserialize error: ${(e as Error).message}`);
  }
  if (!isRequest(message))
    return errorAnswer(null, parseError('JSON RPC Request format was expected'), null, ctx);
  const m = message;

  // Own methods only: `toString`, `constructor` or `hasOwnProperty` are not methods of the node.
  const method = Object.hasOwn(METHODS, m.method) ? METHODS[m.method] : undefined;
  const params = m.params ?? null;
  if (!method) return errorAnswer(m.id, methodNotFound(m.method), params, ctx);

  const head = ctx.chain.head;
  const cacheKey =
    ctx.readCache && CACHEABLE_METHODS.has(m.method) ? ReadCache.keyOf(m.method, params) : undefined;
  if (cacheKey !== undefined) {
    const hit = ctx.readCache!.get(cacheKey, head.hash);
    if (hit) return answerOf(m.id, hit);
  }

  const done = (result: unknown): HttpAnswer => {
    const text =
      result !== null && typeof result === 'object' && 'rawJson' in result
        ? (result as { rawJson: string }).rawJson
        : stringifyJson(result);
    return finish({ status: 200, key: 'result', payload: text });
  };
  const failed = (e: unknown): HttpAnswer => {
    if (e instanceof NodeStoppingError) return shuttingDownAnswer(m.id);
    if (!(e instanceof RpcResponseError)) {
      onError?.(e);
      return errorAnswer(m.id, internalError(e instanceof Error ? e.message : String(e)), params, ctx);
    }
    return finish({ status: httpStatusOf(e, params, head.height), key: 'error', payload: errorJson(e) });
  };
  const finish = (answer: CachedAnswer): HttpAnswer => {
    if (cacheKey !== undefined) ctx.readCache!.set(cacheKey, head.hash, answer);
    return answerOf(m.id, answer);
  };

  let out: unknown;
  try {
    out = method(ctx, params);
  } catch (e) {
    return failed(e);
  }
  return out instanceof Promise ? out.then(done, failed) : done(out);
}

/**
 * The answer to a request the node cannot finish because it is stopping (or that arrives while it stops):
 * HTTP 503 with a JSON-RPC INTERNAL_ERROR whose message says so, under the request's id when it is known.
 */
export function shuttingDownAnswer(id: unknown = null): HttpAnswer {
  const error = internalError(NODE_STOPPING_MESSAGE);
  return { status: 503, contentType: 'application/json', body: envelope(id, 'error', errorJson(error)) };
}

/** The id of a JSON-RPC request body, or null when it has none that can be read. */
export function requestIdOf(body: string | undefined): unknown {
  if (body === undefined) return null;
  try {
    const message = JSON.parse(body) as { id?: unknown } | null;
    return message !== null && typeof message === 'object' && 'id' in message ? message.id : null;
  } catch {
    return null;
  }
}

function answerOf(id: unknown, answer: CachedAnswer): HttpAnswer {
  return {
    status: answer.status,
    contentType: 'application/json',
    body: envelope(id, answer.key, answer.payload),
  };
}

/**
 * The error object in nearcore's field order (`name`, `cause`, `code`, `message`, `data`). A request-validation
 * cause is a typed enum (`name` then `info`); a handler or internal cause, and `data`, are `serde_json::Value`s,
 * so their keys come out sorted.
 */
function errorJson(error: RpcResponseError): string {
  const e = error.toJSON() as { name: string; cause: unknown; code: number; message: string; data?: unknown };
  const parts = [
    `"name":${JSON.stringify(e.name)}`,
    `"cause":${e.name === 'REQUEST_VALIDATION_ERROR' ? JSON.stringify(e.cause) : stringifyJson(e.cause)}`,
    `"code":${e.code}`,
    `"message":${JSON.stringify(e.message)}`,
  ];
  if (e.data !== undefined) parts.push(`"data":${stringifyJson(e.data)}`);
  return `{${parts.join(',')}}`;
}

function errorAnswer(id: unknown, error: RpcResponseError, params: unknown, ctx: RpcContext): HttpAnswer {
  return {
    status: httpStatusOf(error, params, ctx.chain.head.height),
    contentType: 'application/json',
    body: envelope(id, 'error', errorJson(error)),
  };
}
