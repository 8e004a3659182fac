import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LosslessJsonError, LosslessNumber, parseLosslessJson } from './lossless-json.js';

describe('parseLosslessJson', () => {
  it('keeps the digits of integers JSON.parse would round', () => {
    const text = '{"gas": 18446744073709551615, "odd": 9007199254740993}';
    assert.equal(JSON.parse(text).odd, 9007199254740992); // what we avoid
    const value = parseLosslessJson(text) as Record<string, LosslessNumber>;
    assert.ok(value.gas instanceof LosslessNumber);
    assert.equal(value.gas.toBigInt(), 18446744073709551615n);
    assert.equal(value.odd.toBigInt(), 9007199254740993n);
  });

  it('reads floats, strings with escapes, literals, arrays and nesting like JSON.parse', () => {
    const text =
      ' {"f": 0.8, "e": -1.5e3, "s": "a\\"b\\u00e9\\n", "t": true, "n": null, "a": [1, [2], {}], "o": {"x": []}} ';
    const value = parseLosslessJson(text) as Record<string, unknown>;
    assert.equal((value.f as LosslessNumber).toNumber(), 0.8);
    assert.equal((value.f as LosslessNumber).isInteger, false);
    assert.equal((value.e as LosslessNumber).toNumber(), -1500);
    assert.throws(() => (value.e as LosslessNumber).toBigInt(), RangeError);
    assert.equal(value.s, 'a"bé\n');
    assert.equal(value.t, true);
    assert.equal(value.n, null);
    const plain = JSON.parse(
      JSON.stringify(value, (_k, v) => (v instanceof LosslessNumber ? v.toNumber() : v)),
    );
    assert.deepEqual(plain, JSON.parse(text));
  });

  it('keeps key order', () => {
    const value = parseLosslessJson('{"z": 1, "a": 2, "m": 3}') as object;
    assert.deepEqual(Object.keys(value), ['z', 'a', 'm']);
  });

  it('rejects malformed JSON with a position', () => {
    for (const text of ['{"a": 1,}', '{"a" 1}', '[1 2]', '{"a": 01}', '"open', '{} x', '', '{"a": tru}']) {
      assert.throws(() => parseLosslessJson(text), LosslessJsonError, text);
    }
    assert.throws(() => parseLosslessJson('[1, ?]'), /unexpected character at position 4/);
  });

  it('rejects duplicate keys instead of keeping the last one', () => {
    assert.throws(() => parseLosslessJson('{"fee": 1, "fee": 2}'), /duplicate key "fee"/);
  });

  it('treats __proto__ as an ordinary key', () => {
    const value = parseLosslessJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    assert.deepEqual(Object.keys(value), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
