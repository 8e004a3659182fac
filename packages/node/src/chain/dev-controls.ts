/**
 * Developer controls behind the `sandbox_*` RPC methods (docs/dev-controls.md): patch the state at the next
 * block, make blocks now (`produceBlocks`, `fastForward`), set the next block's timestamp, and snapshot /
 * revert with anvil's semantics (reverting to a snapshot deletes it and every later one).
 *
 * Operations that make blocks run one at a time (a queue), so a revert never lands between the blocks of a
 * fast-forward. Snapshots live in memory for the life of the node process; a reverted chain is persisted
 * (the deletions and the new head are one store batch, chain/revert.ts).
 */

import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ShadeboxError } from '@shadebox/errors';
import type { BlockProducer } from './block-producer.js';
import type { Chain } from './chain.js';
import { nextFastForwardStep } from './fast-forward.js';
import { NodeStoppingError } from './node-stopping-error.js';
import type { PatchRecord } from './patch-state.js';
import type { BlockRecord } from './records.js';
import { revertBatch } from './revert.js';

/** Most blocks one `sandbox_fast_forward` or `sandbox_produce_blocks` call makes. */
export const MAX_BLOCKS_PER_CALL = 100_000;
/** Blocks made between two yields to the event loop, so the RPC keeps answering during a long run. */
const BLOCKS_PER_TURN = 200;
/** Longest turn of a long run before it yields (on a disk store each block is flushed: 200 take seconds), so
 * other requests and a Ctrl-C are served while it runs. */
const MAX_TURN_MS = 50;

export type DevControlsErrorKind = 'UNKNOWN_SNAPSHOT' | 'SNAPSHOT_GARBAGE_COLLECTED';

export class DevControlsError extends ShadeboxError<{
  kind: DevControlsErrorKind;
  info: Record<string, unknown>;
}> {
  constructor(
    readonly kind: DevControlsErrorKind,
    message: string,
    readonly info: Record<string, unknown>,
  ) {
    super(message, { details: { kind, info }, docsPath: 'docs/dev-controls.md' });
  }
}

interface Snapshot {
  height: number;
  hash: string;
}

export class DevControls {
  private readonly snapshots = new Map<string, Snapshot>();
  private nextSnapshotId = 1;
  private queue: Promise<unknown> = Promise.resolve();

  /** The chain the producer makes blocks on (never a read view such as `Chain.archivalView()`). */
  readonly chain: Chain;

  constructor(private readonly producer: BlockProducer) {
    this.chain = producer.chain;
  }

  /** Queues `records` for the next block and resolves with that block once it is final, so the patch is
   * visible at every finality when the call returns. In `interval` mode the blocks come on their timer; in
   * `automine` and `manual` mode the patch block and the two that finalise it are made now. */
  patchState(records: PatchRecord[]): Promise<BlockRecord> {
    return this.exclusive(async () => {
      if (this.producer.mode.kind === 'interval') {
        const block = new Promise<BlockRecord>((resolve) => this.chain.once('block', resolve));
        this.chain.queueStatePatch(records);
        const patched = await block;
        await this.untilFinal(patched.height);
        return patched;
      }
      this.chain.queueStatePatch(records);
      const patched = this.producer.produce(1)[0];
      while (this.chain.finalHeight('final') < patched.height) this.producer.produce(1);
      return patched;
    });
  }

  /** Resolves once the block at `height` is final (interval mode: the timer makes the blocks). */
  private untilFinal(height: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.chain.finalHeight('final') < height) return;
        this.chain.off('block', check);
        resolve();
      };
      this.chain.on('block', check);
      check();
    });
  }

  /** Makes `count` blocks now, whatever the production mode; resolves with the last one. */
  produceBlocks(count: number): Promise<BlockRecord> {
    return this.exclusive(() => this.makeBlocks(count));
  }

  /** Moves the chain `delta` heights on as nearcore's sandbox does (chain/fast-forward.ts): heights skipped
   * within epochs, blocks made one by one around epoch boundaries, timestamps moved with the skipped heights;
   * resolves with the last block. */
  fastForward(delta: number): Promise<BlockRecord> {
    return this.exclusive(async () => {
      const { epoch_length: epochLength } = this.chain.genesis;
      let last = this.chain.head;
      let remaining = delta;
      let turnStarted = Date.now();
      // A long run reports its progress every second (the CLI logs it), a short one says nothing.
      let reportedAt = turnStarted;
      let reported = false;
      for (let made = 1; remaining > 0; made++) {
        const step = nextFastForwardStep(
          this.chain.head.height,
          remaining,
          epochLength,
          this.chain.genesisHeight,
        );
        remaining = step.remaining;
        this.producer.clockOffsetNs += BigInt(step.skipped) * this.producer.averageBlockTimeNs;
        last = this.producer.produceAt(step.height);
        if ((made % BLOCKS_PER_TURN === 0 || Date.now() - turnStarted >= MAX_TURN_MS) && remaining > 0) {
          await yieldToEventLoop();
          turnStarted = Date.now();
          if (turnStarted - reportedAt >= this.producer.progressEveryMs) {
            this.producer.onProgress?.({ task: 'fast-forward', done: delta - remaining, total: delta });
            reportedAt = turnStarted;
            reported = true;
          }
        }
      }
      if (reported) this.producer.onProgress?.({ task: 'fast-forward', done: delta, total: delta });
      // Automine makes blocks only for work: finish what a running chain's next blocks would, so the last
      // block is final when the call returns and a client signing with the `final` block hash is not
      // refused as Expired (the skipped heights put the old final block beyond the validity period).
      if (this.producer.mode.kind === 'automine') {
        const target = last.height;
        while (this.chain.finalHeight('final') < target) last = this.producer.produce(1).at(-1)!;
      }
      return last;
    });
  }

  /** The next block gets exactly `timestampNs`, which must be after the head's timestamp (the caller checks). */
  setNextBlockTimestamp(timestampNs: bigint): void {
    this.producer.setNextTimestamp(timestampNs);
  }

  /** Records the current head; returns the snapshot id (decimal string, never reused by this process). */
  snapshot(): string {
    const id = String(this.nextSnapshotId++);
    this.snapshots.set(id, { height: this.chain.head.height, hash: this.chain.head.hash });
    return id;
  }

  /** Snapshot ids that can still be reverted to, oldest first. */
  snapshotIds(): string[] {
    return [...this.snapshots.keys()];
  }

  /**
   * Takes the chain back to the head of snapshot `id`: removes every block above it with all it wrote (one
   * store batch), empties the transaction pool, and deletes that snapshot and every later one.
   * Throws DevControlsError.
   */
  revert(id: string): Promise<BlockRecord> {
    return this.exclusive(async () => {
      const snapshot = this.snapshots.get(id);
      if (!snapshot) {
        throw new DevControlsError('UNKNOWN_SNAPSHOT', `Snapshot ${id} doesn't exist`, { snapshot_id: id });
      }
      const stored = this.chain.blockByHeight(snapshot.height);
      if (snapshot.height < this.chain.earliestHeight() || stored?.hash !== snapshot.hash) {
        throw new DevControlsError(
          'SNAPSHOT_GARBAGE_COLLECTED',
          `The block #${snapshot.height} of snapshot ${id} is garbage collected on this node`,
          { snapshot_id: id, block_height: snapshot.height, block_hash: snapshot.hash },
        );
      }
      const n = Number(id);
      for (const other of [...this.snapshots.keys()]) if (Number(other) >= n) this.snapshots.delete(other);
      if (this.chain.head.height > snapshot.height) {
        this.chain.rewindTo(snapshot.height, revertBatch(this.chain, snapshot.height));
      }
      this.producer.reset();
      this.producer.notify();
      return this.chain.head;
    });
  }

  private async makeBlocks(count: number): Promise<BlockRecord> {
    let last = this.chain.head;
    let turnStarted = Date.now();
    for (let i = 0; i < count; i++) {
      last = this.producer.produce(1)[0];
      if (((i + 1) % BLOCKS_PER_TURN === 0 || Date.now() - turnStarted >= MAX_TURN_MS) && i + 1 < count) {
        await yieldToEventLoop();
        turnStarted = Date.now();
      }
    }
    return last;
  }

  private exclusive<T>(operation: () => Promise<T>): Promise<T> {
    // An operation queued behind others never starts once the node is stopping (it would write to a store
    // about to close).
    const run = () => (this.producer.isStopped ? Promise.reject(new NodeStoppingError()) : operation());
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
