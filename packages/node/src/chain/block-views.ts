/**
 * Headers of blocks and chunks: their fields, their hashes and their RPC views (nearcore's BlockHeaderView and
 * ChunkHeaderView, fields in nearcore's order).
 *
 * Hashes are computed the way nearcore structures them — a block hash is
 * sha256(sha256(inner_lite) ‖ sha256(inner_rest)) combined with the previous hash, a chunk hash is
 * sha256(inner) combined with the encoded merkle root. `inner_lite` is nearcore's borsh
 * `BlockHeaderInnerLite` byte for byte (a light client rebuilds a block hash from it and `inner_rest_hash`);
 * `inner_rest` and the chunk header are our own layout: real, deterministic commitments to the header contents,
 * but not byte-identical to nearcore's (docs/deviations.md).
 */
import { BorshWriter, base58Decode, base58Encode, combineHash, sha256 } from '@shadebox/primitives';
import { u64Json } from './json.js';

const hashBytes = (b58: string) => base58Decode(b58);

export interface ChunkHeaderFields {
  prevBlockHash: string;
  prevStateRoot: string;
  outcomeRoot: string;
  encodedMerkleRoot: string;
  encodedLength: number;
  heightCreated: number;
  shardId: number;
  gasUsed: bigint;
  gasLimit: bigint;
  balanceBurnt: bigint;
  outgoingReceiptsRoot: string;
  txRoot: string;
  validatorProposals: Array<{ account_id: string; public_key: string; stake: string }>;
}

export function chunkHash(f: ChunkHeaderFields): Uint8Array {
  const w = new BorshWriter();
  w.fixedBytes(hashBytes(f.prevBlockHash));
  w.fixedBytes(hashBytes(f.prevStateRoot));
  w.fixedBytes(hashBytes(f.outcomeRoot));
  w.fixedBytes(hashBytes(f.encodedMerkleRoot));
  w.u64(BigInt(f.encodedLength));
  w.u64(BigInt(f.heightCreated));
  w.u64(BigInt(f.shardId));
  w.u64(f.gasUsed);
  w.u64(f.gasLimit);
  w.u128(f.balanceBurnt);
  w.fixedBytes(hashBytes(f.outgoingReceiptsRoot));
  w.fixedBytes(hashBytes(f.txRoot));
  w.u32(f.validatorProposals.length);
  for (const p of f.validatorProposals) {
    w.string(p.account_id);
    w.string(p.public_key);
    w.u128(BigInt(p.stake));
  }
  return combineHash(sha256(w.toBytes()), hashBytes(f.encodedMerkleRoot));
}

export function chunkHeaderView(
  f: ChunkHeaderFields,
  hash: string,
  heightIncluded: number,
  signature: string,
) {
  return {
    chunk_hash: hash,
    prev_block_hash: f.prevBlockHash,
    outcome_root: f.outcomeRoot,
    prev_state_root: f.prevStateRoot,
    encoded_merkle_root: f.encodedMerkleRoot,
    encoded_length: f.encodedLength,
    height_created: f.heightCreated,
    height_included: heightIncluded,
    shard_id: f.shardId,
    gas_used: u64Json(f.gasUsed),
    gas_limit: u64Json(f.gasLimit),
    rent_paid: '0',
    validator_reward: '0',
    balance_burnt: f.balanceBurnt.toString(),
    outgoing_receipts_root: f.outgoingReceiptsRoot,
    tx_root: f.txRoot,
    validator_proposals: f.validatorProposals.map(validatorStakeView),
    congestion_info: {
      delayed_receipts_gas: '0',
      buffered_receipts_gas: '0',
      receipt_bytes: 0,
      allowed_shard: f.shardId,
    },
    // No shard buffers receipts here, so no chunk requests bandwidth: nearcore's `BandwidthRequests::V1` empty
    // (every chunk header since protocol 74, genesis chunks included).
    bandwidth_requests: { V1: { requests: [] } },
    signature,
  };
}

export interface BlockHeaderFields {
  height: number;
  prevHeight: number | null;
  epochId: string;
  nextEpochId: string;
  prevHash: string;
  prevStateRoot: string;
  blockBodyHash: string;
  chunkReceiptsRoot: string;
  chunkHeadersRoot: string;
  chunkTxRoot: string;
  outcomeRoot: string;
  chunksIncluded: number;
  timestampNs: bigint;
  randomValue: string;
  validatorProposals: Array<{ account_id: string; public_key: string; stake: string }>;
  chunkMask: boolean[];
  /** The next block's gas price. */
  gasPrice: bigint;
  blockOrdinal: number;
  totalSupply: bigint;
  lastFinalBlock: string;
  lastDsFinalBlock: string;
  nextBpHash: string;
  blockMerkleRoot: string;
  approvals: Array<string | null>;
  latestProtocolVersion: number;
  chunkEndorsements: number[][];
}

/** The fields a block's `inner_lite` holds. */
export type InnerLiteFields = Pick<
  BlockHeaderFields,
  | 'height'
  | 'epochId'
  | 'nextEpochId'
  | 'prevStateRoot'
  | 'outcomeRoot'
  | 'timestampNs'
  | 'nextBpHash'
  | 'blockMerkleRoot'
>;

/** The fields our `inner_rest` holds. */
export type InnerRestFields = Pick<
  BlockHeaderFields,
  | 'blockBodyHash'
  | 'chunkReceiptsRoot'
  | 'chunkHeadersRoot'
  | 'chunkTxRoot'
  | 'randomValue'
  | 'chunkMask'
  | 'gasPrice'
  | 'totalSupply'
  | 'lastFinalBlock'
  | 'lastDsFinalBlock'
  | 'blockOrdinal'
  | 'prevHeight'
  | 'latestProtocolVersion'
>;

/** nearcore's borsh `BlockHeaderInnerLite`, byte for byte (a light client hashes it from the view). */
export function blockInnerLiteBytes(f: InnerLiteFields): Uint8Array {
  const lite = new BorshWriter();
  lite.u64(BigInt(f.height));
  lite.fixedBytes(hashBytes(f.epochId));
  lite.fixedBytes(hashBytes(f.nextEpochId));
  lite.fixedBytes(hashBytes(f.prevStateRoot));
  lite.fixedBytes(hashBytes(f.outcomeRoot));
  lite.u64(f.timestampNs);
  lite.fixedBytes(hashBytes(f.nextBpHash));
  lite.fixedBytes(hashBytes(f.blockMerkleRoot));
  return lite.toBytes();
}

/** Our borsh layout of the rest of the header (a light client only ever sees its hash, `inner_rest_hash`). */
export function blockInnerRestBytes(f: InnerRestFields): Uint8Array {
  const rest = new BorshWriter();
  rest.fixedBytes(hashBytes(f.blockBodyHash));
  rest.fixedBytes(hashBytes(f.chunkReceiptsRoot));
  rest.fixedBytes(hashBytes(f.chunkHeadersRoot));
  rest.fixedBytes(hashBytes(f.chunkTxRoot));
  rest.fixedBytes(hashBytes(f.randomValue));
  rest.u32(f.chunkMask.length);
  for (const m of f.chunkMask) rest.bool(m);
  rest.u128(f.gasPrice);
  rest.u128(f.totalSupply);
  rest.fixedBytes(hashBytes(f.lastFinalBlock));
  rest.fixedBytes(hashBytes(f.lastDsFinalBlock));
  rest.u64(BigInt(f.blockOrdinal));
  rest.u64(BigInt(f.prevHeight ?? 0));
  rest.u32(f.latestProtocolVersion);
  return rest.toBytes();
}

/** nearcore's `BlockHeader::compute_inner_hash`: sha256(sha256(inner_lite) ‖ sha256(inner_rest)). */
export function blockInnerHash(f: InnerLiteFields & InnerRestFields): Uint8Array {
  return combineHash(sha256(blockInnerLiteBytes(f)), sha256(blockInnerRestBytes(f)));
}

/** nearcore's `BlockHeader::compute_hash`: sha256(inner_hash ‖ prev_hash). */
export function blockHash(f: BlockHeaderFields): Uint8Array {
  return combineHash(blockInnerHash(f), hashBytes(f.prevHash));
}

export function blockHeaderView(f: BlockHeaderFields, hash: string, signature: string) {
  return {
    height: f.height,
    prev_height: f.prevHeight,
    epoch_id: f.epochId,
    next_epoch_id: f.nextEpochId,
    hash,
    prev_hash: f.prevHash,
    prev_state_root: f.prevStateRoot,
    block_body_hash: f.blockBodyHash,
    chunk_receipts_root: f.chunkReceiptsRoot,
    chunk_headers_root: f.chunkHeadersRoot,
    chunk_tx_root: f.chunkTxRoot,
    outcome_root: f.outcomeRoot,
    chunks_included: f.chunksIncluded,
    challenges_root: ZERO_HASH_B58,
    timestamp: u64Json(f.timestampNs),
    timestamp_nanosec: f.timestampNs.toString(),
    random_value: f.randomValue,
    validator_proposals: f.validatorProposals.map(validatorStakeView),
    chunk_mask: f.chunkMask,
    gas_price: f.gasPrice.toString(),
    block_ordinal: f.blockOrdinal,
    rent_paid: '0',
    validator_reward: '0',
    total_supply: f.totalSupply.toString(),
    challenges_result: [],
    last_final_block: f.lastFinalBlock,
    last_ds_final_block: f.lastDsFinalBlock,
    next_bp_hash: f.nextBpHash,
    block_merkle_root: f.blockMerkleRoot,
    epoch_sync_data_hash: null,
    approvals: f.approvals,
    signature,
    latest_protocol_version: f.latestProtocolVersion,
    chunk_endorsements: f.chunkEndorsements,
  };
}

export const ZERO_HASH_B58 = base58Encode(new Uint8Array(32));

/** `ValidatorStakeView` (internally tagged): the tag, then `ValidatorStakeViewV1`'s fields. */
function validatorStakeView(p: { account_id: string; public_key: string; stake: string }) {
  return {
    validator_stake_struct_version: 'V1' as const,
    account_id: p.account_id,
    public_key: p.public_key,
    stake: p.stake,
  };
}
