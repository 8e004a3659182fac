import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSimpleRequest as parse, type SimpleRequestRule } from './parse-simple-request.js';

/** The JSON-RPC front door's rule: `POST /` with a JSON body. */
const RPC: SimpleRequestRule = { acceptsPath: (path) => path === '/', contentType: 'json' };
const parseSimpleRequest = (bytes: Buffer) => parse(bytes, RPC);

const body = '{"jsonrpc":"2.0","id":1,"method":"status","params":[]}';
const request = (head: string[], payload = body) =>
  Buffer.from(`${head.join('\r\n')}\r\n\r\n${payload}`, 'utf8');
const simple = (extra: string[] = [], payload = body) =>
  request(
    [
      'POST / HTTP/1.1',
      'Host: 127.0.0.1:3030',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(payload)}`,
      ...extra,
    ],
    payload,
  );

describe('parseSimpleRequest', () => {
  it('reads a complete POST / with a JSON body and keeps what follows', () => {
    const next = simple();
    const parsed = parseSimpleRequest(Buffer.concat([simple(), next]));
    assert.ok(typeof parsed === 'object');
    assert.equal(parsed.body, body);
    assert.equal(parsed.keepAlive, true);
    assert.equal(parsed.origin, false);
    assert.deepEqual(parsed.rest, next);
    assert.equal(parsed.path, '/');
  });

  it('waits for the rest of a request split anywhere', () => {
    const whole = simple();
    for (let cut = 0; cut < whole.length; cut++) {
      assert.equal(parseSimpleRequest(whole.subarray(0, cut)), 'incomplete', `cut at ${cut}`);
    }
  });

  it('counts the body in bytes, not characters', () => {
    const payload = '{"jsonrpc":"2.0","id":"é€","method":"status","params":[]}';
    const parsed = parseSimpleRequest(simple([], payload));
    assert.ok(typeof parsed === 'object');
    assert.equal(parsed.body, payload);
  });

  it('notes an Origin and Connection: close, accepts a charset and any header case', () => {
    const parsed = parseSimpleRequest(
      request([
        'POST / HTTP/1.1',
        'host: x',
        'content-type: Application/JSON; charset=utf-8',
        `content-length: ${body.length}`,
        'Origin: http://localhost:5173',
        'Connection: close',
      ]),
    );
    assert.ok(typeof parsed === 'object');
    assert.equal(parsed.origin, true);
    assert.equal(parsed.keepAlive, false);
  });

  it('hands everything else to node:http', () => {
    const other: Array<[string, Buffer]> = [
      ['GET', request(['GET /status HTTP/1.1', 'Host: x'], '')],
      [
        'another path',
        request([
          'POST /x HTTP/1.1',
          'Host: x',
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
        ]),
      ],
      [
        'HTTP/1.0',
        request([
          'POST / HTTP/1.0',
          'Host: x',
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
        ]),
      ],
      ['no length', request(['POST / HTTP/1.1', 'Host: x', 'Content-Type: application/json'])],
      ['chunked', simple(['Transfer-Encoding: chunked'])],
      ['expect', simple(['Expect: 100-continue'])],
      ['upgrade', simple(['Upgrade: websocket'])],
      [
        'not JSON',
        request(['POST / HTTP/1.1', 'Host: x', 'Content-Type: text/plain', `Content-Length: ${body.length}`]),
      ],
      [
        'no host',
        request(['POST / HTTP/1.1', 'Content-Type: application/json', `Content-Length: ${body.length}`]),
      ],
      ['two lengths', simple([`Content-Length: ${body.length}`])],
      [
        'bad length',
        request(['POST / HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Content-Length: 1e3']),
      ],
      [
        'big body',
        request(
          ['POST / HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Content-Length: 2000000'],
          '',
        ),
      ],
      ['odd connection', simple(['Connection: upgrade'])],
      ['header without colon', simple(['Broken header'])],
      ['huge head', Buffer.from(`POST / HTTP/1.1\r\nX: ${'a'.repeat(9000)}`)],
      ['bare LF', Buffer.from('POST / HTTP/1.1\nHost: x\n')],
    ];
    for (const [name, bytes] of other) assert.equal(parseSimpleRequest(bytes), 'other', name);
  });

  it("leaves bodies above the rule's own limit to node:http, which refuses them", () => {
    const limited: SimpleRequestRule = { ...RPC, maxBodyBytes: body.length - 1 };
    assert.equal(parse(simple(), limited), 'other');
    assert.ok(typeof parse(simple(), { ...RPC, maxBodyBytes: body.length }) === 'object');
  });

  it('with contentType "any", takes any Content-Type or none and the paths the rule accepts', () => {
    const rule: SimpleRequestRule = {
      acceptsPath: (path) => path.startsWith('/api/agent/'),
      contentType: 'any',
    };
    const post = (path: string, extra: string[], payload: string) =>
      parse(
        request(
          [
            'POST ' + path + ' HTTP/1.1',
            'Host: x',
            `Content-Length: ${Buffer.byteLength(payload)}`,
            ...extra,
          ],
          payload,
        ),
        rule,
      );
    const none = post('/api/agent/getAccountId', [], '');
    assert.ok(typeof none === 'object');
    assert.equal(none.path, '/api/agent/getAccountId');
    assert.equal(none.body, '');
    const text = post('/api/agent/view?x=1', ['Content-Type: text/plain'], '{}');
    assert.ok(typeof text === 'object');
    assert.equal(text.path, '/api/agent/view?x=1');
    assert.equal(post('/other', [], ''), 'other');
    assert.equal(post('/api/agent/a', ['Content-Type: a', 'Content-Type: b'], ''), 'other');
  });
});
