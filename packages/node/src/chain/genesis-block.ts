/**
 * The genesis block: the genesis records applied to an empty state, shard by shard, and the block at
 * `genesis_height` with its chunks (no transactions, zero hashes where nothing came before), written into one
 * batch with the genesis hash and the head. The caller commits the batch.
 */
import {
  BorshWriter,
  base58Decode,
  base58Encode,
  parsePublicKey,
  sha256,
  signatureToString,
  writePublicKey,
} from '@shadebox/primitives';
import type { GenesisConfig } from '../config/genesis.js';
import { parseGenesisTime } from '../config/genesis-time.js';
import type { RuntimeParams } from '../runtime/runtime-context.js';
import { setGlobalContractCode } from '../state/global-contract-state.js';
import { StateUpdate } from '../state/state-update.js';
import type { VersionedState } from '../state/versioned-state.js';
import type { WriteBatch } from '../store/key-value-store.js';
import { EMPTY_ROOT } from '../trie/index.js';
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
import { HEAD_KEY } from './chain-store.js';
import { Col, heightKey, metaKey } from './columns.js';
import { applyGenesisRecords, type StateRecordJson } from './genesis-state.js';
import { stringifyJson, stringifyRecord } from './json.js';
import { merkleRoot, merklizeHashes } from './merkle.js';
import type { BlockRecord, ChunkExtra, ChunkRecord } from './records.js';
import type { ShardTries } from './shard-tries.js';

const utf8 = new TextEncoder();

export interface GenesisBlockInputs {
  /** Where the shards' tries go: the genesis roots are the tries of the genesis records. */
  tries: ShardTries;
  genesis: GenesisConfig;
  params: RuntimeParams;
  numShards: number;
  shardOf: (accountId: string) => number;
  /** The block producer's account (the blocks' `author`). */
  author: string;
}

/** `next_bp_hash`: nearcore's `compute_bp_hash` over the next epoch's block producers (here the fixed genesis
 * set): the hash of the borsh `Vec<ValidatorStake>`, each `V1` (tag 0) with account id, public key and stake. A
 * light client checks `next_bps` against it. */
export function nextBpHash(genesis: GenesisConfig): string {
  const w = new BorshWriter();
  w.u32(genesis.validators.length);
  for (const v of genesis.validators) {
    w.u8(0);
    w.string(v.account_id);
    writePublicKey(w, parsePublicKey(v.public_key));
    w.u128(BigInt(v.amount));
  }
  return base58Encode(sha256(w.toBytes()));
}

/** Writes the genesis state and block into `batch` and returns the block's record. */
export function writeGenesisBlock(
  batch: WriteBatch,
  state: VersionedState,
  inputs: GenesisBlockInputs,
): BlockRecord {
  const { genesis: g, numShards, author } = inputs;
  const height = g.genesis_height;
  const chunkExtras: ChunkExtra[] = [];
  const trieUpdate = inputs.tries.update();
  for (let shard = 0; shard < numShards; shard++) {
    const update = new StateUpdate(undefined, -1);
    const records = (g.records as StateRecordJson[]).filter(
      (r) => inputs.shardOf(recordAccount(r)) === shard,
    );
    applyGenesisRecords(update, records, inputs.params);
    const wallet = inputs.params.ethWallet;
    if (wallet) {
      setGlobalContractCode(update, shard, { kind: 'CodeHash', codeHash: wallet.codeHash }, wallet.code);
      update.commit({ type: 'initial_state' });
    }
    const writes = update.finish();
    state.write(batch, height, writes);
    const root = inputs.tries.applyChunk(batch, trieUpdate, height, shard, EMPTY_ROOT, writes);
    chunkExtras.push({
      stateRoot: base58Encode(root),
      outcomeRoot: ZERO_HASH_B58,
      gasUsed: '0',
      balanceBurnt: '0',
      outgoingReceiptsRoot: ZERO_HASH_B58,
      validatorProposals: [],
    });
  }
  trieUpdate.writeTo(batch);
  inputs.tries.markPresent(batch);
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
    prevStateRoot: base58Encode(merklizeHashes(chunkFields.map((f) => base58Decode(f.prevStateRoot))).root),
    blockBodyHash: base58Encode(sha256(utf8.encode(stringifyJson(chunkHeaderViews)))),
    chunkReceiptsRoot: ZERO_HASH_B58,
    chunkHeadersRoot: base58Encode(merkleRoot(chunkHashes)),
    chunkTxRoot: ZERO_HASH_B58,
    outcomeRoot: ZERO_HASH_B58,
    chunksIncluded: numShards,
    timestampNs,
    randomValue: ZERO_HASH_B58,
    validatorProposals: [],
    chunkMask: chunkFields.map(() => true),
    gasPrice: BigInt(g.min_gas_price),
    blockOrdinal: 1,
    totalSupply: BigInt(g.total_supply),
    lastFinalBlock: ZERO_HASH_B58,
    lastDsFinalBlock: ZERO_HASH_B58,
    nextBpHash: nextBpHash(g),
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
    author,
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
      view: { author, header, transactions: [], receipts: [] },
    };
    batch.put(Col.Chunk, base58Decode(header.chunk_hash), utf8.encode(stringifyRecord(chunkRecord)));
  });
  batch.put(Col.Block, hashBytes, utf8.encode(JSON.stringify(record)));
  batch.put(Col.BlockHeight, heightKey(height), hashBytes);
  batch.put(Col.Meta, metaKey('genesis'), hashBytes);
  batch.put(Col.Meta, HEAD_KEY, heightKey(height));
  return record;
}

/** The account a genesis record belongs to (its shard is that account's). */
export function recordAccount(record: StateRecordJson): string {
  if ('Account' in record) return record.Account.account_id;
  if ('AccessKey' in record) return record.AccessKey.account_id;
  if ('Contract' in record) return record.Contract.account_id;
  if ('GasKeyNonce' in record) return record.GasKeyNonce.account_id;
  return record.Data.account_id;
}
