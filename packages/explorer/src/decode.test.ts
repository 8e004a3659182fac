/** State entries and arguments as the page shows them (decode.ts), and amounts (format.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeArgs, decodeBytes } from './decode.js';
import { gas, near } from './format.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

test('JSON is pretty-printed, text kept, binary shown as hex', () => {
  assert.deepEqual(decodeBytes(utf8('{"a":1,"b":[true]}')), {
    kind: 'json',
    text: '{\n  "a": 1,\n  "b": [\n    true\n  ]\n}',
  });
  assert.deepEqual(decodeBytes(utf8('"quoted"')), { kind: 'json', text: '"quoted"' });
  assert.deepEqual(decodeBytes(utf8('{"payload":[7,7,7],"nested":[[1,2],{"x":[-1.5]}]}')), {
    kind: 'json',
    text: '{\n  "payload": [7, 7, 7],\n  "nested": [\n    [1, 2],\n    {\n      "x": [-1.5]\n    }\n  ]\n}',
  });
  assert.deepEqual(decodeBytes(utf8('STATE')), { kind: 'utf8', text: 'STATE' });
  assert.deepEqual(decodeBytes(utf8('{not json')), { kind: 'utf8', text: '{not json' });
  // borsh: a u32 length then bytes — valid UTF-8 but control characters: hex.
  assert.deepEqual(decodeBytes(Uint8Array.from([3, 0, 0, 0, 97, 98, 99])), {
    kind: 'hex',
    text: '03000000616263',
  });
  assert.deepEqual(decodeBytes(Uint8Array.from([0xff, 0xfe])), { kind: 'hex', text: 'fffe' });
  assert.deepEqual(decodeBytes(new Uint8Array(0)), { kind: 'utf8', text: '' });
  assert.deepEqual(decodeArgs(Buffer.from('{"path":"p"}').toString('base64')).kind, 'json');
});

test('amounts in NEAR and gas in Tgas', () => {
  assert.equal(near('0'), '0 NEAR');
  assert.equal(near('1000000000000000000000000'), '1 NEAR');
  assert.equal(near('1234567800000000000000000000'), '1,234.5678 NEAR');
  assert.equal(near('1'), '< 0.00001 NEAR');
  assert.equal(gas(30_000_000_000_000), '30.00 Tgas');
  assert.equal(gas('2428000000000'), '2.43 Tgas');
});
