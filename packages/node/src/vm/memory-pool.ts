/**
 * Contract memories, reused between calls. Every call needs 64 MiB (1024 pages) of zeroed memory; creating
 * a fresh `WebAssembly.Memory` per call costs milliseconds once the process has a real heap (V8 collects
 * garbage to account for each new backing store). A memory returned here is zeroed up to where the call
 * wrote — tracked by the instrumentation's `dirty_end`, the host's own writes and the data segments — so the
 * next call sees exactly what a fresh memory holds. A memory that grew is dropped: its size would differ.
 */
const PAGE = 65_536;

export class MemoryPool {
  private readonly free: WebAssembly.Memory[] = [];

  constructor(
    readonly initialPages: number,
    private readonly maxPages: number,
    private readonly capacity = 4,
  ) {}

  acquire(): WebAssembly.Memory {
    return this.free.pop() ?? new WebAssembly.Memory({ initial: this.initialPages, maximum: this.maxPages });
  }

  /** Give `memory` back after a call that wrote nothing at or beyond `dirtyEnd`. */
  release(memory: WebAssembly.Memory, dirtyEnd: number): void {
    const size = memory.buffer.byteLength;
    if (size !== this.initialPages * PAGE || this.free.length >= this.capacity) return;
    new Uint8Array(memory.buffer, 0, Math.min(size, dirtyEnd)).fill(0);
    this.free.push(memory);
  }
}
