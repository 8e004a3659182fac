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

  it('with admitOnRepeat, keeps an answer only from the second time its request comes at the head', () => {
    const cache = new ReadCache({ admitOnRepeat: true });
    const key = ReadCache.keyOf('query', { request_type: 'call_function', finality: 'final' });
    assert.equal(cache.get(key, 'H1'), undefined);
    cache.set(key, 'H1', answer('first'));
    assert.equal(cache.get(key, 'H1'), undefined, 'a request seen once leaves no answer');
    cache.set(key, 'H1', answer('second'));
    assert.deepEqual(cache.get(key, 'H1'), answer('second'));
    assert.equal(cache.get(key, 'H2'), undefined);
    cache.set(key, 'H2', answer('new head'));
    assert.equal(cache.get(key, 'H2'), undefined, 'a new head starts counting again');
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
