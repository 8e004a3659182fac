/**
 * Finding the requests to answer from the chain's receipts, as NEAR's MPC nodes do: every new block's chunks
 * are read (`block`, then `chunk` for each chunk new in that block) and each `sign` function call on the
 * signer account — a receipt from any predecessor, or a transaction the signer sends itself — becomes a
 * candidate request (`sign-call.ts`). Each cycle every candidate is checked with the contract's own
 * `get_pending_request` view (`signer-flavor.ts`), and the pending ones are handed to the bookkeeping.
 *
 * A candidate leaves once it is no longer pending after having been pending (answered, by us or another
 * responder, or timed out), or when it never became pending within `confirmBlocks` (the call failed). The
 * last height handled — the lowest height of a candidate still open, else the last block read — is kept in
 * `heightFile`, so a restarted responder reads again from there; without one (or on first start) it reads
 * back `lookbackBlocks` (default 200, NEAR's yield timeout: anything older has timed out).
 *
 * When the node runs in the same process it can say when a block is made (`subscribeToBlocks`): then nothing
 * is read between blocks, so an idle stack costs no CPU.
 *
 * The chain can go back (`sandbox_revert`): the head falls below the last block read, or a block read does
 * not follow the one read before it (its `prev_hash`). Then the blocks at the heights read already are new
 * ones, which would never be read: the finder forgets its candidates and reads again from `lookbackBlocks`
 * below there (every request still open is in those blocks).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { block, type RpcClient, RpcError } from '@shadebox/near-client';
import type { AbortOnStop } from './abort-on-stop.js';
import type { ResponderLogger } from './responder-logger.js';
import type { ResponderStats } from './responder-stats.js';
import { signCallRequestFromBase64 } from './sign-call.js';
import type { PendingSignatureRequest } from './signature-request.js';
import { isPending, type SignerFlavor, servesRequest } from './signer-flavor.js';

/** Most blocks read per cycle, so a long catch-up still answers as it goes. */
const MAX_BLOCKS_PER_CYCLE = 64;
/** Blocks read at once. */
const READ_CONCURRENCY = 8;
/** What a node answers for a height it never made or no longer keeps. */
const GONE = ['UNKNOWN_BLOCK', 'GARBAGE_COLLECTED_BLOCK', 'UNKNOWN_CHUNK'];
/** Most `get_pending_request` views in flight at once. */
const VIEW_CONCURRENCY = 16;

export interface ReceiptFinderOptions {
  rpc: RpcClient;
  signerContractId: string;
  flavor: SignerFlavor;
  /** The longest pause between two pending checks, in ms. */
  pollIntervalMs: number;
  /** How often `block` is read for a new height, in ms (without `subscribeToBlocks`). */
  blockPollMs: number;
  /** With `subscribeToBlocks`: the longest pause between two reads, in ms. */
  idlePollMs: number;
  subscribeToBlocks?: (listener: (head?: BlockHead) => void) => () => void;
  /** Blocks read back on a start without a saved height. */
  lookbackBlocks: number;
  /** Blocks a found request may take to become pending before it is dropped. */
  confirmBlocks: number;
  /** Where the last height handled is kept; none: every start reads back `lookbackBlocks`. */
  heightFile?: string;
  abortOnStop: AbortOnStop;
  stats: ResponderStats;
  log: ResponderLogger;
  /** The head's hash, at every `block` read. */
  onHead(hash: string): void;
  /** The requests pending at one height (the cycle), and those taken as still pending without a view. */
  onPending(requests: PendingSignatureRequest[], cycle: number, assumed: PendingSignatureRequest[]): void;
  /** When the bookkeeping wants the next check: 0 at once, else in ms (Infinity: no need). */
  dueInMs(): number;
  /** Whether a request already seen pending needs the view again (default: always); one that does not is
   * taken as still pending. */
  needsCheck?(request: PendingSignatureRequest): boolean;
}

/** The block a notification names: the head then, so the cycle it starts need not read it. */
export interface BlockHead {
  height: number;
  hash: string;
}

interface Candidate {
  request: PendingSignatureRequest;
  foundAtHeight: number;
  everPending: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC views read field by field.
type Json = any;

/** The height saved in `file`, or undefined. */
export function readSavedHeight(file: string | undefined): number | undefined {
  if (!file || !existsSync(file)) return undefined;
  try {
    const height = JSON.parse(readFileSync(file, 'utf8'))?.lastHandledHeight;
    return Number.isSafeInteger(height) && height >= 0 ? height : undefined;
  } catch {
    return undefined;
  }
}

export class ReceiptFinder {
  readonly #o: ReceiptFinderOptions;
  readonly #candidates = new Map<string, Candidate>();
  #cycle = -1;
  /** The last block read (its chunks' receipts taken). */
  #scanned = -1;
  /** The last block read that exists (heights can be skipped): the next one read must follow it. */
  #lastRead: BlockHead | undefined;
  #savedHeight = -1;
  #stopped = false;
  #running: Promise<void> = Promise.resolve();
  #wake: (() => void) | null = null;
  #blockMade = false;
  /** The newest block notified since the last cycle began. */
  #notifiedHead: BlockHead | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(options: ReceiptFinderOptions) {
    this.#o = options;
  }

  /** The height of the last check (the bookkeeping's cycle). */
  get cycle(): number {
    return this.#cycle;
  }

  /** The height of the block in which `request`'s latest `sign` receipt was found, if it is a candidate. */
  arrivedAt(request: PendingSignatureRequest): number | undefined {
    return this.#candidates.get(JSON.stringify(request))?.foundAtHeight;
  }

  /** The last block whose receipts were read. */
  get scannedHeight(): number {
    return this.#scanned;
  }

  /** Reads the head (failing fast on a wrong URL), sets where reading starts, and starts the loop. */
  async start(): Promise<void> {
    const head = await this.#readHead();
    const saved = readSavedHeight(this.#o.heightFile);
    this.#scanned =
      saved !== undefined ? Math.min(saved, head.height) : Math.max(0, head.height - this.#o.lookbackBlocks);
    this.#savedHeight = saved ?? -1;
    this.#unsubscribe = this.#o.subscribeToBlocks?.((head) => {
      if (
        typeof head?.height === 'number' &&
        typeof head.hash === 'string' &&
        head.height > (this.#notifiedHead?.height ?? -1)
      ) {
        this.#notifiedHead = { height: head.height, hash: head.hash };
      }
      this.#blockMade = true;
      this.wake();
    });
    this.#running = this.#loop();
  }

  wake(): void {
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    this.wake();
    await this.#running;
  }

  async #readHead(): Promise<{ height: number; hash: string }> {
    const { rpc, abortOnStop } = this.#o;
    const head = await abortOnStop.run((call) => block(rpc, { finality: 'optimistic' }, call));
    this.#o.onHead(head.header.hash);
    return head.header;
  }

  /** Reads blocks after the last read, up to `head` (at most MAX_BLOCKS_PER_CYCLE, READ_CONCURRENCY at a
   * time, taken in height order); true if any was read. */
  async #scan(head: number): Promise<boolean> {
    const end = Math.min(head, this.#scanned + MAX_BLOCKS_PER_CYCLE);
    let read = false;
    for (let from = this.#scanned + 1; from <= end && !this.#stopped; from += READ_CONCURRENCY) {
      const heights: number[] = [];
      for (let h = from; h <= Math.min(end, from + READ_CONCURRENCY - 1); h++) heights.push(h);
      const calls = await Promise.all(heights.map((h) => this.#readBlock(h)));
      read = true;
      for (const [i, { header, found }] of calls.entries()) {
        if (header !== null) {
          if (this.#lastRead !== undefined && header.prev_hash !== this.#lastRead.hash) {
            this.#rewind(heights[i] - 1);
            return read;
          }
          this.#lastRead = { height: heights[i], hash: header.hash };
        }
        for (const { actions, predecessorId } of found) this.#takeActions(actions, predecessorId, heights[i]);
        this.#scanned = heights[i];
      }
    }
    return read;
  }

  /** The chain went back below `height`: read again from `lookbackBlocks` below it, with no candidates. */
  #rewind(height: number): void {
    const from = Math.max(0, height - this.#o.lookbackBlocks);
    this.#o.log.info?.(
      { scanned: this.#scanned, height, from },
      'mpc responder: the chain went back (a revert): reading its blocks again',
    );
    this.#scanned = from;
    this.#lastRead = undefined;
    this.#candidates.clear();
  }

  /**
   * The block's header (null for a height without a block) and the actions sent to the signer in its new
   * chunks, with their predecessors.
   */
  async #readBlock(height: number): Promise<{
    header: { hash: string; prev_hash: string } | null;
    found: Array<{ actions: Json; predecessorId: string }>;
  }> {
    const { rpc, abortOnStop } = this.#o;
    const found: Array<{ actions: Json; predecessorId: string }> = [];
    let view: Json;
    try {
      view = await abortOnStop.run((call) => rpc.call('block', { block_id: height }, call));
    } catch (err) {
      // A skipped height (no block made), or one no longer kept: nothing to read.
      if (err instanceof RpcError && GONE.includes(err.causeName ?? '')) return { header: null, found };
      throw err;
    }
    for (const header of view.chunks ?? []) {
      if (header.height_included !== height) continue; // an old chunk carried over: read when it was new
      let chunk: Json;
      try {
        chunk = await abortOnStop.run((call) => rpc.call('chunk', { chunk_id: header.chunk_hash }, call));
      } catch (err) {
        if (err instanceof RpcError && GONE.includes(err.causeName ?? '')) continue;
        throw err;
      }
      for (const receipt of chunk.receipts ?? []) {
        if (receipt.receiver_id !== this.#o.signerContractId) continue;
        found.push({ actions: receipt.receipt?.Action?.actions, predecessorId: receipt.predecessor_id });
      }
      // A transaction the signer sends itself runs as a local receipt, which no chunk lists.
      for (const tx of chunk.transactions ?? []) {
        if (tx.receiver_id === this.#o.signerContractId && tx.signer_id === tx.receiver_id) {
          found.push({ actions: tx.actions, predecessorId: tx.signer_id });
        }
      }
    }
    return { header: view.header, found };
  }

  #takeActions(actions: Json, predecessorId: string, height: number): void {
    if (!Array.isArray(actions)) return;
    for (const action of actions) {
      const call = action?.FunctionCall;
      if (call?.method_name !== 'sign') continue;
      const request = signCallRequestFromBase64(call.args, predecessorId);
      if (request === null || !servesRequest(this.#o.flavor, request)) continue;
      const key = JSON.stringify(request);
      const known = this.#candidates.get(key);
      if (known) known.foundAtHeight = Math.max(known.foundAtHeight, height);
      else this.#candidates.set(key, { request, foundAtHeight: height, everPending: false });
    }
  }

  /** Checks every candidate with `get_pending_request` at `height`; drops the settled; hands on the pending. */
  async #checkPending(height: number): Promise<void> {
    const { rpc, signerContractId, flavor, abortOnStop, confirmBlocks } = this.#o;
    this.#cycle = height;
    const pending: PendingSignatureRequest[] = [];
    const assumed: PendingSignatureRequest[] = [];
    // A request whose answer is under way, or answered and not yet due for a second look, costs no view.
    const entries = [...this.#candidates].filter(([, c]) => {
      if (!c.everPending || (this.#o.needsCheck?.(c.request) ?? true)) return true;
      assumed.push(c.request);
      return false;
    });
    for (let i = 0; i < entries.length; i += VIEW_CONCURRENCY) {
      const batch = entries.slice(i, i + VIEW_CONCURRENCY);
      const answers = await Promise.all(
        batch.map(([, c]) =>
          abortOnStop.run((call) => isPending(rpc, signerContractId, flavor, c.request, height, call)),
        ),
      );
      batch.forEach(([key, c], j) => {
        if (answers[j]) {
          c.everPending = true;
          pending.push(c.request);
        } else if (c.everPending || height - c.foundAtHeight > confirmBlocks) {
          // Answered (here or elsewhere), timed out, or the call never yielded.
          this.#candidates.delete(key);
        }
      });
    }
    this.#o.onPending(pending, height, assumed);
  }

  /** Saves the lowest height still to be handled minus one (when it moved). */
  #saveHeight(): void {
    const file = this.#o.heightFile;
    if (!file) return;
    let handled = this.#scanned;
    for (const c of this.#candidates.values()) handled = Math.min(handled, c.foundAtHeight - 1);
    if (handled === this.#savedHeight) return;
    this.#savedHeight = handled;
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ lastHandledHeight: handled })}\n`);
    renameSync(tmp, file);
  }

  async #loop(): Promise<void> {
    const { pollIntervalMs, stats, log } = this.#o;
    let lastCheck = 0;
    let lastWarning = 0;
    let failing = false;
    while (!this.#stopped) {
      let more = false;
      // Blocks made from here on are read by this cycle or, when made during it, the next.
      this.#blockMade = false;
      const notified = this.#notifiedHead;
      this.#notifiedHead = undefined;
      try {
        // A notified head needs no read (one call less per block); the safeguard's cycles read it.
        let head: BlockHead;
        if (notified) {
          head = notified;
          this.#o.onHead(head.hash);
        } else head = await this.#readHead();
        if (head.height < this.#scanned) this.#rewind(head.height);
        const read = await this.#scan(head.height);
        more = this.#scanned < head.height;
        if (read || this.#o.dueInMs() === 0 || Date.now() - lastCheck >= pollIntervalMs) {
          lastCheck = Date.now();
          if (this.#candidates.size > 0) await this.#checkPending(head.height);
          else {
            this.#cycle = head.height;
            this.#o.onPending([], head.height, []);
          }
          stats.polls++;
        }
        this.#saveHeight();
        if (failing) log.info?.({}, 'mpc responder: reading the chain again');
        failing = false;
      } catch (err) {
        stats.pollErrors++;
        failing = true;
        // One warning every 5 s at most while the node does not answer.
        if (!this.#stopped && Date.now() - lastWarning >= 5000) {
          lastWarning = Date.now();
          log.warn?.(
            { err: (err as Error).message, errors: stats.pollErrors },
            'mpc responder: reading the chain failed',
          );
        }
        if (!this.#stopped) await this.#sleep(Math.max(pollIntervalMs, 100));
        continue;
      }
      // No pause (not even a timer's turn) when a block was made meanwhile: with the node's in-process RPC the
      // next cycle then runs before the next block is made.
      if (this.#stopped || more || (this.#unsubscribe && this.#blockMade)) continue;
      await this.#sleep(this.#nextDelay());
    }
  }

  #nextDelay(): number {
    if (!this.#unsubscribe) return this.#o.blockPollMs;
    return Math.min(this.#o.idlePollMs, this.#o.dueInMs());
  }

  #sleep(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
      timer = setTimeout(resolve, ms);
    }).finally(() => {
      this.#wake = null;
      clearTimeout(timer);
    });
  }
}
