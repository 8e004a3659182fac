/**
 * Bounds the JS heap's garbage: a full collection once the used heap has grown by `headroomBytes` since the
 * last one, and one when the thread's work (the chain's blocks, a view worker's jobs) stops after a burst of it.
 *
 * Under load V8 lets the old generation grow to a few times what is live before a full collection (it trades
 * memory for throughput), and its memory reducer only shrinks the heap after seconds of low allocation, which
 * views and status polls keep from happening: after the benchmark's writes the node held 212 MiB of heap of
 * which 67 MiB were live, and 10 s of idle changed nothing, while one full collection took the RSS from 344 to
 * 173 MiB (bench/README.md at e5cd03a, metric 4). So, checked every `intervalMs` (a timer that keeps no process alive):
 * - when the used heap is `headroomBytes` above what the last collection left, collect; while the thread is
 *   busy (activity in the last `idleMs`), at most once per `busyGapMs` (see below);
 * - when no activity (a block, a job) has come for `idleMs` after some did, and the used heap grew by
 *   `idleGrowthBytes`, collect (the garbage of a burst of writes goes back to the OS once the writes stop);
 * - after `releasesPerCollection` native releases (`nativeReleased`): memory outside the JS heap that only a
 *   full collection frees, such as a closed LMDB environment's (store/lmdb-store.ts `onRemap`). On a store
 *   that remaps every 20 blocks (store/remap-memory.bench.ts, 1,000 remaps), glibc's main heap stood at 48 MiB
 *   when collected every 25 remaps and at 23 MiB when collected every 4 (21 MiB without remaps).
 *
 * Why the trim leaves a busy thread to V8's own collections: its collection is V8's `gc`, a forced,
 * non-incremental one (about 30 ms on the node's main thread under the benchmark's writes), and V8 drops the
 * optimized code whose embedded objects it finds dead then (`--trace-deopt`: "marking dependent code … for
 * deoptimization, reason: weak objects"), which V8's own collections under the same load did not. Collecting
 * at every 16 MiB of growth under the benchmark's transfers (about every 600 ms) made 356 such
 * deoptimizations in 6 s, and V8's compiler threads spent the run re-optimizing the same functions (borsh
 * writers, hashing, the store's commit); at most one per `busyGapMs` took the transfers from 873-908 to
 * 992-1,015 a second on the benchmark's machine (bench/README.md at e5cd03a, metric 2). The price is memory while busy:
 * about 6 MiB more in a soak (bench/README.md at e5cd03a, "Soak").
 *
 * Each thread that runs JavaScript has its own heap and runs its own trim: the node's main thread on its
 * chain's blocks (start-node.ts), each view worker on its jobs (rpc/view-worker.ts). A view worker's heap is
 * small and mostly garbage between V8's own rare full collections: in a soak its used heap crept from 6.5 to
 * 12.3 MiB in ten minutes for 5.8 MiB live.
 */
import { createRequire } from 'node:module';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Chain } from './chain.js';

/** Calls `onActivity` at each unit of the thread's work until the returned function is called. */
export type ActivitySubscription = (onActivity: () => void) => () => void;

/** The node's activity: the blocks its chain makes. */
export function chainBlocks(chain: Pick<Chain, 'on' | 'off'>): ActivitySubscription {
  return (onActivity) => {
    chain.on('block', onActivity);
    return () => chain.off('block', onActivity);
  };
}

export interface HeapTrimOptions {
  /** Growth of the used heap since the last collection at which one runs whatever the load, bytes. Default
   * 16 MiB. */
  headroomBytes?: number;
  /** Quiet time (no activity) after some before the idle collection, ms. Default 1,000. */
  idleMs?: number;
  /** Growth of the used heap below which the idle collection is skipped, bytes. Default 8 MiB. */
  idleGrowthBytes?: number;
  /** Time between checks, ms. Default 1,000. */
  intervalMs?: number;
  /** Native releases (`nativeReleased`) after which the next check collects. Default 4. */
  releasesPerCollection?: number;
  /** Least time from one collection to the next, ms: bounds what the trim costs under a heavy load. Default 0. */
  minGapMs?: number;
  /** Least time from one collection to the next while the thread is busy (activity in the last `idleMs`), ms:
   * the headroom, native-release and end-of-burst collections wait for it (V8's own collections go on
   * meanwhile); the idle one, after `idleMs` of quiet, does not. Default 15,000. */
  busyGapMs?: number;
  /**
   * Once the thread has been quiet for `idleMs` after `start` (no activity since `start`, or none for
   * `idleMs`), run one memory-reducing collection (`reduceMemory`): the start's garbage and the young
   * generation it grew go back to the OS then rather than when V8's memory reducer first runs (about 8 s into
   * the process). Default false (the node's own trim sets it, start-node.ts).
   */
  settleAfterStart?: boolean;
  /** The settling collection (tests); calls `done` when it has run. Default: `reduceMemory`. */
  settle?: (done: () => void) => void;
  /** Used heap bytes (tests). Default: V8's `used_heap_size`. */
  heapUsed?: () => number;
  /** Runs a full collection (tests). Default: V8's `gc`. */
  collect?: () => void;
  /** Clock, ms (tests). */
  now?: () => number;
}

/** See HeapTrimOptions.busyGapMs. */
export const DEFAULT_BUSY_GAP_MS = 15_000;

export class HeapTrim {
  private readonly headroomBytes: number;
  private readonly idleMs: number;
  private readonly idleGrowthBytes: number;
  private readonly intervalMs: number;
  private readonly releasesPerCollection: number;
  private releasesSinceCollection = 0;
  private readonly minGapMs: number;
  private readonly busyGapMs: number;
  private lastCollectionAt = Number.NEGATIVE_INFINITY;
  private readonly heapUsed: () => number;
  private readonly collect: () => void;
  private readonly settle: (done: () => void) => void;
  /** The settling collection is still to run (`settleAfterStart`). */
  private settlePending: boolean;
  private startedAt = 0;
  private readonly now: () => number;
  private lastActivityAt = 0;
  private activitySinceCollection = 0;
  /** Used heap right after the last collection this ran (or at start). */
  private baseline = 0;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Collections run so far. */
  collections = 0;
  private readonly onActivity = () => {
    this.lastActivityAt = this.now();
    this.activitySinceCollection++;
  };

  constructor(
    private readonly activity: ActivitySubscription,
    options: HeapTrimOptions = {},
  ) {
    this.headroomBytes = options.headroomBytes ?? 16 * 1024 * 1024;
    this.idleMs = options.idleMs ?? 1_000;
    this.idleGrowthBytes = options.idleGrowthBytes ?? 8 * 1024 * 1024;
    this.intervalMs = options.intervalMs ?? 1_000;
    this.releasesPerCollection = options.releasesPerCollection ?? 4;
    this.minGapMs = options.minGapMs ?? 0;
    this.busyGapMs = options.busyGapMs ?? DEFAULT_BUSY_GAP_MS;
    this.heapUsed = options.heapUsed ?? (() => getHeapStatistics().used_heap_size);
    // Made on the first collection: `fullCollection` makes a context (0.25 MiB of heap) to take `gc` from.
    this.collect = options.collect ?? (() => fullCollection()());
    this.settle = options.settle ?? reduceMemory;
    this.settlePending = options.settleAfterStart ?? false;
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.startedAt = this.now();
    this.baseline = this.heapUsed();
    this.unsubscribe = this.activity(this.onActivity);
    this.timer = setInterval(() => this.check(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Memory outside the JS heap is now held only by unreachable objects (a closed LMDB environment). */
  nativeReleased(): void {
    this.releasesSinceCollection++;
  }

  /**
   * Automine ran out of work (its blocks stopped). When the heap is past the headroom, the collection the next
   * check would run (up to a second later, whatever the thread is doing then) runs now, in the pause between the
   * writes and whatever comes next: the benchmark's views right after the kv contract's fill otherwise took that
   * pause of tens of ms (bench/README.md at e5cd03a, metric 5). Below the headroom nothing changes: a bursty load (the
   * benchmark's signer setup ends a burst every few tens of ms) is not collected more often. Automine also runs
   * out of work for an instant many times a second under a steady load of transfers, so this too waits
   * `busyGapMs` from the last collection; when it does, the check after `idleMs` of quiet collects instead.
   */
  burstEnded(): void {
    const sinceLast = this.now() - this.lastCollectionAt;
    if (sinceLast < this.minGapMs || sinceLast < this.busyGapMs) return;
    if (this.heapUsed() >= this.baseline + this.headroomBytes) this.run();
  }

  /** One check (the timer's work; tests call it with their clock). */
  check(): void {
    if (this.now() - this.lastCollectionAt < this.minGapMs) return;
    const used = this.heapUsed();
    const busy = this.now() - this.lastActivityAt < this.idleMs;
    if (this.settlePending && !busy && this.now() - this.startedAt >= this.idleMs) {
      this.settlePending = false;
      this.lastCollectionAt = this.now();
      this.settle(() => {
        this.collections++;
        this.baseline = this.heapUsed();
      });
      return;
    }
    if (
      used >= this.baseline + this.headroomBytes ||
      this.releasesSinceCollection >= this.releasesPerCollection
    ) {
      if (!busy || this.now() - this.lastCollectionAt >= this.busyGapMs) this.run();
      return;
    }
    if (this.activitySinceCollection === 0 || busy) return;
    this.activitySinceCollection = 0;
    if (used >= this.baseline + this.idleGrowthBytes) this.run();
  }

  private run(): void {
    this.collect();
    this.lastCollectionAt = this.now();
    this.collections++;
    this.activitySinceCollection = 0;
    this.releasesSinceCollection = 0;
    this.baseline = this.heapUsed();
  }
}

/**
 * A memory-reducing full collection, as V8's memory reducer and `LowMemoryNotification` run: collections until
 * nothing more is freed, the young generation shrunk to its least, the freed pages unmapped. Only V8's inspector
 * asks for one from JavaScript (`HeapProfiler.collectGarbage`, a session of this process's own inspector, closed
 * right after). After a node's start it took 12–40 ms and gave back 2.4 MiB of RSS, 1.8 MiB of it young generation
 * that the start's allocations had grown (docs/architecture.md, "Memory"). Where Node has no inspector, the trim's
 * plain full collection.
 */
export function reduceMemory(done: () => void = () => {}): void {
  let session: import('node:inspector').Session;
  try {
    const { Session } = createRequire(import.meta.url)('node:inspector') as typeof import('node:inspector');
    session = new Session();
    session.connect();
  } catch {
    fullCollection()();
    done();
    return;
  }
  // Disconnected after the answer's dispatch has returned: from inside it, the disconnect waits on that dispatch
  // and the thread hangs.
  session.post('HeapProfiler.collectGarbage', () =>
    setImmediate(() => {
      session.disconnect();
      done();
    }),
  );
}

let gcFunction: (() => void) | undefined;

/**
 * The trim's full collection: V8's `gc`, exposed once for this process without `node --expose-gc`, run with
 * every fragmented page evacuated. A plain full collection frees objects but moves few, so pages stay
 * committed when their live objects are scattered (records cached for minutes, then evicted, leave such
 * pages): in the soak the old space's resident pages crept from 43 to 66 MiB in 80 s while 30-38 MiB of it
 * was live, and RssAnon rose with uptime. Compacting the trim's own collections keeps the old space near what
 * is live (bench/README.md at e5cd03a, "Soak"); V8's own collections are left as they are.
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
