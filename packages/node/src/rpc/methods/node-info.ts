/**
 * `status`, `health`, `network_info` and `validators`: this node and its (single) validator.
 */
import { base58Encode } from '@shadebox/primitives';
import { currentProposals } from '../../chain/current-proposals.js';
import { utcSeconds } from '../../config/genesis-time.js';
import { notFoundText, parseBlockId, parseMaybeBlockId, resolveBlockId } from '../block-reference.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';
import { externallyTagged, readCryptoHash } from '../serde.js';

function isoTime(ns: string): string {
  const n = BigInt(ns);
  const date = new Date(Number(n / 1_000_000n));
  const frac = (n % 1_000_000_000n).toString().padStart(9, '0');
  return `${utcSeconds(date)}.${frac}Z`;
}

export function status(ctx: RpcContext) {
  const chain = ctx.chain;
  const head = chain.head;
  const earliest = chain.blockByHeight(chain.earliestHeight()) ?? chain.genesisBlock;
  const epoch = chain.epochOf(head.height);
  const v = ctx.version;
  return {
    version: { version: v.version, build: v.build, commit: v.commit, rustc_version: v.rustc_version },
    chain_id: chain.genesis.chain_id,
    protocol_version: chain.genesis.protocol_version,
    latest_protocol_version: chain.genesis.protocol_version,
    rpc_addr: ctx.rpcAddr,
    validators: chain.genesis.validators.map((v) => ({ account_id: v.account_id })),
    sync_info: {
      latest_block_hash: head.hash,
      latest_block_height: head.height,
      latest_state_root: head.chunkExtras[0]?.stateRoot,
      latest_block_time: isoTime(head.timestampNs),
      syncing: false,
      earliest_block_hash: earliest.hash,
      earliest_block_height: earliest.height,
      earliest_block_time: isoTime(earliest.timestampNs),
      epoch_id: epoch.epochId,
      epoch_start_height: epoch.startHeight,
    },
    validator_account_id: chain.validatorAccountId,
    validator_public_key: chain.validatorPublicKey,
    node_public_key: ctx.nodePublicKey,
    node_key: null,
    uptime_sec: Math.floor((Date.now() - ctx.startedAt) / 1000),
    genesis_hash: chain.genesisBlock.hash,
    // `detailed_debug_status` is skip_serializing_if none: absent.
  };
}

export function health() {
  return null;
}

export function networkInfo(ctx: RpcContext) {
  return {
    active_peers: [],
    num_active_peers: 0,
    peer_max_count: 40,
    sent_bytes_per_sec: 0,
    received_bytes_per_sec: 0,
    known_producers: [{ account_id: ctx.chain.validatorAccountId, addr: null, peer_id: ctx.nodePublicKey }],
  };
}

type EpochReference = { latest: true } | { block_id: number | string } | { epoch_id: string };

/**
 * The params of `validators` (nearcore's `RpcValidatorRequest::parse`): `[null]` is the latest epoch and
 * `[block_id]` the epoch of a block; anything else is parsed as `EpochReference` itself, an externally tagged
 * enum: `"latest"`, `{latest: null}`, `{block_id}` or `{epoch_id}`, one key only.
 */
export function parseEpochReference(params: unknown): EpochReference {
  if (Array.isArray(params) && params.length === 1) {
    const id = parseMaybeBlockId(params[0]);
    return id === null ? { latest: true } : { block_id: id };
  }
  const [key, value] = externallyTagged(params, { epoch_id: 'newtype', block_id: 'newtype', latest: 'unit' });
  if (key === 'epoch_id') return { epoch_id: base58Encode(readCryptoHash(value)) };
  if (key === 'block_id') return { block_id: parseBlockId(value) };
  return { latest: true };
}

/** `validators`: the (single, fixed) validator set of an epoch, and the stake proposals made in it so far. */
export function validators(ctx: RpcContext, params: unknown) {
  const chain = ctx.chain;
  const ref = parseEpochReference(params);
  let height = chain.head.height;
  if ('epoch_id' in ref) {
    const found = [chain.head.height, ...epochStarts(ctx)].find(
      (h) => chain.epochOf(h).epochId === ref.epoch_id,
    );
    if (found === undefined) throw handlerError('UNKNOWN_EPOCH', undefined, 'Unknown Epoch');
    height = found;
  } else if ('block_id' in ref) {
    const block = resolveBlockId(chain, ref.block_id);
    if (!block) throw handlerError('UNKNOWN_BLOCK', {}, notFoundText(ref.block_id, 'BLOCK'));
    height = block.height;
  }
  const epoch = chain.epochOf(height);
  const produced = Math.max(0, Math.min(height, chain.head.height) - epoch.startHeight + 1);
  const shards = Array.from({ length: chain.numShards }, (_, i) => i);
  return {
    current_validators: chain.genesis.validators.map((v) => ({
      account_id: v.account_id,
      public_key: v.public_key,
      is_slashed: false,
      stake: v.amount,
      shards,
      num_produced_blocks: produced,
      num_expected_blocks: produced,
      num_produced_chunks: produced * shards.length,
      num_expected_chunks: produced * shards.length,
      num_produced_chunks_per_shard: shards.map(() => produced),
      num_expected_chunks_per_shard: shards.map(() => produced),
      num_produced_endorsements: produced * shards.length,
      num_expected_endorsements: produced * shards.length,
      num_produced_endorsements_per_shard: shards.map(() => produced),
      num_expected_endorsements_per_shard: shards.map(() => produced),
      shards_endorsed: shards,
    })),
    next_validators: chain.genesis.validators.map((v) => ({
      account_id: v.account_id,
      public_key: v.public_key,
      stake: v.amount,
      shards,
    })),
    current_fishermen: [],
    next_fishermen: [],
    current_proposals: currentProposals(chain, 'epoch_id' in ref ? epochEnd(ctx, height) : height),
    prev_epoch_kickout: [],
    epoch_start_height: epoch.startHeight,
    epoch_height: epoch.epochHeight,
  };
}

function epochStarts(ctx: RpcContext): number[] {
  const L = ctx.chain.genesis.epoch_length;
  const out: number[] = [];
  for (let h = ctx.chain.genesisHeight + 1; h <= ctx.chain.head.height; h += L) out.push(h);
  return out;
}

/** The last height of the epoch of `height` that this node has (an ended epoch: its last block). */
function epochEnd(ctx: RpcContext, height: number): number {
  const epoch = ctx.chain.epochOf(height);
  return Math.min(ctx.chain.head.height, epoch.startHeight + ctx.chain.genesis.epoch_length - 1);
}
