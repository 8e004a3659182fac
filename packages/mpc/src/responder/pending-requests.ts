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

export interface PendingRequestsWatcher {
  /** The poll cycle under way, or the last started. */
  readonly cycle: number;
  /** Reads again without waiting for the pause to end. */
  wake(): void;
  /** Stops reading and resolves when the loop has ended. */
  stop(): Promise<void>;
}

/** Reads the head once (failing fast on a wrong URL), then watches `pending_requests` until stopped. */
export async function watchPendingRequests(o: PendingRequestsOptions): Promise<PendingRequestsWatcher> {
  const { rpc, signerContractId, pageSize, pollIntervalMs, abortOnStop, stats, log } = o;
  const head = await abortOnStop.run((call) => block(rpc, { finality: 'optimistic' }, call));
  o.onHead(head.header.hash);
  let lastHeight = head.header.height;
  let cycle = 0;
  let stopped = false;
  let wake: (() => void) | null = null;
  let sleepTimer: NodeJS.Timeout | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      sleepTimer = setTimeout(resolve, ms);
    }).finally(() => {
      wake = null;
      clearTimeout(sleepTimer);
    });

  /** Reads every page of `pending_requests` at `height` (while pages come back full). */
  async function readPending(height: number): Promise<void> {
    const thisCycle = ++cycle;
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
    stats.polls++;
    o.onPending(requests, thisCycle);
  }

  async function loop(): Promise<void> {
    let lastPoll = 0;
    let lastPollWarning = 0;
    let failing = false;
    while (!stopped) {
      try {
        const current = await abortOnStop.run((call) => block(rpc, { finality: 'optimistic' }, call));
        o.onHead(current.header.hash);
        const isNew = current.header.height !== lastHeight;
        lastHeight = current.header.height;
        if (isNew || o.dueInMs() === 0 || Date.now() - lastPoll >= pollIntervalMs) {
          lastPoll = Date.now();
          await readPending(current.header.height);
        }
        if (failing) log.info?.({}, 'mpc responder: polling again');
        failing = false;
      } catch (err) {
        stats.pollErrors++;
        failing = true;
        // One warning every 5 s at most while the node does not answer.
        if (!stopped && Date.now() - lastPollWarning >= 5000) {
          lastPollWarning = Date.now();
          log.warn?.({ err: (err as Error).message, errors: stats.pollErrors }, 'mpc responder: poll failed');
        }
        if (!stopped) await sleep(Math.max(pollIntervalMs, 100));
        continue;
      }
      if (!stopped) await sleep(nextPollDelay());
    }
  }

  /** A block made since the last poll (only tracked with `subscribeToBlocks`). */
  let blockMade = false;
  const unsubscribe = o.subscribeToBlocks?.(() => {
    blockMade = true;
    if (wake) wake();
  });

  /** How long to wait before the next poll: `blockPollMs`, or, with a block subscription, until a block is
   * made, the bookkeeping wants a read or `idlePollMs` passed. */
  function nextPollDelay(): number {
    if (!unsubscribe) return o.blockPollMs;
    if (blockMade) {
      blockMade = false;
      return 0;
    }
    return Math.min(o.idlePollMs, o.dueInMs());
  }

  const running = loop();
  return {
    get cycle() {
      return cycle;
    },
    wake() {
      if (wake) wake();
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      if (wake) wake();
      await running;
    },
  };
}
