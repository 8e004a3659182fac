/**
 * Returns the JS heap's garbage to the OS once the chain stops making blocks after a burst of them.
 *
 * Under load V8 lets the old generation grow to a few times what is live before a full collection (it trades
 * memory for throughput), and its memory reducer only shrinks the heap after seconds of low allocation, which
 * views and status polls keep from happening: after the benchmark's writes the node held 212 MiB of heap of which
 * 67 MiB were live, and 10 s of idle changed nothing, while one full collection took the RSS from 344 to 173
 * MiB (bench/README.md, metric 4). So when no block has been made for `idleMs` and the heap has grown by
 * `minGrowthBytes` since the last collection it ran, this runs one full collection: a pause of tens of ms once
 * per burst of writes, never while blocks are being made.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Chain } from './chain.js';

export interface IdleHeapTrimOptions {
  /** Quiet time (no block) before a collection, ms. Default 1,000. */
  idleMs?: number;
  /** Growth of the used heap since the last collection below which none is run, bytes. Default 32 MiB. */
  minGrowthBytes?: number;
  /** Used heap bytes (tests). Default: V8's `used_heap_size`. */
  heapUsed?: () => number;
  /** Runs a full collection (tests). Default: V8's `gc`. */
  collect?: () => void;
  /** Clock, ms (tests). */
  now?: () => number;
}

export class IdleHeapTrim {
  private readonly idleMs: number;
  private readonly minGrowthBytes: number;
  private readonly heapUsed: () => number;
  private readonly collect: () => void;
  private readonly now: () => number;
  private lastBlockAt = 0;
  private blocksSinceCollection = 0;
  /** Used heap right after the last collection this ran (0: none yet). */
  private baseline = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Collections run so far. */
  collections = 0;
  private readonly onBlock = () => {
    this.lastBlockAt = this.now();
    this.blocksSinceCollection++;
    if (this.timer === undefined) this.schedule(this.idleMs);
  };

  constructor(
    private readonly chain: Chain,
    options: IdleHeapTrimOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 1_000;
    this.minGrowthBytes = options.minGrowthBytes ?? 32 * 1024 * 1024;
    this.heapUsed = options.heapUsed ?? (() => getHeapStatistics().used_heap_size);
    this.collect = options.collect ?? fullCollection();
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.baseline = this.heapUsed();
    this.chain.on('block', this.onBlock);
  }

  stop(): void {
    this.chain.off('block', this.onBlock);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Runs the check now (the timer's work; tests call it with their clock). */
  check(): void {
    this.timer = undefined;
    if (this.blocksSinceCollection === 0) return;
    const quiet = this.now() - this.lastBlockAt;
    if (quiet < this.idleMs) {
      this.schedule(this.idleMs - quiet);
      return;
    }
    this.blocksSinceCollection = 0;
    if (this.heapUsed() < this.baseline + this.minGrowthBytes) return;
    this.collect();
    this.collections++;
    this.baseline = this.heapUsed();
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => this.check(), ms);
    this.timer.unref();
  }
}

let gcFunction: (() => void) | undefined;

/** V8's `gc` (a full, compacting collection), exposed once for this process without `node --expose-gc`. */
function fullCollection(): () => void {
  if (gcFunction) return gcFunction;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') {
    gcFunction = exposed;
  } else {
    setFlagsFromString('--expose-gc');
    gcFunction = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc'); // contexts made later (a user's vm) get no `gc` global
  }
  return gcFunction;
}
