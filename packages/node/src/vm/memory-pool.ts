/**
 * Contract memories, reused between calls. Every call needs 64 MiB (1024 pages) of zeroed memory; creating
 * a fresh `WebAssembly.Memory` per call costs milliseconds once the process has a real heap (V8 collects
 * garbage to account for each new backing store). A memory returned here is zeroed where the call wrote —
 * tracked by the instrumentation's `dirty_end` (writes starting in the initial memory) and `grown_end`
 * (writes starting in grown pages), the host's own writes and the data segments — so the next call sees
 * exactly what a fresh memory holds. A memory that a call grew is kept too: contracts see a logical size (the
 * instrumentation's `memory_pages`, reset to the initial size for every call) and every access is checked
 * against it (prepare/instrument.ts), so the extra physical pages are invisible, and they are zero wherever
 * no write reached. Dropping grown memories made every call of a contract that grows (any Rust contract: its
 * allocator grows on first use) allocate a fresh 64 MiB memory, and V8 answers each such allocation with a
 * full garbage collection; zeroing each grown page whole was the largest frame of a near-sdk-rs view
 * (bench/README.md).
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

  /** Give `memory` back after a call (see {@link zeroAfterCall} for the bounds). */
  release(memory: WebAssembly.Memory, dirtyStart: number, dirtyEnd: number, grownEnd: number): void {
    if (this.free.length >= this.capacity) return;
    this.zeroAfterCall(memory, dirtyStart, dirtyEnd, grownEnd);
    this.free.push(memory);
  }

  /**
   * Zeroes what a call may have written: the initial memory from `dirtyStart` (where the lowest write into it
   * started) to `dirtyEnd` (where the furthest one ended) — a Rust contract's calls write the top of its stack,
   * 1 MiB into memory below its data, not the whole megabyte below — and the grown pages from the initial size up to `grownEnd` (the furthest write that started in
   * them; 0 when none did). A Rust contract's allocator takes its heap from grown pages, so its writes there
   * do not make the whole 64 MiB below them count as written, and the rest of a grown page, never written,
   * is still zero.
   */
  zeroAfterCall(memory: WebAssembly.Memory, dirtyStart: number, dirtyEnd: number, grownEnd: number): void {
    const size = memory.buffer.byteLength;
    const end = Math.min(size, dirtyEnd);
    if (end > dirtyStart) new Uint8Array(memory.buffer, dirtyStart, end - dirtyStart).fill(0);
    const initial = this.initialPages * PAGE;
    const grown = Math.min(size, grownEnd);
    if (grown > initial) new Uint8Array(memory.buffer, initial, grown - initial).fill(0);
  }
}
