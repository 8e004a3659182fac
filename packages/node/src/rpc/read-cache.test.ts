import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReadCache, SeenHashes } from './read-cache.js';

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

describe('SeenHashes', () => {
  it('is true the first time a hash comes and false after, including hashes that share a slot', () => {
    const seen = new SeenHashes(8);
    // 16 slots: these four start in the same slot and probe past each other.
    for (const hash of [5, 5 + 16, 5 + 32, 0xffff_fff5])
      assert.equal(seen.addFirst(hash), true, `first ${hash}`);
    for (const hash of [5, 5 + 16, 5 + 32, 0xffff_fff5])
      assert.equal(seen.addFirst(hash), false, `again ${hash}`);
    assert.equal(seen.addFirst(6), true);
  });

  it('takes negative and zero hashes (zero shares its slot value with one)', () => {
    const seen = new SeenHashes(4);
    assert.equal(seen.addFirst(-1), true);
    assert.equal(seen.addFirst(0xffff_ffff), false, '-1 and 0xffffffff are the same 32 bits');
    assert.equal(seen.addFirst(0), true);
    assert.equal(seen.addFirst(1), false);
  });

  it('empties itself when full, so a stream of distinct hashes keeps at most its capacity', () => {
    const seen = new SeenHashes(4);
    for (const hash of [10, 11, 12, 13]) assert.equal(seen.addFirst(hash), true);
    assert.equal(seen.addFirst(10), false);
    assert.equal(seen.addFirst(14), true, 'the fifth distinct hash empties the set first');
    assert.equal(seen.addFirst(14), false);
    assert.equal(seen.addFirst(10), true, 'what was there before is forgotten');
    seen.clear();
    assert.equal(seen.addFirst(14), true);
  });
});
