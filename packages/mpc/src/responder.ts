/**
 * The MPC responder: watches the signer contract's pending requests over JSON-RPC and answers each with
 * `respond({request, response})`, signed with the child key of the request's tweak.
 *
 * - It polls `block` (optimistic); on each new height, or every `pollIntervalMs` anyway, it calls the view
 *   `pending_requests({from_index: 0, limit: 100})` at that height. When the node runs in the same process it
 *   can say when a block is made (`subscribeToBlocks`): then nothing is polled between blocks, so an idle
 *   stack costs no CPU (polling every 10 ms costs about a quarter of a core).
 * - A request seen for the first time is answered at once. It then stays "in flight" until it leaves
 *   `pending_requests`. The signer drops a request in the `respond` that answers it, so one still listed
 *   `reanswerAfterMs` after our `respond` executed is a duplicate that arrived in between, and is answered
 *   again. Failed sends are retried with exponential backoff while the request is pending.
 * - Transactions are built and signed with @shadebox/primitives. The access-key nonce is kept locally and
 *   re-read on InvalidNonce.
 * - `stats` counts what happened and keeps the latency of each answer (first seen → `respond` executed).
 *
 * It talks to the node only through JSON-RPC, so it works against any NEAR RPC endpoint.
 */
import {
  base58Decode,
  base64Encode,
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  signTransaction,
} from '@shadebox/primitives';
import { DOMAIN_ED25519, DOMAIN_SECP256K1, hexToBytes } from './derivation.js';
import type { RootKeys } from './root-keys.js';
import { type SignatureResponse, signEcdsa, signEddsa } from './signing.js';

/** The request the signer keeps (`SignatureRequest`), as `pending_requests` lists it. */
export interface PendingSignatureRequest {
  tweak: string;
  payload: { Ecdsa: string } | { Eddsa: string };
  domain_id: number;
}

/** A structured logger (pino's shape); every method is optional. */
export interface ResponderLogger {
  debug?(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
  warn?(obj: object, msg?: string): void;
  error?(obj: object, msg?: string): void;
}

export interface ResponderOptions {
  rpcUrl: string;
  signerContractId: string;
  responderAccountId: string;
  /** The responder account's key, `ed25519:…` (or `secp256k1:…`). */
  responderSecretKey: string;
  rootKeys: RootKeys;
  /** The longest pause between two `pending_requests` polls, in ms. Default 25. */
  pollIntervalMs?: number;
  /** How often `block` is polled for a new height, in ms. Default min(pollIntervalMs, 10). */
  blockPollMs?: number;
  /** `send_tx` wait level. Default `EXECUTED_OPTIMISTIC`. */
  waitUntil?: 'INCLUDED' | 'EXECUTED_OPTIMISTIC' | 'INCLUDED_FINAL' | 'EXECUTED' | 'FINAL';
  /** Gas of each `respond`. Default 100 Tgas. */
  gas?: bigint;
  /** Most requests read per poll (the view's `limit`). Default 100. */
  pageSize?: number;
  /** Backoff after a failed send: first and largest delay, in ms. Defaults 50 and 5000. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** A request still listed this long after its `respond` executed is answered again. Default 1000. */
  reanswerAfterMs?: number;
  /**
   * Calls `listener` whenever the chain has a new block and returns the unsubscribe; for a node in the same
   * process. With it, the responder reads `block` and `pending_requests` only on new blocks, when a retry is
   * due, and every `idlePollMs` (default 1000) as a safeguard, instead of every `blockPollMs`.
   */
  subscribeToBlocks?: (listener: () => void) => () => void;
  idlePollMs?: number;
  log?: ResponderLogger;
}

export interface ResponderStats {
  /** Poll cycles run. */
  polls: number;
  /** RPC errors while polling. */
  pollErrors: number;
  /** Distinct requests seen (a duplicate arriving after its answer counts again). */
  requestsSeen: number;
  /** `respond` transactions that succeeded. */
  responded: number;
  /** `respond` attempts that failed (RPC error or a failed outcome). */
  failedSends: number;
  /** Requests that cannot be answered (unknown domain, malformed payload). */
  rejected: number;
  /** Requests currently tracked. */
  inFlight: number;
  /** Latency (ms) of each successful answer, first seen → `respond` executed; the last 1000. */
  latenciesMs: number[];
  lastLatencyMs: number | null;
}

export interface RunningResponder {
  stats: ResponderStats;
  /** Stops polling, waits for the sends under way, and resolves. */
  stop(): Promise<void>;
}

interface Tracked {
  key: string;
  request: PendingSignatureRequest;
  firstSeenMs: number;
  state: 'new' | 'sending' | 'backoff' | 'done' | 'rejected';
  attempts: number;
  retryAt: number;
  /** Poll cycle under way (or last started) when `respond` succeeded, and the time. */
  doneAtCycle: number;
  doneAtMs: number;
}

const TGAS = 1_000_000_000_000n;
const MAX_LATENCIES = 1000;
/** Most pages of `pending_requests` read per poll. */
const MAX_PAGES = 10;

class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly error: unknown,
  ) {
    super(`${method}: ${JSON.stringify(error).slice(0, 400)}`);
  }
}

/** Percentiles and mean of `stats.latenciesMs`. */
export function latencySummary(stats: Pick<ResponderStats, 'latenciesMs'>): {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p95: number;
  max: number;
} {
  const xs = [...stats.latenciesMs].sort((a, b) => a - b);
  if (xs.length === 0) return { count: 0, min: 0, mean: 0, p50: 0, p95: 0, max: 0 };
  const at = (q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  return {
    count: xs.length,
    min: xs[0],
    mean: xs.reduce((a, b) => a + b, 0) / xs.length,
    p50: at(0.5),
    p95: at(0.95),
    max: xs[xs.length - 1],
  };
}

/** Signs the response to one pending request with the child key of its tweak. */
export function respondTo(rootKeys: RootKeys, request: PendingSignatureRequest): SignatureResponse {
  const tweak = hexToBytes(request.tweak, 32);
  const payload = request.payload as Record<string, unknown>;
  if (request.domain_id === DOMAIN_SECP256K1) {
    if (typeof payload?.Ecdsa !== 'string') throw new Error('domain 0 takes an Ecdsa payload');
    return signEcdsa(rootKeys.childSecret(DOMAIN_SECP256K1, tweak), hexToBytes(payload.Ecdsa, 32));
  }
  if (request.domain_id === DOMAIN_ED25519) {
    if (typeof payload?.Eddsa !== 'string') throw new Error('domain 1 takes an Eddsa payload');
    return signEddsa(rootKeys.childSecret(DOMAIN_ED25519, tweak), hexToBytes(payload.Eddsa));
  }
  throw new Error(`unknown domain id ${String(request.domain_id)}`);
}

export async function startResponder(options: ResponderOptions): Promise<RunningResponder> {
  const {
    rpcUrl,
    signerContractId,
    responderAccountId,
    rootKeys,
    waitUntil = 'EXECUTED_OPTIMISTIC',
    gas = 100n * TGAS,
    pageSize = 100,
    retryBaseMs = 50,
    retryMaxMs = 5000,
    reanswerAfterMs = 1000,
    log = {},
  } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 25;
  const blockPollMs = options.blockPollMs ?? Math.min(pollIntervalMs, 10);
  const idlePollMs = options.idlePollMs ?? 1000;
  const keyPair = KeyPair.fromString(options.responderSecretKey);

  const stats: ResponderStats = {
    polls: 0,
    pollErrors: 0,
    requestsSeen: 0,
    responded: 0,
    failedSends: 0,
    rejected: 0,
    inFlight: 0,
    latenciesMs: [],
    lastLatencyMs: null,
  };

  let rpcId = 0;
  // The requests under way, aborted when stopping (a `send_tx` may wait up to the node's timeout). One
  // controller per request: fetch leaves a listener on a long-lived signal for every request it served.
  const underWay = new Set<AbortController>();
  const abort = {
    abort: () => {
      for (const c of underWay) c.abort();
    },
  };
  async function rpc<T>(method: string, params: unknown): Promise<T> {
    const controller = new AbortController();
    underWay.add(controller);
    let res: Response;
    let text: string;
    try {
      res = await fetch(rpcUrl, {
        method: 'POST',
        signal: controller.signal,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
      });
      text = await res.text();
    } finally {
      underWay.delete(controller);
    }
    const body = JSON.parse(text) as { result?: T; error?: unknown };
    if (body.error !== undefined) throw new RpcError(method, body.error);
    if (body.result === undefined) throw new RpcError(method, `HTTP ${res.status} without a result`);
    return body.result;
  }

  async function readNonce(): Promise<bigint> {
    const view = await rpc<{ nonce: number | string; error?: string }>('query', {
      request_type: 'view_access_key',
      finality: 'optimistic',
      account_id: responderAccountId,
      public_key: keyPair.publicKeyString,
    });
    if (view.error) throw new Error(`view_access_key ${responderAccountId}: ${view.error}`);
    return BigInt(view.nonce);
  }

  // The first block and nonce: fail fast on a wrong URL, account or key.
  const head = await rpc<{ header: { height: number; hash: string } }>('block', { finality: 'optimistic' });
  let blockHash = base58Decode(head.header.hash);
  let lastHeight = head.header.height;
  let nonce = await readNonce();
  let nonceResync: Promise<void> | null = null;

  const tracked = new Map<string, Tracked>();
  const sends = new Set<Promise<void>>();
  let stopped = false;
  let cycle = 0;
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

  async function resyncNonce(): Promise<void> {
    nonceResync ??= readNonce()
      .then((chainNonce) => {
        if (chainNonce > nonce) nonce = chainNonce;
      })
      .finally(() => {
        nonceResync = null;
      });
    return nonceResync;
  }

  function isInvalidNonce(err: unknown): boolean {
    return err instanceof RpcError && JSON.stringify(err.error).includes('InvalidNonce');
  }

  async function sendRespond(t: Tracked): Promise<void> {
    let response: SignatureResponse;
    try {
      response = respondTo(rootKeys, t.request);
    } catch (err) {
      t.state = 'rejected';
      stats.rejected++;
      log.warn?.(
        { request: t.request, err: (err as Error).message },
        'mpc responder: request cannot be answered',
      );
      return;
    }
    const args = new TextEncoder().encode(JSON.stringify({ request: t.request, response }));
    const sendStarted = Date.now();
    t.attempts++;
    try {
      if (nonceResync) await nonceResync;
      nonce += 1n;
      const tx = createTransaction({
        signerId: responderAccountId,
        publicKey: keyPair.publicKey,
        nonce,
        receiverId: signerContractId,
        blockHash,
        actions: [{ type: 'FunctionCall', methodName: 'respond', args, gas, deposit: 0n }],
      });
      const signed = base64Encode(encodeSignedTransaction(signTransaction(tx, keyPair)));
      const outcome = await rpc<{ status: { SuccessValue?: string; Failure?: unknown } }>('send_tx', {
        signed_tx_base64: signed,
        wait_until: waitUntil,
      });
      if (outcome.status && 'Failure' in outcome.status && outcome.status.Failure !== undefined) {
        throw new Error(`respond failed: ${JSON.stringify(outcome.status.Failure).slice(0, 400)}`);
      }
      const latency = Date.now() - t.firstSeenMs;
      stats.responded++;
      stats.lastLatencyMs = latency;
      stats.latenciesMs.push(latency);
      if (stats.latenciesMs.length > MAX_LATENCIES) stats.latenciesMs.shift();
      t.state = 'done';
      t.doneAtCycle = cycle;
      t.doneAtMs = Date.now();
      log.debug?.(
        { domain_id: t.request.domain_id, latency_ms: latency, send_ms: Date.now() - sendStarted },
        'mpc responder: responded',
      );
      if (wake) wake();
    } catch (err) {
      if (stopped) return;
      stats.failedSends++;
      if (isInvalidNonce(err)) {
        await resyncNonce().catch(() => undefined);
        // A nonce race is not the request's fault: retry at once.
        t.state = 'new';
        t.retryAt = 0;
      } else {
        const delay = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(t.attempts - 1, 16));
        t.state = 'backoff';
        t.retryAt = Date.now() + delay;
        log.warn?.(
          { attempts: t.attempts, retry_in_ms: delay, err: (err as Error).message },
          'mpc responder: respond failed',
        );
      }
    }
  }

  function startSend(t: Tracked): void {
    t.state = 'sending';
    const p = sendRespond(t).finally(() => sends.delete(p));
    sends.add(p);
  }

  async function pollPending(height: number): Promise<void> {
    const thisCycle = ++cycle;
    const list: Array<{ request: PendingSignatureRequest }> = [];
    // Page by page (all at the same height) while pages come back full.
    for (let page = 0; page < MAX_PAGES; page++) {
      const args = JSON.stringify({ from_index: page * pageSize, limit: pageSize });
      const result = await rpc<{ result?: number[]; error?: string }>('query', {
        request_type: 'call_function',
        block_id: height,
        account_id: signerContractId,
        method_name: 'pending_requests',
        args_base64: base64Encode(new TextEncoder().encode(args)),
      });
      if (result.error || !result.result) throw new RpcError('pending_requests', result.error ?? 'no result');
      const items: unknown = JSON.parse(Buffer.from(result.result).toString('utf8'));
      if (!Array.isArray(items)) throw new RpcError('pending_requests', 'not an array');
      list.push(...items);
      if (items.length < pageSize) break;
    }
    stats.polls++;
    const now = Date.now();
    const present = new Set<string>();
    for (const entry of list) {
      const request = entry?.request;
      if (!request || typeof request !== 'object') continue;
      const key = JSON.stringify(request);
      present.add(key);
      let t = tracked.get(key);
      if (t?.state === 'done' && thisCycle > t.doneAtCycle && now - t.doneAtMs >= reanswerAfterMs) {
        // Still listed well after the answer executed: a duplicate that arrived in between.
        tracked.delete(key);
        t = undefined;
      }
      if (!t) {
        t = {
          key,
          request,
          firstSeenMs: now,
          state: 'new',
          attempts: 0,
          retryAt: 0,
          doneAtCycle: 0,
          doneAtMs: 0,
        };
        tracked.set(key, t);
        stats.requestsSeen++;
      }
    }
    for (const [key, t] of tracked) {
      if (!present.has(key)) {
        // Gone from the contract (answered, or timed out): unless a send is still under way, forget it.
        if (t.state !== 'sending') tracked.delete(key);
        continue;
      }
      if (t.state === 'new' || (t.state === 'backoff' && now >= t.retryAt)) startSend(t);
    }
    stats.inFlight = tracked.size;
  }

  async function loop(): Promise<void> {
    let lastPoll = 0;
    let lastPollWarning = 0;
    let failing = false;
    while (!stopped) {
      try {
        const block = await rpc<{ header: { height: number; hash: string } }>('block', {
          finality: 'optimistic',
        });

        const isNew = block.header.height !== lastHeight;
        if (isNew) {
          lastHeight = block.header.height;
          blockHash = base58Decode(block.header.hash);
        }
        const retryDue = [...tracked.values()].some(
          (t) => t.state === 'new' || (t.state === 'backoff' && Date.now() >= t.retryAt),
        );
        if (isNew || retryDue || Date.now() - lastPoll >= pollIntervalMs) {
          lastPoll = Date.now();
          await pollPending(block.header.height);
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
  const unsubscribe = options.subscribeToBlocks?.(() => {
    blockMade = true;
    if (wake) wake();
  });

  /** How long to wait before the next poll: `blockPollMs`, or, with a block subscription, until a block is
   * made, a retry is due or `idlePollMs` passed. */
  function nextPollDelay(): number {
    if (!unsubscribe) return blockPollMs;
    if (blockMade) {
      blockMade = false;
      return 0;
    }
    let delay = idlePollMs;
    for (const t of tracked.values()) {
      if (t.state === 'new') return 0;
      if (t.state === 'backoff') delay = Math.min(delay, Math.max(0, t.retryAt - Date.now()));
    }
    return delay;
  }

  log.info?.(
    {
      signer: signerContractId,
      responder: responderAccountId,
      secp256k1: rootKeys.secp256k1PublicKey,
      ed25519: rootKeys.ed25519PublicKey,
    },
    'mpc responder started',
  );
  const running = loop();

  return {
    stats,
    async stop() {
      if (stopped) return running;
      stopped = true;
      unsubscribe?.();
      abort.abort();
      if (wake) wake();
      await running;
      await Promise.allSettled([...sends]);
      log.info?.({ responded: stats.responded }, 'mpc responder stopped');
    },
  };
}
