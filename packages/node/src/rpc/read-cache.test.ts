import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReadCache } from './read-cache.js';

const answer = (payload: string) => ({ status: 200, key: 'result' as const, payload });

describe('ReadCache', () => {
  it('answers an identical request while the head stays the same', () => {
    const cache = new ReadCache();
    const key = ReadCache.keyOf('query', {
      request_type: 'view_account',
      finality: 'final',
      account_id: 'a.near',
    });
    assert.equal(cache.get(key, 'H1'), undefined);
    cache.set(key, 'H1', answer('{"amount":"1"}'));
    assert.deepEqual(cache.get(key, 'H1'), answer('{"amount":"1"}'));
    assert.equal(cache.get(ReadCache.keyOf('query', { account_id: 'b.near' }), 'H1'), undefined);
  });

  it('forgets everything when the head changes, even at the same height', () => {
    const cache = new ReadCache();
    const key = ReadCache.keyOf('block', { finality: 'final' });
    cache.get(key, 'H1');
    cache.set(key, 'H1', answer('1'));
    assert.equal(cache.get(key, 'H2'), undefined);
    cache.set(key, 'H1', answer('stale'));
    assert.equal(cache.get(key, 'H2'), undefined, 'an answer computed for an old head is not kept');
  });
});
