/**
 * JSON-RPC requests: every method the node serves with valid params from what the fuzzer knows of the chain,
 * then mutated (wrong types, extra keys, huge numbers, invalid ids, hashes and base64, nested junk) or replaced
 * by junk; broken envelopes, batches, huge and deep JSON, bad encodings (invalid UTF-8, BOMs, UTF-16, wrong
 * content types); and valid signed transactions, sent through every sending method at every wait level.
 */
import { RPC_METHOD_TABLE } from '@shadebox/node';
import { deepJson, type Json, junkValue, mutate } from './junk.js';
import type { Known } from './known.js';
import type { Random } from './random.js';
import type { RpcExpectation } from './shapes.js';
import type { SignedTxCase } from './transactions.js';

export interface HttpCase {
  surface: 'rpc' | 'agent';
  /** What kind of case it is, for the report's counts. */
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The reproducer: method and params (or what the body is). */
  describe: string;
  rpc?: RpcExpectation;
  /** Called with the parsed result of a successful JSON-RPC answer. */
  learn?: (result: unknown) => void;
}

const WAIT_LEVELS = ['NONE', 'INCLUDED', 'EXECUTED_OPTIMISTIC', 'INCLUDED_FINAL', 'EXECUTED', 'FINAL'];
const FINALITIES = ['optimistic', 'near-final', 'final'];

/** Every method the node serves, read from its dispatch table so that a new method is fuzzed as soon as it exists. */
export const RPC_METHODS: readonly string[] = Object.keys(RPC_METHOD_TABLE);

/** Methods whose valid params change the chain beyond what the consistency checks follow: only junk for them. */
const JUNK_ONLY = new Set([
  'sandbox_patch_state',
  'sandbox_set_next_block_timestamp',
  'sandbox_snapshot',
  'sandbox_revert',
]);

function blockRef(r: Random, k: Known): Record<string, Json> {
  return r.weighted<() => Record<string, Json>>([
    [3, () => ({ finality: r.pick(FINALITIES) })],
    [2, () => ({ block_id: r.pick(k.heights) })],
    [2, () => ({ block_id: k.blockHashes.length ? r.pick(k.blockHashes) : 0 })],
    [1, () => ({ sync_checkpoint: r.pick(['genesis', 'earliest_available']) })],
  ])();
}

function account(r: Random, k: Known): string {
  return r.pick(k.accounts);
}

/** Valid params for `method` (as far as the fuzzer knows the chain). */
function validParams(r: Random, method: string, k: Known, tx: SignedTxCase | undefined): Json {
  switch (method) {
    case 'status':
    case 'health':
    case 'network_info':
    case 'EXPERIMENTAL_genesis_config':
    case 'genesis_config':
      return r.pick([null, [], {}]);
    case 'validators':
      return r.pick<Json>([
        [null],
        { latest: null },
        'latest',
        [r.pick(k.heights)],
        { block_id: r.pick(k.heights) },
      ]);
    case 'block':
      return r.chance(0.2) ? [r.pick(k.heights)] : blockRef(r, k);
    case 'chunk':
      if (k.chunkHashes.length && r.chance(0.5))
        return r.chance(0.5) ? { chunk_id: r.pick(k.chunkHashes) } : [r.pick(k.chunkHashes)];
      return { block_id: r.pick(k.heights), shard_id: 0 };
    case 'gas_price':
      return r.pick<Json>([[null], [r.pick(k.heights)], { block_id: r.pick(k.heights) }]);
    case 'query': {
      const ref = blockRef(r, k);
      const id = account(r, k);
      return r.weighted<() => Json>([
        [3, () => ({ request_type: 'view_account', account_id: id, ...ref })],
        [
          2,
          () => ({
            request_type: 'view_access_key',
            account_id: id,
            public_key: r.pick(k.publicKeys),
            ...ref,
          }),
        ],
        [2, () => ({ request_type: 'view_access_key_list', account_id: id, ...ref })],
        [1, () => ({ request_type: 'view_code', account_id: id, ...ref })],
        [
          2,
          () => ({
            request_type: 'view_state',
            account_id: id,
            prefix_base64: r.pick(['', 'U1RBVEU=', 'YQ==']),
            ...(r.chance(0.5) ? { limit: r.range(1, 5) } : {}),
            ...ref,
          }),
        ],
        [
          3,
          () => ({
            request_type: 'call_function',
            account_id: id,
            method_name: r.pick([
              'get_owner',
              'get_agents',
              'get_agent',
              'get_approved_codehashes',
              'nope',
              'request_signature',
            ]),
            args_base64: Buffer.from(r.pick(['{}', '{"account_id":"test.near"}', '', '{'])).toString(
              'base64',
            ),
            ...ref,
          }),
        ],
        [1, () => [`account/${id}`, '']],
        [
          1,
          () => ({
            request_type: 'view_gas_key_nonces',
            account_id: id,
            public_key: r.pick(k.publicKeys),
            ...ref,
          }),
        ],
        [
          1,
          () => ({
            request_type: 'view_global_contract_code',
            // A hash no global contract has, or junk: both must be answered with nearcore's errors.
            code_hash: r.pick(['11111111111111111111111111111111', 'not-a-hash', '']),
            ...ref,
          }),
        ],
        [1, () => ({ request_type: 'view_global_contract_code_by_account_id', account_id: id, ...ref })],
      ])();
    }
    case 'send_tx':
      return r.chance(0.8)
        ? { signed_tx_base64: tx!.base64, wait_until: r.pick(WAIT_LEVELS) }
        : { signed_tx_base64: tx!.base64 };
    case 'broadcast_tx_async':
    case 'broadcast_tx_commit':
      return r.chance(0.5) ? [tx!.base64] : { signed_tx_base64: tx!.base64 };
    case 'tx':
    case 'EXPERIMENTAL_tx_status': {
      if (k.txs.length === 0 || r.chance(0.1))
        return { signed_tx_base64: k.signedTxs.length ? r.pick(k.signedTxs) : '', wait_until: 'NONE' };
      const t = r.pick(k.txs);
      return r.chance(0.2)
        ? [t.hash, t.sender]
        : {
            tx_hash: t.hash,
            sender_account_id: t.sender,
            wait_until: r.pick(['NONE', 'INCLUDED', 'EXECUTED_OPTIMISTIC']),
          };
    }
    case 'EXPERIMENTAL_receipt':
      return { receipt_id: k.receiptIds.length ? r.pick(k.receiptIds) : '11111111111111111111111111111111' };
    case 'EXPERIMENTAL_protocol_config':
      return blockRef(r, k);
    case 'changes':
    case 'EXPERIMENTAL_changes': {
      const ref = blockRef(r, k);
      const ids = Array.from({ length: r.range(1, 3) }, () => account(r, k));
      return r.pick<Json>([
        { changes_type: 'account_changes', account_ids: ids, ...ref },
        { changes_type: 'all_access_key_changes', account_ids: ids, ...ref },
        { changes_type: 'contract_code_changes', account_ids: ids, ...ref },
        { changes_type: 'data_changes', account_ids: ids, key_prefix_base64: '', ...ref },
        {
          changes_type: 'single_access_key_changes',
          keys: [{ account_id: ids[0], public_key: r.pick(k.publicKeys) }],
          ...ref,
        },
      ]);
    }
    case 'EXPERIMENTAL_changes_in_block':
    case 'block_effects':
      return blockRef(r, k);
    case 'sandbox_fast_forward':
      return { delta_height: r.range(1, 3) };
    case 'sandbox_produce_blocks':
      return { num_blocks: r.range(1, 2) };
    case 'maintenance_windows':
    case 'EXPERIMENTAL_maintenance_windows':
      return { account_id: account(r, k) };
    case 'EXPERIMENTAL_view_gas_key_nonces':
      return {
        ...blockRef(r, k),
        account_id: account(r, k),
        public_key: k.publicKeys.length ? r.pick(k.publicKeys) : 'ed25519:11111111111111111111111111111111',
      };
    default:
      return junkValue(r);
  }
}

const SENDING = new Set(['send_tx', 'broadcast_tx_async', 'broadcast_tx_commit']);

const utf8 = (s: string) => Buffer.from(s, 'utf8');

function headersFor(r: Random, body: Buffer): { headers: Record<string, string>; expect: RpcExpectation } {
  const expect: RpcExpectation = {};
  const contentType = r.weighted<string | undefined>([
    [20, 'application/json'],
    [2, 'application/json; charset=utf-8'],
    [1, 'text/json'],
    [1, 'application/vnd.api+json'],
    [1, 'APPLICATION/JSON'],
    [1, 'text/plain'],
    [1, 'application/x-www-form-urlencoded'],
    [1, undefined],
    [1, 'application/jsonx'],
    [1, 'multipart/form-data; boundary=x'],
  ]);
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  const mime = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const sub = mime.slice(mime.indexOf('/') + 1);
  if (mime.indexOf('/') <= 0 || !(sub === 'json' || sub.endsWith('+json'))) expect.wrongContentType = true;
  if (r.chance(0.05)) headers.origin = 'http://example.com';
  if (r.chance(0.02)) headers['x-junk'] = 'a'.repeat(r.range(1, 4000));
  if (body.length > 10 * 1024 * 1024) expect.tooLarge = true;
  return { headers, expect };
}

export function isJsonText(body: Buffer): boolean {
  try {
    // What serde_json accepts: valid UTF-8 (no BOM) holding one JSON value.
    if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return false;
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    JSON.parse(text);
    // serde_json's recursion limit: 127 levels.
    return nesting(text) <= 127;
  } catch {
    return false;
  }
}

function nesting(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/** Whether a case of this draw needs a fresh valid signed transaction. */
export function wantsTransaction(r: Random): boolean {
  return r.chance(0.1);
}

/** One JSON-RPC case. `tx` is set when `wantsTransaction` drew true with the same generator. */
export function rpcCase(r: Random, k: Known, tx: SignedTxCase | undefined, light = false): HttpCase {
  let label: string;
  let text: string;
  let describe: string;
  let id: Json = r.pick<Json>([1, 'fuzz', 0, null, r.int(1e6), { a: 1 }, [1], 1.5, -7]);
  let learn: ((result: unknown) => void) | undefined;
  let envelopeOk = true;
  if (tx) {
    const method = r.weighted<string>([
      [6, 'send_tx'],
      [3, 'broadcast_tx_async'],
      [1, 'broadcast_tx_commit'],
    ]);
    const params = validParams(r, method, k, tx);
    label = `tx:${method}`;
    text = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    describe = `${method} ${JSON.stringify(params)}`;
    k.add(k.txs, { hash: tx.hash, sender: tx.signerId });
    k.add(k.signedTxs, tx.base64);
    learn = (result) => k.outcome(result);
  } else {
    const kind = r.weighted<string>([
      [50, 'mutated'],
      [14, 'valid'],
      [10, 'junk-params'],
      [6, 'envelope'],
      [4, 'batch'],
      [light ? 0 : 3, 'deep'],
      [light ? 0 : 2, 'huge'],
      [3, 'signed-tx-mutated'],
      [3, 'unknown-method'],
    ]);
    let method: string = r.pick(RPC_METHODS);
    let params: Json | undefined;
    if (kind === 'signed-tx-mutated') {
      method = r.pick([
        'send_tx',
        'broadcast_tx_async',
        'broadcast_tx_commit',
        'tx',
        'EXPERIMENTAL_tx_status',
      ]);
      const base = k.signedTxs.length ? Buffer.from(r.pick(k.signedTxs), 'base64') : r.bytes(100);
      const b = Buffer.from(base);
      for (let n = r.range(1, 3); n > 0; n--) {
        const op = r.int(3);
        if (op === 0 && b.length) b[r.int(b.length)] ^= 1 << r.int(8);
        else if (op === 1) b.writeUInt8(r.int(256), r.int(b.length));
      }
      const cut = r.chance(0.3) ? b.subarray(0, r.int(b.length)) : b;
      params = r.chance(0.5)
        ? {
            signed_tx_base64: cut.toString('base64'),
            wait_until: r.pick(['NONE', 'INCLUDED', 'EXECUTED_OPTIMISTIC']),
          }
        : [cut.toString('base64')];
    } else if (kind === 'unknown-method') {
      method = r.pick([
        '',
        'STATUS',
        'eth_call',
        'query ',
        'sandbox',
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        'x'.repeat(5000),
      ]);
      params = junkValue(r);
    } else if (SENDING.has(method)) {
      // Without a fresh transaction, these get junk or an old (already sent) one.
      params =
        r.chance(0.5) || k.signedTxs.length === 0
          ? junkValue(r)
          : { signed_tx_base64: r.pick(k.signedTxs), wait_until: 'NONE' };
    } else if (kind === 'junk-params' || JUNK_ONLY.has(method)) {
      params = r.chance(0.1) ? undefined : junkValue(r);
    } else if (kind === 'valid') {
      params = validParams(r, method, k, undefined);
    } else {
      params = mutate(r, validParams(r, method, k, undefined));
    }
    label = `rpc:${kind}`;
    const request: Record<string, Json> = { jsonrpc: '2.0', id, method };
    if (params !== undefined) request.params = params;
    if (kind === 'envelope') {
      const op = r.int(7);
      if (op === 0) request.jsonrpc = r.pick<Json>(['1.0', 2, null, '2.00']);
      else if (op === 1) delete request.id;
      else if (op === 2) request[r.pick(['extra', 'ID', 'Method', 'params2'])] = 1;
      else if (op === 3) request.method = junkValue(r);
      else if (op === 4) delete request.method;
      else if (op === 5) request.id = junkValue(r);
      else delete request.jsonrpc;
      envelopeOk = op === 5;
      if (op === 5) id = request.id;
    }
    if (kind === 'batch') {
      const n = r.range(0, 5);
      text = JSON.stringify(Array.from({ length: n }, () => ({ ...request, id: r.int(100) })));
      envelopeOk = false;
    } else if (kind === 'deep') {
      const depth = r.pick([64, 1000, 10_000, 100_000, 1_000_000]);
      const deep = deepJson(r, depth);
      text = r.chance(0.5)
        ? `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)},"params":${deep}}`
        : deep;
      envelopeOk = text.startsWith('{"jsonrpc"');
      if (envelopeOk) id = 1;
    } else if (kind === 'huge') {
      const size = r.pick([100_000, 1_000_000, 5_000_000, 11 * 1024 * 1024]);
      const filler = r.chance(0.5) ? `"${'a'.repeat(size)}"` : `[${'1,'.repeat(size / 2)}1]`;
      text = `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)},"params":${filler}}`;
      id = 1;
    } else {
      text = JSON.stringify(request);
    }
    describe = `${typeof request.method === 'string' ? request.method : JSON.stringify(request.method)} ${
      params === undefined ? '(no params)' : JSON.stringify(params)
    }`;
    if (kind !== 'envelope' && kind !== 'batch' && kind !== 'deep' && kind !== 'huge')
      describe = `${method} ${JSON.stringify(params)}`;
    if (method === 'block') learn = (result) => k.block(result);
  }
  let body = utf8(text);
  // Bad encodings, sometimes.
  const encoding = r.weighted<string>([
    [40, 'utf8'],
    [1, 'bom'],
    [1, 'invalid-utf8'],
    [1, 'utf16'],
    [1, 'nul'],
    [1, 'trailing'],
    [1, 'truncated'],
  ]);
  if (encoding === 'bom') body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]);
  else if (encoding === 'invalid-utf8') {
    // A byte that cannot start or continue a UTF-8 sequence, inside a string of the request when there is one.
    const at = body.indexOf('"method":"');
    const pos = at >= 0 ? at + 10 : r.int(body.length + 1);
    body = Buffer.concat([
      body.subarray(0, pos),
      Buffer.from([r.pick([0xff, 0xc0, 0x80, 0xfe])]),
      body.subarray(pos),
    ]);
  } else if (encoding === 'utf16') body = Buffer.from(text, 'utf16le');
  else if (encoding === 'nul') body = Buffer.concat([body, Buffer.from([0])]);
  else if (encoding === 'trailing') body = Buffer.concat([body, utf8(r.pick([' ', '\n', ' x', '}', '{}']))]);
  else if (encoding === 'truncated') body = body.subarray(0, r.int(body.length));
  if (encoding !== 'utf8') label += `+${encoding}`;
  const { headers, expect } = headersFor(r, body);
  if (!isJsonText(body)) expect.notJson = true;
  else if (envelopeOk && (encoding === 'utf8' || encoding === 'trailing')) expect.id = id;
  return {
    surface: 'rpc',
    label,
    method: 'POST',
    path: '/',
    headers,
    body,
    describe: `${describe} [${encoding}]`,
    rpc: expect,
    learn,
  };
}
