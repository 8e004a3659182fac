/**
 * The chain's reads: blocks, chunks, transactions, outcomes, receipts and state changes from the store, the
 * parsed copies of recent ones kept in memory, the head, and the horizon below which garbage-collected data is
 * no longer served (chain/garbage-collector.ts). `Chain` (chain.ts) adds block production on top.
 */
import { EventEmitter } from 'node:events';
import { BorshReader, base58Decode, base58Encode, type Receipt, readReceipt } from '@shadebox/primitives';
import type { ChunkResult } from '../runtime/apply-chunk.js';
import type { StateChangeCause } from '../state/state-update.js';
import type { KeyValueStore } from '../store/key-value-store.js';
import { Col, heightKey, metaKey } from './columns.js';
import { type FinalityPointers, finalityOf } from './doomslug-finality.js';
import { parseReceiptOrigin, type ReceiptOriginRecord } from './receipt-origins.js';
import { RecentRecords, type RecentRecordsLimits } from './recent-records.js';
import type { BlockRecord, ChunkRecord, OutcomeRecord, ReceiptRecord, TransactionRecord } from './records.js';

const utf8d = new TextDecoder();
/** Meta key of the head height. */
export const HEAD_KEY = metaKey('head');
/** Meta key of the earliest height whose data is still stored (written by chain/garbage-collector.ts). */
export const EARLIEST_KEY = metaKey('earliest');

/** How many parsed records the chain keeps in memory (chain/recent-records.ts), in entries and in bytes. */
export interface ChainCacheLimits {
  /** Recent outcomes, transactions and receipts, each kind. Default 8,192 records and 1 MiB (about 1,500
   * outcomes: the last hundred blocks of a busy chain, which is what waiters read again). */
  records: RecentRecordsLimits;
  /** Recent block records (read by height or hash again and again). Default 1,024 blocks and 1 MiB. */
  blocks: RecentRecordsLimits;
}

export const DEFAULT_CHAIN_CACHE_LIMITS: ChainCacheLimits = {
  records: { entries: 8192, bytes: 2 ** 20 },
  blocks: { entries: 1024, bytes: 2 ** 20 },
};

/** The records a block wrote, to keep in memory once its batch is committed: id, record, stored size. */
export interface BlockRecordsToCache {
  outcomes: Array<[Uint8Array, OutcomeRecord, number]>;
  receipts: Array<[Uint8Array, ReceiptRecord, number]>;
  transactions: Array<[Uint8Array, TransactionRecord, number]>;
}

/** One state change of a block as stored for the `changes` RPC (base64 key and value, null when deleted). */
export interface StoredStateChange {
  shard: number;
  key: string;
  value: string | null;
  cause: StateChangeCause;
}

export class ChainStore extends EventEmitter<{
  block: [BlockRecord];
  /** After `block`: the block's chunk results (outcomes, transactions), for the live transaction log. */
  executed: [BlockRecord, readonly ChunkResult[]];
  rewind: [BlockRecord];
}> {
  readonly genesisHeight: number;
  protected headRecord!: BlockRecord;
  protected genesisRecord!: BlockRecord;
  /** Receipts the head block produced, by the shard that produced them, to be executed by the next block. */
  protected incoming: Receipt[][] = [];
  private readonly recent: RecentRecords<BlockRecord, number>;
  /** Heights of the blocks in `recent`, by hash. */
  private readonly recentHeights = new Map<string, number>();
  private readonly recentTransactions: RecentRecords<TransactionRecord>;
  private readonly recentOutcomes: RecentRecords<OutcomeRecord>;
  private readonly recentReceipts: RecentRecords<ReceiptRecord>;

  constructor(
    readonly store: KeyValueStore,
    genesisHeight: number,
    cacheLimits: ChainCacheLimits = DEFAULT_CHAIN_CACHE_LIMITS,
  ) {
    super();
    this.genesisHeight = genesisHeight;
    this.servedFrom = genesisHeight;
    this.recent = new RecentRecords(cacheLimits.blocks);
    this.recent.onEvict = (_height, record) => this.recentHeights.delete(record.hash);
    this.recentTransactions = new RecentRecords(cacheLimits.records);
    this.recentOutcomes = new RecentRecords(cacheLimits.records);
    this.recentReceipts = new RecentRecords(cacheLimits.records);
  }

  /** What the in-memory caches of parsed records hold now, in entries and bytes (stored sizes). */
  cacheUsage(): Record<
    'blocks' | 'transactions' | 'outcomes' | 'receipts',
    { entries: number; bytes: number }
  > {
    const usage = (c: { size: number; bytes: number }) => ({ entries: c.size, bytes: c.bytes });
    return {
      blocks: usage(this.recent),
      transactions: usage(this.recentTransactions),
      outcomes: usage(this.recentOutcomes),
      receipts: usage(this.recentReceipts),
    };
  }

  get head(): BlockRecord {
    return this.headRecord;
  }

  get genesisBlock(): BlockRecord {
    return this.genesisRecord;
  }

  /** Receipts produced by the head block and not yet executed. */
  get pendingReceiptCount(): number {
    return this.incoming.reduce((n, list) => n + list.length, 0);
  }

  /** The stored head height, or undefined for a store without a chain yet. */
  protected storedHeadHeight(): number | undefined {
    const head = this.store.get(Col.Meta, HEAD_KEY);
    return head ? Number(new DataView(head.buffer, head.byteOffset).getBigUint64(0)) : undefined;
  }

  /** Reads the horizon the garbage collector persisted (genesis when it never ran). */
  protected loadEarliestHeight(): void {
    const earliest = this.store.get(Col.Meta, EARLIEST_KEY);
    this.servedFrom = earliest
      ? Number(new DataView(earliest.buffer, earliest.byteOffset).getBigUint64(0))
      : this.genesisHeight;
  }

  // ---- garbage collection view (chain/garbage-collector.ts) ------------------------------------------------

  /** Heights below this one are garbage collected (or hidden by the GC view rules): reads answer as unknown. */
  private servedFrom: number;

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
  archivalView(): this {
    const view = Object.create(this) as this;
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

  protected finalityOf(block: BlockRecord): FinalityPointers {
    return finalityOf(block, this.genesisHeight, (h) => this.storedBlockByHeight(h)?.hash);
  }

  // ---- reads ---------------------------------------------------------------------------------------------

  blockByHeight(height: number): BlockRecord | undefined {
    if (height < this.servedFrom) return undefined;
    return this.storedBlockByHeight(height);
  }

  /** The stored block at `height`, whether or not the GC view serves it. */
  protected storedBlockByHeight(height: number): BlockRecord | undefined {
    const cached = this.recent.get(height);
    if (cached) return cached;
    const hash = this.store.get(Col.BlockHeight, heightKey(height));
    return hash ? this.blockByHashBytesRemembered(hash) : undefined;
  }

  /** Keeps a parsed block record for later reads (historical queries read the same blocks again and again);
   * the least recently stored goes first past the cache's limits. `bytes`: its stored size, measured when
   * not given. */
  protected rememberBlock(record: BlockRecord, bytes = JSON.stringify(record).length): void {
    this.recent.set(record.height, record, bytes);
    if (this.recent.get(record.height) === record) this.recentHeights.set(record.hash, record.height);
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

  private blockByHashBytes(hash: Uint8Array): BlockRecord | undefined {
    const record = this.blockByHashBytesRemembered(hash);
    return record && record.height >= this.servedFrom ? record : undefined;
  }

  /** The stored block with this hash, parsed and kept in the cache of recent blocks. */
  private blockByHashBytesRemembered(hash: Uint8Array): BlockRecord | undefined {
    const raw = this.store.get(Col.Block, hash);
    if (!raw) return undefined;
    const record = JSON.parse(utf8d.decode(raw)) as BlockRecord | { collected: true };
    // A garbage-collected block leaves a header stub {height, hash, collected} (chain/garbage-collector.ts).
    if ('collected' in record) return undefined;
    this.rememberBlock(record, raw.length);
    return record;
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
      this.recentTransactions.get(RecentRecords.key(hash)) ??
      parseRaw<TransactionRecord>(this.store.get(Col.Transaction, hash));
    return record && record.height >= this.servedFrom ? record : undefined;
  }

  outcome(id: Uint8Array): OutcomeRecord | undefined {
    const record =
      this.recentOutcomes.get(RecentRecords.key(id)) ??
      parseRaw<OutcomeRecord>(this.store.get(Col.Outcome, id));
    return record && record.height >= this.servedFrom ? record : undefined;
  }

  receipt(id: Uint8Array): ReceiptRecord | undefined {
    const cached = this.recentReceipts.get(RecentRecords.key(id));
    if (cached) return cached;
    const raw = this.store.get(Col.Receipt, id);
    return raw ? (JSON.parse(utf8d.decode(raw)) as ReceiptRecord) : undefined;
  }

  /** Where receipt `id` came from (chain/receipt-origins.ts), unless the block that created it is below the
   * served horizon. */
  receiptOrigin(id: Uint8Array): ReceiptOriginRecord | undefined {
    const record = parseReceiptOrigin(this.store.get(Col.ReceiptToTx, id));
    return record && record.height >= this.servedFrom ? record : undefined;
  }

  /** The state changes block `height` made, in order, each with its shard, key and value (base64, null when
   * deleted) and nearcore's cause; undefined for an unknown block (genesis records none). */
  stateChanges(height: number): StoredStateChange[] | undefined {
    if (height < this.servedFrom) return undefined;
    const raw = this.store.get(Col.StateChanges, heightKey(height));
    return raw ? JSON.parse(utf8d.decode(raw)) : undefined;
  }

  // ---- the head and the caches, as blocks are written ----------------------------------------------------

  /** Keeps the records of a block whose batch is committed. */
  protected cacheBlockRecords(records: BlockRecordsToCache): void {
    for (const [id, record, bytes] of records.outcomes)
      this.recentOutcomes.set(RecentRecords.key(id), record, bytes);
    for (const [id, record, bytes] of records.receipts)
      this.recentReceipts.set(RecentRecords.key(id), record, bytes);
    for (const [hash, record, bytes] of records.transactions) {
      this.recentTransactions.set(RecentRecords.key(hash), record, bytes);
    }
  }

  /** Forgets every in-memory copy (after a rewind deleted blocks). */
  protected forgetCached(): void {
    this.recentTransactions.clear();
    this.recentOutcomes.clear();
    this.recentReceipts.clear();
    this.recent.clear();
    this.recentHeights.clear();
  }

  /** Reads the head block at `height`, the genesis block and the receipts the head produced. */
  protected loadHead(height: number): void {
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
}

const parseRaw = <T>(raw: Uint8Array | undefined): T | undefined =>
  raw ? (JSON.parse(utf8d.decode(raw)) as T) : undefined;
