/**
 * Admission of `/call` transactions against what the agent holds, so that no call fails because of the calls
 * in flight beside it.
 *
 * Each call says what it can cost (call-cost.ts). The queue keeps a snapshot of the agent's available balance
 * read from the chain and the calls in flight, each holding a reservation of its cost. A call is admitted when
 * its cost fits the snapshot less the reservations the snapshot does not show yet; otherwise it waits, in
 * arrival order (FIFO: a call never overtakes an earlier one), until calls in flight settle. A settled call
 * (its transaction final, refunds included, or failed) keeps its reservation until a snapshot read after it
 * settled replaces it: the balance is read from the chain again, never guessed from refunds.
 *
 * Which reservations a snapshot shows: a call's cost is deducted by the chain when its transaction is
 * included, so a snapshot whose read began after the call was known included (`included()`) shows it; any
 * other reservation is counted on top (a call included while the read ran is counted twice: conservative).
 *
 * A call that cannot fit even with nothing in flight (its cost above a balance read after every earlier call
 * settled) fails with `InsufficientBalanceError`; a call that finds `maxQueued` calls waiting is refused with
 * `QueueFullError`.
 */
import { ShadeboxError } from '@shadebox/errors';
import { formatNearAmount } from '@shadebox/primitives';

/** The cost of the call exceeds what the agent holds with nothing in flight. */
export class InsufficientBalanceError extends ShadeboxError<{ cost: string; balance: string }> {
  constructor(
    readonly cost: bigint,
    readonly balance: bigint,
  ) {
    super(
      `the call can cost ${formatNearAmount(cost)} NEAR (${cost} yoctoNEAR) but the agent account holds ${formatNearAmount(balance)} NEAR (${balance} yoctoNEAR) available: fund it, or attach less gas`,
      {
        details: { cost: cost.toString(), balance: balance.toString() },
        docsPath: 'docs/agent-api.md#admission-and-retries',
      },
    );
  }
}

/** As many calls as the queue holds are already waiting. */
export class QueueFullError extends ShadeboxError<{ queued: number }> {
  constructor(readonly queued: number) {
    super(`${queued} calls are already waiting for the agent's balance: retry later`, {
      details: { queued },
      docsPath: 'docs/agent-api.md#admission-and-retries',
    });
  }
}

export interface AdmissionQueueOptions {
  /** The agent's available balance, read from the chain (yoctoNEAR). */
  readBalance(): Promise<bigint>;
  /** How many calls may wait at once. */
  maxQueued: number;
}

/** An admitted call's reservation. */
export interface Admission {
  readonly cost: bigint;
  /** The transaction is known to be included (the chain deducted its cost). */
  included(): void;
  /** The call is over: its transaction is final with its refunds, or failed. Idempotent. */
  settle(): void;
}

interface Reservation extends Admission {
  /** Read sequence number when inclusion was learnt: snapshots begun after it show the deduction. */
  includedAt?: number;
  /** Read sequence number when the call settled: snapshots begun after it show everything it did. */
  settledAt?: number;
}

interface Waiter {
  cost: bigint;
  /** Read sequence number at arrival: only a snapshot begun after it may refuse the call for good. */
  arrivedAt: number;
  resolve(admission: Admission): void;
  reject(error: unknown): void;
}

export class AdmissionQueue {
  readonly #options: AdmissionQueueOptions;
  readonly #reservations = new Set<Reservation>();
  readonly #waiting: Waiter[] = [];
  /** Sequence number of the last read begun. */
  #reads = 0;
  #snapshot?: { balance: bigint; readAt: number };
  #reading = false;
  #readAgain = false;
  #readError?: unknown;

  constructor(options: AdmissionQueueOptions) {
    this.#options = options;
  }

  /** Calls waiting for admission. */
  get queued(): number {
    return this.#waiting.length;
  }

  /** Admitted calls not yet forgotten (in flight, or settled and not yet shown by a snapshot). */
  get inFlight(): number {
    return this.#reservations.size;
  }

  /**
   * Resolves with a reservation once a call costing `cost` fits; rejects with `QueueFullError` at once when
   * the queue is full, `InsufficientBalanceError` when the call can never fit. `first` puts the call at the
   * head of the queue (a call sent back after the chain refused it for the balance keeps its turn).
   */
  admit(cost: bigint, options: { first?: boolean } = {}): Promise<Admission> {
    if (this.#waiting.length >= this.#options.maxQueued && !options.first) {
      return Promise.reject(new QueueFullError(this.#waiting.length));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { cost, arrivedAt: this.#reads, resolve, reject };
      if (options.first) this.#waiting.unshift(waiter);
      else this.#waiting.push(waiter);
      this.#pump();
    });
  }

  /** Admits what fits, refuses what never can, and reads the balance when a decision needs it. */
  #pump(): void {
    while (this.#waiting.length > 0) {
      const head = this.#waiting[0];
      const snapshot = this.#snapshot;
      if (!snapshot) {
        this.#read();
        return;
      }
      if (head.cost <= this.#free(snapshot)) {
        this.#waiting.shift();
        head.resolve(this.#reserve(head.cost));
        continue;
      }
      if (this.#reservations.size > 0) {
        // Calls in flight will settle and bring a new snapshot; a settled one not yet shown needs one now.
        if ([...this.#reservations].some((r) => r.settledAt !== undefined)) this.#read();
        return;
      }
      if (snapshot.readAt > head.arrivedAt) {
        this.#waiting.shift();
        head.reject(new InsufficientBalanceError(head.cost, snapshot.balance));
        continue;
      }
      // Nothing in flight, but the snapshot is older than the call: read again before refusing it.
      this.#read();
      return;
    }
  }

  /** The snapshot's balance less the reservations it does not show. */
  #free(snapshot: { balance: bigint; readAt: number }): bigint {
    let free = snapshot.balance;
    for (const r of this.#reservations) {
      if (r.includedAt === undefined || r.includedAt >= snapshot.readAt) free -= r.cost;
    }
    return free;
  }

  #reserve(cost: bigint): Admission {
    const r: Reservation = {
      cost,
      included: () => {
        r.includedAt ??= this.#reads;
      },
      settle: () => {
        if (r.settledAt !== undefined) return;
        r.settledAt = this.#reads;
        this.#pump();
        if (this.#waiting.length === 0) this.#read();
      },
    };
    this.#reservations.add(r);
    return r;
  }

  /** Reads the balance (one read at a time; a request during a read makes another after it). */
  #read(): void {
    if (this.#reading) {
      this.#readAgain = true;
      return;
    }
    this.#reading = true;
    this.#readAgain = false;
    const readAt = ++this.#reads;
    this.#options.readBalance().then(
      (balance) => {
        this.#snapshot = { balance, readAt };
        this.#readError = undefined;
        for (const r of this.#reservations) {
          if (r.settledAt !== undefined && r.settledAt < readAt) this.#reservations.delete(r);
        }
        this.#afterRead();
      },
      (error) => {
        this.#readError = error;
        this.#afterRead();
      },
    );
  }

  #afterRead(): void {
    this.#reading = false;
    if (this.#readError !== undefined && !this.#snapshot) {
      // No balance known at all: the waiting calls fail with the chain's error rather than hang.
      const error = this.#readError;
      for (const w of this.#waiting.splice(0)) w.reject(error);
      this.#readError = undefined;
      return;
    }
    if (this.#readAgain) {
      this.#read();
      return;
    }
    if (this.#readError !== undefined) {
      const error = this.#readError;
      this.#readError = undefined;
      if (![...this.#reservations].some((r) => r.settledAt === undefined)) {
        // Nothing in flight to wait for: the waiting calls fail with the chain's error rather than hang.
        for (const w of this.#waiting.splice(0)) w.reject(error);
      } else if (this.#waiting.length > 0) {
        // Calls in flight: read again shortly.
        setTimeout(() => this.#pump(), 250).unref();
      }
      return;
    }
    this.#pump();
  }
}
