/**
 * Writes everything a produced block changes into one batch: the state versions of each shard, its outcomes,
 * receipts, transactions and chunks, the block record (with its RPC view serialised), the receipts the next
 * block executes, the state changes, where each receipt it created came from (chain/receipt-origins.ts) and the
 * new head. The caller commits the batch (one store transaction).
 */

import {
  BorshWriter,
  base58Decode,
  base58Encode,
  publicKeyToString,
  type Receipt,
  receiptToView,
  signedTransactionToView,
  writeReceipt,
} from '@shadebox/primitives';
import type { ChunkResult, PendingTransaction } from '../runtime/apply-chunk.js';
import type { StateUpdate } from '../state/state-update.js';
import type { VersionedState } from '../state/versioned-state.js';
import type { WriteBatch } from '../store/key-value-store.js';
import type { BlockMerkleTree } from './block-merkle-tree.js';
import { type BlockHeaderFields, blockHeaderView, type chunkHeaderView } from './block-views.js';
import { type BlockRecordsToCache, HEAD_KEY, type StoredStateChange } from './chain-store.js';
import { Col, heightKey } from './columns.js';
import type { FinalityPointers } from './doomslug-finality.js';
import { stringifyJson, stringifyRecord } from './json.js';
import { merkleRoot, merklize } from './merkle.js';
import { outcomeHash, outcomeView } from './outcome-views.js';
import { writeReceiptOrigins } from './receipt-origins.js';
import type {
  BlockRecord,
  ChunkExtra,
  ChunkRecord,
  OutcomeRecord,
  ReceiptRecord,
  TransactionRecord,
} from './records.js';

const utf8 = new TextEncoder();

export interface BlockToWrite {
  hdr: BlockHeaderFields;
  hash: string;
  chunkHeaderViews: ReturnType<typeof chunkHeaderView>[];
  chunkBodies: Array<{ txs: PendingTransaction[]; receipts: Receipt[] }>;
  results: ChunkResult[];
  /** Each shard's state overlay after its chunk. */
  updates: StateUpdate[];
  /** Each shard's net writes (`updates[shard].finish()`). */
  writes: Array<Array<[Uint8Array, Uint8Array | null]>>;
  /** Each shard's trie root after its chunk (chain/shard-tries.ts): the chunk extra's `state_root`. */
  stateRoots: Uint8Array[];
  merkleTree: BlockMerkleTree;
  epoch: { epochId: string; nextEpochId: string };
  /** The block's Doomslug finality pointers (chain/doomslug-finality.ts), kept with it. */
  finality: FinalityPointers;
  /** The block producer's account. */
  author: string;
  /** Signs with the block producer's key. */
  sign: (message: Uint8Array) => string;
}

/** Writes block `b` into `batch` and returns its record and the records to keep in memory once committed. */
export function writeBlock(
  batch: WriteBatch,
  state: VersionedState,
  b: BlockToWrite,
): { record: BlockRecord; cache: BlockRecordsToCache } {
  const { hdr, hash, results, author } = b;
  const height = hdr.height;
  const numShards = results.length;
  const hashBytes = base58Decode(hash);
  const cache: BlockRecordsToCache = { outcomes: [], receipts: [], transactions: [] };
  const chunkExtras: ChunkExtra[] = [];
  const stateChanges: StoredStateChange[] = [];
  const outgoing = new BorshWriter();
  outgoing.u32(numShards);

  for (let shard = 0; shard < numShards; shard++) {
    const result = results[shard];
    state.write(batch, height, b.writes[shard]);
    for (const change of b.updates[shard].changes) {
      stateChanges.push({
        shard,
        key: Buffer.from(change.key).toString('base64'),
        value: change.value ? Buffer.from(change.value).toString('base64') : null,
        cause: change.cause,
      });
    }
    const { root: outcomeRoot, paths } = merklize(result.outcomes.map(outcomeHash));
    result.outcomes.forEach((outcome, i) => {
      const rec: OutcomeRecord = {
        height,
        ...(outcome.receipt ? { predecessorId: outcome.receipt.predecessorId } : {}),
        view: outcomeView(outcome, hash, paths[i]),
      };
      const outcomeBytes = utf8.encode(stringifyRecord(rec));
      batch.put(Col.Outcome, outcome.id, outcomeBytes);
      cache.outcomes.push([outcome.id, rec, outcomeBytes.length]);
      if (outcome.receipt) {
        const rr: ReceiptRecord = {
          view: receiptToView(outcome.receipt) as unknown as Record<string, unknown>,
        };
        const receiptBytes = utf8.encode(stringifyRecord(rr));
        batch.put(Col.Receipt, outcome.receipt.receiptId, receiptBytes);
        cache.receipts.push([outcome.receipt.receiptId, rr, receiptBytes.length]);
      }
    });
    for (const tx of result.transactions) {
      const rec: TransactionRecord = {
        height,
        blockHash: hash,
        shardId: shard,
        signerId: tx.signedTransaction.transaction.signerId,
        view: signedTransactionToView(tx.signedTransaction, tx.hash) as unknown as Record<string, unknown>,
      };
      const txBytes = utf8.encode(stringifyRecord(rec));
      batch.put(Col.Transaction, tx.hash, txBytes);
      cache.transactions.push([tx.hash, rec, txBytes.length]);
    }
    outgoing.u32(result.outgoingReceipts.length);
    for (const r of result.outgoingReceipts) {
      const rr: ReceiptRecord = { view: receiptToView(r) as unknown as Record<string, unknown> };
      const receiptBytes = utf8.encode(stringifyRecord(rr));
      batch.put(Col.Receipt, r.receiptId, receiptBytes);
      cache.receipts.push([r.receiptId, rr, receiptBytes.length]);
      writeReceipt(outgoing, r);
    }
    chunkExtras.push({
      stateRoot: base58Encode(b.stateRoots[shard]),
      outcomeRoot: base58Encode(outcomeRoot),
      gasUsed: result.gasUsed.toString(),
      balanceBurnt: result.balanceBurnt.toString(),
      outgoingReceiptsRoot: base58Encode(merkleRoot(result.outgoingReceipts.map((r) => r.receiptId))),
      validatorProposals: result.validatorProposals.map((p) => ({
        account_id: p.accountId,
        public_key: publicKeyToString({ keyType: 0, data: p.publicKey }),
        stake: p.stake.toString(),
        validator_stake_struct_version: 'V1' as const,
      })),
    });
  }

  const chunkHashesB58 = b.chunkHeaderViews.map((v) => v.chunk_hash);
  b.chunkHeaderViews.forEach((header, shard) => {
    const body = b.chunkBodies[shard];
    const chunkRecord: ChunkRecord = {
      blockHash: hash,
      height,
      shardId: shard,
      view: {
        author,
        header,
        transactions: body.txs.map((t) => signedTransactionToView(t.signedTransaction, t.hash)),
        receipts: body.receipts.map((r) => receiptToView(r)),
      },
      outcomeIds: results[shard].outcomes.map((o) => base58Encode(o.id)),
    };
    batch.put(Col.Chunk, base58Decode(header.chunk_hash), utf8.encode(stringifyRecord(chunkRecord)));
  });

  const view = {
    author,
    header: blockHeaderView(hdr, hash, b.sign(hashBytes)),
    chunks: b.chunkHeaderViews,
  };
  const record: BlockRecord = {
    height,
    hash,
    prevHash: hdr.prevHash,
    viewJson: stringifyJson(view),
    chunkExtras,
    chunkHashes: chunkHashesB58,
    gasPrice: hdr.gasPrice.toString(),
    totalSupply: hdr.totalSupply.toString(),
    timestampNs: hdr.timestampNs.toString(),
    randomValue: hdr.randomValue,
    epochId: b.epoch.epochId,
    nextEpochId: b.epoch.nextEpochId,
    blockMerkleTree: b.merkleTree.toJSON(),
    finality: b.finality,
  };
  batch.put(Col.Block, hashBytes, utf8.encode(JSON.stringify(record)));
  batch.put(Col.BlockHeight, heightKey(height), hashBytes);
  batch.put(Col.OutgoingReceipts, heightKey(height), outgoing.toBytes());
  batch.put(Col.StateChanges, heightKey(height), utf8.encode(JSON.stringify(stateChanges)));
  writeReceiptOrigins(
    batch,
    height,
    results.map((r) => r.receiptOrigins),
  );
  batch.put(Col.Meta, HEAD_KEY, heightKey(height));
  return { record, cache };
}
