/**
 * What an answer may look like. Each check returns the answer's shape (a short label the report counts) and,
 * when the answer is not one the docs allow, the violation.
 *
 * JSON-RPC (docs/rpc.md, nearcore's rpc_handler): a JSON envelope `{jsonrpc: "2.0", result | error, id}` whose
 * error is `{name, cause: {name, info?}, code, message, data}`, with the status its name implies (400 request
 * validation, 500 internal, 408 timeout, 422 unknown block by an old height, 200 otherwise); or actix's plain-text
 * 400 (`Json deserialize error…`, `Content type error`), 413 for a body over the limit, 404 / 405 with an empty
 * body for other paths and verbs. An INTERNAL_ERROR or a plain 500 is a bug of ours, never a documented answer.
 *
 * Agent API (docs/agent-api.md#errors): 200 with a JSON body, or `{error: {code, message, field?, stage?}}`
 * with the status of its code.
 */

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface Verdict {
  shape: string;
  violation?: string;
}

const RPC_ERROR_NAMES = new Set(['REQUEST_VALIDATION_ERROR', 'HANDLER_ERROR', 'INTERNAL_ERROR']);

/** What the request was, as far as the expected answer depends on it. */
export interface RpcExpectation {
  /** The id sent, when the body is a well-formed request (the answer echoes it). */
  id?: unknown;
  /** The body is not JSON the node must read (invalid UTF-8, a BOM, not JSON at all): plain-text 400. */
  notJson?: boolean;
  /** The content type is not JSON: 400 `Content type error`. */
  wrongContentType?: boolean;
  /** The body is larger than the node's 10 MiB limit: 413. */
  tooLarge?: boolean;
}

export function checkRpcAnswer(a: Answer, expect: RpcExpectation = {}): Verdict {
  const text = a.body.toString('utf8');
  if (a.contentType.startsWith('text/plain')) {
    if (a.status === 400 && text === 'Content type error') {
      return expect.wrongContentType
        ? { shape: '400 content-type' }
        : { shape: '400 content-type', violation: 'a JSON content type refused' };
    }
    if (a.status === 400 && text.startsWith('Json deserialize error')) {
      return expect.notJson || expect.wrongContentType
        ? { shape: '400 json-deserialize' }
        : { shape: '400 json-deserialize', violation: 'well-formed JSON refused as not JSON' };
    }
    if (a.status === 413 && text.startsWith('JSON payload')) {
      return expect.tooLarge
        ? { shape: '413' }
        : { shape: '413', violation: 'a body under the limit refused' };
    }
    return { shape: `${a.status} text`, violation: `undocumented plain-text answer: ${text.slice(0, 200)}` };
  }
  if (a.status === 404 || a.status === 405) {
    return a.body.length === 0
      ? { shape: `${a.status}` }
      : { shape: `${a.status}`, violation: 'a body on 404/405' };
  }
  if (!a.contentType.startsWith('application/json')) {
    return { shape: `${a.status} ${a.contentType}`, violation: `undocumented content type ${a.contentType}` };
  }
  if (expect.wrongContentType)
    return { shape: `${a.status} json`, violation: 'a non-JSON content type was read' };
  if (expect.tooLarge) return { shape: `${a.status} json`, violation: 'a body over the limit was read' };
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(text);
  } catch {
    return { shape: `${a.status} bad-json`, violation: 'the answer is not JSON' };
  }
  if (m === null || typeof m !== 'object' || Array.isArray(m) || m.jsonrpc !== '2.0' || !('id' in m)) {
    return { shape: `${a.status} bad-envelope`, violation: 'not a JSON-RPC 2.0 envelope' };
  }
  if ('result' in m === 'error' in m) {
    return {
      shape: `${a.status} bad-envelope`,
      violation: 'the envelope has neither or both of result and error',
    };
  }
  if ('result' in m) {
    if (a.status !== 200)
      return { shape: `${a.status} result`, violation: 'a result with a status other than 200' };
    if (expect.notJson) return { shape: '200 result', violation: 'a body that is not JSON was answered' };
    if ('id' in expect && JSON.stringify(m.id) !== JSON.stringify(expect.id ?? null)) {
      return { shape: '200 result', violation: 'the id is not the request id' };
    }
    return { shape: '200 result' };
  }
  const e = m.error as Record<string, unknown> | null;
  if (e === null || typeof e !== 'object')
    return { shape: `${a.status} bad-error`, violation: 'error is not an object' };
  const cause = e.cause as { name?: unknown; info?: unknown } | undefined;
  const name = typeof e.name === 'string' ? e.name : '?';
  const causeName = cause && typeof cause === 'object' && typeof cause.name === 'string' ? cause.name : '?';
  const shape = `${a.status} ${name}/${causeName}`;
  if (!RPC_ERROR_NAMES.has(name)) return { shape, violation: `unknown error name ${name}` };
  if (causeName === '?') return { shape, violation: 'error.cause has no name' };
  if (typeof e.code !== 'number' || typeof e.message !== 'string' || !('data' in e)) {
    return { shape, violation: 'error lacks code, message or data' };
  }
  if (expect.notJson) return { shape, violation: 'a body that is not JSON was read as JSON' };
  if (name === 'INTERNAL_ERROR')
    return { shape, violation: `internal error: ${JSON.stringify(e.data).slice(0, 300)}` };
  const status =
    name === 'REQUEST_VALIDATION_ERROR'
      ? [400]
      : causeName === 'TIMEOUT_ERROR'
        ? [408]
        : causeName === 'UNKNOWN_BLOCK'
          ? [200, 422]
          : [200];
  if (!status.includes(a.status)) return { shape, violation: `${name}/${causeName} with HTTP ${a.status}` };
  if (name !== 'REQUEST_VALIDATION_ERROR' || causeName === 'METHOD_NOT_FOUND') {
    if ('id' in expect && JSON.stringify(m.id) !== JSON.stringify(expect.id ?? null)) {
      return { shape, violation: 'the id is not the request id' };
    }
  }
  return { shape };
}

/** Error codes of the agent API by status (docs/agent-api.md#errors; 422 and 503 as issue 15 adds them). */
const AGENT_CODES: Record<number, readonly string[]> = {
  400: ['invalid_json', 'too_deep', 'invalid_body', 'invalid_field'],
  403: ['contract_not_allowed'],
  404: ['not_found', 'method_not_found'],
  405: ['method_not_allowed'],
  413: ['body_too_large'],
  422: ['contract_panic', 'contract_error', 'invalid_transaction', 'insufficient_balance'],
  502: ['chain_unreachable', 'chain_error'],
  503: ['not_ready', 'queue_full', 'transaction_dropped', 'shutting_down'],
  504: ['chain_timeout'],
};

export function checkAgentAnswer(a: Answer, opts: { head?: boolean } = {}): Verdict {
  if (opts.head)
    return a.status === 200 || a.status === 405
      ? { shape: `${a.status} head` }
      : { shape: `${a.status} head`, violation: `HEAD answered ${a.status}` };
  // A CORS preflight.
  if (a.status === 204 && a.body.length === 0) return { shape: '204' };
  if (!a.contentType.startsWith('application/json')) {
    return {
      shape: `${a.status} ${a.contentType || 'no-type'}`,
      violation: `not JSON (${a.contentType || 'no content type'})`,
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(a.body.toString('utf8'));
  } catch {
    return { shape: `${a.status} bad-json`, violation: 'the answer is not JSON' };
  }
  if (a.status === 200) return { shape: '200' };
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string') {
    return { shape: `${a.status} bad-error`, violation: 'not {error: {code, message}}' };
  }
  const shape = `${a.status} ${error.code}`;
  if (a.status === 500) return { shape, violation: `internal error: ${error.message}` };
  if (!(AGENT_CODES[a.status] ?? []).includes(error.code)) {
    return { shape, violation: `code ${error.code} is not documented for HTTP ${a.status}` };
  }
  return { shape };
}
