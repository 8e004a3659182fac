/**
 * The chain: the store of blocks and the state, its head, and the transition from one block to the next.
 *
 * A block at height h is made in one step (`produceBlock`): its chunks are applied (transactions become
 * receipts, the receipts produced by block h-1 execute), its header is built from the results of block h-1's
 * chunks (as nearcore's chunk headers carry the previous chunk's outcome root, gas used and balance burnt), and
 * everything it changes — state versions, block, chunks, transactions, receipts, outcomes, the new head — is
 * written in one store transaction. A crash leaves the chain at the last committed block.
 */
import { EventEmitter } from 'node:events';
import {
  BorshReader,
  BorshWriter,
  base58Decode,
  base58Encode,
  combineHash,
  encodeSignedTransaction,
  type KeyPair,
  publicKeyToString,
  type Receipt,
  readReceipt,
  receiptToView,
  sha256,
  signatureToString,
  signedTransactionToView,
  writeReceipt,
} from '@shadebox/primitives';
import { accountIdToShardId, type GenesisConfig, parseGenesisTime } from '../config/genesis.js';
import { applyChunk, type ChunkResult, type PendingTransaction } from '../runtime/apply-chunk.js';
import type { BlockContext, RuntimeParams } from '../runtime/runtime-context.js';
import type { ValidatorAccountsUpdate } from '../runtime/validator-accounts-update.js';
import { type StateChangeCause, StateUpdate } from '../state/state-update.js';
import { VersionedState } from '../state/versioned-state.js';
import { type KeyValueStore, WriteBatch } from '../store/key-value-store.js';
import { BlockMerkleTree } from './block-merkle-tree.js';
import {
  type BlockHeaderFields,
  blockHash,
  blockHeaderView,
  type ChunkHeaderFields,
  chunkHash,
  chunkHeaderView,
  ZERO_HASH_B58,
} from './block-views.js';
import { Col, heightKey, metaKey } from './columns.js';
import { type FinalityPointers, finalityOf, nextFinality } from './doomslug-finality.js';
import { nextGasPrice } from './gas-price.js';
import { applyGenesisRecords, type StateRecordJson } from './genesis-state.js';
import { stringifyJson, stringifyRecord } from './json.js';
import { merkleRoot, merklize } from './merkle.js';
import { outcomeHash, outcomeView } from './outcome-views.js';
import { applyStatePatch, type PatchRecord } from './patch-state.js';
import { RecentRecords } from './recent-records.js';
import type {
  BlockRecord,
  ChunkExtra,
  ChunkRecord,
  OutcomeRecord,
  ReceiptRecord,
  TransactionRecord,
} from './records.js';
import { minimumStake, validatorAccountsUpdate } from './validator-stakes.js';

const utf8 = new TextEncoder();
const utf8d = new TextDecoder();
const HEAD_KEY = metaKey('head');
/** Meta key of the earliest height whose data is still stored (written by chain/garbage-collector.ts). */
export const EARLIEST_KEY = metaKey('earliest');
/** Recent outcomes, transactions and receipts kept parsed in memory (each kind). */
const RECENT_RECORDS = 8192;
/** Parsed block records kept in memory. */
const RECENT_BLOCKS = 1024;

export interface ChainOptions {
  store: KeyValueStore;
  genesis: GenesisConfig;
  params: RuntimeParams;
  /** The block producer's key (validator_key.json). */
  validatorKey: KeyPair;
  validatorAccountId: string;
  /** Clock for block timestamps, in nanoseconds. */
  now?: () => bigint;
}

export interface ProducedBlock {
  block: BlockRecord;
  /** Transactions dropped at inclusion because they no longer passed the checks. */
  dropped: ChunkResult['dropped'];
  /** Hashes of transactions included. */
  included: Uint8Array[];
}

export class Chain extends EventEmitter<{ block: [BlockRecord]; rewind: [BlockRecord] }> {
  readonly state: VersionedState;
  readonly genesis: GenesisConfig;
  readonly numShards: number;
  readonly genesisHeight: number;
  private headRecord!: BlockRecord;
  private genesisRecord!: BlockRecord;
  /** Receipts the head block produced, by the shard that produced them, to be executed by the next block. */
  private incoming: Receipt[][] = [];
  private readonly recent = new Map<number, BlockRecord>();
  private readonly now: () => bigint;

  constructor(private readonly options: ChainOptions) {
    super();
    this.genesis = options.genesis;
    this.state = new VersionedState(options.store, Col.State);
    this.numShards = options.genesis.shard_layout.V0.num_shards;
    this.genesisHeight = options.genesis.genesis_height;
    this.now = options.now ?? (() => BigInt(Date.now()) * 1_000_000n);
    const head = options.store.get(Col.Meta, HEAD_KEY);
    if (head) this.loadHead(Number(new DataView(head.buffer, head.byteOffset).getBigUint64(0)));
    else this.writeGenesis();
    this.servedFrom = this.genesisHeight;
    const earliest = options.store.get(Col.Meta, EARLIEST_KEY);
    if (earliest)
      this.servedFrom = Number(new DataView(earliest.buffer, earliest.byteOffset).getBigUint64(0));
  }

  get store(): KeyValueStore {
    return this.options.store;
  }

  get params(): RuntimeParams {
    return this.options.params;
  }

  get head(): BlockRecord {
    return this.headRecord;
  }

  get genesisBlock(): BlockRecord {
    return this.genesisRecord;
  }

  get validatorAccountId(): string {
    return this.options.validatorAccountId;
  }

  get validatorPublicKey(): string {
    return publicKeyToString(this.options.validatorKey.publicKey);
  }

  /** Receipts produced by the head block and not yet executed. */
  get pendingReceiptCount(): number {
    return this.incoming.reduce((n, list) => n + list.length, 0);
  }

  shardOf(accountId: string): number {
    return accountIdToShardId(this.genesis.shard_layout, accountId);
  }

  // ---- garbage collection view (chain/garbage-collector.ts) ------------------------------------------------

  /** Heights below this one are garbage collected (or hidden by the GC view rules): reads answer as unknown. */
  private servedFrom!: number;

  /** Lowest height whose block, chunks, transactions, outcomes and state are still served. */
  earliestHeight(): number {
    return this.servedFrom;
  }

  /** Moves the served horizon (the garbage collector, after committing the deletions below `height`). */
  setEarliestHeight(height: number): void {
    this.servedFrom = Math.max(this.genesisHeight, Math.min(height, this.headRecord.height));
  }

  /** A read view of this chain that serves every stored height (the archival endpoint of a node that keeps
   * its full history but applies the GC rules on its regular endpoint). Reads only: never produce with it. */
  archivalView(): Chain {
    const view = Object.create(this) as Chain;
    Object.defineProperty(view, 'servedFrom', { value: this.genesisHeight, writable: false });
    return view;
  }

  /** Height and hash of a block whose data is garbage collected but whose header is still indexed, for
   * GARBAGE_COLLECTED_BLOCK; undefined when the block is served or unknown. */
  collectedHeader(id: number | string): { block_height: number; block_hash: string } | undefined {
    if (typeof id === 'number') {
      if (id < this.genesisHeight || id >= this.servedFrom) return undefined;
      const hash = this.store.get(Col.BlockHeight, heightKey(id));
      return hash ? { block_height: id, block_hash: base58Encode(hash) } : undefined;
    }
    let bytes: Uint8Array;
    try {
      bytes = base58Decode(id);
    } catch {
      return undefined;
    }
    const raw = bytes.length === 32 ? this.store.get(Col.Block, bytes) : undefined;
    if (!raw) return undefined;
    const { height } = JSON.parse(utf8d.decode(raw)) as { height: number };
    return height < this.servedFrom ? { block_height: height, block_hash: id } : undefined;
  }

  /** Height of the block that is `near-final` and `final` (head - 1 and head - 2 without skipped heights;
   * chain/doomslug-finality.ts). */
  finalHeight(kind: 'optimistic' | 'near-final' | 'final'): number {
    if (kind === 'optimistic') return this.headRecord.height;
    const f = this.finalityOf(this.headRecord);
    return (kind === 'final' ? f.lastFinal : f.lastDsFinal)?.height ?? this.genesisHeight;
  }

  private finalityOf(block: BlockRecord): FinalityPointers {
    return finalityOf(block, this.genesisHeight, (h) => this.storedBlockByHeight(h)?.hash);
  }

  // ---- reads ---------------------------------------------------------------------------------------------

  blockByHeight(height: number): BlockRecord | undefined {
    if (height < this.servedFrom) return undefined;
    return this.storedBlockByHeight(height);
  }

  /** The stored block at `height`, whether or not the GC view serves it. */
  private storedBlockByHeight(height: number): BlockRecord | undefined {
    const cached = this.recent.get(height);
    if (cached) return cached;
    const hash = this.store.get(Col.BlockHeight, heightKey(height));
    const record = hash ? this.storedBlockByHashBytes(hash) : undefined;
    if (record) this.rememberBlock(record);
    return record;
  }

  /** Keeps a parsed block record for later reads (historical queries read the same blocks again and again);
   * the least recently stored goes first once there are RECENT_BLOCKS. */
  private rememberBlock(record: BlockRecord): void {
    this.recent.delete(record.height);
    this.recent.set(record.height, record);
    this.recentHeights.set(record.hash, record.height);
    if (this.recent.size > RECENT_BLOCKS) {
      const oldest = this.recent.keys().next().value as number;
      const evicted = this.recent.get(oldest);
      this.recent.delete(oldest);
      if (evicted) this.recentHeights.delete(evicted.hash);
    }
  }

  blockByHash(hash: string): BlockRecord | undefined {
    let bytes: Uint8Array;
    try {
      bytes = base58Decode(hash);
    } catch {
      return undefined;
    }
    if (bytes.length !== 32) return undefined;
    const height = this.recentHeights.get(hash);
    const cached = height === undefined ? undefined : this.recent.get(height);
    if (cached && cached.hash === hash) return cached.height >= this.servedFrom ? cached : undefined;
    return this.blockByHashBytes(bytes);
  }

  /** Heights of the blocks in `recent`, by hash. */
  private readonly recentHeights = new Map<string, number>();

  private blockByHashBytes(hash: Uint8Array): BlockRecord | undefined {
    const record = this.storedBlockByHashBytes(hash);
    if (record) this.rememberBlock(record);
    return record && record.height >= this.servedFrom ? record : undefined;
  }

  private storedBlockByHashBytes(hash: Uint8Array): BlockRecord | undefined {
    const raw = this.store.get(Col.Block, hash);
    if (!raw) return undefined;
    const record = JSON.parse(utf8d.decode(raw)) as BlockRecord | { collected: true };
    // A garbage-collected block leaves a header stub {height, hash, collected} (chain/garbage-collector.ts).
    return 'collected' in record ? undefined : record;
  }

  chunk(chunkHashB58: string): ChunkRecord | undefined {
    let key: Uint8Array;
    try {
      key = base58Decode(chunkHashB58);
    } catch {
      return undefined;
    }
    const raw = this.store.get(Col.Chunk, key);
    const record = raw ? (JSON.parse(utf8d.decode(raw)) as ChunkRecord) : undefined;
    return record && record.height >= this.servedFrom ? record : undefined;
  }

  /** Records are shared with the in-memory cache of recent ones: read them, never modify them. */
  transaction(hash: Uint8Array): TransactionRecord | undefined {
    const record =
      this.recentTransactions.get(hash) ?? parseRaw<TransactionRecord>(this.store.get(Col.Transaction, hash));
    return record && record.height >= this.servedFrom ? record : undefined;
  }

  outcome(id: Uint8Array): OutcomeRecord | undefined {
    const record = this.recentOutcomes.get(id) ?? parseRaw<OutcomeRecord>(this.store.get(Col.Outcome, id));
    return record && record.height >= this.servedFrom ? record : undefined;
  }

  receipt(id: Uint8Array): ReceiptRecord | undefined {
    const cached = this.recentReceipts.get(id);
    if (cached) return cached;
    const raw = this.store.get(Col.Receipt, id);
    return raw ? (JSON.parse(utf8d.decode(raw)) as ReceiptRecord) : undefined;
  }

  private readonly recentTransactions = new RecentRecords<TransactionRecord>(RECENT_RECORDS);
  private readonly recentOutcomes = new RecentRecords<OutcomeRecord>(RECENT_RECORDS);
  private readonly recentReceipts = new RecentRecords<ReceiptRecord>(RECENT_RECORDS);
  /** Records of the block being written, cached once its batch is committed. */
  private pendingRecords: Array<() => void> = [];

  /** The state changes block `height` made, in order, each with its shard, key and value (base64, null when
   * deleted) and nearcore's cause; undefined for an unknown block (genesis records none). */
  stateChanges(
    height: number,
  ): Array<{ shard: number; key: string; value: string | null; cause: StateChangeCause }> | undefined {
    if (height < this.servedFrom) return undefined;
    const raw = this.store.get(Col.StateChanges, heightKey(height));
    return raw ? JSON.parse(utf8d.decode(raw)) : undefined;
  }

  /** A read-only view of the state as of block `height`. */
  stateAt(height: number): StateUpdate {
    return new StateUpdate(this.state, height);
  }

  /** One state key as of block `height` (the read path of queries: no overlay needed). */
  stateValue(key: Uint8Array, height: number): Uint8Array | undefined {
    return this.state.get(key, height);
  }

  // ---- block production ----------------------------------------------------------------------------------

  /** Makes the next block: at the next height, or at `options.height` above it (heights skipped, as
   * `sandbox_fast_forward` makes them). */
  produceBlock(
    transactions: PendingTransaction[],
    options: { timestampNs?: bigint; height?: number } = {},
  ): ProducedBlock {
    this.pendingRecords = [];
    const patch = this.statePatch; // sandbox_patch_state: written at the end of this block's chunks
    const prev = this.headRecord;
    const height = Math.max(options.height ?? 0, prev.height + 1);
    const finality = nextFinality(prev, this.finalityOf(prev), height);
    const timestampNs = maxBigint(options.timestampNs ?? this.now(), BigInt(prev.timestampNs) + 1n);
    const gasPrice = BigInt(prev.gasPrice);
    const epoch = this.epochOf(height);
    const randomValue = sha256(combineHash(base58Decode(prev.randomValue), heightKey(height)));
    const context: BlockContext = {
      height: BigInt(height),
      blockHash: new Uint8Array(32),
      gasPrice,
      timestampNs,
      epochLength: BigInt(this.genesis.epoch_length),
      minimumStake: this.minimumStake(),
      randomValue,
      epochHeight: BigInt(epoch.epochHeight),
      validatorStakes: this.validatorStakes(),
    };
    const stakeReturns = this.validatorAccountsUpdateFor(height);

    // Apply each shard's chunk on its own overlay of the state after the previous block.
    const byShard = (accountId: string) => this.shardOf(accountId);
    const results: ChunkResult[] = [];
    const updates: StateUpdate[] = [];
    for (let shard = 0; shard < this.numShards; shard++) {
      const state = new StateUpdate(this.state, prev.height);
      const txs = transactions.filter((t) => byShard(t.signedTransaction.transaction.signerId) === shard);
      const receipts = this.incoming.flat().filter((r) => byShard(r.receiverId) === shard);
      const update = stakeReturns && {
        stakeInfo: new Map([...stakeReturns.stakeInfo].filter(([id]) => byShard(id) === shard)),
        lastProposals: stakeReturns.lastProposals,
      };
      results.push(applyChunk(this.params, context, state, txs, receipts, update));
      const shardPatch = patch.filter((r) => byShard(r.accountId) === shard);
      if (shardPatch.length > 0) applyStatePatch(state, shardPatch, this.params, { type: 'migration' });
      updates.push(state);
    }

    // Chunk headers: this block's transactions and the previous chunks' results.
    const chunkFields: ChunkHeaderFields[] = [];
    const chunkBodies: Array<{ txs: PendingTransaction[]; receipts: Receipt[] }> = [];
    for (let shard = 0; shard < this.numShards; shard++) {
      const extra = prev.chunkExtras[shard];
      const txs = results[shard].transactions;
      const prevReceipts = this.incoming[shard] ?? [];
      const body = new BorshWriter();
      body.u32(txs.length);
      for (const t of txs) body.fixedBytes(encodeSignedTransaction(t.signedTransaction));
      body.u32(prevReceipts.length);
      for (const r of prevReceipts) writeReceipt(body, r);
      const bodyBytes = body.toBytes();
      chunkBodies.push({ txs, receipts: prevReceipts });
      chunkFields.push({
        prevBlockHash: prev.hash,
        prevStateRoot: extra.stateRoot,
        outcomeRoot: extra.outcomeRoot,
        encodedMerkleRoot: base58Encode(sha256(bodyBytes)),
        encodedLength: bodyBytes.length,
        heightCreated: height,
        shardId: shard,
        gasUsed: BigInt(extra.gasUsed),
        gasLimit: BigInt(this.genesis.gas_limit),
        balanceBurnt: BigInt(extra.balanceBurnt),
        outgoingReceiptsRoot: extra.outgoingReceiptsRoot,
        txRoot: base58Encode(merkleRoot(txs.map((t) => t.hash))),
        validatorProposals: extra.validatorProposals,
      });
    }
    const chunkHashes = chunkFields.map((f) => chunkHash(f));
    const chunkHeaderViews = chunkFields.map((f, i) =>
      chunkHeaderView(f, base58Encode(chunkHashes[i]), height, this.sign(chunkHashes[i])),
    );

    const burnt = chunkFields.reduce((sum, f) => sum + f.balanceBurnt, 0n);
    const gasUsed = chunkFields.reduce((sum, f) => sum + f.gasUsed, 0n);
    const gasLimit = chunkFields.reduce((sum, f) => sum + f.gasLimit, 0n);
    const merkleTree = BlockMerkleTree.fromJSON(prev.blockMerkleTree);
    const hdr: BlockHeaderFields = {
      height,
      prevHeight: prev.height,
      epochId: epoch.epochId,
      nextEpochId: epoch.nextEpochId,
      prevHash: prev.hash,
      prevStateRoot: base58Encode(merkleRoot(chunkFields.map((f) => base58Decode(f.prevStateRoot)))),
      blockBodyHash: base58Encode(sha256(utf8.encode(stringifyJson(chunkHeaderViews)))),
      chunkReceiptsRoot: base58Encode(
        merkleRoot(chunkFields.map((f) => base58Decode(f.outgoingReceiptsRoot))),
      ),
      chunkHeadersRoot: base58Encode(merkleRoot(chunkHashes)),
      chunkTxRoot: base58Encode(merkleRoot(chunkFields.map((f) => base58Decode(f.txRoot)))),
      outcomeRoot: base58Encode(merkleRoot(chunkFields.map((f) => base58Decode(f.outcomeRoot)))),
      chunksIncluded: this.numShards,
      timestampNs,
      randomValue: base58Encode(randomValue),
      validatorProposals: chunkFields.flatMap((f) => f.validatorProposals),
      chunkMask: chunkFields.map(() => true),
      gasPrice: nextGasPrice(this.genesis, gasPrice, gasUsed, gasLimit),
      blockOrdinal: prev.blockMerkleTree.size + 1,
      totalSupply: BigInt(prev.totalSupply) - burnt,
      lastFinalBlock: finality.lastFinal?.hash ?? ZERO_HASH_B58,
      lastDsFinalBlock: finality.lastDsFinal?.hash ?? ZERO_HASH_B58,
      nextBpHash: this.nextBpHash(),
      blockMerkleRoot: base58Encode(merkleTree.root()),
      approvals: [this.sign(sha256(combineHash(base58Decode(prev.hash), heightKey(height))))],
      latestProtocolVersion: this.genesis.protocol_version,
      chunkEndorsements: chunkFields.map(() => [1]),
    };
    const hashBytes = blockHash(hdr);
    const hash = base58Encode(hashBytes);
    merkleTree.insert(hashBytes);

    const batch = new WriteBatch();
    const record = this.recordBlock(
      batch,
      hdr,
      hash,
      chunkHeaderViews,
      chunkBodies,
      results,
      updates,
      merkleTree,
      epoch,
      finality,
    );
    const cacheRecords = this.pendingRecords;
    this.pendingRecords = [];
    this.store.commit(batch);
    if (patch.length > 0) this.statePatch = this.statePatch.slice(patch.length);
    for (const cache of cacheRecords) cache();
    this.advanceHead(record, results);
    return {
      block: record,
      dropped: results.flatMap((r) => r.dropped),
      included: results.flatMap((r) => r.transactions.map((t) => t.hash)),
    };
  }

  /** Writes everything block `hdr` changes into `batch` and returns its record. */
  private recordBlock(
    batch: WriteBatch,
    hdr: BlockHeaderFields,
    hash: string,
    chunkHeaderViews: ReturnType<typeof chunkHeaderView>[],
    chunkBodies: Array<{ txs: PendingTransaction[]; receipts: Receipt[] }>,
    results: ChunkResult[],
    updates: StateUpdate[],
    merkleTree: BlockMerkleTree,
    epoch: { epochId: string; nextEpochId: string },
    finality: FinalityPointers,
  ): BlockRecord {
    const height = hdr.height;
    const hashBytes = base58Decode(hash);
    const author = this.options.validatorAccountId;
    const chunkExtras: ChunkExtra[] = [];
    const stateChanges: Array<{ shard: number; key: string; value: string | null; cause: StateChangeCause }> =
      [];
    const outgoing = new BorshWriter();
    outgoing.u32(this.numShards);

    for (let shard = 0; shard < this.numShards; shard++) {
      const result = results[shard];
      const writes = updates[shard].finish();
      this.state.write(batch, height, writes);
      for (const change of updates[shard].changes) {
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
        batch.put(Col.Outcome, outcome.id, utf8.encode(stringifyRecord(rec)));
        this.pendingRecords.push(() => this.recentOutcomes.set(outcome.id, rec));
        if (outcome.receipt) {
          const rr: ReceiptRecord = {
            view: receiptToView(outcome.receipt) as unknown as Record<string, unknown>,
          };
          batch.put(Col.Receipt, outcome.receipt.receiptId, utf8.encode(stringifyRecord(rr)));
          const receiptId = outcome.receipt.receiptId;
          this.pendingRecords.push(() => this.recentReceipts.set(receiptId, rr));
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
        batch.put(Col.Transaction, tx.hash, utf8.encode(stringifyRecord(rec)));
        this.pendingRecords.push(() => this.recentTransactions.set(tx.hash, rec));
      }
      outgoing.u32(result.outgoingReceipts.length);
      for (const r of result.outgoingReceipts) {
        const rr: ReceiptRecord = { view: receiptToView(r) as unknown as Record<string, unknown> };
        batch.put(Col.Receipt, r.receiptId, utf8.encode(stringifyRecord(rr)));
        this.pendingRecords.push(() => this.recentReceipts.set(r.receiptId, rr));
        writeReceipt(outgoing, r);
      }
      const prevExtra = this.headRecord?.chunkExtras[shard];
      const digest = sha256(utf8.encode(stringifyJson(stateChanges.filter((c) => c.shard === shard))));
      chunkExtras.push({
        stateRoot: base58Encode(combineHash(base58Decode(prevExtra?.stateRoot ?? ZERO_HASH_B58), digest)),
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

    const chunkHashesB58 = chunkHeaderViews.map((v) => v.chunk_hash);
    chunkHeaderViews.forEach((header, shard) => {
      const body = chunkBodies[shard];
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
      };
      batch.put(Col.Chunk, base58Decode(header.chunk_hash), utf8.encode(stringifyRecord(chunkRecord)));
    });

    const view = {
      author,
      header: blockHeaderView(hdr, hash, this.sign(hashBytes)),
      chunks: chunkHeaderViews,
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
      epochId: epoch.epochId,
      nextEpochId: epoch.nextEpochId,
      blockMerkleTree: merkleTree.toJSON(),
      finality,
    };
    batch.put(Col.Block, hashBytes, utf8.encode(JSON.stringify(record)));
    batch.put(Col.BlockHeight, heightKey(height), hashBytes);
    batch.put(Col.OutgoingReceipts, heightKey(height), outgoing.toBytes());
    batch.put(Col.StateChanges, heightKey(height), utf8.encode(JSON.stringify(stateChanges)));
    batch.put(Col.Meta, HEAD_KEY, heightKey(height));
    return record;
  }

  private advanceHead(record: BlockRecord, results: ChunkResult[]): void {
    this.headRecord = record;
    this.incoming = results.map((r) => r.outgoingReceipts);
    this.rememberBlock(record);
    this.emit('block', record);
  }

  // ---- developer controls (chain/dev-controls.ts) ---------------------------------------------------------

  /** State records queued by `sandbox_patch_state`, written by the next block (chain/patch-state.ts). */
  private statePatch: PatchRecord[] = [];

  /** Queues `records` to be written at the end of the next block. */
  queueStatePatch(records: readonly PatchRecord[]): void {
    this.statePatch = [...this.statePatch, ...records];
  }

  /** Commits `batch` (the deletions of chain/revert.ts) with `height` as the new head, and forgets the
   * in-memory copies of what it deleted. `height` must be a stored block below the head. */
  rewindTo(height: number, batch: WriteBatch): void {
    batch.put(Col.Meta, HEAD_KEY, heightKey(height));
    this.store.commit(batch);
    this.recentTransactions.clear();
    this.recentOutcomes.clear();
    this.recentReceipts.clear();
    this.recent.clear();
    this.recentHeights.clear();
    this.loadHead(height);
    this.rememberBlock(this.headRecord);
    this.emit('rewind', this.headRecord);
  }

  // ---- genesis and restart -------------------------------------------------------------------------------

  private writeGenesis(): void {
    const g = this.genesis;
    const height = g.genesis_height;
    const batch = new WriteBatch();
    const chunkExtras: ChunkExtra[] = [];
    for (let shard = 0; shard < this.numShards; shard++) {
      const state = new StateUpdate(undefined, -1);
      const records = (g.records as StateRecordJson[]).filter(
        (r) => this.shardOf(recordAccount(r)) === shard,
      );
      applyGenesisRecords(state, records, this.params);
      const writes = state.finish();
      this.state.write(batch, height, writes);
      const digest = sha256(utf8.encode(JSON.stringify(writes.map(([k, v]) => [b64(k), v && b64(v)]))));
      chunkExtras.push({
        stateRoot: base58Encode(digest),
        outcomeRoot: ZERO_HASH_B58,
        gasUsed: '0',
        balanceBurnt: '0',
        outgoingReceiptsRoot: ZERO_HASH_B58,
        validatorProposals: [],
      });
    }
    const timestampNs = parseGenesisTime(g.genesis_time);
    const chunkFields: ChunkHeaderFields[] = chunkExtras.map((extra, shard) => ({
      prevBlockHash: ZERO_HASH_B58,
      prevStateRoot: extra.stateRoot,
      outcomeRoot: ZERO_HASH_B58,
      encodedMerkleRoot: ZERO_HASH_B58,
      encodedLength: 8,
      heightCreated: height,
      shardId: shard,
      gasUsed: 0n,
      gasLimit: BigInt(g.gas_limit),
      balanceBurnt: 0n,
      outgoingReceiptsRoot: ZERO_HASH_B58,
      txRoot: ZERO_HASH_B58,
      validatorProposals: [],
    }));
    const chunkHashes = chunkFields.map((f) => chunkHash(f));
    const chunkHeaderViews = chunkFields.map((f, i) =>
      chunkHeaderView(
        f,
        base58Encode(chunkHashes[i]),
        height,
        signatureToString({ keyType: 0, data: new Uint8Array(64) }),
      ),
    );
    const hdr: BlockHeaderFields = {
      height,
      prevHeight: null,
      epochId: ZERO_HASH_B58,
      nextEpochId: ZERO_HASH_B58,
      prevHash: ZERO_HASH_B58,
      prevStateRoot: base58Encode(merkleRoot(chunkFields.map((f) => base58Decode(f.prevStateRoot)))),
      blockBodyHash: base58Encode(sha256(utf8.encode(stringifyJson(chunkHeaderViews)))),
      chunkReceiptsRoot: ZERO_HASH_B58,
      chunkHeadersRoot: base58Encode(merkleRoot(chunkHashes)),
      chunkTxRoot: ZERO_HASH_B58,
      outcomeRoot: ZERO_HASH_B58,
      chunksIncluded: this.numShards,
      timestampNs,
      randomValue: ZERO_HASH_B58,
      validatorProposals: [],
      chunkMask: chunkFields.map(() => true),
      gasPrice: BigInt(g.min_gas_price),
      blockOrdinal: 1,
      totalSupply: BigInt(g.total_supply),
      lastFinalBlock: ZERO_HASH_B58,
      lastDsFinalBlock: ZERO_HASH_B58,
      nextBpHash: this.nextBpHash(),
      blockMerkleRoot: ZERO_HASH_B58,
      approvals: [],
      latestProtocolVersion: g.protocol_version,
      chunkEndorsements: [],
    };
    const hashBytes = blockHash(hdr);
    const hash = base58Encode(hashBytes);
    const tree = BlockMerkleTree.empty();
    tree.insert(hashBytes);
    const view = {
      author: this.options.validatorAccountId,
      header: blockHeaderView(hdr, hash, signatureToString({ keyType: 0, data: new Uint8Array(64) })),
      chunks: chunkHeaderViews,
    };
    const record: BlockRecord = {
      height,
      hash,
      prevHash: ZERO_HASH_B58,
      viewJson: stringifyJson(view),
      chunkExtras,
      chunkHashes: chunkHeaderViews.map((v) => v.chunk_hash),
      gasPrice: hdr.gasPrice.toString(),
      totalSupply: hdr.totalSupply.toString(),
      timestampNs: timestampNs.toString(),
      randomValue: ZERO_HASH_B58,
      epochId: ZERO_HASH_B58,
      nextEpochId: hash,
      blockMerkleTree: tree.toJSON(),
    };
    chunkHeaderViews.forEach((header, shard) => {
      const chunkRecord: ChunkRecord = {
        blockHash: hash,
        height,
        shardId: shard,
        view: { author: this.options.validatorAccountId, header, transactions: [], receipts: [] },
      };
      batch.put(Col.Chunk, base58Decode(header.chunk_hash), utf8.encode(stringifyRecord(chunkRecord)));
    });
    batch.put(Col.Block, hashBytes, utf8.encode(JSON.stringify(record)));
    batch.put(Col.BlockHeight, heightKey(height), hashBytes);
    batch.put(Col.Meta, metaKey('genesis'), hashBytes);
    batch.put(Col.Meta, HEAD_KEY, heightKey(height));
    this.store.commit(batch);
    this.genesisRecord = record;
    this.headRecord = record;
    this.rememberBlock(record);
    this.incoming = [];
  }

  private loadHead(height: number): void {
    const head = this.storedBlockByHeight(height);
    const genesis = this.storedBlockByHeight(this.genesisHeight);
    if (!head || !genesis) throw new Error(`store is corrupt: head block ${height} or genesis is missing`);
    this.headRecord = head;
    this.genesisRecord = genesis;
    const raw = this.store.get(Col.OutgoingReceipts, heightKey(height));
    this.incoming = [];
    if (raw) {
      const r = new BorshReader(raw);
      const shards = r.u32();
      for (let s = 0; s < shards; s++) {
        const list: Receipt[] = [];
        const n = r.u32();
        for (let i = 0; i < n; i++) list.push(readReceipt(r));
        this.incoming.push(list);
      }
    }
  }

  // ---- helpers -------------------------------------------------------------------------------------------

  private sign(message: Uint8Array): string {
    return signatureToString(this.options.validatorKey.sign(message));
  }

  private hashAtOrGenesis(height: number): string {
    if (height < this.genesisHeight) return ZERO_HASH_B58;
    return this.storedBlockByHeight(height)?.hash ?? this.genesisRecord.hash;
  }

  /** Epoch `k` spans heights (genesis + 1 + (k-1)·L, genesis + k·L]; its id is the hash of the last block of
   * epoch k-2 (zero for the first, the genesis hash for the second), as nearcore's epoch manager names them. */
  epochOf(height: number): {
    epochId: string;
    nextEpochId: string;
    epochHeight: number;
    startHeight: number;
  } {
    const L = this.genesis.epoch_length;
    const index = Math.max(0, Math.floor((height - this.genesisHeight - 1) / L));
    const lastOf = (k: number) => this.genesisHeight + (k + 1) * L;
    const idOf = (k: number) =>
      k === 0 ? ZERO_HASH_B58 : k === 1 ? this.genesisHashOrPending() : this.hashAtOrGenesis(lastOf(k - 2));
    return {
      epochId: idOf(index),
      nextEpochId: idOf(index + 1),
      epochHeight: index + 1,
      startHeight: this.genesisHeight + 1 + index * L,
    };
  }

  private genesisHashOrPending(): string {
    return this.genesisRecord?.hash ?? ZERO_HASH_B58;
  }

  private nextBpHash(): string {
    const w = new BorshWriter();
    for (const v of this.genesis.validators) {
      w.string(v.account_id);
      w.string(v.public_key);
      w.u128(BigInt(v.amount));
    }
    return base58Encode(sha256(w.toBytes()));
  }

  /** The smallest stake a Stake action may ask for: the seat price of the (fixed, genesis) validator set
   * divided by `minimum_stake_divisor` (chain/validator-stakes.ts). */
  /** The validators' stakes as the epoch manager sees them (the fixed genesis set). */
  validatorStakes(): ReadonlyMap<string, bigint> {
    this.stakesCache ??= new Map(this.genesis.validators.map((v) => [v.account_id, BigInt(v.amount)]));
    return this.stakesCache;
  }
  private stakesCache: Map<string, bigint> | undefined;

  minimumStake(): bigint {
    return minimumStake(this.genesis);
  }

  /** At the first block of every epoch but the first: the stake returns, from the proposals made by the
   * blocks of the epoch that ended (chain/validator-stakes.ts). */
  private validatorAccountsUpdateFor(height: number): ValidatorAccountsUpdate | undefined {
    const epoch = this.epochOf(height);
    if (epoch.startHeight !== height || epoch.epochHeight < 2) return undefined;
    const proposals: Array<{ account_id: string; stake: string }> = [];
    for (let h = height - this.genesis.epoch_length; h < height; h++) {
      const record = h === this.headRecord.height ? this.headRecord : this.storedBlockByHeight(h);
      for (const extra of record?.chunkExtras ?? []) proposals.push(...extra.validatorProposals);
    }
    return validatorAccountsUpdate(this.genesis, proposals);
  }
}

function recordAccount(record: StateRecordJson): string {
  if ('Account' in record) return record.Account.account_id;
  if ('AccessKey' in record) return record.AccessKey.account_id;
  if ('Contract' in record) return record.Contract.account_id;
  return record.Data.account_id;
}

const parseRaw = <T>(raw: Uint8Array | undefined): T | undefined =>
  raw ? (JSON.parse(utf8d.decode(raw)) as T) : undefined;
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const maxBigint = (a: bigint, b: bigint) => (a > b ? a : b);
