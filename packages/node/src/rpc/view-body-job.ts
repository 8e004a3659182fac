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
import { parseQueryRequest, readBase64 } from './methods/query-request.js';
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
  /** The key of its answer in the worker's cache (`cacheKeyOf`). */
  cacheKey: string;
}

/** The view a body asks for when the worker can answer it (a route at `chain` for its finality and account),
 * else undefined. */
export function bodyView(
  body: string,
  chain: number,
  routes: ReadonlyMap<string, ViewRoute>,
): BodyView | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRequest(message) || message.method !== 'query') return undefined;
  const params = message.params ?? null;
  const plain = plainCallFunction(params);
  // A plain request nests two levels deep at most (its id is not an object): serde's limit cannot apply.
  const shallow = plain !== undefined && (typeof message.id !== 'object' || message.id === null);
  if (!shallow && recursionLimitError(body) !== undefined) return undefined;
  return plain !== undefined
    ? plainView(plain, message.id, chain, routes)
    : parsedView(params, message.id, chain, routes);
}

/** The fields of a `call_function` request at a finality, each a string. */
interface PlainCallFunction {
  request_type: 'call_function';
  finality: string;
  account_id: string;
  method_name: string;
  args_base64: string;
}

const PLAIN_KEYS = new Set(['request_type', 'finality', 'account_id', 'method_name', 'args_base64']);
const FINALITIES = new Set(['optimistic', 'near-final', 'final']);

/**
 * The params when they are the form every client sends — exactly `request_type` `call_function`, `finality`,
 * `account_id`, `method_name` and `args_base64`, all strings, in any order — read without the general reader
 * (methods/query-request.ts), which reads them to the same view; else undefined.
 */
function plainCallFunction(params: unknown): PlainCallFunction | undefined {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const fields = params as Record<string, unknown>;
  let count = 0;
  for (const key in fields) {
    if (!PLAIN_KEYS.has(key) || typeof fields[key] !== 'string') return undefined;
    count++;
  }
  if (count !== PLAIN_KEYS.size || fields.request_type !== 'call_function') return undefined;
  return fields as unknown as PlainCallFunction;
}

function plainView(
  plain: PlainCallFunction,
  id: unknown,
  chain: number,
  routes: ReadonlyMap<string, ViewRoute>,
): BodyView | undefined {
  // Another finality fails to parse, as it does in the general reader.
  if (!FINALITIES.has(plain.finality)) return undefined;
  // A route is only ever given for a valid account id, so an account with a route needs no other check.
  const route = routes.get(routeKey(chain, plain.finality, plain.account_id));
  if (route === undefined) return undefined;
  let args: Uint8Array;
  try {
    args = readBase64(plain.args_base64);
  } catch {
    return undefined;
  }
  return {
    route,
    method: plain.method_name,
    args,
    id,
    cacheKey: cacheKeyOf(chain, plain.finality, plain.account_id, plain.method_name, plain.args_base64),
  };
}

function parsedView(
  params: unknown,
  id: unknown,
  chain: number,
  routes: ReadonlyMap<string, ViewRoute>,
): BodyView | undefined {
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
  const method = parsed.fields.methodName!;
  return {
    route,
    method,
    args: parsed.fields.args!,
    id,
    // Read as a string: the reader took `args_base64` from these params.
    cacheKey: cacheKeyOf(
      chain,
      parsed.ref.finality,
      parsed.accountId,
      method,
      (params as { args_base64: string }).args_base64,
    ),
  };
}

/** The key of a view's answer in the worker's cache of the current head: what the answer depends on. */
function cacheKeyOf(chain: number, finality: string, accountId: string, method: string, argsBase64: string) {
  return `${chain}\u0000${finality}\u0000${accountId}\u0000${method}\u0000${argsBase64}`;
}

/** The answer's body (the whole JSON-RPC envelope) for a view's `result` text. */
export function bodyAnswer(jobId: number, view: BodyView, rawJson: string): ViewJobAnswer {
  return { id: jobId, kind: 'answer', rawJson: envelope(view.id, 'result', rawJson) };
}
