import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringifyJson, u64Json } from './json.js';

describe('stringifyJson', () => {
  it('writes bigints as exact JSON numbers', () => {
    assert.equal(stringifyJson({ t: 1795315464554000123n, s: 'x' }), '{"s":"x","t":1795315464554000123}');
    assert.equal(stringifyJson([-5n, 2]), '[-5,2]');
  });

  it('sorts the keys of every object, as serde_json::Value does', () => {
    assert.equal(
      stringifyJson({ name: 'X', info: { tx_nonce: 5, ak_nonce: 7 }, list: [{ b: 1, a: 2 }] }),
      '{"info":{"ak_nonce":7,"tx_nonce":5},"list":[{"a":2,"b":1}],"name":"X"}',
    );
  });

  it('matches JSON.stringify for everything but key order and bigints', () => {
    const value = {
      s: 'q"uo\\te\n\u0001',
      n: -1.5e-7,
      t: true,
      f: false,
      z: null,
      u: undefined,
      a: [undefined, 1],
    };
    const sorted = Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)));
    assert.equal(stringifyJson(value), JSON.stringify(sorted));
    assert.equal(stringifyJson({ toJSON: () => ({ b: 1, a: 2 }) }), '{"a":2,"b":1}');
  });

  it('orders keys as Array.prototype.sort does (code units: numeric-looking, escaped, non-ASCII keys)', () => {
    const keys = ['b', 'a', '10', '9', '_x', 'Z', 'é', '\u{1F600}', 'q"k', 'new\nline', '', 'aa', 'a\u0000'];
    for (let round = 0; round < 50; round++) {
      const shuffled = [...keys].sort(() => Math.random() - 0.5);
      const value = Object.fromEntries(shuffled.map((k, i) => [k, i]));
      const expected = `{${Object.keys(value)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${value[k]}`)
        .join(',')}}`;
      assert.equal(stringifyJson(value), expected);
      assert.deepEqual(JSON.parse(stringifyJson(value)), value);
    }
  });

  it('writes objects with more distinct keys than it keeps quoted (contract data)', () => {
    const value: Record<string, number> = {};
    for (let i = 0; i < 5_000; i++) value[`key-${(i * 7919) % 5_000}"${i}`] = i;
    const text = stringifyJson(value);
    assert.deepEqual(JSON.parse(text), value);
    assert.deepEqual(Object.keys(JSON.parse(text)), Object.keys(value).sort());
    assert.equal(stringifyJson(value), text, 'the same text once the quoted keys are kept');
  });

  it('u64Json keeps small values as numbers and large ones exact', () => {
    assert.equal(u64Json(5n), 5);
    assert.equal(u64Json(2n ** 60n), 2n ** 60n);
    assert.equal(stringifyJson({ n: u64Json(2n ** 60n) }), `{"n":${2n ** 60n}}`);
  });
});
