/**
 * `EXPERIMENTAL_receipt_to_tx` (nearcore 2.12+, the view client's `handle_receipt_to_tx` and
 * chain/chain/src/receipt_to_tx.rs): the transaction a receipt descends from, `{transaction_hash,
 * sender_account_id}`. Params `RpcReceiptToTxRequest {receipt_id, block_height?, shard_id?, window?}`.
 *
 * The walk reads each receipt's origin from the receipt-to-transaction entries the chain writes with every
 * block (chain/receipt-origins.ts, nearcore's `ReceiptToTx` column): a transaction ends it, a parent receipt is
 * the next hop, at most 1,000 hops (`DEPTH_EXCEEDED`). An entry the node no longer has (its block collected on
 * a regular node, or written by a node version that kept none) ends the walk with UNKNOWN_RECEIPT unless the
 * caller gave a hint: then the outcomes of the blocks around it are scanned for the one whose `receipt_ids`
 * name the receipt, as nearcore's hint fallback does — `±window` (default 5, at most 20) heights around
 * `block_height` (`h, h-1, h+1, …`) on `shard_id` (else every shard) before any scan has resolved a hop, then
 * `h, h-1, …, h-20` from the last resolved parent's height on the shard of the parent's predecessor, at most
 * 20,000 outcomes a request (`BUDGET_EXCEEDED`).
 *
 * Errors are nearcore's `RpcReceiptToTxError`, its JSON value as the legacy `data`. This node tracks every shard
 * and always keeps outcomes and the mapping, so `UNSUPPORTED` and `OUTCOMES_NOT_STORED` never occur.
 */
import { base58Decode, base58Encode } from '@shadebox/primitives';
import type { Chain } from '../../chain/chain.js';
import type { ReceiptOriginRecord } from '../../chain/receipt-origins.js';
import type { ChunkRecord } from '../../chain/records.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError, type RpcResponseError } from '../rpc-error.js';
import { optional, readCryptoHash, readFields, readU64, structEntries } from '../serde.js';

/** nearcore's `RECEIPT_TO_TX_MAX_DEPTH`. */
export const RECEIPT_TO_TX_DEPTH_LIMIT = 1_000;
/** nearcore's `DEFAULT_HINT_WINDOW`: the `±window` of the first scan when the request names none. */
export const DEFAULT_HINT_WINDOW = 5;

/** The node's limits (nearcore config.json `receipt_to_tx_max_*`, defaults as nearcore's). */
export interface ReceiptToTxLimits {
  /** `receipt_to_tx_max_hint_window`: the largest `window` accepted. */
  maxHintWindow: number;
  /** `receipt_to_tx_max_hop_distance`: how far back a scan after a resolved hop looks. */
  maxHopDistance: number;
  /** `receipt_to_tx_max_outcomes_per_request`: outcomes all scans of one request may read. */
  maxOutcomesPerRequest: number;
}

export const RECEIPT_TO_TX_LIMITS: ReceiptToTxLimits = {
  maxHintWindow: 20,
  maxHopDistance: 20,
  maxOutcomesPerRequest: 20_000,
};

export function receiptToTx(ctx: RpcContext, params: unknown) {
  return receiptToTxWith(ctx.chain, params, RECEIPT_TO_TX_LIMITS);
}

/** The method with explicit limits (the node's configuration; tests lower them). */
export function receiptToTxWith(chain: Chain, params: unknown, limits: ReceiptToTxLimits) {
  const f = readFields(structEntries(params, 'RpcReceiptToTxRequest'), {
    receipt_id: { read: readCryptoHash },
    block_height: optional(readU64),
    shard_id: optional(readU64),
    window: optional(readU64),
  });
  const receiptId = base58Encode(f.receipt_id);
  const hinted = f.block_height !== undefined;
  if (f.shard_id !== undefined && !hinted) throw malformedHint('shard_id requires block_height');
  if (f.window !== undefined && !hinted) throw malformedHint('window requires block_height');
  const window = f.window ?? DEFAULT_HINT_WINDOW;
  if (hinted && window > limits.maxHintWindow) {
    throw receiptToTxError('WINDOW_TOO_LARGE', { requested: window, maximum: limits.maxHintWindow });
  }

  const scan = new HintScan(chain, limits.maxOutcomesPerRequest);
  let current = receiptId;
  let height = f.block_height;
  // The shards a scan looks at: the hint's, then the shard of each parent's predecessor (which executed the
  // outcome that made the next receipt up); undefined: every shard.
  let shard = f.shard_id;
  let scanned = false;
  for (let depth = 0; depth < RECEIPT_TO_TX_DEPTH_LIMIT; depth++) {
    let origin = chain.receiptOrigin(base58Decode(current));
    if (!origin) {
      if (height === undefined) throw unknownReceipt(receiptId);
      const found = scanned
        ? scan.find(current, ancestorHeights(height, limits.maxHopDistance), shard)
        : scan.find(current, centerOutHeights(height, window), shard);
      if (!found) throw unknownReceipt(receiptId);
      origin = found.origin;
      height = found.height;
      scanned = true;
    }
    if (origin.kind === 'transaction') {
      return { transaction_hash: origin.parent, sender_account_id: origin.account };
    }
    current = origin.parent;
    shard = chain.shardOf(origin.account);
  }
  throw receiptToTxError('DEPTH_EXCEEDED', { receipt_id: receiptId, limit: RECEIPT_TO_TX_DEPTH_LIMIT });
}

/** `h, h-1, h+1, h-2, h+2, …` up to `±window`, never below 0 (nearcore's `center_out_heights`). */
export function centerOutHeights(height: number, window: number): number[] {
  const out = [height];
  for (let offset = 1; offset <= window; offset++) {
    if (offset <= height) out.push(height - offset);
    out.push(height + offset);
  }
  return out;
}

/** `h, h-1, …, h-distance`, never below 0 (nearcore's `ancestor_heights`: a receipt is made before it runs). */
export function ancestorHeights(height: number, distance: number): number[] {
  const out: number[] = [];
  for (let h = height; h >= Math.max(0, height - distance); h--) out.push(h);
  return out;
}

/**
 * nearcore's `resolve_receipt_via_hint`: the outcome at one of `heights` whose `receipt_ids` name the receipt,
 * classified as a transaction or a receipt, with one budget of outcomes for all the scans of a request.
 * Missing data (no block at a height, a collected outcome, an unknown receipt) is skipped.
 */
class HintScan {
  private scanned = 0;

  constructor(
    private readonly chain: Chain,
    private readonly budget: number,
  ) {}

  find(
    receiptId: string,
    heights: number[],
    shard: number | undefined,
  ): { origin: ReceiptOriginRecord; height: number } | undefined {
    const chain = this.chain;
    for (const height of heights) {
      const block = chain.blockByHeight(height);
      if (!block) continue;
      const shards = shard === undefined ? block.chunkHashes.map((_, s) => s) : [shard];
      for (const s of shards) {
        const chunkHash = block.chunkHashes[s];
        const chunk = chunkHash ? (chain.chunk(chunkHash) as ChunkRecord | undefined) : undefined;
        if (!chunk || chunk.height !== height) continue;
        for (const outcomeId of chunk.outcomeIds ?? chunkOutcomeIds(chunk)) {
          if (this.scanned >= this.budget) {
            throw receiptToTxError('BUDGET_EXCEEDED', { scanned: this.scanned, limit: this.budget });
          }
          this.scanned++;
          const outcome = chain.outcome(base58Decode(outcomeId));
          if (!outcome || outcome.height !== height) continue;
          if (!outcome.view.outcome.receipt_ids.includes(receiptId)) continue;
          const child = chain.receipt(base58Decode(receiptId));
          if (!child) continue;
          const receiver = (child.view as { receiver_id: string }).receiver_id;
          const base = { parent: outcomeId, receiver, shard: s, height };
          if (chain.transaction(base58Decode(outcomeId))) {
            const sender = outcome.view.outcome.executor_id;
            return { origin: { ...base, kind: 'transaction', account: sender }, height };
          }
          const parent = chain.receipt(base58Decode(outcomeId));
          if (!parent) continue;
          const predecessor = (parent.view as { predecessor_id: string }).predecessor_id;
          return { origin: { ...base, kind: 'receipt', account: predecessor }, height };
        }
      }
    }
    return undefined;
  }
}

/** A chunk stored before its outcome ids were kept: its transactions and incoming receipts (its local
 * receipts' outcomes are then not found, as nearcore's scan of a chunk without `OutcomeIds`). */
function chunkOutcomeIds(chunk: ChunkRecord): string[] {
  const view = chunk.view as {
    transactions: Array<{ hash: string }>;
    receipts: Array<{ receipt_id: string }>;
  };
  return [...view.transactions.map((t) => t.hash), ...view.receipts.map((r) => r.receipt_id)];
}

function unknownReceipt(receiptId: string) {
  return receiptToTxError('UNKNOWN_RECEIPT', { receipt_id: receiptId });
}

function malformedHint(message: string) {
  return receiptToTxError('MALFORMED_HINT', { error_message: message });
}

/**
 * An `RpcReceiptToTxError` as nearcore sends it: `new_internal_or_handler_error(Some(value), value)`, so the
 * legacy `data` is the error's JSON value itself, not its message.
 */
function receiptToTxError(name: string, info: Record<string, unknown>): RpcResponseError {
  return handlerError(name, info, { name, info });
}
