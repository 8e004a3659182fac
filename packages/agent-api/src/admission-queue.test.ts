import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Admission,
  AdmissionQueue,
  InsufficientBalanceError,
  QueueFullError,
} from './admission-queue.js';

/** A chain stand-in: the balance a read returns, and every read's promise under the test's control. */
function fakeChain(initial: bigint) {
  const chain = {
    balance: initial,
    reads: 0,
    pending: [] as Array<() => void>,
    /** When set, reads wait for `release()`. */
    hold: false,
    readBalance: () => {
      chain.reads++;
      if (!chain.hold) return Promise.resolve(chain.balance);
      // A held read answers with the balance of the moment it is released.
      return new Promise<bigint>((resolve) => chain.pending.push(() => resolve(chain.balance)));
    },
    release() {
      for (const r of chain.pending.splice(0)) r();
    },
  };
  return chain;
}

/** Lets queued promise callbacks run. */
const tick = () => new Promise((r) => setImmediate(r));

function track(p: Promise<Admission>) {
  const t: { admission?: Admission; error?: unknown } = {};
  p.then(
    (a) => {
      t.admission = a;
    },
    (e) => {
      t.error = e;
    },
  );
  return t;
}

describe('AdmissionQueue', () => {
  it('admits what fits the balance and holds the rest in arrival order until calls settle', async () => {
    const chain = fakeChain(290n);
    const q = new AdmissionQueue({ readBalance: chain.readBalance, maxQueued: 10 });
    const calls = [100n, 100n, 100n, 50n].map((cost) => track(q.admit(cost)));
    await tick();
    assert.ok(calls[0].admission && calls[1].admission, 'two fit');
    assert.equal(calls[2].admission, undefined, 'the third waits');
    assert.equal(calls[3].admission, undefined, 'a smaller later call does not overtake it (FIFO)');
    assert.equal(q.queued, 2);

    // The first is included (the chain deducted it), then final with its refund of 60.
    calls[0].admission!.included();
    chain.balance = 290n - 100n + 60n - 100n; // the second is in the chain too, not known included yet
    calls[0].admission!.settle();
    await tick();
    // The new snapshot (150) shows the first's spend and the second's deduction, but the second is counted
    // again (not known included before the read): 150 − 100 = 50 free, not enough for 100.
    assert.equal(calls[2].admission, undefined);
    calls[1].admission!.included();
    chain.balance = 150n + 60n;
    calls[1].admission!.settle();
    await tick();
    assert.ok(calls[2].admission, 'admitted once the balance read after the settle covers it');
    assert.ok(calls[3].admission, 'and the next one fits beside it');
    assert.equal(q.queued, 0);
  });

  it('keeps a settled reservation until a balance read begun after the settle replaces it', async () => {
    const chain = fakeChain(100n);
    const q = new AdmissionQueue({ readBalance: chain.readBalance, maxQueued: 10 });
    const first = track(q.admit(100n));
    await tick();
    assert.ok(first.admission);
    chain.hold = true;
    const second = track(q.admit(100n));
    first.admission!.included();
    first.admission!.settle();
    await tick();
    assert.equal(second.admission, undefined, 'no read has finished: still reserved');
    chain.balance = 95n; // what the first really spent is 5
    chain.release();
    await tick();
    await tick();
    assert.equal(second.admission, undefined, '95 does not cover 100 and nothing is in flight…');
    assert.ok(second.error instanceof InsufficientBalanceError, '…so it can never fit');
    assert.equal((second.error as InsufficientBalanceError).cost, 100n);
    assert.equal((second.error as InsufficientBalanceError).balance, 95n);
  });

  it('refuses at once a call that cannot fit with nothing in flight, naming cost and balance', async () => {
    const chain = fakeChain(10n ** 23n);
    const q = new AdmissionQueue({ readBalance: chain.readBalance, maxQueued: 10 });
    const call = track(q.admit(3n * 10n ** 23n));
    await tick();
    await tick();
    assert.ok(call.error instanceof InsufficientBalanceError);
    assert.match(
      (call.error as Error).message,
      /0\.3 NEAR \(300000000000000000000000 yoctoNEAR\).*0\.1 NEAR \(100000000000000000000000 yoctoNEAR\)/,
    );
  });

  it('reads the balance again before refusing on an old snapshot (the agent was funded meanwhile)', async () => {
    const chain = fakeChain(50n);
    const q = new AdmissionQueue({ readBalance: chain.readBalance, maxQueued: 10 });
    const small = track(q.admit(10n));
    await tick();
    small.admission!.included();
    small.admission!.settle();
    await tick();
    chain.balance = 500n;
    const big = track(q.admit(400n));
    await tick();
    await tick();
    assert.ok(big.admission, 'admitted on a fresh read');
  });

  it('refuses a call when the queue is full, and a call sent back keeps its turn at the head', async () => {
    const chain = fakeChain(100n);
    const q = new AdmissionQueue({ readBalance: chain.readBalance, maxQueued: 2 });
    const running = track(q.admit(100n));
    await tick();
    const a = track(q.admit(100n));
    const b = track(q.admit(100n));
    const c = track(q.admit(100n));
    await tick();
    assert.ok(c.error instanceof QueueFullError);
    assert.equal(q.queued, 2);
    // The running call is refused by the chain and goes back to the head: it is admitted before a and b.
    const again = track(q.admit(100n, { first: true }));
    running.admission!.settle();
    await tick();
    await tick();
    assert.ok(again.admission, 'the call sent back is admitted first');
    assert.equal(a.admission, undefined);
    assert.equal(b.admission, undefined);
  });

  it('fails the waiting calls with the chain error when the balance cannot be read and nothing is in flight', async () => {
    const boom = new Error('unreachable');
    const q = new AdmissionQueue({ readBalance: () => Promise.reject(boom), maxQueued: 10 });
    const call = track(q.admit(1n));
    await tick();
    await tick();
    assert.equal(call.error, boom);
  });

  it('serves 100 calls two at a time through settles, none refused', async () => {
    const chain = fakeChain(290n);
    const q = new AdmissionQueue({ readBalance: chain.readBalance, maxQueued: 1000 });
    let inFlight = 0;
    let most = 0;
    const run = async () => {
      const a = await q.admit(100n);
      inFlight++;
      most = Math.max(most, inFlight);
      chain.balance -= 100n; // prepaid at inclusion
      a.included();
      await tick();
      chain.balance += 99n; // refund: the call spent 1
      inFlight--;
      a.settle();
    };
    await Promise.all(Array.from({ length: 100 }, run));
    assert.equal(most, 2);
    assert.equal(chain.balance, 290n - 100n);
  });
});
