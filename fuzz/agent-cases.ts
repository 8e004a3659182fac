/**
 * Agent API requests: every route of its OpenAPI document (and paths and verbs it does not have), with valid
 * bodies, mutated bodies, junk, bad JSON, deep and large bodies, and mutated headers (content types, origins,
 * long and odd values).
 */
import { deepJson, type Json, junkValue, mutate } from './junk.js';
import type { Known } from './known.js';
import type { Random } from './random.js';
import type { HttpCase } from './rpc-cases.js';

export interface AgentRoute {
  path: string;
  method: string;
}

/** A view or call body that the agent contract answers. */
function validBody(r: Random, route: string, k: Known, agentAccountId: string): Json {
  switch (route) {
    case 'view':
      return r.pick<Json>([
        { methodName: 'get_agent', args: { account_id: agentAccountId } },
        { methodName: 'get_agents' },
        { methodName: 'get_approved_codehashes', args: {} },
        { methodName: 'get_owner' },
        { methodName: 'get_mpc_contract_id', contractId: r.pick(k.accounts) },
        { methodName: 'no_such_view' },
      ]);
    case 'call':
      return r.pick<Json>([
        { methodName: 'get_owner', gas: '30000000000000' },
        { methodName: 'no_such_method', args: {}, gas: 10_000_000_000_000 },
        {
          methodName: 'request_signature',
          args: { path: 'fuzz', payload: '00'.repeat(32), key_type: 'Ecdsa' },
        },
        { methodName: 'register_agent', args: { codehash: 'x' } },
      ]);
    default:
      return {};
  }
}

export function agentCase(
  r: Random,
  k: Known,
  routes: readonly AgentRoute[],
  base: string,
  agentAccountId: string,
): HttpCase {
  const route = r.pick(routes);
  const name = route.path.slice(route.path.lastIndexOf('/') + 1);
  const kind = r.weighted<string>([
    [30, 'mutated'],
    [12, 'valid'],
    [10, 'junk'],
    [6, 'bad-json'],
    [3, 'deep'],
    [2, 'large'],
    [5, 'wrong-verb'],
    [5, 'wrong-path'],
    [3, 'empty'],
  ]);
  let method = route.method;
  let path = route.path;
  let body: Buffer | undefined;
  let describe: string;
  if (kind === 'wrong-verb') method = r.pick(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'POST']);
  if (kind === 'wrong-path') {
    path = r.pick([
      `${base}/${name}/`,
      `${base}/${name}?x=1`,
      `${base}/${name.toUpperCase()}`,
      `${base}/`,
      `${base}`,
      '/',
      `${base}/__proto__`,
      `${base}/constructor`,
      `${base}/hasOwnProperty`,
      `${base}/${name}%00`,
      `${base}/../${name}`,
      `${base}//${name}`,
      `/${'a'.repeat(r.range(1, 3000))}`,
    ]);
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  if (hasBody) {
    let text: string;
    if (kind === 'valid') text = JSON.stringify(validBody(r, name, k, agentAccountId));
    else if (kind === 'mutated' || kind === 'wrong-verb' || kind === 'wrong-path')
      text = JSON.stringify(mutate(r, validBody(r, name, k, agentAccountId)));
    else if (kind === 'junk') text = JSON.stringify(junkValue(r));
    else if (kind === 'bad-json')
      text = r.pick(['{', '{"methodName":', 'nul', '{"a":1}}', "{'a':1}", '\u0000', '[1,]', 'NaN']);
    else if (kind === 'deep') text = deepJson(r, r.pick([31, 32, 33, 1000, 100_000]));
    else if (kind === 'large')
      text = `{"methodName":"get_owner","args":{"a":"${'x'.repeat(r.pick([500_000, 1024 * 1024, 2 * 1024 * 1024]))}"}}`;
    else text = '';
    body = Buffer.from(text);
    if (r.chance(0.03))
      body = Buffer.concat([body.subarray(0, r.int(body.length + 1)), Buffer.from([0xff, 0xfe]), body]);
    describe = `${method} ${path} ${text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text}`;
  } else describe = `${method} ${path}`;
  const headers: Record<string, string> = {};
  const contentType = r.weighted<string | undefined>([
    [10, 'application/json'],
    [3, undefined],
    [1, 'text/plain'],
    [1, 'application/x-www-form-urlencoded'],
    [1, 'application/json; charset=latin1'],
    [1, 'multipart/form-data; boundary=zzz'],
  ]);
  if (contentType && hasBody) headers['content-type'] = contentType;
  if (r.chance(0.1)) headers.origin = r.pick(['http://localhost:3000', 'null', 'https://evil.example']);
  if (r.chance(0.05)) headers.accept = r.pick(['text/html', '*/*', 'application/xml']);
  if (r.chance(0.03)) headers['x-forwarded-for'] = '1.2.3.4';
  if (r.chance(0.03)) headers.authorization = 'Bearer x';
  if (r.chance(0.02)) headers['x-long'] = 'b'.repeat(r.range(100, 6000));
  if (method === 'OPTIONS' && r.chance(0.5)) headers['access-control-request-method'] = 'POST';
  return { surface: 'agent', label: `agent:${name}:${kind}`, method, path, headers, body, describe };
}
