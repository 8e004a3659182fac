/**
 * The MPC responder: answers the signer contract's pending sign requests with `respond`, signed with the
 * child key of each request's tweak, in the format of the signer version it serves (Shadebox's signer,
 * NEAR's 2.x/3.x signers, the legacy v1 contract: `signer-flavor.ts`). It wires the jobs together: finding
 * the requests from the chain's receipts (`receipt-finder.ts`, `sign-call.ts`), their bookkeeping and
 * retries (`request-tracker.ts`), sending each answer (`respond-transaction.ts`) and counting
 * (`responder-stats.ts`).
 *
 * It talks to the node only through JSON-RPC (@shadebox/near-client), so it works against any NEAR RPC
 * endpoint.
 */
import { KeyPool, RpcClient, viewAccessKey } from '@shadebox/near-client';
import { KeyPair, TGAS } from '@shadebox/primitives';
import type { RootKeys } from '../root-keys.js';
import { AbortOnStop } from './abort-on-stop.js';
import { type BlockHead, ReceiptFinder } from './receipt-finder.js';
import { RequestTracker } from './request-tracker.js';
import { sendRespond } from './respond-transaction.js';
import type { ResponderLogger } from './responder-logger.js';
import { newResponderStats, type ResponderStats } from './responder-stats.js';
import { respondTo } from './signature-request.js';
import { detectSignerFlavor, type SignerFlavor } from './signer-flavor.js';

export interface ResponderOptions {
  rpcUrl: string;
  signerContractId: string;
  responderAccountId: string;
  /** The responder account's key, `ed25519:…` (or `secp256k1:…`). */
  responderSecretKey: string;
  rootKeys: RootKeys;
  /** The signer's version family; default: found from the contract's `get_pending_request` view. */
  flavor?: SignerFlavor;
  /** Where the last block handled is kept, so a restart reads on from there (e.g. in the home). */
  heightFile?: string;
  /** Blocks read back on a start without a saved height. Default 200 (NEAR's yield timeout). */
  lookbackBlocks?: number;
  /** Blocks a `sign` call found in a receipt may take to become pending before it is dropped. Default 20. */
  confirmBlocks?: number;
  /** The longest pause between two pending checks, in ms. Default 25. */
  pollIntervalMs?: number;
  /** How often `block` is polled for a new height, in ms. Default min(pollIntervalMs, 10). */
  blockPollMs?: number;
  /** `send_tx` wait level. Default `EXECUTED_OPTIMISTIC`. */
  waitUntil?: 'INCLUDED' | 'EXECUTED_OPTIMISTIC' | 'INCLUDED_FINAL' | 'EXECUTED' | 'FINAL';
  /** Gas of each `respond`. Default 100 Tgas. */
  gas?: bigint;
  /** Backoff after a failed send: first and largest delay, in ms. Defaults 50 and 5000. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** A request still pending this long after its `respond` executed is answered again. Default 1000. */
  reanswerAfterMs?: number;
  /**
   * Calls `listener` whenever the chain has a new block (with its height and hash, or nothing) and returns the
   * unsubscribe; for a node in the same process. With it, the responder reads blocks and pending requests
   * only on new blocks, when a retry is due, and every `idlePollMs` (default 1000) as a safeguard, instead of
   * every `blockPollMs`.
   */
  subscribeToBlocks?: (listener: (head?: BlockHead) => void) => () => void;
  idlePollMs?: number;
  /**
   * The `fetch` its JSON-RPC client uses (default the global one). A node in the same process gives its own
   * (`RunningNode.fetch`): the responder then reads and answers a block's requests before the next block is
   * made, so its `respond` is in that next block.
   */
  fetch?: typeof fetch;
  log?: ResponderLogger;
}

export interface RunningResponder {
  stats: ResponderStats;
  /** The signer's version family served. */
  flavor: SignerFlavor;
  /** The last block whose receipts were read. */
  readonly scannedHeight: number;
  /** Stops polling, waits for the sends under way, and resolves. */
  stop(): Promise<void>;
}

export async function startResponder(options: ResponderOptions): Promise<RunningResponder> {
  const { signerContractId, responderAccountId, rootKeys, log = {} } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 25;
  const rpc = new RpcClient(options.rpcUrl, options.fetch ? { fetch: options.fetch } : {});
  const keyPair = KeyPair.fromString(options.responderSecretKey);
  const pool = new KeyPool(rpc, responderAccountId, [keyPair]);
  const stats = newResponderStats();
  const abortOnStop = new AbortOnStop();

  // The nonce first: fail fast on a wrong URL, account or key.
  const accessKey = await viewAccessKey(rpc, responderAccountId, keyPair.publicKeyString);
  pool.raiseNonce(keyPair.publicKeyString, accessKey.nonce);

  const flavor = options.flavor ?? (await detectSignerFlavor(rpc, signerContractId));

  const watcher: ReceiptFinder = new ReceiptFinder({
    rpc,
    signerContractId,
    flavor,
    lookbackBlocks: options.lookbackBlocks ?? 200,
    confirmBlocks: options.confirmBlocks ?? 20,
    heightFile: options.heightFile,
    pollIntervalMs,
    blockPollMs: options.blockPollMs ?? Math.min(pollIntervalMs, 10),
    idlePollMs: options.idlePollMs ?? 1000,
    subscribeToBlocks: options.subscribeToBlocks,
    abortOnStop,
    stats,
    log,
    // Answers are signed with the newest block's hash.
    onHead: (hash) => pool.useBlockHash(hash),
    onPending: (requests, cycle, assumed) => tracker.seen(requests, cycle, assumed),
    dueInMs: () => tracker.dueInMs(),
    needsCheck: (request) => tracker.needsCheck(request),
  });
  const tracker: RequestTracker = new RequestTracker({
    stats,
    log,
    retryBaseMs: options.retryBaseMs ?? 50,
    retryMaxMs: options.retryMaxMs ?? 5000,
    reanswerAfterMs: options.reanswerAfterMs ?? 1000,
    // A request still pending 3 blocks and a second after its answer executed (its callback did not clean
    // it) is answered again; one whose `sign` receipt arrives in a block after the answer, at once.
    reanswerAfterCycles: 3,
    arrivedAtCycle: (request) => watcher.arrivedAt(request),
    sign: (request) => respondTo(rootKeys, request),
    send: (request, response) =>
      sendRespond(
        {
          pool,
          signerContractId,
          flavor,
          waitUntil: options.waitUntil ?? 'EXECUTED_OPTIMISTIC',
          gas: options.gas ?? 100n * TGAS,
          abortOnStop,
        },
        request,
        response,
      ),
    currentCycle: () => watcher.cycle,
    onAnswered: () => watcher.wake(),
  });
  await watcher.start();
  log.info?.(
    {
      signer: signerContractId,
      flavor,
      responder: responderAccountId,
      secp256k1: rootKeys.secp256k1PublicKey,
      ed25519: rootKeys.ed25519PublicKey,
    },
    'mpc responder started',
  );

  let stopping: Promise<void> | undefined;
  return {
    stats,
    flavor,
    get scannedHeight() {
      return watcher.scannedHeight;
    },
    stop() {
      stopping ??= (async () => {
        const sendsEnded = tracker.stop();
        const loopEnded = watcher.stop();
        abortOnStop.abort();
        await loopEnded;
        await sendsEnded;
        log.info?.({ responded: stats.responded }, 'mpc responder stopped');
      })();
      return stopping;
    },
  };
}
