/**
 * The bookkeeping of the requests being answered: which are new, which are in flight, which to answer again,
 * and when a failed answer is retried.
 *
 * A request seen for the first time is answered at once. It then stays "in flight" until it leaves the
 * pending list. The signer drops a request in the `respond` that answers it, so one still listed
 * `reanswerAfterMs` after our `respond` executed is a duplicate that arrived in between, and is answered
 * again. Failed sends are retried with exponential backoff while the request is pending; a send refused for
 * its nonce is retried at once (the nonce race is not the request's fault).
 */
import { InvalidNonceError } from '@shadebox/near-client';
import type { SignatureResponse } from '../signing.js';
import type { ResponderLogger } from './responder-logger.js';
import { type ResponderStats, recordAnswer } from './responder-stats.js';
import type { PendingSignatureRequest } from './signature-request.js';

export interface RequestTrackerOptions {
  stats: ResponderStats;
  log: ResponderLogger;
  /** Backoff after a failed send: first and largest delay, in ms. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A request still listed this long after its `respond` executed is answered again… */
  reanswerAfterMs: number;
  /** …and at least this many cycles later (default 1: any later cycle). */
  reanswerAfterCycles?: number;
  /** The cycle in which the request last arrived, if known: one arriving after its answer is answered again
   * at once. */
  arrivedAtCycle?(request: PendingSignatureRequest): number | undefined;
  /** The response to a request; throws when it cannot be answered. */
  sign(request: PendingSignatureRequest): SignatureResponse;
  /** Sends the `respond` transaction; resolves once it executed, with the cycle it executed in if known. */
  send(request: PendingSignatureRequest, response: SignatureResponse): Promise<number | undefined>;
  /** The poll cycle under way (or the last started). */
  currentCycle(): number;
  /** Called after each answer that executed. */
  onAnswered(): void;
  /** The clock, in ms (default `Date.now`; tests set their own). */
  now?(): number;
}

interface Tracked {
  request: PendingSignatureRequest;
  firstSeenMs: number;
  state: 'new' | 'sending' | 'backoff' | 'done' | 'rejected';
  attempts: number;
  retryAt: number;
  /** The cycle `respond` executed in (else the one under way when it succeeded), and the time. */
  doneAtCycle: number;
  doneAtMs: number;
}

export class RequestTracker {
  readonly #o: RequestTrackerOptions;
  readonly #tracked = new Map<string, Tracked>();
  readonly #sends = new Set<Promise<void>>();
  #stopped = false;

  constructor(options: RequestTrackerOptions) {
    this.#o = options;
  }

  #now(): number {
    return this.#o.now ? this.#o.now() : Date.now();
  }

  /**
   * Takes the requests pending as read in poll cycle `cycle`, and starts the answers that are due. `assumed`
   * are requests not read again this cycle (`needsCheck` said so): they are kept as they are, never answered
   * on that account.
   */
  seen(requests: PendingSignatureRequest[], cycle: number, assumed: PendingSignatureRequest[] = []): void {
    const { stats, reanswerAfterMs } = this.#o;
    const now = this.#now();
    const present = new Set<string>();
    const unread = new Set(assumed.map((request) => JSON.stringify(request)));
    for (const request of requests) {
      const key = JSON.stringify(request);
      present.add(key);
      let t = this.#tracked.get(key);
      const arrived = t?.state === 'done' ? this.#o.arrivedAtCycle?.(request) : undefined;
      const afterCycles = this.#o.reanswerAfterCycles ?? 1;
      if (
        t?.state === 'done' &&
        ((arrived !== undefined && arrived > t.doneAtCycle) ||
          (cycle >= t.doneAtCycle + afterCycles && now - t.doneAtMs >= reanswerAfterMs))
      ) {
        // Arrived again after the answer, or still listed well after it executed: a duplicate.
        this.#tracked.delete(key);
        t = undefined;
      }
      if (!t) {
        t = { request, firstSeenMs: now, state: 'new', attempts: 0, retryAt: 0, doneAtCycle: 0, doneAtMs: 0 };
        this.#tracked.set(key, t);
        stats.requestsSeen++;
      }
    }
    for (const [key, t] of this.#tracked) {
      if (unread.has(key)) continue;
      if (!present.has(key)) {
        // Gone from the contract (answered, or timed out): unless a send is still under way, forget it.
        if (t.state !== 'sending') this.#tracked.delete(key);
        continue;
      }
      if (t.state === 'new' || (t.state === 'backoff' && now >= t.retryAt)) this.#startSend(t);
    }
    stats.inFlight = this.#tracked.size;
  }

  /**
   * Whether the contract must be asked again whether `request` is pending. Not while its answer is under way or
   * waiting for a retry: the caller takes it as still pending, so no view delays the blocks that finish the
   * answer. Once answered, every cycle until the contract no longer lists it (a view or two).
   */
  needsCheck(request: PendingSignatureRequest): boolean {
    const t = this.#tracked.get(JSON.stringify(request));
    if (t === undefined) return true;
    const now = this.#now();
    switch (t.state) {
      case 'new':
        return true;
      case 'sending':
        return false;
      case 'backoff':
        return now >= t.retryAt;
      case 'done':
      case 'rejected':
        // Asked again every block until the contract no longer lists it: an identical request that parked its
        // yield after the answer ran is only seen this way, and `seen` decides whether it is due again.
        return true;
    }
  }

  /** When an answer is due: 0 for one now, the ms until the next retry, or Infinity for none. */
  dueInMs(): number {
    const now = this.#now();
    let due = Number.POSITIVE_INFINITY;
    for (const t of this.#tracked.values()) {
      if (t.state === 'new') return 0;
      if (t.state === 'backoff') due = Math.min(due, Math.max(0, t.retryAt - now));
    }
    return due;
  }

  /** Starts no more answers; resolves when the sends under way have ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.allSettled([...this.#sends]);
  }

  #startSend(t: Tracked): void {
    if (this.#stopped) return;
    t.state = 'sending';
    const p = this.#answer(t).finally(() => this.#sends.delete(p));
    this.#sends.add(p);
  }

  async #answer(t: Tracked): Promise<void> {
    const { stats, log } = this.#o;
    let response: SignatureResponse;
    try {
      response = this.#o.sign(t.request);
    } catch (err) {
      t.state = 'rejected';
      stats.rejected++;
      log.warn?.(
        { request: t.request, err: (err as Error).message },
        'mpc responder: request cannot be answered',
      );
      return;
    }
    const sendStarted = this.#now();
    t.attempts++;
    try {
      const executedIn = await this.#o.send(t.request, response);
      const latency = this.#now() - t.firstSeenMs;
      recordAnswer(stats, latency);
      t.state = 'done';
      t.doneAtCycle = typeof executedIn === 'number' ? executedIn : this.#o.currentCycle();
      t.doneAtMs = this.#now();
      log.debug?.(
        { domain_id: t.request.domain_id, latency_ms: latency, send_ms: this.#now() - sendStarted },
        'mpc responder: responded',
      );
      this.#o.onAnswered();
    } catch (err) {
      if (this.#stopped) return;
      stats.failedSends++;
      if (err instanceof InvalidNonceError) {
        // A nonce race is not the request's fault: retry at once (the sender took the chain's nonce).
        t.state = 'new';
        t.retryAt = 0;
      } else {
        const delay = Math.min(this.#o.retryMaxMs, this.#o.retryBaseMs * 2 ** Math.min(t.attempts - 1, 16));
        t.state = 'backoff';
        t.retryAt = this.#now() + delay;
        log.warn?.(
          { attempts: t.attempts, retry_in_ms: delay, err: (err as Error).message },
          'mpc responder: respond failed',
        );
      }
    }
  }
}
