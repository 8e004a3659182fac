/**
 * The responder's requests under way, aborted when it stops (a `send_tx` may wait up to the node's
 * timeout). One controller per request: a long-lived signal would keep a listener for every request made.
 */
import type { CallOptions } from '@shadebox/near-client';

export class AbortOnStop {
  readonly #underWay = new Set<AbortController>();
  #stopped = false;

  /** Runs one call with a signal aborted by `abort()` (at once when already stopped). */
  async run<T>(call: (options: CallOptions) => Promise<T>, timeoutMs?: number): Promise<T> {
    const controller = new AbortController();
    if (this.#stopped) controller.abort();
    this.#underWay.add(controller);
    try {
      return await call({ signal: controller.signal, timeoutMs });
    } finally {
      this.#underWay.delete(controller);
    }
  }

  /** Aborts every call under way and those started later. */
  abort(): void {
    this.#stopped = true;
    for (const controller of this.#underWay) controller.abort();
  }
}
