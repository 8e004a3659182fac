import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { replayRtmr, runtimeDigestsHold, runtimeEvent, runtimeEventDigest } from './event-log.js';

const sha384 = (...parts: Buffer[]) => createHash('sha384').update(Buffer.concat(parts)).digest();

describe('dstack runtime event log', () => {
  it("digests an event as sha384(event type LE ‖ ':' ‖ name ‖ ':' ‖ payload)", () => {
    const payload = Buffer.from('ab'.repeat(32), 'hex');
    const expected = sha384(Buffer.from([1, 0, 0, 8]), Buffer.from(':compose-hash:'), payload);
    assert.deepEqual(runtimeEventDigest('compose-hash', payload), expected);
    const e = runtimeEvent('compose-hash', payload);
    assert.deepEqual(e, {
      imr: 3,
      event_type: 0x08000001,
      digest: expected.toString('hex'),
      event: 'compose-hash',
      event_payload: payload.toString('hex'),
    });
  });

  it('replays an RTMR from 48 zero bytes, extending sha384(rtmr ‖ digest) in order, only its own events', () => {
    const a = runtimeEvent('app-id', Buffer.alloc(20, 1));
    const b = runtimeEvent('system-ready', Buffer.alloc(0));
    const other = { ...runtimeEvent('x', Buffer.alloc(0)), imr: 2 };
    assert.deepEqual(replayRtmr([], 3), Buffer.alloc(48));
    const one = sha384(Buffer.alloc(48), Buffer.from(a.digest, 'hex'));
    const two = sha384(one, Buffer.from(b.digest, 'hex'));
    assert.deepEqual(replayRtmr([a, other, b], 3), two);
    assert.notDeepEqual(replayRtmr([b, a], 3), two);
    assert.deepEqual(
      replayRtmr([a, other, b], 2),
      sha384(Buffer.alloc(48), Buffer.from(other.digest, 'hex')),
    );
  });

  it('tells an event whose payload was changed after digesting', () => {
    const e = runtimeEvent('compose-hash', Buffer.alloc(32, 1));
    assert.equal(runtimeDigestsHold([e]), true);
    assert.equal(runtimeDigestsHold([{ ...e, event_payload: '02'.repeat(32) }]), false);
  });
});
