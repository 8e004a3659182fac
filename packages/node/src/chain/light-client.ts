/**
 * What a NEAR light client is served (nearcore's chain/chain/src/chain.rs `create_light_client_block`, the view
 * client's `GetNextLightClientBlock`, `GetExecutionOutcome` and `GetBlockProof`, core/store merkle_proof.rs):
 *
 * - `nextLightClientBlock`: the last final block seen from the head (moved back at an epoch's end so that the
 *   two blocks after it are in its epoch), with the next block's inner hash, the approvals of the block after
 *   next and the next epoch's block producers; for a client more than an epoch behind, the one made from the
 *   last block of the epoch after its own;
 * - `executionOutcomeProof`: an outcome with its path to its chunk's outcome root, that root's path to the
 *   outcome root of the next block with a chunk of that shard, and that block;
 * - `blockProof`: the path from a block's hash to the `block_merkle_root` of a later block (every block before
 *   that one is a leaf, in order).
 *
 * A light client recomputes every hash from the views: `inner_lite` is nearcore's borsh, the rest of the header
 * reaches it only as `inner_rest_hash`.
 */
import { base58Decode, base58Encode, sha256 } from '@shadebox/primitives';
import {
  blockInnerHash,
  blockInnerRestBytes,
  type InnerLiteFields,
  type InnerRestFields,
  ZERO_HASH_B58,
} from './block-views.js';
import type { Chain } from './chain.js';
import { type MerklePathItem, merkleRoot, merklizeHashes } from './merkle.js';
import type { BlockRecord, OutcomeView } from './records.js';

export type LightClientErrorKind =
  | 'UNKNOWN_BLOCK'
  | 'NOT_CONFIRMED'
  | 'UNKNOWN_TRANSACTION_OR_RECEIPT'
  | 'INCONSISTENT_STATE'
  | 'INTERNAL_ERROR';

/** A light-client request that cannot be answered; `kind` is nearcore's error variant. */
export class LightClientError extends Error {
  constructor(
    readonly kind: LightClientErrorKind,
    message: string,
    readonly info: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The header fields of a stored block, as its `BlockHeaderView` carries them. */
export interface HeaderView {
  height: number;
  prev_height: number | null;
  epoch_id: string;
  next_epoch_id: string;
  hash: string;
  prev_hash: string;
  prev_state_root: string;
  block_body_hash: string;
  chunk_receipts_root: string;
  chunk_headers_root: string;
  chunk_tx_root: string;
  outcome_root: string;
  timestamp_nanosec: string;
  random_value: string;
  chunk_mask: boolean[];
  gas_price: string;
  block_ordinal: number;
  total_supply: string;
  last_final_block: string;
  last_ds_final_block: string;
  next_bp_hash: string;
  block_merkle_root: string;
  approvals: Array<string | null>;
  latest_protocol_version: number;
}

export function headerOf(block: BlockRecord): HeaderView {
  return (JSON.parse(block.viewJson) as { header: HeaderView }).header;
}

function headerFields(h: HeaderView): InnerLiteFields & InnerRestFields {
  return {
    height: h.height,
    epochId: h.epoch_id,
    nextEpochId: h.next_epoch_id,
    prevStateRoot: h.prev_state_root,
    outcomeRoot: h.outcome_root,
    timestampNs: BigInt(h.timestamp_nanosec),
    nextBpHash: h.next_bp_hash,
    blockMerkleRoot: h.block_merkle_root,
    blockBodyHash: h.block_body_hash,
    chunkReceiptsRoot: h.chunk_receipts_root,
    chunkHeadersRoot: h.chunk_headers_root,
    chunkTxRoot: h.chunk_tx_root,
    randomValue: h.random_value,
    chunkMask: h.chunk_mask,
    gasPrice: BigInt(h.gas_price),
    totalSupply: BigInt(h.total_supply),
    lastFinalBlock: h.last_final_block,
    lastDsFinalBlock: h.last_ds_final_block,
    blockOrdinal: h.block_ordinal,
    prevHeight: h.prev_height,
    latestProtocolVersion: h.latest_protocol_version,
  };
}

/** `BlockHeaderInnerLiteView`. */
export function innerLiteView(h: HeaderView) {
  const timestampNs = BigInt(h.timestamp_nanosec);
  return {
    height: h.height,
    epoch_id: h.epoch_id,
    next_epoch_id: h.next_epoch_id,
    prev_state_root: h.prev_state_root,
    outcome_root: h.outcome_root,
    // nearcore's `timestamp` is the u64 as a JSON number (it may lose precision there, as nearcore's does).
    timestamp: Number(timestampNs),
    timestamp_nanosec: timestampNs.toString(),
    next_bp_hash: h.next_bp_hash,
    block_merkle_root: h.block_merkle_root,
  };
}

/** `LightClientBlockLiteView`. */
export function blockLiteView(h: HeaderView) {
  return {
    prev_block_hash: h.prev_hash,
    inner_rest_hash: base58Encode(sha256(blockInnerRestBytes(headerFields(h)))),
    inner_lite: innerLiteView(h),
  };
}

/** The next epoch's block producers as `ValidatorStakeView`s: the fixed genesis set, in genesis order (the order
 * `next_bp_hash` commits to and the approvals follow). */
export function blockProducersView(chain: Chain) {
  return chain.genesis.validators.map((v) => ({
    validator_stake_struct_version: 'V1' as const,
    account_id: v.account_id,
    public_key: v.public_key,
    stake: v.amount,
  }));
}

function unknownHeader(hash: string): LightClientError {
  return new LightClientError('UNKNOWN_BLOCK', `BLOCK HEADER: ${hash}`);
}

function blockOrThrow(chain: Chain, hash: string): BlockRecord {
  const block = hash === ZERO_HASH_B58 ? undefined : chain.blockByHash(hash);
  if (!block) throw unknownHeader(hash);
  return block;
}

/** The canonical block right after `block` (heights may be skipped), if any. */
function nextBlock(chain: Chain, block: BlockRecord): BlockRecord | undefined {
  for (let h = block.height + 1; h <= chain.head.height; h++) {
    const next = chain.blockByHeight(h);
    if (next) return next;
  }
  return undefined;
}

function blockAtHeightOrThrow(chain: Chain, height: number): BlockRecord {
  const block = chain.blockByHeight(height);
  if (!block) throw new LightClientError('UNKNOWN_BLOCK', `BLOCK HEIGHT: ${height}`);
  return block;
}

/** `LightClientBlockView` of `block` (nearcore's `create_light_client_block_view`). */
function lightClientBlockView(chain: Chain, block: BlockRecord) {
  const next = nextBlock(chain, block);
  if (!next) throw new LightClientError('UNKNOWN_BLOCK', `NEXT BLOCK HASH: ${block.hash}`);
  const afterNext = nextBlock(chain, next);
  if (!afterNext) throw new LightClientError('UNKNOWN_BLOCK', `NEXT BLOCK HASH: ${next.hash}`);
  const header = headerOf(block);
  const lite = blockLiteView(header);
  return {
    prev_block_hash: lite.prev_block_hash,
    next_block_inner_hash: base58Encode(blockInnerHash(headerFields(headerOf(next)))),
    inner_lite: lite.inner_lite,
    inner_rest_hash: lite.inner_rest_hash,
    next_bps: blockProducersView(chain),
    approvals_after_next: headerOf(afterNext).approvals,
  };
}

export type LightClientBlockView = ReturnType<typeof lightClientBlockView>;

/** nearcore's `Chain::create_light_client_block`: for the last final block seen from `from`, moved back while
 * the blocks one or two ahead of it are in another epoch. */
function createLightClientBlock(chain: Chain, from: BlockRecord): LightClientBlockView {
  const ret = blockOrThrow(chain, headerOf(from).last_final_block);
  const twoAhead = blockAtHeightOrThrow(chain, ret.height + 2);
  let final = ret;
  if (headerOf(twoAhead).epoch_id !== headerOf(ret).epoch_id) {
    const oneAhead = blockAtHeightOrThrow(chain, ret.height + 1);
    const pointer =
      headerOf(oneAhead).epoch_id !== headerOf(ret).epoch_id
        ? headerOf(ret).last_final_block
        : headerOf(oneAhead).last_final_block;
    final = blockOrThrow(chain, pointer);
  }
  return lightClientBlockView(chain, final);
}

/** The epoch index (0 for the first) of the epoch a block's `epoch_id` names, as chain.ts names epochs. */
function epochIndexOfId(chain: Chain, epochId: string): number | undefined {
  if (epochId === ZERO_HASH_B58) return 0;
  if (epochId === chain.genesisBlock.hash) return 1;
  const named = chain.blockByHash(epochId);
  const height = named?.height ?? chain.collectedHeader(epochId)?.block_height;
  return height === undefined ? undefined : chain.epochOf(height).epochHeight - 1 + 2;
}

/** The light client block nearcore saves when epoch `epochId` ends: made from its last block, whose last final
 * block must be set. Undefined while that epoch has not ended. */
function epochLightClientBlock(chain: Chain, epochId: string): LightClientBlockView | undefined {
  const index = epochIndexOfId(chain, epochId);
  if (index === undefined) return undefined;
  const L = chain.genesis.epoch_length;
  const start = chain.genesisHeight + 1 + index * L;
  const end = chain.genesisHeight + (index + 1) * L;
  // The epoch ended once a block of a later epoch exists.
  if (chain.head.height <= end) return undefined;
  for (let h = end; h >= Math.max(start - (index === 0 ? 1 : 0), chain.genesisHeight); h--) {
    const last = chain.blockByHeight(h);
    if (!last) continue;
    if (headerOf(last).last_final_block === ZERO_HASH_B58) return undefined;
    return createLightClientBlock(chain, last);
  }
  return undefined;
}

/** `next_light_client_block`: what a light client whose head is `lastBlockHash` validates next, or null when it
 * is up to date. */
export function nextLightClientBlock(chain: Chain, lastBlockHash: string): LightClientBlockView | null {
  const last = headerOf(blockOrThrow(chain, lastBlockHash));
  const head = chain.head;
  const headEpoch = headerOf(head).epoch_id;
  if (last.epoch_id === headEpoch || last.next_epoch_id === headEpoch) {
    const ret = createLightClientBlock(chain, head);
    return ret.inner_lite.height <= last.height ? null : ret;
  }
  return epochLightClientBlock(chain, last.next_epoch_id) ?? null;
}

/** Whether `block` is final and on the canonical chain as seen from the head (nearcore's
 * `check_blocks_final_and_canonical`). */
function checkFinalAndCanonical(chain: Chain, blocks: BlockRecord[]): void {
  const finalHeight = chain.finalHeight('final');
  for (const block of blocks) {
    if (block.height > finalHeight || chain.blockByHeight(block.height)?.hash !== block.hash)
      throw new LightClientError(
        'INTERNAL_ERROR',
        `${block.hash} is not final or not on the canonical chain`,
      );
  }
}

/**
 * The merkle path from `block`'s hash to the `block_merkle_root` of `head` (nearcore's
 * `compute_past_block_proof_in_merkle_tree_of_later_block`). Leaf i is the block of ordinal i + 1; `head`'s root
 * covers the blocks before it. The siblings on the left are the complete subtrees of the tree before `block`
 * (its parent's frontier), the ones on the right are built from the hashes of the blocks after it.
 */
export function blockMerkleProof(chain: Chain, block: BlockRecord, head: BlockRecord): MerklePathItem[] {
  const leaf = block.blockMerkleTree.size - 1;
  const size = head.blockMerkleTree.size - 1;
  if (leaf >= size) {
    if (block.hash === head.hash) return [];
    throw new LightClientError('INTERNAL_ERROR', `block ${block.hash} is ahead of head block ${head.hash}`);
  }
  const left =
    leaf === 0
      ? []
      : [...blockOrThrow(chain, block.prevHash).blockMerkleTree.path].reverse().map(base58Decode);
  const right: Uint8Array[] = [];
  for (let h = block.height + 1; h < head.height; h++) {
    const hash = chain.blockByHeight(h)?.hash ?? chain.collectedHeader(h)?.block_hash;
    if (hash) right.push(base58Decode(hash));
  }
  if (right.length !== size - leaf - 1)
    throw new LightClientError(
      'INTERNAL_ERROR',
      `block hashes between ${block.hash} and ${head.hash} are missing`,
    );
  const path: MerklePathItem[] = [];
  for (let level = 0, nodes = size; nodes > 1; level++, nodes = Math.ceil(nodes / 2)) {
    const index = Math.floor(leaf / 2 ** level);
    if (index % 2 === 1) {
      const sibling = left.shift();
      if (!sibling) throw new LightClientError('INTERNAL_ERROR', 'block merkle tree node missing');
      path.push({ hash: sibling, direction: 'Left' });
    } else if (index + 1 < nodes) {
      // The right sibling covers leaves [(index + 1)·2^level, (index + 2)·2^level) ∩ [0, size).
      const from = (index + 1) * 2 ** level - (leaf + 1);
      path.push({ hash: merkleRoot(right.slice(from, from + 2 ** level)), direction: 'Right' });
    }
  }
  return path;
}

const pathView = (path: MerklePathItem[]) =>
  path.map((p) => ({ hash: base58Encode(p.hash), direction: p.direction }));

/** `EXPERIMENTAL_light_client_block_proof`: `block`'s lite header and its path to `head`'s block merkle root. */
export function lightClientBlockProof(chain: Chain, blockHash: string, headHash: string) {
  const block = blockOrThrow(chain, blockHash);
  const head = blockOrThrow(chain, headHash);
  checkFinalAndCanonical(chain, [block, head]);
  return {
    block_header_lite: blockLiteView(headerOf(block)),
    block_proof: pathView(blockMerkleProof(chain, block, head)),
  };
}

export type TransactionOrReceiptId =
  | { type: 'transaction'; transaction_hash: Uint8Array; sender_id: string }
  | { type: 'receipt'; receipt_id: Uint8Array; receiver_id: string };

/** The outcome of a transaction or receipt with its proof up to the outcome root of the block after it (nearcore's
 * `GetExecutionOutcome`): the outcome's `block_hash` is that next block's. */
export function executionOutcomeProof(
  chain: Chain,
  id: TransactionOrReceiptId,
): { outcome_proof: OutcomeView; outcome_root_proof: ReturnType<typeof pathView> } {
  const [hash, accountId] =
    id.type === 'transaction' ? [id.transaction_hash, id.sender_id] : [id.receipt_id, id.receiver_id];
  const idText = base58Encode(hash);
  const record = chain.outcome(hash);
  if (!record)
    throw new LightClientError('UNKNOWN_TRANSACTION_OR_RECEIPT', `${idText} does not exist`, {
      transaction_or_receipt_id: idText,
    });
  const executed = chain.blockByHash(record.view.block_hash);
  if (!executed) throw unknownHeader(record.view.block_hash);
  const shard = chain.shardOf(accountId);
  // Every block here has a new chunk for every shard: the next block is the one that commits to the outcome.
  const next = nextBlock(chain, executed);
  if (!next)
    throw new LightClientError('NOT_CONFIRMED', `${idText} has not been confirmed`, {
      transaction_or_receipt_id: idText,
    });
  const roots = (JSON.parse(next.viewJson) as { chunks: Array<{ outcome_root: string }> }).chunks.map((c) =>
    base58Decode(c.outcome_root),
  );
  if (shard >= roots.length)
    throw new LightClientError(
      'INCONSISTENT_STATE',
      `Inconsistent state. Total number of shards is ${roots.length} but the execution outcome is in shard ${shard}`,
      { number_or_shards: roots.length, execution_outcome_shard_id: shard },
    );
  return {
    outcome_proof: { ...record.view, block_hash: next.hash },
    outcome_root_proof: pathView(merklizeHashes(roots).paths[shard]),
  };
}

/** `light_client_proof` / `EXPERIMENTAL_light_client_proof`. */
export function lightClientExecutionProof(chain: Chain, id: TransactionOrReceiptId, headHash: string) {
  const outcome = executionOutcomeProof(chain, id);
  const block = lightClientBlockProof(chain, outcome.outcome_proof.block_hash, headHash);
  return {
    outcome_proof: outcome.outcome_proof,
    outcome_root_proof: outcome.outcome_root_proof,
    block_header_lite: block.block_header_lite,
    block_proof: block.block_proof,
  };
}
