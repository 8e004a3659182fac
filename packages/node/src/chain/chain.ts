/**
 * The chain: the store of blocks and the state, its head, and the transition from one block to the next.
 *
 * A block at height h is made in one step (`produceBlock`): its chunks are applied (transactions become
 * receipts, the receipts produced by block h-1 execute), its header is built from the results of block h-1's
 * chunks (as nearcore's chunk headers carry the previous chunk's outcome root, gas used and balance burnt), and
 * everything it changes — state versions, block, chunks, transactions, receipts, outcomes, the new head — is
 * written in one store transaction (written by write-block.ts). A crash leaves the chain at the last committed
 * block. Reads and their caches are in chain-store.ts, the genesis block in genesis-block.ts.
 */
import {
  BorshWriter,
  base58Decode,
  base58Encode,
  combineHash,
  encodeSignedTransaction,
  type KeyPair,
  publicKeyToString,
  type Receipt,
  sha256,
  signatureToString,
  writeReceipt,
} from '@shadebox/primitives';
import { accountIdToShardId, type GenesisConfig } from '../config/genesis.js';
import { applyChunk, type ChunkResult, type PendingTransaction } from '../runtime/apply-chunk.js';
import { recordingReads } from '../runtime/chunk-read-recorder.js';
import { receiptShard } from '../runtime/global-contract-distribution.js';
import type { BlockContext, RuntimeParams } from '../runtime/runtime-context.js';
import type { ValidatorAccountsUpdate } from '../runtime/validator-accounts-update.js';
import { StateUpdate } from '../state/state-update.js';
import { VersionedState } from '../state/versioned-state.js';
import { type KeyValueStore, WriteBatch } from '../store/key-value-store.js';
import type { Trie } from '../trie/index.js';
import { approvalMessage } from './approval.js';
import { BlockMerkleTree } from './block-merkle-tree.js';
import {
  type BlockHeaderFields,
  blockHash,
  type ChunkHeaderFields,
  chunkHash,
  chunkHeaderView,
  ZERO_HASH_B58,
} from './block-views.js';
import { type ChainCacheLimits, ChainStore, HEAD_KEY } from './chain-store.js';
import { Col, heightKey } from './columns.js';
import { nextFinality } from './doomslug-finality.js';
import { nextGasPrice } from './gas-price.js';
import { nextBpHash, writeGenesisBlock } from './genesis-block.js';
import { stringifyJson } from './json.js';
import { merkleRoot, merklizeHashes } from './merkle.js';
import { applyStatePatch, type PatchRecord } from './patch-state.js';
import type { BlockRecord } from './records.js';
import { ShardTries } from './shard-tries.js';
import { minimumStake, validatorAccountsUpdate } from './validator-stakes.js';
import { writeBlock } from './write-block.js';

const utf8 = new TextEncoder();

export interface ChainOptions {
  store: KeyValueStore;
  genesis: GenesisConfig;
  params: RuntimeParams;
  /** The block producer's key (validator_key.json). */
  validatorKey: KeyPair;
  validatorAccountId: string;
  /** Clock for block timestamps, in nanoseconds. */
  now?: () => bigint;
  /** Bounds of the in-memory caches of parsed records (chain-store.ts). Default DEFAULT_CHAIN_CACHE_LIMITS. */
  cacheLimits?: ChainCacheLimits;
  /** Opened only to read (dump-state, on a store the node may be writing): nothing is committed, so an older
   * home's trie is not rebuilt. */
  readOnly?: boolean;
}

export interface ProducedBlock {
  block: BlockRecord;
  /** Transactions dropped at inclusion because they no longer passed the checks. */
  dropped: ChunkResult['dropped'];
  /** Hashes of transactions included. */
  included: Uint8Array[];
}

export class Chain extends ChainStore {
  readonly state: VersionedState;
  /** The shards' tries: state roots, trie-node gas and proofs (chain/shard-tries.ts). */
  readonly tries: ShardTries;
  readonly genesis: GenesisConfig;
  readonly numShards: number;
  /** Bytes (keys and values) the batch of the last produced block wrote: the garbage collector's history
   * budget counts them (chain/garbage-collector.ts). */
  lastBlockBytes = 0;
  private readonly now: () => bigint;

  constructor(private readonly options: ChainOptions) {
    super(options.store, options.genesis.genesis_height, options.cacheLimits);
    this.genesis = options.genesis;
    this.state = new VersionedState(options.store, Col.State);
    this.tries = new ShardTries(options.store);
    this.numShards = options.genesis.shard_layout.V0.num_shards;
    this.now = options.now ?? (() => BigInt(Date.now()) * 1_000_000n);
    const head = this.storedHeadHeight();
    if (head !== undefined) {
      this.loadHead(head);
      if (!this.tries.hasTries() && !options.readOnly) this.rebuildTries();
    } else this.writeGenesis();
    this.loadEarliestHeight();
  }

  get params(): RuntimeParams {
    return this.options.params;
  }

  get validatorAccountId(): string {
    return this.options.validatorAccountId;
  }

  get validatorPublicKey(): string {
    return publicKeyToString(this.options.validatorKey.publicKey);
  }

  shardOf(accountId: string): number {
    return accountIdToShardId(this.genesis.shard_layout, accountId);
  }

  // ---- state ----------------------------------------------------------------------------------------

  /** A read-only view of the state as of block `height`. */
  stateAt(height: number): StateUpdate {
    return new StateUpdate(this.state, height);
  }

  /** The post-state root of shard `shard` after block `block` (its chunk extra), as 32 bytes. */
  stateRootOf(block: BlockRecord, shard: number): Uint8Array {
    return base58Decode(block.chunkExtras[shard].stateRoot);
  }

  /**
   * The trie of shard `shard` at the post-state of `block` (the root the next block's chunk carries as
   * `prev_state_root`), over the stored nodes: for proofs. Its nodes are there while the block is within the
   * GC window (always on an archival node); a lookup of a node that is not there throws
   * `MissingTrieNodeError` (blocks of a home made before the tries were kept, below the rebuilt head).
   */
  trieAt(block: BlockRecord, shard: number): Trie {
    return this.tries.trieAt(this.stateRootOf(block, shard));
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
    const prevRoots: Uint8Array[] = [];
    for (let shard = 0; shard < this.numShards; shard++) {
      const state = new StateUpdate(this.state, prev.height);
      prevRoots.push(this.stateRootOf(prev, shard));
      const txs = transactions.filter((t) => byShard(t.signedTransaction.transaction.signerId) === shard);
      const receipts = this.incoming.flat().filter((r) => receiptShard(r, byShard) === shard);
      const update = stakeReturns && {
        stakeInfo: new Map([...stakeReturns.stakeInfo].filter(([id]) => byShard(id) === shard)),
        lastProposals: stakeReturns.lastProposals,
      };
      const shardContext: BlockContext = {
        ...context,
        shardId: shard,
        numShards: this.numShards,
        trie: this.tries.chunkTrie(prevRoots[shard]),
      };
      // Every read of the chunk that its overlay does not answer goes into its storage proof, as nearcore's.
      results.push(
        recordingReads(state, shardContext.trie, () =>
          applyChunk(this.params, shardContext, state, txs, receipts, update),
        ),
      );
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
      prevStateRoot: base58Encode(merklizeHashes(chunkFields.map((f) => base58Decode(f.prevStateRoot))).root),
      blockBodyHash: base58Encode(sha256(utf8.encode(stringifyJson(chunkHeaderViews)))),
      chunkReceiptsRoot: base58Encode(
        merkleRoot(chunkFields.map((f) => base58Decode(f.outgoingReceiptsRoot))),
      ),
      chunkHeadersRoot: base58Encode(merkleRoot(chunkHashes)),
      chunkTxRoot: base58Encode(merkleRoot(chunkFields.map((f) => base58Decode(f.txRoot)))),
      // nearcore's `Block::compute_outcome_root`: the chunks' outcome roots, each hashed as a leaf; a light client
      // proves an outcome through it (chain/light-client.ts).
      outcomeRoot: base58Encode(merklizeHashes(chunkFields.map((f) => base58Decode(f.outcomeRoot))).root),
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
      nextBpHash: nextBpHash(this.genesis),
      blockMerkleRoot: base58Encode(merkleTree.root()),
      // The validator's approval of this block's parent, as nearcore's block producers sign it.
      approvals: [this.sign(approvalMessage(prev.hash, prev.height, height))],
      latestProtocolVersion: this.genesis.protocol_version,
      chunkEndorsements: chunkFields.map(() => [1]),
    };
    const hashBytes = blockHash(hdr);
    const hash = base58Encode(hashBytes);
    merkleTree.insert(hashBytes);

    // The shards' new roots: each chunk's net writes on the shard's previous root, nodes in this batch.
    const batch = new WriteBatch();
    const writes = updates.map((u) => u.finish());
    const trieUpdate = this.tries.update();
    const stateRoots = writes.map((w, shard) =>
      this.tries.applyChunk(batch, trieUpdate, height, shard, prevRoots[shard], w),
    );
    trieUpdate.writeTo(batch);
    const { record, cache } = writeBlock(batch, this.state, {
      hdr,
      hash,
      chunkHeaderViews,
      chunkBodies,
      results,
      updates,
      writes,
      stateRoots,
      merkleTree,
      epoch,
      finality,
      author: this.options.validatorAccountId,
      sign: (message) => this.sign(message),
    });
    this.store.commit(batch);
    this.lastBlockBytes = batch.putBytes;
    if (patch.length > 0) this.statePatch = this.statePatch.slice(patch.length);
    this.cacheBlockRecords(cache);
    this.advanceHead(record, results);
    return {
      block: record,
      dropped: results.flatMap((r) => r.dropped),
      included: results.flatMap((r) => r.transactions.map((t) => t.hash)),
    };
  }

  private advanceHead(record: BlockRecord, results: ChunkResult[]): void {
    this.headRecord = record;
    this.incoming = results.map((r) => r.outgoingReceipts);
    this.rememberBlock(record);
    this.emit('block', record);
    this.emit('executed', record, results);
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
    this.forgetCached();
    this.loadHead(height);
    this.rememberBlock(this.headRecord);
    this.emit('rewind', this.headRecord);
  }

  // ---- genesis and restart -------------------------------------------------------------------------------

  private writeGenesis(): void {
    const batch = new WriteBatch();
    const record = writeGenesisBlock(batch, this.state, {
      tries: this.tries,
      genesis: this.genesis,
      params: this.params,
      numShards: this.numShards,
      shardOf: (accountId) => this.shardOf(accountId),
      author: this.options.validatorAccountId,
    });
    this.store.commit(batch);
    this.genesisRecord = record;
    this.headRecord = record;
    this.rememberBlock(record);
    this.incoming = [];
  }

  /**
   * A home made before the tries were kept: every shard's trie built once from the flat state at the head, and
   * the head's chunk extras given those roots (the next block's chunks carry them as `prev_state_root`; the
   * head's own hash commits only to its parent's roots). Older blocks keep the roots they were made with.
   */
  private rebuildTries(): void {
    const head = this.headRecord;
    const batch = new WriteBatch();
    const roots = this.tries.rebuild(batch, this.state, head.height, this.numShards, (id) =>
      this.shardOf(id),
    );
    const record: BlockRecord = {
      ...head,
      chunkExtras: head.chunkExtras.map((extra, shard) => ({
        ...extra,
        stateRoot: base58Encode(roots[shard]),
      })),
    };
    batch.put(Col.Block, base58Decode(head.hash), utf8.encode(JSON.stringify(record)));
    this.store.commit(batch);
    this.forgetCached();
    this.loadHead(head.height);
    this.rebuiltTries = { height: head.height, roots: roots.map(base58Encode) };
  }

  /** Set when this open rebuilt the tries of an older home (start-node.ts logs it). */
  rebuiltTries: { height: number; roots: string[] } | undefined;

  // ---- helpers -------------------------------------------------------------------------------------------

  private sign(message: Uint8Array): string {
    return signatureToString(this.options.validatorKey.sign(message));
  }

  private hashAtOrGenesis(height: number): string {
    if (height < this.genesisHeight) return ZERO_HASH_B58;
    const stored = this.storedBlockByHeight(height);
    if (stored) return stored.hash;
    // A garbage-collected block keeps its height index entry: an epoch's id outlives its blocks.
    const hash = this.store.get(Col.BlockHeight, heightKey(height));
    return hash ? base58Encode(hash) : this.genesisRecord.hash;
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

const maxBigint = (a: bigint, b: bigint) => (a > b ? a : b);
