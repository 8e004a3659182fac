import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringifyJson, u64Json } from './json.js';

describe('stringifyJson', () => {
  it('writes bigints as exact JSON numbers', () => {
    assert.equal(stringifyJson({ t: 1795315464554000123n, s: 'x' }), '{"t":1795315464554000123,"s":"x"}');
    assert.equal(stringifyJson([-5n, 2]), '[-5,2]');
  });

  it('leaves strings that look like the marker format alone unless they are bigints', () => {
    assert.equal(stringifyJson({ a: '12' }), '{"a":"12"}');
  });

  it('u64Json keeps small values as numbers and large ones exact', () => {
    assert.equal(u64Json(5n), 5);
    assert.equal(u64Json(2n ** 60n), 2n ** 60n);
    assert.equal(stringifyJson({ n: u64Json(2n ** 60n) }), `{"n":${2n ** 60n}}`);
  });
});
