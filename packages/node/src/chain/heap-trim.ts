/**
 * Bounds the JS heap's garbage: a full collection once the used heap has grown by `headroomBytes` since the
 * last one, and one when the chain stops making blocks after a burst of them.
 *
 * Under load V8 lets the old generation grow to a few times what is live before a full collection (it trades
 * memory for throughput), and its memory reducer only shrinks the heap after seconds of low allocation, which
 * views and status polls keep from happening: after the benchmark's writes the node held 212 MiB of heap of
 * which 67 MiB were live, and 10 s of idle changed nothing, while one full collection took the RSS from 344 to
 * 173 MiB (bench/README.md, metric 4). So, checked every `intervalMs` (a timer that keeps no process alive):
 * - when the used heap is `headroomBytes` above what the last collection left, collect (during load: a pause
 *   of tens of ms every few seconds of writes);
 * - when no block has been made for `idleMs` after some were, and the used heap grew by `idleGrowthBytes`,
 *   collect (the garbage of a burst of writes goes back to the OS once the writes stop).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Chain } from './chain.js';

export interface HeapTrimOptions {
  /** Growth of the used heap since the last collection at which one runs whatever the load, bytes. Default
   * 16 MiB. */
  headroomBytes?: number;
  /** Quiet time (no block) after blocks before the idle collection, ms. Default 1,000. */
  idleMs?: number;
  /** Growth of the used heap below which the idle collection is skipped, bytes. Default 8 MiB. */
  idleGrowthBytes?: number;
  /** Time between checks, ms. Default 1,000. */
  intervalMs?: number;
  /** Used heap bytes (tests). Default: V8's `used_heap_size`. */
  heapUsed?: () => number;
  /** Runs a full collection (tests). Default: V8's `gc`. */
  collect?: () => void;
  /** Clock, ms (tests). */
  now?: () => number;
}

export class HeapTrim {
  private readonly headroomBytes: number;
  private readonly idleMs: number;
  private readonly idleGrowthBytes: number;
  private readonly intervalMs: number;
  private readonly heapUsed: () => number;
  private readonly collect: () => void;
  private readonly now: () => number;
  private lastBlockAt = 0;
  private blocksSinceCollection = 0;
  /** Used heap right after the last collection this ran (or at start). */
  private baseline = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Collections run so far. */
  collections = 0;
  private readonly onBlock = () => {
    this.lastBlockAt = this.now();
    this.blocksSinceCollection++;
  };

  constructor(
    private readonly chain: Chain,
    options: HeapTrimOptions = {},
  ) {
    this.headroomBytes = options.headroomBytes ?? 16 * 1024 * 1024;
    this.idleMs = options.idleMs ?? 1_000;
    this.idleGrowthBytes = options.idleGrowthBytes ?? 8 * 1024 * 1024;
    this.intervalMs = options.intervalMs ?? 1_000;
    this.heapUsed = options.heapUsed ?? (() => getHeapStatistics().used_heap_size);
    this.collect = options.collect ?? fullCollection();
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.baseline = this.heapUsed();
    this.chain.on('block', this.onBlock);
    this.timer = setInterval(() => this.check(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    this.chain.off('block', this.onBlock);
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One check (the timer's work; tests call it with their clock). */
  check(): void {
    const used = this.heapUsed();
    if (used >= this.baseline + this.headroomBytes) {
      this.run();
      return;
    }
    if (this.blocksSinceCollection === 0 || this.now() - this.lastBlockAt < this.idleMs) return;
    this.blocksSinceCollection = 0;
    if (used >= this.baseline + this.idleGrowthBytes) this.run();
  }

  private run(): void {
    this.collect();
    this.collections++;
    this.blocksSinceCollection = 0;
    this.baseline = this.heapUsed();
  }
}

let gcFunction: (() => void) | undefined;

/**
 * The trim's full collection: V8's `gc`, exposed once for this process without `node --expose-gc`, run with
 * every fragmented page evacuated. A plain full collection frees objects but moves few, so pages stay
 * committed when their live objects are scattered (records cached for minutes, then evicted, leave such
 * pages): in the soak the old space's resident pages crept from 43 to 66 MiB in 80 s while 30-38 MiB of it
 * was live, and RssAnon rose with uptime. Compacting the trim's own collections keeps the old space near what
 * is live (bench/README.md "Soak"); V8's own collections are left as they are.
 */
export function fullCollection(): () => void {
  if (gcFunction) return gcFunction;
  let gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc'); // contexts made later (a user's vm) get no `gc` global
  }
  const collect = gc;
  // Left on if the process was started with it.
  const always = /--compact[-_]on[-_]every[-_]full[-_]gc/.test(
    `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`,
  );
  gcFunction = always
    ? collect
    : () => {
        setFlagsFromString('--compact-on-every-full-gc');
        try {
          collect();
        } finally {
          setFlagsFromString('--no-compact-on-every-full-gc');
        }
      };
  return gcFunction;
}
