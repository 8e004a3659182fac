/**
 * A whole `query` `call_function` request answered by a view worker from its body, so that the RPC's thread
 * only reads the HTTP request and writes the answer (rpc/view-worker-pool.ts `runBody`). The worker reads the
 * body as the RPC's thread does (rpc/jsonrpc-message.ts, methods/query-request.ts) and answers only a request it
 * can answer exactly as the RPC's thread would: a well-formed `call_function` at a `finality` for which the RPC's
 * thread gave it a route at the current head — the block that finality names, the account there and the version
 * of the contract's data (a route is sent once the RPC's thread has run a view of that account at that finality,
 * and every route is forgotten when the head moves). Anything else — another method, a parse error, a
 * `block_id`, an account without a route, a view that reads state the worker does not hold — is handed back,
 * and the RPC's thread answers it from the body as it always does.
 */
import { envelope, isRequest, recursionLimitError } from './jsonrpc-message.js';
import { parseQueryRequest } from './methods/query-request.js';
import { ReadCache } from './read-cache.js';
import type { ViewJobAnswer } from './view-job.js';

/** What a route names: the account at the block of one finality (a target) and its data's version. */
export interface ViewRoute {
  target: number;
  dataVersion: number;
}

/** The key of a route: the chain (the pool numbers the chains it serves), the finality and the account. */
export function routeKey(chain: number, finality: string, accountId: string): string {
  return `${chain}\u0000${finality}\u0000${accountId}`;
}

/** A request the worker answers: what runs its view, from its route. */
export interface BodyView {
  route: ViewRoute;
  method: string;
  args: Uint8Array;
  /** The request's id, for the envelope. */
  id: unknown;
  /** The read cache's key of the request. */
  cacheKey: string;
}

/** The view a body asks for when the worker can answer it (a route at `chain` for its finality and account),
 * else undefined. */
export function bodyView(
  body: string,
  chain: number,
  routes: ReadonlyMap<string, ViewRoute>,
): BodyView | undefined {
  if (recursionLimitError(body) !== undefined) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRequest(message) || message.method !== 'query') return undefined;
  const params = message.params ?? null;
  // The legacy positional form is the RPC thread's (it reads at `optimistic`, with its own errors).
  if (Array.isArray(params)) return undefined;
  let parsed: ReturnType<typeof parseQueryRequest>;
  try {
    parsed = parseQueryRequest(params);
  } catch {
    return undefined;
  }
  if (parsed.requestType !== 'call_function' || !('finality' in parsed.ref)) return undefined;
  const route = routes.get(routeKey(chain, parsed.ref.finality, parsed.accountId));
  if (route === undefined) return undefined;
  return {
    route,
    method: parsed.fields.methodName!,
    args: parsed.fields.args!,
    id: message.id,
    cacheKey: ReadCache.keyOf('query', params),
  };
}

/** The answer's body (the whole JSON-RPC envelope) for a view's `result` text. */
export function bodyAnswer(jobId: number, view: BodyView, rawJson: string): ViewJobAnswer {
  return { id: jobId, kind: 'answer', rawJson: envelope(view.id, 'result', rawJson) };
}
