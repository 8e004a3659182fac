/**
 * The JSON-RPC 2.0 envelope as nearcore reads and writes it (chain/jsonrpc/src/lib.rs, message.rs): a body
 * that is not JSON, or not a request object with exactly `jsonrpc: "2.0"`, `method`, `params`, `id`, gets a
 * plain-text HTTP 400; a notification (no id) or a batch gets PARSE_ERROR "JSON RPC Request format was
 * expected"; everything else is dispatched to the method.
 */
import { stringifyJson } from '../chain/json.js';
import { METHODS } from './methods/index.js';
import type { RpcContext } from './rpc-context.js';
import { httpStatusOf, internalError, methodNotFound, parseError, RpcError } from './rpc-error.js';

export interface HttpAnswer {
  status: number;
  contentType: 'application/json' | 'text/plain; charset=utf-8';
  body: string;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'method', 'params', 'id']);

function plain(status: number, body: string): HttpAnswer {
  return { status, contentType: 'text/plain; charset=utf-8', body };
}

function envelope(id: unknown, key: 'result' | 'error', payload: string): string {
  return `{"jsonrpc":"2.0","${key}":${payload},"id":${JSON.stringify(id ?? null)}}`;
}

export async function handleJsonRpc(
  ctx: RpcContext,
  body: string,
  onError?: (e: unknown) => void,
): Promise<HttpAnswer> {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch (e) {
    return plain(400, `Json deserialize error: ${(e as Error).message}`);
  }
  if (Array.isArray(message))
    return errorAnswer(null, parseError('JSON RPC Request format was expected'), null, ctx);
  if (message === null || typeof message !== 'object') {
    return plain(400, 'Json deserialize error: invalid type, expected a JSON-RPC message object');
  }
  const m = message as Record<string, unknown>;
  for (const key of Object.keys(m)) {
    if (!REQUEST_KEYS.has(key)) {
      return plain(
        400,
        `Json deserialize error: unknown field \`${key}\`, expected one of \`jsonrpc\`, \`method\`, \`params\`, \`id\``,
      );
    }
  }
  if (m.jsonrpc !== '2.0') return plain(400, 'Json deserialize error: Invalid version, expected "2.0"');
  if (typeof m.method !== 'string') return plain(400, 'Json deserialize error: missing field `method`');
  if (!('id' in m)) return errorAnswer(null, parseError('JSON RPC Request format was expected'), null, ctx);

  const method = METHODS[m.method];
  const params = m.params ?? null;
  if (!method) return errorAnswer(m.id, methodNotFound(m.method), params, ctx);
  try {
    const result = await method(ctx, params);
    const text =
      result !== null && typeof result === 'object' && 'rawJson' in result
        ? (result as { rawJson: string }).rawJson
        : stringifyJson(result);
    return { status: 200, contentType: 'application/json', body: envelope(m.id, 'result', text) };
  } catch (e) {
    if (e instanceof RpcError) return errorAnswer(m.id, e, params, ctx);
    onError?.(e);
    return errorAnswer(m.id, internalError(e instanceof Error ? e.message : String(e)), params, ctx);
  }
}

function errorAnswer(id: unknown, error: RpcError, params: unknown, ctx: RpcContext): HttpAnswer {
  return {
    status: httpStatusOf(error, params, ctx.chain.head.height),
    contentType: 'application/json',
    body: envelope(id, 'error', stringifyJson(error.toJSON())),
  };
}
