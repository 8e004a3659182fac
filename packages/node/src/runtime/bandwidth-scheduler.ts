/**
 * nearcore's bandwidth scheduler as every chunk runs it (runtime/runtime/src/bandwidth_scheduler/: mod.rs
 * `run_bandwidth_scheduler`, scheduler.rs; on since protocol 74, so at every version this node runs), reduced
 * to the inputs this node ever gives it: no shard buffers receipts, so no chunk carries a bandwidth request,
 * and with one producer no chunk is missing and no shard is congested, so every link is allowed.
 *
 * What it leaves in the shard's trie is then:
 * - every link (sender, receiver) over the shard layout's ids, sender-major: its allowance raised by the fair
 *   share `max_shard_bandwidth / num_shards` (capped at `max_allowance`), then lowered by the base bandwidth
 *   granted on it (never below 0). Requests would be granted next and lower it further; the remaining bandwidth
 *   distributed last grants more without touching allowances;
 * - `sanity_check_hash = sha256(previous ‖ sha256(borsh(Vec<ShardId> of the layout)))`, the previous being
 *   32 zero bytes before the shard's first chunk.
 * The grants themselves (at least the base bandwidth on every link, the rest spread) would limit the bytes of
 * outgoing receipts per link: this node never reaches them (deviations.md).
 */
import { BorshWriter, sha256 } from '@shadebox/primitives';
import {
  type BandwidthSchedulerState,
  getBandwidthSchedulerState,
  type LinkAllowance,
  setBandwidthSchedulerState,
} from '../state/bandwidth-scheduler-state.js';
import type { StateUpdate } from '../state/state-update.js';

/** `BandwidthSchedulerConfig` of the runtime config (the same at 83–87). */
export interface BandwidthSchedulerConfig {
  maxShardBandwidth: bigint;
  maxSingleGrant: bigint;
  maxAllowance: bigint;
  maxBaseBandwidth: bigint;
}

export interface BandwidthSchedulerParams {
  baseBandwidth: bigint;
  maxShardBandwidth: bigint;
  maxSingleGrant: bigint;
  maxAllowance: bigint;
}

/** `BandwidthSchedulerParams::calculate`: what is left after one maximal grant, shared by the other links. */
export function bandwidthSchedulerParams(
  config: BandwidthSchedulerConfig,
  numShards: number,
): BandwidthSchedulerParams {
  const available = config.maxShardBandwidth - config.maxSingleGrant;
  let baseBandwidth = available / BigInt(Math.max(1, numShards - 1));
  if (baseBandwidth > config.maxBaseBandwidth) baseBandwidth = config.maxBaseBandwidth;
  return {
    baseBandwidth,
    maxShardBandwidth: config.maxShardBandwidth,
    maxSingleGrant: config.maxSingleGrant,
    maxAllowance: config.maxAllowance,
  };
}

const shardIdsHashes = new Map<number, Uint8Array>();

/** sha256 of borsh `Vec<ShardId>`: the layout's ids, 0..numShards (a V0 layout); the same for every chunk. */
function shardIdsHash(numShards: number): Uint8Array {
  let hash = shardIdsHashes.get(numShards);
  if (hash === undefined) {
    const w = new BorshWriter();
    w.u32(numShards);
    for (let id = 0; id < numShards; id++) w.u64(BigInt(id));
    hash = sha256(w.toBytes());
    shardIdsHashes.set(numShards, hash);
  }
  return hash;
}

/** One run of the scheduler on the previous state (undefined before the shard's first chunk). */
export function nextBandwidthSchedulerState(
  previous: BandwidthSchedulerState | undefined,
  params: BandwidthSchedulerParams,
  numShards: number,
): BandwidthSchedulerState {
  const allowances = new Map<string, bigint>();
  for (const link of previous?.linkAllowances ?? [])
    if (link.sender < numShards && link.receiver < numShards)
      allowances.set(`${link.sender},${link.receiver}`, link.allowance);
  const fairLinkBandwidth = params.maxShardBandwidth / BigInt(numShards);
  const senderBudget = Array.from({ length: numShards }, () => params.maxShardBandwidth);
  const receiverBudget = Array.from({ length: numShards }, () => params.maxShardBandwidth);
  const linkAllowances: LinkAllowance[] = [];
  for (let sender = 0; sender < numShards; sender++)
    for (let receiver = 0; receiver < numShards; receiver++) {
      let allowance = (allowances.get(`${sender},${receiver}`) ?? 0n) + fairLinkBandwidth;
      if (allowance > params.maxAllowance) allowance = params.maxAllowance;
      linkAllowances.push({ sender, receiver, allowance });
    }
  // Base bandwidth on every link (all allowed), in link order, while both budgets hold it.
  for (const link of linkAllowances) {
    const base = params.baseBandwidth;
    if (senderBudget[link.sender] < base || receiverBudget[link.receiver] < base) continue;
    senderBudget[link.sender] -= base;
    receiverBudget[link.receiver] -= base;
    link.allowance = link.allowance > base ? link.allowance - base : 0n;
  }
  const chained = new Uint8Array(64);
  chained.set(previous?.sanityCheckHash ?? new Uint8Array(32));
  chained.set(shardIdsHash(numShards), 32);
  return { linkAllowances, sanityCheckHash: sha256(chained) };
}

/** Runs the scheduler for the chunk of `shardId` (before its transactions, as nearcore's `apply`) and writes
 * the new state through the chunk's state update. */
export function runBandwidthScheduler(
  state: StateUpdate,
  config: BandwidthSchedulerConfig,
  shardId: number,
  numShards: number,
): void {
  const params = bandwidthSchedulerParams(config, numShards);
  const next = nextBandwidthSchedulerState(getBandwidthSchedulerState(state, shardId), params, numShards);
  setBandwidthSchedulerState(state, shardId, next);
  state.commit({ type: 'bandwidth_scheduler_state_update' });
}
