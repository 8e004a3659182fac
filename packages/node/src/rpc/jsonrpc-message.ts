/**
 * The JSON-RPC 2.0 message as nearcore reads and writes it, the parts that need no node: serde_json's nesting
 * limit, the request shape (`deny_unknown_fields`) and the answer's envelope. Shared by the RPC's thread
 * (rpc/jsonrpc.ts) and a view worker answering a body itself (rpc/view-body-job.ts).
 */

const REQUEST_KEYS = new Set(['jsonrpc', 'method', 'params', 'id']);

export function envelope(id: unknown, key: 'result' | 'error', payload: string): string {
  return `{"jsonrpc":"2.0","${key}":${payload},"id":${JSON.stringify(id ?? null)}}`;
}

/** serde_json's nesting limit: its deserializer starts with 128 levels and refuses the level that uses the last. */
const MAX_NESTING = 127;

/**
 * serde_json's `recursion limit exceeded at line L column C` for a body nested deeper than it reads (arrays and
 * objects, strings skipped), with the position of the bracket that went too deep; undefined otherwise. Deeper
 * values would also overflow the stack of the code that walks the params.
 */
export function recursionLimitError(body: string): string | undefined {
  let depth = 0;
  let inString = false;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_NESTING)
        return `recursion limit exceeded at line ${line} column ${i - lineStart + 1}`;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return undefined;
}

export interface Request {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
  id: unknown;
}

/** nearcore's `Request` (`deny_unknown_fields`): `jsonrpc` exactly "2.0", a string `method`, an `id` (any JSON,
 * null included), optional `params`, nothing else. */
export function isRequest(message: unknown): message is Request {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return false;
  const m = message as Record<string, unknown>;
  for (const key of Object.keys(m)) if (!REQUEST_KEYS.has(key)) return false;
  return m.jsonrpc === '2.0' && typeof m.method === 'string' && 'id' in m;
}
