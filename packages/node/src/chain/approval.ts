/**
 * What a block producer signs to approve a block (nearcore's `Approval::get_data_for_sig`, core/primitives
 * block.rs): the borsh `ApprovalInner` — `Endorsement(prev_hash)` (tag 0) when the approved block's parent is at
 * the height just below it, else `Skip(prev_height)` (tag 1) — followed by the target height as 8 little-endian
 * bytes. The approvals in a block's header are these signatures, one per block producer of the epoch. A light
 * client checks the ones in the block after next against `Endorsement(next_block_hash)` at height + 2.
 */
import { BorshWriter, base58Decode } from '@shadebox/primitives';

export function approvalMessage(prevHash: string, prevHeight: number, targetHeight: number): Uint8Array {
  const w = new BorshWriter();
  if (targetHeight === prevHeight + 1) {
    w.u8(0);
    w.fixedBytes(base58Decode(prevHash));
  } else {
    w.u8(1);
    w.u64(BigInt(prevHeight));
  }
  w.u64(BigInt(targetHeight));
  return w.toBytes();
}
