/**
 * When blocks are made. `automine` (default) makes blocks back to back while there is work — transactions in
 * the pool, receipts in flight, transactions someone waits on — and until the last block that did work is
 * final (two more blocks), then idles; while a yielded promise waits for its resume it makes one block every
 * `yieldBlockTimeMs` (NEAR's pace), so a yield nobody resumes times out after `yield_timeout_length_in_blocks`
 * blocks as on NEAR. `interval` makes one block every `blockTimeMs`. `manual` makes blocks only when asked
 * (`produce`).
 */

import type { PendingTransaction } from '../runtime/apply-chunk.js';
import { ZERO_HASH_B58 } from './block-views.js';
import type { Chain } from './chain.js';
import { NodeStoppingError } from './node-stopping-error.js';
import { hasPendingYield } from './pending-yields.js';
import type { BlockRecord } from './records.js';
import type { TxPool } from './tx-pool.js';

export type ProductionMode =
  | { kind: 'automine' }
  | { kind: 'interval'; blockTimeMs: number }
  | { kind: 'manual' };

/** Most transactions one block takes from the pool. */
export const MAX_TRANSACTIONS_PER_BLOCK = 4000;

/** Automine's pace while a yield waits: nearcore's `min_block_production_delay` default, 600 ms, NEAR's block
 * time. */
export const DEFAULT_YIELD_BLOCK_TIME_MS = 600;

export interface BlockProducerHooks {
  /** Whether someone waits on a transaction that is in the pool or in flight. */
  hasWaiters(): boolean;
  /** Called with transactions a block dropped because they no longer pass the checks. */
  onDropped?(dropped: ReturnType<Chain['produceBlock']>['dropped']): void;
  onError?(error: unknown): void;
  /** Automine ran out of work after making blocks back to back (chain/heap-trim.ts collects the burst's garbage
   * then). */
  onIdle?(): void;
}

export class BlockProducer {
  private timer: NodeJS.Timeout | undefined;
  /** Automine's next block for a pending yield. */
  private yieldTimer: NodeJS.Timeout | undefined;
  private scheduled = false;
  private stopped = false;
  /** Automine made a block since it last ran out of work. */
  private busy = false;
  /** Height of the last block that included a transaction or executed a receipt. */
  private lastWorkHeight = Number.NEGATIVE_INFINITY;
  private nextTimestampNs: bigint | undefined;
  /** How far block timestamps run ahead of the wall clock: heights skipped by `sandbox_fast_forward` ×
   * `averageBlockTimeNs` (nearcore's `sandbox_delta_time`), for the life of the process. */
  clockOffsetNs = 0n;
  /** The average of the block production delays (nearcore: (min + max) / 2; its defaults 600 ms and 2 s). */
  averageBlockTimeNs = 1_300_000_000n;
  /** Automine: milliseconds between blocks while a yield waits for its resume and there is no other work. */
  yieldBlockTimeMs = DEFAULT_YIELD_BLOCK_TIME_MS;
  /** Told how a long run of blocks advances (`sandbox_fast_forward` of many heights; the node logs it). */
  onProgress?: (progress: { task: string; done: number; total: number }) => void;
  /** How often a long run reports (a short one, done within this, says nothing). */
  progressEveryMs = 1000;

  constructor(
    /** The chain blocks are made on (public for chain/dev-controls.ts). */
    readonly chain: Chain,
    private readonly pool: TxPool,
    private currentMode: ProductionMode,
    private readonly hooks: BlockProducerHooks,
  ) {}

  get mode(): ProductionMode {
    return this.currentMode;
  }

  /** Makes blocks as `mode` says from now on (`shadebox up --manual`: once the stack's setup is done). */
  setMode(mode: ProductionMode): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.currentMode = mode;
    if (this.stopped) return;
    if (mode.kind === 'interval') this.timer = setInterval(() => this.safeProduce(), mode.blockTimeMs);
    this.notify();
  }

  start(): void {
    this.lastWorkHeight = this.storedWorkHeight();
    if (this.mode.kind === 'interval') {
      this.timer = setInterval(() => this.safeProduce(), this.mode.blockTimeMs);
    }
    this.notify();
  }

  /** After a restart: the last block that did work, if it is not final yet (head or head - 1), so automine
   * finishes what a stopped or killed node left unfinalised. A block did work when its chunks have outcomes
   * (transactions included or receipts executed, refunds too): their outcome root is then not the empty one. */
  private storedWorkHeight(): number {
    const head = this.chain.head.height;
    for (const height of [head, head - 1]) {
      const block = this.chain.blockByHeight(height);
      if (block?.chunkExtras.some((extra) => extra.outcomeRoot !== ZERO_HASH_B58)) return height;
    }
    return Number.NEGATIVE_INFINITY;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.yieldTimer) clearTimeout(this.yieldTimer);
  }

  /** Whether automine is waiting to make the next block for a pending yield. */
  get pacingYield(): boolean {
    return this.yieldTimer !== undefined;
  }

  /** True once `stop()` ran: no block is made any more (making one throws NodeStoppingError). */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Tells the producer there may be work (a transaction arrived, someone started waiting). */
  notify(): void {
    if (this.mode.kind !== 'automine' || this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.stopped) return;
      if (!this.hasWork()) {
        if (this.busy) {
          this.busy = false;
          this.hooks.onIdle?.();
        }
        return this.paceYields();
      }
      if (this.safeProduce()) {
        this.busy = true;
        this.notify();
      }
    });
  }

  /** With nothing else to do and a yield pending: the next block in `yieldBlockTimeMs` (once per wait; a block
   * made meanwhile for other work does not move it). Idle (no timer) when no yield is pending. */
  private paceYields(): void {
    if (this.yieldTimer !== undefined || !hasPendingYield(this.chain)) return;
    this.yieldTimer = setTimeout(() => {
      this.yieldTimer = undefined;
      if (this.stopped || this.mode.kind !== 'automine') return;
      if (hasPendingYield(this.chain)) this.safeProduce();
      this.notify();
    }, this.yieldBlockTimeMs);
  }

  /** Sets the timestamp of the next block (nanoseconds). */
  setNextTimestamp(timestampNs: bigint): void {
    this.nextTimestampNs = timestampNs;
  }

  /** The timestamp set for the next block, if any (nanoseconds). */
  get nextTimestamp(): bigint | undefined {
    return this.nextTimestampNs;
  }

  /** After `sandbox_revert`: empties the pool, forgets the next timestamp and the last block that did work
   * (it may be above the new head), so automine does not make blocks for work that no longer exists. */
  reset(): void {
    this.pool.take(this.pool.size);
    this.nextTimestampNs = undefined;
    this.lastWorkHeight = Number.NEGATIVE_INFINITY;
  }

  /** Makes one block now at `height` (above the head; the heights between are skipped). */
  produceAt(height: number): BlockRecord {
    const block = this.produceOne(height);
    this.notify();
    return block;
  }

  /** Makes `count` blocks now, whatever the mode. */
  produce(count = 1): BlockRecord[] {
    const blocks: BlockRecord[] = [];
    for (let i = 0; i < count; i++) blocks.push(this.produceOne());
    this.notify();
    return blocks;
  }

  private hasWork(): boolean {
    return (
      this.pool.size > 0 ||
      this.chain.pendingReceiptCount > 0 ||
      // the last block that did work is not final yet (by heights: two blocks after it at consecutive heights)
      this.chain.finalHeight('final') < this.lastWorkHeight ||
      this.hooks.hasWaiters()
    );
  }

  private safeProduce(): boolean {
    try {
      this.produceOne();
      return true;
    } catch (error) {
      this.hooks.onError?.(error);
      return false;
    }
  }

  private produceOne(height?: number): BlockRecord {
    // A fast-forward or other loop still running when the node stops ends here, before the store closes.
    if (this.stopped) throw new NodeStoppingError();
    const txs: PendingTransaction[] = this.pool.take(MAX_TRANSACTIONS_PER_BLOCK);
    const hadReceipts = this.chain.pendingReceiptCount > 0;
    let timestampNs = this.nextTimestampNs;
    this.nextTimestampNs = undefined;
    if (timestampNs === undefined && this.clockOffsetNs > 0n) {
      timestampNs = BigInt(Date.now()) * 1_000_000n + this.clockOffsetNs;
    }
    const options: { timestampNs?: bigint; height?: number } = {};
    if (timestampNs !== undefined) options.timestampNs = timestampNs;
    if (height !== undefined) options.height = height;
    const produced = this.chain.produceBlock(txs, options);
    if (produced.included.length > 0 || hadReceipts) this.lastWorkHeight = produced.block.height;
    if (produced.dropped.length > 0) this.hooks.onDropped?.(produced.dropped);
    return produced.block;
  }
}
