/**
 * Execution outcomes: the hash each one contributes to its chunk's `outcome_root` (nearcore's
 * `ExecutionOutcomeWithId::to_hashes`: the id, the hash of the borsh `PartialExecutionOutcome`, one hash per log
 * line; the leaf is the hash of that borsh `Vec<CryptoHash>`, as nearcore's `merklize` hashes each item) and its
 * RPC view with the merkle proof to that root. A light client recomputes the leaf from the view alone.
 */

import {
  BorshWriter,
  base58Encode,
  base64Decode,
  base64Encode,
  sha256,
  utf8Encode,
} from '@shadebox/primitives';
import type { Outcome } from '../runtime/apply-chunk.js';
import { gasProfileView } from '../vm/gas-profile.js';
import { u64Json } from './json.js';
import type { MerklePathItem } from './merkle.js';
import type { OutcomeView } from './records.js';

function statusView(status: Outcome['status']): unknown {
  if ('SuccessReceiptId' in status) return { SuccessReceiptId: base58Encode(status.SuccessReceiptId) };
  return status;
}

export function outcomeHash(outcome: Outcome): Uint8Array {
  const fields = new BorshWriter();
  fields.u32(outcome.receiptIds.length);
  for (const id of outcome.receiptIds) fields.fixedBytes(id);
  fields.u64(outcome.gasBurnt);
  fields.u128(outcome.tokensBurnt);
  fields.string(outcome.executorId);
  // `PartialExecutionStatus`: Unknown 0, Failure 1 (no payload: the error is not committed to), SuccessValue 2
  // (the value's bytes as a borsh Vec<u8>), SuccessReceiptId 3.
  const status = outcome.status;
  if ('SuccessReceiptId' in status) {
    fields.u8(3);
    fields.fixedBytes(status.SuccessReceiptId);
  } else if ('SuccessValue' in status) {
    fields.u8(2);
    fields.bytes(base64Decode(status.SuccessValue));
  } else {
    fields.u8(1);
  }
  const parts = new BorshWriter();
  parts.u32(2 + outcome.logs.length);
  parts.fixedBytes(outcome.id);
  parts.fixedBytes(sha256(fields.toBytes()));
  for (const log of outcome.logs) parts.fixedBytes(sha256(utf8Encode(log)));
  return sha256(parts.toBytes());
}

export function outcomeView(outcome: Outcome, blockHash: string, proof: MerklePathItem[]): OutcomeView {
  const isReceipt = outcome.receipt !== undefined;
  return {
    proof: proof.map((p) => ({ hash: base58Encode(p.hash), direction: p.direction })),
    block_hash: blockHash,
    id: base58Encode(outcome.id),
    outcome: {
      logs: outcome.logs,
      receipt_ids: outcome.receiptIds.map(base58Encode),
      gas_burnt: u64Json(outcome.gasBurnt) as number,
      tokens_burnt: outcome.tokensBurnt.toString(),
      executor_id: outcome.executorId,
      status: statusView(outcome.status),
      metadata: metadataView(outcome, isReceipt),
    },
  };
}

/** nearcore's `ExecutionMetadataView`: V1 (no profile) for transactions; for receipts the gas profile, V3,
 * or from protocol 85 V4 with the contract of the receiver before each action. */
function metadataView(outcome: Outcome, isReceipt: boolean): OutcomeView['outcome']['metadata'] {
  if (!isReceipt) return { version: 1, gas_profile: null };
  const metadata = outcome.metadata;
  const gasProfile = gasProfileView(metadata?.profile);
  if (metadata?.version === 4) return { version: 4, gas_profile: gasProfile, contracts: metadata.contracts };
  return { version: 3, gas_profile: gasProfile };
}

export const EMPTY_SUCCESS_VALUE = base64Encode(new Uint8Array(0));
