/**
 * Raw JSON-RPC for the end-to-end tests that check the wire itself: the HTTP status, content type, exact text
 * and JSON of an answer, nearcore's error objects as they come, and how nearcore orders keys. Typed calls
 * that only want a result go through @shadebox/near-client instead (rpc-calls.ts).
 */

// biome-ignore lint/suspicious/noExplicitAny: RPC results are checked field by field by the tests.
export type Json = any;

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: Json;
}

/** POSTs `body` (a string is sent as is) to the RPC and keeps everything of the answer. */
export async function post(
  url: string,
  body: unknown,
  init: { contentType?: string | null; method?: string; path?: string } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = {};
  const contentType = init.contentType === undefined ? 'application/json' : init.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const response = await fetch(url + (init.path ?? '/'), {
    method: init.method ?? 'POST',
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, json };
}

/** One JSON-RPC request `{jsonrpc, id, method, params}`, the whole answer kept. */
export function postRpc(url: string, method: string, params: unknown, id: unknown = 'dontcare') {
  return post(url, { jsonrpc: '2.0', id, method, params });
}

/** One JSON-RPC call; returns `{ result }` or `{ error }` as the node answered. */
export async function rpcRaw(
  url: string,
  method: string,
  params: unknown,
): Promise<{ result?: Json; error?: Json }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'test', method, params }),
  });
  const body: Json = await response.json();
  return 'error' in body ? { error: body.error } : { result: body.result };
}

/** `JSON.stringify` with every object's keys sorted: how nearcore writes results and handler-error `cause` /
 * `data` (they pass through serde_json's BTreeMap-backed `Value`). */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value));
}
