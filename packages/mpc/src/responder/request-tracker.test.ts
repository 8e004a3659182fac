/**
 * The responder's bookkeeping on its own: which listed requests are answered, retried, answered again or
 * forgotten. Answers are signed for real; `send` is the test's, resolving or failing as each case needs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rpcErrorOf } from '@shadebox/near-client';
import { bytesToHex, deriveTweak } from '../derivation.js';
import { RootKeys } from '../root-keys.js';
import type { SignatureResponse } from '../signing.js';
import { RequestTracker } from './request-tracker.js';
import { newResponderStats } from './responder-stats.js';
import { type PendingSignatureRequest, respondTo } from './signature-request.js';

const rootKeys = RootKeys.generate();

function request(path: string, domainId = 0): PendingSignatureRequest {
  return {
    tweak: bytesToHex(deriveTweak('alice.test.near', path)),
    payload: { Ecdsa: 'ab'.repeat(32) },
    domain_id: domainId,
  };
}

/** nearcore's error object for a refused nonce, as `send_tx` answers it. */
const invalidNonce = rpcErrorOf('send_tx', {
  name: 'HANDLER_ERROR',
  cause: { name: 'INVALID_TRANSACTION', info: {} },
  data: { TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: 5, ak_nonce: 7 } } } },
});

/** A tracker whose sends follow `outcomes` in turn (an Error rejects), recorded in `sent`. */
function tracker(
  outcomes: Array<'ok' | Error>,
  options: { reanswerAfterMs?: number; retryBaseMs?: number; cycle?: () => number; now?: () => number } = {},
) {
  const stats = newResponderStats();
  const sent: Array<{ request: PendingSignatureRequest; response: SignatureResponse }> = [];
  const warnings: string[] = [];
  let answered = 0;
  const t = new RequestTracker({
    stats,
    log: { warn: (_o, msg) => warnings.push(String(msg)) },
    retryBaseMs: options.retryBaseMs ?? 40,
    retryMaxMs: 1000,
    reanswerAfterMs: options.reanswerAfterMs ?? 1000,
    sign: (r) => respondTo(rootKeys, r),
    send: async (r, response) => {
      sent.push({ request: r, response });
      const outcome = outcomes.shift() ?? 'ok';
      if (outcome instanceof Error) throw outcome;
    },
    currentCycle: options.cycle ?? (() => 1),
    onAnswered: () => {
      answered++;
    },
    ...(options.now ? { now: options.now } : {}),
  });
  return { t, stats, sent, warnings, answered: () => answered };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('RequestTracker', () => {
  test('answers a new request once while it stays listed, and forgets it when it leaves', async () => {
    // A still clock: however slow the machine, no second answer becomes due.
    const { t, stats, sent, answered } = tracker(['ok'], { now: () => 1_000_000 });
    const r = request('a');
    t.seen([r], 1);
    assert.equal(stats.requestsSeen, 1);
    assert.equal(stats.inFlight, 1);
    await settle();
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0].request, r);
    assert.deepEqual(sent[0].response, respondTo(rootKeys, r));
    assert.equal(stats.responded, 1);
    assert.equal(stats.latenciesMs.length, 1);
    assert.equal(answered(), 1);
    t.seen([r], 2);
    await settle();
    assert.equal(sent.length, 1, 'not answered again while listed');
    assert.equal(t.dueInMs(), Number.POSITIVE_INFINITY);
    t.seen([], 3);
    assert.equal(stats.inFlight, 0);
  });

  test('a request that cannot be answered is counted and warned once, never sent', async () => {
    const { t, stats, sent, warnings } = tracker([]);
    const bad = request('b', 2);
    t.seen([bad], 1);
    await settle();
    t.seen([bad], 2);
    await settle();
    assert.equal(sent.length, 0);
    assert.equal(stats.rejected, 1);
    assert.deepEqual(warnings, ['mpc responder: request cannot be answered']);
  });

  test('a failed send backs off; the retry is due after the delay', async () => {
    const { t, stats, sent, warnings } = tracker([new Error('unreachable')], { retryBaseMs: 400 });
    const r = request('c');
    t.seen([r], 1);
    await settle();
    assert.equal(stats.failedSends, 1);
    assert.deepEqual(warnings, ['mpc responder: respond failed']);
    const due = t.dueInMs();
    assert.ok(due > 0 && due <= 400, String(due));
    t.seen([r], 2);
    await settle();
    assert.equal(sent.length, 1, 'not retried before the delay');
    await new Promise((res) => setTimeout(res, 410));
    assert.equal(t.dueInMs(), 0);
    t.seen([r], 3);
    await settle();
    assert.equal(sent.length, 2);
    assert.equal(stats.responded, 1);
  });

  test('a send refused for its nonce is retried at the next poll, without backoff or warning', async () => {
    const { t, stats, sent, warnings } = tracker([invalidNonce]);
    const r = request('d');
    t.seen([r], 1);
    await settle();
    assert.equal(stats.failedSends, 1);
    assert.equal(t.dueInMs(), 0);
    assert.deepEqual(warnings, []);
    t.seen([r], 2);
    await settle();
    assert.equal(sent.length, 2);
    assert.equal(stats.responded, 1);
  });

  test('still listed reanswerAfterMs after its answer, in a later cycle: answered again as a new request', async () => {
    let cycle = 1;
    const { t, stats, sent } = tracker([], { reanswerAfterMs: 30, cycle: () => cycle });
    const r = request('e');
    t.seen([r], cycle);
    await settle();
    assert.equal(sent.length, 1);
    await new Promise((res) => setTimeout(res, 40));
    // A poll that started before the answer executed does not count.
    t.seen([r], cycle);
    await settle();
    assert.equal(sent.length, 1);
    cycle = 2;
    t.seen([r], cycle);
    await settle();
    assert.equal(sent.length, 2);
    assert.equal(stats.requestsSeen, 2);
    assert.equal(stats.responded, 2);
  });

  test('needsCheck: no view while the answer is under way, a view every cycle once answered; assumed requests are never answered', async () => {
    let cycle = 1;
    let clock = 1_000_000;
    let release: () => void = () => {};
    const stats = newResponderStats();
    let sends = 0;
    const t = new RequestTracker({
      stats,
      log: {},
      now: () => clock,
      retryBaseMs: 40,
      retryMaxMs: 1000,
      reanswerAfterMs: 30,
      sign: (r) => respondTo(rootKeys, r),
      send: () => {
        sends++;
        return new Promise<undefined>((res) => {
          release = () => res(undefined);
        });
      },
      currentCycle: () => cycle,
      onAnswered: () => {},
    });
    const r = request('h');
    assert.equal(t.needsCheck(r), true, 'an unknown request is read');
    t.seen([r], cycle);
    assert.equal(t.needsCheck(r), false, 'not while its answer is under way');
    release();
    await settle();
    assert.equal(stats.responded, 1);
    assert.equal(t.needsCheck(r), true, 'read again after its answer, until no view lists it');
    // Taken as pending without a view, cycles later and past reanswerAfterMs: kept, not answered again.
    clock += 40;
    cycle = 5;
    t.seen([], cycle, [r]);
    await settle();
    assert.equal(sends, 1);
    assert.equal(stats.inFlight, 1);
    assert.equal(t.needsCheck(r), true, 'still read');
    t.seen([], cycle);
    assert.equal(stats.inFlight, 0, 'gone once a view no longer lists it');
  });

  test('stop waits for the sends under way and starts no more', async () => {
    let release: () => void = () => {};
    const stats = newResponderStats();
    let sends = 0;
    const t = new RequestTracker({
      stats,
      log: {},
      retryBaseMs: 40,
      retryMaxMs: 1000,
      reanswerAfterMs: 1000,
      sign: (r) => respondTo(rootKeys, r),
      send: () => {
        sends++;
        return new Promise<void>((res) => {
          release = res;
        });
      },
      currentCycle: () => 1,
      onAnswered: () => {},
    });
    t.seen([request('f')], 1);
    let stopped = false;
    const stopping = t.stop().then(() => {
      stopped = true;
    });
    t.seen([request('f'), request('g')], 2);
    await settle();
    assert.equal(stopped, false, 'waits for the send under way');
    release();
    await stopping;
    assert.equal(sends, 1, 'no send started after stop');
    assert.equal(stats.responded, 1);
  });
});
