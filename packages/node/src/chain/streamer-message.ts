/**
 * The indexer's `StreamerMessage` of one stored block, as nearcore assembles it (chain/client/src/indexer.rs
 * `build_streamer_message` and the checks of chain/jsonrpc/src/indexer.rs `validate_message`, near/nearcore
 * 0d8e7e07 and aefd6550): the block view, then one entry per shard in shard order with
 * - `chunk` (for a chunk new in this block): its author and header, each transaction with its outcome
 *   (`receipt: null`: a transaction hash names no receipt), `receipts` (those the previous chunk of the shard
 *   sent out), `local_receipts` (the receipts of its transactions with signer = receiver that converted), and
 *   `instant_receipts`;
 * - `receipt_execution_outcomes`: every receipt outcome of the chunk in execution order, each with its receipt;
 * - `state_changes`: the block's changes of the shard's accounts, with their causes.
 *
 * Everything comes from what the chain store keeps: the chunk record (and its outcome ids, in execution order),
 * the outcomes and receipts by id, the block's state changes. The local receipt is the stored receipt that
 * executed (nearcore rebuilds the same receipt from the transaction). This node's runtime has no instant
 * receipts (nearcore's `ReceiptSource::Instant`), so `instant_receipts` is always empty.
 */
import { base58Decode } from '@shadebox/primitives';
import type { Chain } from './chain.js';
import type { BlockRecord, OutcomeView } from './records.js';
import { BlockStateChanges, type StateChangeWithCauseView } from './state-change-views.js';

/** nearcore's `RpcIndexerBlockError` kinds a stored block can give. */
export class StreamerMessageError extends Error {
  constructor(
    readonly kind: 'DATA_UNAVAILABLE' | 'INCOMPLETE_DATA',
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;

export interface IndexerShard {
  shard_id: number;
  chunk: Json | null;
  receipt_execution_outcomes: Array<{ execution_outcome: OutcomeView; receipt: unknown }>;
  state_changes: StateChangeWithCauseView[];
}

export interface StreamerMessage {
  block: Json;
  shards: IndexerShard[];
}

const unavailable = (message: string) => new StreamerMessageError('DATA_UNAVAILABLE', message);
const incomplete = (message: string) => new StreamerMessageError('INCOMPLETE_DATA', message);

/** The message of `block` (a block the chain serves). Throws {@link StreamerMessageError}. */
export function streamerMessage(chain: Chain, block: BlockRecord): StreamerMessage {
  const view = JSON.parse(block.viewJson) as Json & {
    chunks: Array<{ chunk_hash: string; shard_id: number; height_included: number }>;
  };
  // Genesis was never applied: no outcomes, no changes.
  const genesis = block.hash === chain.genesisBlock.hash;
  const changes = new BlockStateChanges(chain.stateChanges(block.height) ?? []).all();
  const changesOf = (shard: number) =>
    changes.filter((c) => chain.shardOf((c.change as { account_id: string }).account_id) === shard);

  const shards = view.chunks.map((header): IndexerShard => {
    const shard: IndexerShard = {
      shard_id: header.shard_id,
      chunk: null,
      receipt_execution_outcomes: [],
      state_changes: changesOf(header.shard_id),
    };
    // A chunk carried over from an earlier block is not this block's (nearcore `is_new_chunk`).
    if (header.height_included !== block.height) return shard;
    const record = chain.chunk(header.chunk_hash);
    if (!record) throw unavailable(`chunk ${header.chunk_hash} is unavailable`);
    const chunkView = record.view as Json & {
      transactions: Array<Json & { hash: string; signer_id: string; receiver_id: string }>;
    };
    const outcomeIds = genesis ? [] : record.outcomeIds;
    if (!outcomeIds) throw unavailable('outcome index is unavailable');

    const transactions = chunkView.transactions.map((transaction) => {
      const outcome = chain.outcome(base58Decode(transaction.hash));
      if (!outcome) throw incomplete('missing or reordered transaction outcomes');
      return { transaction, outcome: { execution_outcome: outcome.view, receipt: null } };
    });
    const txHashes = new Set(chunkView.transactions.map((t) => t.hash));
    shard.receipt_execution_outcomes = outcomeIds
      .filter((id) => !txHashes.has(id))
      .map((id) => {
        const outcome = chain.outcome(base58Decode(id));
        if (!outcome) throw incomplete(`missing execution outcome ${id}`);
        const receipt = chain.receipt(base58Decode(id));
        if (!receipt) throw incomplete(`missing receipt ${id}`);
        return { execution_outcome: outcome.view, receipt: receipt.view };
      });
    shard.chunk = {
      author: chunkView.author,
      header: chunkView.header,
      transactions,
      receipts: chunkView.receipts,
      local_receipts: localReceipts(chain, transactions),
      instant_receipts: [],
    };
    return shard;
  });
  return { block: view, shards };
}

/** The receipts of the chunk's local transactions (signer = receiver) that converted (a failed conversion has
 * none), in transaction order. */
function localReceipts(
  chain: Chain,
  transactions: Array<{
    transaction: { signer_id: string; receiver_id: string };
    outcome: { execution_outcome: OutcomeView };
  }>,
): unknown[] {
  const out: unknown[] = [];
  for (const { transaction, outcome } of transactions) {
    if (transaction.signer_id !== transaction.receiver_id) continue;
    const status = outcome.execution_outcome.outcome.status as { SuccessReceiptId?: string };
    if (typeof status !== 'object' || status === null || status.SuccessReceiptId === undefined) continue;
    const receipt = chain.receipt(base58Decode(status.SuccessReceiptId));
    if (!receipt) throw incomplete(`missing receipt ${status.SuccessReceiptId}`);
    out.push(receipt.view);
  }
  return out;
}
