/**
 * Finding the requests to answer: the signer contract's `pending_requests` view, read over JSON-RPC.
 *
 * It reads `block` (optimistic); on each new height, or every `pollIntervalMs` anyway, or when the
 * bookkeeping wants it (a request to answer, a retry due), it reads `pending_requests` at that height, page by
 * page, and hands the whole list on. When the node runs in the same process it can say when a block is made
 * (`subscribeToBlocks`): then nothing is read between blocks, so an idle stack costs no CPU (polling every
 * 10 ms costs about a quarter of a core).
 *
 * This is the one file that knows how requests are found: reading them from receipts instead replaces it.
 */

import { ShadeboxError } from '@shadebox/errors';
import { block, decodeResult, type RpcClient, viewFunctionRaw } from '@shadebox/near-client';
import type { AbortOnStop } from './abort-on-stop.js';
import type { ResponderLogger } from './responder-logger.js';
import type { ResponderStats } from './responder-stats.js';
import type { PendingSignatureRequest } from './signature-request.js';

/** Most pages of `pending_requests` read per poll. */
const MAX_PAGES = 10;

/** `pending_requests` answered something that is not a list of requests. */
export class PendingRequestsError extends ShadeboxError<{ signerContractId: string }> {
  constructor(message: string, signerContractId: string) {
    super(message, { details: { signerContractId } });
  }
}

export interface PendingRequestsOptions {
  rpc: RpcClient;
  signerContractId: string;
  /** Most requests read per page (the view's `limit`). */
  pageSize: number;
  /** The longest pause between two reads of `pending_requests`, in ms. */
  pollIntervalMs: number;
  /** How often `block` is read for a new height, in ms (without `subscribeToBlocks`). */
  blockPollMs: number;
  /** With `subscribeToBlocks`: the longest pause between two reads, in ms. */
  idlePollMs: number;
  /** Calls `listener` whenever the chain has a new block and returns the unsubscribe. */
  subscribeToBlocks?: (listener: () => void) => () => void;
  abortOnStop: AbortOnStop;
  /** `polls` and `pollErrors` are counted here. */
  stats: ResponderStats;
  log: ResponderLogger;
  /** The head's hash, at every `block` read. */
  onHead(hash: string): void;
  /** The requests pending at one height, read in poll cycle `cycle` (numbered from 1). */
  onPending(requests: PendingSignatureRequest[], cycle: number): void;
  /** When the bookkeeping wants the next read: 0 at once, else in ms (Infinity: no need). */
  dueInMs(): number;
}

/**
 * Reads `block` and, when due, `pending_requests`, until stopped. `start` reads the head once (failing fast
 * on a wrong URL) and starts the loop.
 */
export class PendingRequestsWatcher {
  readonly #o: PendingRequestsOptions;
  #cycle = 0;
  #lastHeight = -1;
  #stopped = false;
  #running: Promise<void> = Promise.resolve();
  #wake: (() => void) | null = null;
  /** A block made since the last poll (only tracked with `subscribeToBlocks`). */
  #blockMade = false;
  #unsubscribe: (() => void) | undefined;

  constructor(options: PendingRequestsOptions) {
    this.#o = options;
  }

  /** The poll cycle under way, or the last started. */
  get cycle(): number {
    return this.#cycle;
  }

  async start(): Promise<void> {
    this.#lastHeight = (await this.#readHead()).height;
    this.#unsubscribe = this.#o.subscribeToBlocks?.(() => {
      this.#blockMade = true;
      this.wake();
    });
    this.#running = this.#loop();
  }

  /** Reads again without waiting for the pause to end. */
  wake(): void {
    this.#wake?.();
  }

  /** Stops reading and resolves when the loop has ended. */
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

  /** Reads every page of `pending_requests` at `height` (while pages come back full) and hands them on. */
  async #readPending(height: number): Promise<void> {
    const { rpc, signerContractId, pageSize, abortOnStop } = this.#o;
    const cycle = ++this.#cycle;
    const requests: PendingSignatureRequest[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const args = Buffer.from(JSON.stringify({ from_index: page * pageSize, limit: pageSize }));
      const { result } = await abortOnStop.run((call) =>
        viewFunctionRaw(rpc, signerContractId, 'pending_requests', args, { blockId: height }, call),
      );
      const items = decodeResult(result);
      if (!Array.isArray(items)) {
        throw new PendingRequestsError('pending_requests: not an array', signerContractId);
      }
      for (const entry of items) {
        const request = entry?.request;
        if (request && typeof request === 'object') requests.push(request);
      }
      if (items.length < pageSize) break;
    }
    this.#o.stats.polls++;
    this.#o.onPending(requests, cycle);
  }

  async #loop(): Promise<void> {
    const { pollIntervalMs, stats, log } = this.#o;
    let lastPoll = 0;
    let lastPollWarning = 0;
    let failing = false;
    while (!this.#stopped) {
      try {
        const head = await this.#readHead();
        const isNew = head.height !== this.#lastHeight;
        this.#lastHeight = head.height;
        if (isNew || this.#o.dueInMs() === 0 || Date.now() - lastPoll >= pollIntervalMs) {
          lastPoll = Date.now();
          await this.#readPending(head.height);
        }
        if (failing) log.info?.({}, 'mpc responder: polling again');
        failing = false;
      } catch (err) {
        stats.pollErrors++;
        failing = true;
        // One warning every 5 s at most while the node does not answer.
        if (!this.#stopped && Date.now() - lastPollWarning >= 5000) {
          lastPollWarning = Date.now();
          log.warn?.({ err: (err as Error).message, errors: stats.pollErrors }, 'mpc responder: poll failed');
        }
        if (!this.#stopped) await this.#sleep(Math.max(pollIntervalMs, 100));
        continue;
      }
      if (!this.#stopped) await this.#sleep(this.#nextPollDelay());
    }
  }

  /** How long to wait before the next poll: `blockPollMs`, or, with a block subscription, until a block is
   * made, the bookkeeping wants a read or `idlePollMs` passed. */
  #nextPollDelay(): number {
    if (!this.#unsubscribe) return this.#o.blockPollMs;
    if (this.#blockMade) {
      this.#blockMade = false;
      return 0;
    }
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
