import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonDepth, parseJsonBody } from './body.js';
import { HttpError } from './http-error.js';

describe('request bodies', () => {
  it('empty is {}, JSON parses, nesting is measured outside strings', () => {
    assert.deepEqual(parseJsonBody(Buffer.from('')), {});
    assert.deepEqual(parseJsonBody(Buffer.from('  \n')), {});
    assert.deepEqual(parseJsonBody(Buffer.from('{"a":[1,{"b":"[[[["}]}')), { a: [1, { b: '[[[[' }] });
    assert.equal(jsonDepth('{"a":[1,{"b":"[[[[\\"["}]}'), 3);
  });

  it('refuses bad JSON and deep nesting with 400', () => {
    assert.throws(
      () => parseJsonBody(Buffer.from('{')),
      (e) => e instanceof HttpError && e.code === 'invalid_json',
    );
    assert.throws(
      () => parseJsonBody(Buffer.from(`${'['.repeat(33)}${']'.repeat(33)}`)),
      (e) => e instanceof HttpError && e.status === 400 && e.code === 'too_deep',
    );
  });
});
