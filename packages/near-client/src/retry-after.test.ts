import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRetryAfter } from './retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-12-07T12:00:00Z');

  it('reads seconds', () => {
    assert.equal(parseRetryAfter('0', now), 0);
    assert.equal(parseRetryAfter(' 5 ', now), 5_000);
  });

  it('reads an HTTP date (in the past: no wait)', () => {
    assert.equal(parseRetryAfter('Mon, 07 Dec 2026 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sunday, 06-Dec-26 12:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('Mon, 07 Dec 2026 11:00:00 GMT', now), 0);
  });

  it('ignores what is neither', () => {
    for (const v of [null, undefined, '', '-1', '1.5', 'soon'])
      assert.equal(parseRetryAfter(v, now), undefined);
  });
});
