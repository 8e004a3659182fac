/**
 * A view worker's wait for its next batch, spent awake while the worker is busy (rpc/view-worker.ts).
 *
 * A worker that has answered its batch goes back to its event loop and sleeps until the RPC's thread posts the
 * next. Under load that gap is short (tens of µs), but waking a sleeping thread is not: on a virtual machine
 * whose idle cores halt, the wake-up is a trip through the host, and every view in flight waits for it. So,
 * while the worker has spent at least 30 % of the last 100 ms on its batches, it stays on its core after each
 * batch for up to `maxSpinMs`, watching a counter that the pool raises with every message it posts to it
 * (`ViewWorkerPool`), and returns to its event loop as soon as the counter moves. A worker busy less than that —
 * an idle node, or any load below about a third of what one worker can answer — never spins, so it costs nothing
 * where it would not help.
 *
 * It is off unless `SHADEBOX_VIEW_SPIN_US` turns it on. Once a view's own cost stopped sending anything to the
 * worker's old generation, the benchmark's view load ran 1.10-1.14× anvil's rate with a p99 of 0.70-0.82× of
 * anvil's without the wait, and 1.19-1.30× with a p99 of 0.82-1.09× with 400 µs of it: under that load the
 * machine's two cores are saturated, and the core the wait holds is one the RPC's thread and its clients then
 * wait for (bench/README.md at e5cd03a, metric 5).
 */

/** How long a busy worker waits awake for its next batch (`SHADEBOX_VIEW_SPIN_US` sets it, 0 = never). */
export const DEFAULT_SPIN_MS = 0;
/** The share of the last window the worker must have spent on batches for it to wait awake. */
const MIN_BUSY_SHARE = 0.3;
/** The window its busy share is measured over. */
const WINDOW_MS = 100;

/** The spin the environment sets (`SHADEBOX_VIEW_SPIN_US`, in µs), else the default. */
export function spinFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const set = env.SHADEBOX_VIEW_SPIN_US;
  if (set !== undefined && /^\d+$/.test(set)) return Number(set) / 1000;
  return DEFAULT_SPIN_MS;
}

export class BatchSpin {
  /** Messages handled, wrapping as the shared Int32 counter does. */
  private handled = 0;
  private batchStart = 0;
  private windowStart: number;
  private busyInWindow = 0;
  /** Whether the last window was busy enough to spin in this one. */
  private busy = false;
  /** Time spent waiting awake, and the waits that ended with a batch posted (for tests and profiles). */
  readonly stats = { spunMs: 0, caught: 0, missed: 0 };

  constructor(
    /** posted[0]: the messages the pool has posted to this worker. */
    private readonly posted: Int32Array,
    private readonly maxSpinMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.windowStart = now();
  }

  /** A message from the pool is being handled. */
  batchBegins(): void {
    this.batchStart = this.now();
  }

  /** The message is handled: waits awake for the next one while the worker is busy, up to `maxSpinMs`. */
  batchEnds(): void {
    this.handled = (this.handled + 1) | 0;
    const end = this.now();
    this.busyInWindow += end - this.batchStart;
    if (end - this.windowStart >= WINDOW_MS) {
      this.busy = this.busyInWindow / (end - this.windowStart) >= MIN_BUSY_SHARE;
      this.windowStart = end;
      this.busyInWindow = 0;
    }
    if (!this.busy || this.maxSpinMs <= 0 || Atomics.load(this.posted, 0) !== this.handled) return;
    const until = end + this.maxSpinMs;
    let now = end;
    while (Atomics.load(this.posted, 0) === this.handled && now < until) now = this.now();
    this.stats.spunMs += now - end;
    if (Atomics.load(this.posted, 0) !== this.handled) this.stats.caught++;
    else this.stats.missed++;
  }
}
