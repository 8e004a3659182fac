/**
 * Contract memories, reused between calls. Every call needs 64 MiB (1024 pages) of zeroed memory; creating
 * a fresh `WebAssembly.Memory` per call costs milliseconds once the process has a real heap (V8 collects
 * garbage to account for each new backing store). A memory returned here is zeroed up to where the call
 * wrote — tracked by the instrumentation's `dirty_end`, the host's own writes and the data segments — so the
 * next call sees exactly what a fresh memory holds. A memory that a call grew is kept too: contracts see a
 * logical size (the instrumentation's `memory_pages`, reset to the initial size for every call) and every
 * access is checked against it (prepare/instrument.ts), so the extra physical pages are invisible. Dropping
 * grown memories made every call of a contract that grows (any Rust contract: its allocator grows on first
 * use) allocate a fresh 64 MiB memory, and V8 answers each such allocation with a full garbage collection.
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

  /** Give `memory` back after a call (see {@link zeroAfterCall} for `dirtyEnd` and `pagesEnd`). */
  release(memory: WebAssembly.Memory, dirtyEnd: number, pagesEnd: number): void {
    if (this.free.length >= this.capacity) return;
    this.zeroAfterCall(memory, dirtyEnd, pagesEnd);
    this.free.push(memory);
  }

  /**
   * Zeroes what a call may have written: the initial memory up to `dirtyEnd` (the furthest write that started
   * in it) and the pages the call grew, from the initial size to `pagesEnd` (its logical size at the end). A
   * Rust contract's allocator takes its heap from grown pages, so its writes there do not make the whole
   * 64 MiB below them count as written.
   */
  zeroAfterCall(memory: WebAssembly.Memory, dirtyEnd: number, pagesEnd: number): void {
    const size = memory.buffer.byteLength;
    new Uint8Array(memory.buffer, 0, Math.min(size, dirtyEnd)).fill(0);
    const initial = this.initialPages * PAGE;
    const grownEnd = Math.min(size, pagesEnd * PAGE);
    if (grownEnd > initial) new Uint8Array(memory.buffer, initial, grownEnd - initial).fill(0);
  }
}
