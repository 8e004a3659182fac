/**
 * The `GlobalContractDistribution` receipt (runtime/runtime/src/global_contracts.rs
 * `apply_global_contract_distribution_receipt`): stores the code on the shard it reached, unless a newer
 * deployment of the same identifier already got there (the nonce, since protocol 83), then forwards itself
 * to the lowest shard not yet delivered. It makes no execution outcome.
 */
import {
  base58Encode,
  createReceiptIdFromReceiptId,
  type GlobalContractDistribution,
  type Receipt,
} from '@shadebox/primitives';
import {
  getGlobalContractNonce,
  setGlobalContractCode,
  setGlobalContractNonce,
} from '../state/global-contract-state.js';
import type { StateUpdate } from '../state/state-update.js';
import type { BlockContext } from './runtime-context.js';

export type DistributionReceipt = Receipt & {
  receipt: { kind: 'GlobalContractDistribution' } & GlobalContractDistribution;
};

export function applyGlobalContractDistribution(
  block: BlockContext,
  state: StateUpdate,
  receipt: DistributionReceipt,
  outgoing: Receipt[],
): void {
  const shardId = block.shardId ?? 0;
  const numShards = block.numShards ?? 1;
  const d = receipt.receipt;
  const storedNonce = getGlobalContractNonce(state, shardId, d.id);
  // The same nonce is accepted: the deploying shard already stored it when the distribution started.
  if (d.nonce >= storedNonce) {
    setGlobalContractNonce(state, shardId, d.id, d.nonce);
    setGlobalContractCode(state, shardId, d.id, d.code);
    state.commit({ type: 'receipt_processing', receipt_hash: base58Encode(receipt.receiptId) });
  }
  const delivered = new Set([...d.alreadyDeliveredShards, BigInt(shardId)]);
  for (let next = 0; next < numShards; next++) {
    if (delivered.has(BigInt(next))) continue;
    outgoing.push({
      predecessorId: receipt.predecessorId,
      receiverId: receipt.receiverId,
      receiptId: createReceiptIdFromReceiptId(receipt.receiptId, block.height, 0),
      priority: 0n,
      version: 0,
      receipt: {
        ...d,
        targetShard: BigInt(next),
        alreadyDeliveredShards: [...delivered].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      },
    });
    return;
  }
}

/** The shard a receipt is applied on: its receiver's, except a distribution receipt, which names its shard
 * (nearcore `Receipt::receiver_shard_id`). */
export function receiptShard(receipt: Receipt, shardOf: (accountId: string) => number): number {
  const inner = receipt.receipt;
  return inner.kind === 'GlobalContractDistribution'
    ? Number(inner.targetShard)
    : shardOf(receipt.receiverId);
}
