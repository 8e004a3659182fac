/**
 * nearcore's `BandwidthSchedulerState` (core/primitives/src/bandwidth_scheduler.rs), kept in each shard's trie
 * under `TrieKey::BandwidthSchedulerState` (column 15) and rewritten by every chunk since protocol 74. Borsh:
 * enum tag 0 (`V1`), `link_allowances: Vec<LinkAllowance { sender: u64, receiver: u64, allowance: u64 }>`,
 * `sanity_check_hash: [u8; 32]`.
 */
import { BorshReader, BorshWriter } from '@shadebox/primitives';
import { bandwidthSchedulerStateKey } from './state-keys.js';
import type { StateUpdate } from './state-update.js';

export interface LinkAllowance {
  sender: number;
  receiver: number;
  allowance: bigint;
}

export interface BandwidthSchedulerState {
  linkAllowances: LinkAllowance[];
  sanityCheckHash: Uint8Array;
}

const V1 = 0;

export function encodeBandwidthSchedulerState(state: BandwidthSchedulerState): Uint8Array {
  const w = new BorshWriter();
  w.u8(V1);
  w.u32(state.linkAllowances.length);
  for (const link of state.linkAllowances) {
    w.u64(BigInt(link.sender));
    w.u64(BigInt(link.receiver));
    w.u64(link.allowance);
  }
  w.fixedBytes(state.sanityCheckHash);
  return w.toBytes();
}

export function decodeBandwidthSchedulerState(bytes: Uint8Array): BandwidthSchedulerState {
  const r = new BorshReader(bytes);
  const tag = r.u8();
  if (tag !== V1) throw new Error(`unknown BandwidthSchedulerState version ${tag}`);
  const count = r.u32();
  const linkAllowances: LinkAllowance[] = [];
  for (let i = 0; i < count; i++) {
    const sender = Number(r.u64());
    const receiver = Number(r.u64());
    linkAllowances.push({ sender, receiver, allowance: r.u64() });
  }
  return { linkAllowances, sanityCheckHash: r.fixedBytes(32) };
}

/** The shard's scheduler state, or undefined before its first chunk. */
export function getBandwidthSchedulerState(
  state: StateUpdate,
  shardId: number,
): BandwidthSchedulerState | undefined {
  const bytes = state.get(bandwidthSchedulerStateKey(shardId));
  return bytes ? decodeBandwidthSchedulerState(bytes) : undefined;
}

export function setBandwidthSchedulerState(
  state: StateUpdate,
  shardId: number,
  value: BandwidthSchedulerState,
): void {
  state.set(bandwidthSchedulerStateKey(shardId), encodeBandwidthSchedulerState(value));
}
