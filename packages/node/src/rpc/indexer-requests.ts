/**
 * Admission of `EXPERIMENTAL_indexer_block` requests: nearcore's `indexer_requests` semaphore
 * (`rpc.indexer_max_concurrent_requests` permits), taken without waiting; none free is BUSY. A node without
 * one does not serve the method (`rpc.enable_indexer_rpc` false).
 */
export class IndexerRequests {
  private inFlight = 0;

  /** @param maxConcurrent permits; 0 refuses every request. */
  constructor(readonly maxConcurrent: number) {}

  /** Runs `assemble` holding a permit, or returns undefined at once when none is free. */
  tryRun<T>(assemble: () => T): { value: T } | undefined {
    if (this.inFlight >= this.maxConcurrent) return undefined;
    this.inFlight++;
    try {
      return { value: assemble() };
    } finally {
      this.inFlight--;
    }
  }
}
