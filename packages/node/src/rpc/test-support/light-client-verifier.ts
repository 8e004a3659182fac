/**
 * A NEAR light client's checks, written from the rules of nearcore's light client (the nomicon's LightClient
 * spec, which nearcore's `validate_light_client_block` tests and the Rainbow bridge's NearBridge follow) and
 * independent of the node's own hashing code: it sees only the RPC answers.
 *
 * - `validateAndUpdateHead`: a `LightClientBlockView` is accepted when it is above the head, in the head's epoch
 *   or the next one (then it must carry `next_bps`), its `approvals_after_next` are real ed25519 signatures of
 *   that epoch's block producers over `Endorsement(next_block_hash)` at height + 2 holding more than 2/3 of the
 *   stake, and `next_bps` hashes to `next_bp_hash`;
 * - `validateExecutionProof`: the outcome's hashes climb its merkle path to a chunk outcome root, that root
 *   (hashed as a leaf) climbs to the block's `outcome_root`, and the block's hash climbs to the trusted
 *   `block_merkle_root`;
 * - `validateBlockProof`: the same last step for `EXPERIMENTAL_light_client_block_proof`.
 *
 * Each returns nothing or throws a `LightClientRejection` saying which rule failed.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { base58Decode, base64Decode } from '@shadebox/primitives';

export class LightClientRejection extends Error {}

const sha256 = (bytes: Uint8Array) => nobleSha256(bytes);

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};
const u64 = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n, true);
  return b;
};
const u128 = (n: bigint) => concat(u64(n & 0xffff_ffff_ffff_ffffn), u64(n >> 64n));
const borshString = (s: string) => {
  const bytes = new TextEncoder().encode(s);
  return concat(u32(bytes.length), bytes);
};
const hash = (b58: string) => {
  const bytes = base58Decode(b58);
  if (bytes.length !== 32) throw new LightClientRejection(`not a 32-byte hash: ${b58}`);
  return bytes;
};
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

export interface InnerLiteView {
  height: number;
  epoch_id: string;
  next_epoch_id: string;
  prev_state_root: string;
  outcome_root: string;
  timestamp: number;
  timestamp_nanosec: string;
  next_bp_hash: string;
  block_merkle_root: string;
}

export interface ValidatorStakeView {
  account_id: string;
  public_key: string;
  stake: string;
}

export interface LightClientBlockView {
  prev_block_hash: string;
  next_block_inner_hash: string;
  inner_lite: InnerLiteView;
  inner_rest_hash: string;
  next_bps: ValidatorStakeView[] | null;
  approvals_after_next: Array<string | null>;
}

export interface LightClientBlockLiteView {
  prev_block_hash: string;
  inner_rest_hash: string;
  inner_lite: InnerLiteView;
}

export interface MerklePathItem {
  hash: string;
  direction: 'Left' | 'Right';
}

/** borsh `BlockHeaderInnerLite` from its view (`timestamp_nanosec` is the exact u64). */
function innerLiteBytes(l: InnerLiteView): Uint8Array {
  return concat(
    u64(BigInt(l.height)),
    hash(l.epoch_id),
    hash(l.next_epoch_id),
    hash(l.prev_state_root),
    hash(l.outcome_root),
    u64(BigInt(l.timestamp_nanosec)),
    hash(l.next_bp_hash),
    hash(l.block_merkle_root),
  );
}

/** sha256(sha256(sha256(inner_lite) ‖ inner_rest_hash) ‖ prev_block_hash). */
export function blockHashOf(view: LightClientBlockLiteView): Uint8Array {
  const inner = sha256(concat(sha256(innerLiteBytes(view.inner_lite)), hash(view.inner_rest_hash)));
  return sha256(concat(inner, hash(view.prev_block_hash)));
}

function ed25519Key(text: string): Uint8Array {
  if (!text.startsWith('ed25519:')) throw new LightClientRejection(`not an ed25519 key: ${text}`);
  return base58Decode(text.slice('ed25519:'.length));
}

/** borsh `Vec<ValidatorStakeView>`: each `V1` (tag 0), account id, public key (type 0 + 32 bytes), stake. */
function bpsBytes(bps: ValidatorStakeView[]): Uint8Array {
  return concat(
    u32(bps.length),
    ...bps.map((v) =>
      concat(
        new Uint8Array([0]),
        borshString(v.account_id),
        new Uint8Array([0]),
        ed25519Key(v.public_key),
        u128(BigInt(v.stake)),
      ),
    ),
  );
}

/** The root a leaf climbs to along a merkle path. */
export function computeRoot(leaf: Uint8Array, path: MerklePathItem[]): Uint8Array {
  let node = leaf;
  for (const item of path)
    node =
      item.direction === 'Left'
        ? sha256(concat(hash(item.hash), node))
        : sha256(concat(node, hash(item.hash)));
  return node;
}

/** A light client: its head and the block producers it knows per epoch. */
export class LightClient {
  readonly blockProducers = new Map<string, ValidatorStakeView[]>();

  /** Trusts `head` (a checkpoint) and the block producers of its epoch and the next. */
  constructor(
    public head: LightClientBlockLiteView,
    currentBps: ValidatorStakeView[],
    nextBps: ValidatorStakeView[] = currentBps,
  ) {
    this.blockProducers.set(head.inner_lite.epoch_id, currentBps);
    this.blockProducers.set(head.inner_lite.next_epoch_id, nextBps);
  }

  validateAndUpdateHead(block: LightClientBlockView): void {
    const currentHash = blockHashOf(block);
    const nextHash = sha256(concat(hash(block.next_block_inner_hash), currentHash));
    const approvalMessage = concat(new Uint8Array([0]), nextHash, u64(BigInt(block.inner_lite.height) + 2n));
    const head = this.head.inner_lite;
    if (block.inner_lite.height <= head.height)
      throw new LightClientRejection(
        `height ${block.inner_lite.height} is not above the head's ${head.height}`,
      );
    if (![head.epoch_id, head.next_epoch_id].includes(block.inner_lite.epoch_id))
      throw new LightClientRejection(`epoch ${block.inner_lite.epoch_id} is neither the head's nor the next`);
    if (block.inner_lite.epoch_id === head.next_epoch_id && !block.next_bps)
      throw new LightClientRejection('a block of the next epoch without next_bps');
    const bps = this.blockProducers.get(block.inner_lite.epoch_id);
    if (!bps)
      throw new LightClientRejection(`no block producers known for epoch ${block.inner_lite.epoch_id}`);
    let total = 0n;
    let approved = 0n;
    bps.forEach((bp, i) => {
      const stake = BigInt(bp.stake);
      total += stake;
      const signature = block.approvals_after_next[i];
      if (!signature) return;
      approved += stake;
      if (!signature.startsWith('ed25519:')) throw new LightClientRejection('not an ed25519 signature');
      const ok = ed25519.verify(base58Decode(signature.slice(8)), approvalMessage, ed25519Key(bp.public_key));
      if (!ok) throw new LightClientRejection(`the approval of ${bp.account_id} does not verify`);
    });
    if (approved <= (total * 2n) / 3n)
      throw new LightClientRejection('approvals hold 2/3 of the stake or less');
    if (block.next_bps) {
      if (!equal(sha256(bpsBytes(block.next_bps)), hash(block.inner_lite.next_bp_hash)))
        throw new LightClientRejection('next_bps does not hash to next_bp_hash');
      this.blockProducers.set(block.inner_lite.next_epoch_id, block.next_bps);
    }
    this.head = {
      prev_block_hash: block.prev_block_hash,
      inner_rest_hash: block.inner_rest_hash,
      inner_lite: block.inner_lite,
    };
  }
}

export interface OutcomeProof {
  proof: MerklePathItem[];
  block_hash: string;
  id: string;
  outcome: {
    logs: string[];
    receipt_ids: string[];
    gas_burnt: number;
    tokens_burnt: string;
    executor_id: string;
    status: Record<string, unknown> | string;
  };
}

export interface ExecutionProof {
  outcome_proof: OutcomeProof;
  outcome_root_proof: MerklePathItem[];
  block_header_lite: LightClientBlockLiteView;
  block_proof: MerklePathItem[];
}

/** The leaf an outcome is in its chunk's outcome root: hash of borsh `Vec<CryptoHash>` of [id, hash of the borsh
 * `PartialExecutionOutcome`, hash of each log]. */
export function outcomeLeaf(o: OutcomeProof): Uint8Array {
  const status = o.outcome.status;
  let statusBytes: Uint8Array;
  if (status === 'Unknown') statusBytes = new Uint8Array([0]);
  else if (typeof status === 'object' && 'Failure' in status) statusBytes = new Uint8Array([1]);
  else if (typeof status === 'object' && 'SuccessValue' in status) {
    const value = base64Decode(status.SuccessValue as string);
    statusBytes = concat(new Uint8Array([2]), u32(value.length), value);
  } else if (typeof status === 'object' && 'SuccessReceiptId' in status)
    statusBytes = concat(new Uint8Array([3]), hash(status.SuccessReceiptId as string));
  else throw new LightClientRejection(`unknown outcome status ${JSON.stringify(status)}`);
  const partial = concat(
    u32(o.outcome.receipt_ids.length),
    ...o.outcome.receipt_ids.map(hash),
    u64(BigInt(o.outcome.gas_burnt)),
    u128(BigInt(o.outcome.tokens_burnt)),
    borshString(o.outcome.executor_id),
    statusBytes,
  );
  const hashes = [
    hash(o.id),
    sha256(partial),
    ...o.outcome.logs.map((log) => sha256(new TextEncoder().encode(log))),
  ];
  return sha256(concat(u32(hashes.length), ...hashes));
}

/** Checks a `light_client_proof` answer against the `block_merkle_root` of the trusted head. */
export function validateExecutionProof(proof: ExecutionProof, trustedBlockMerkleRoot: string): void {
  const chunkOutcomeRoot = computeRoot(outcomeLeaf(proof.outcome_proof), proof.outcome_proof.proof);
  const blockOutcomeRoot = computeRoot(sha256(chunkOutcomeRoot), proof.outcome_root_proof);
  if (!equal(blockOutcomeRoot, hash(proof.block_header_lite.inner_lite.outcome_root)))
    throw new LightClientRejection('the outcome does not climb to the block outcome root');
  const blockHash = blockHashOf(proof.block_header_lite);
  if (!equal(blockHash, hash(proof.outcome_proof.block_hash)))
    throw new LightClientRejection('the block header is not the one the outcome proof names');
  validateBlockProof(
    { block_header_lite: proof.block_header_lite, block_proof: proof.block_proof },
    trustedBlockMerkleRoot,
  );
}

/** Checks an `EXPERIMENTAL_light_client_block_proof` answer against the trusted head's `block_merkle_root`. */
export function validateBlockProof(
  proof: { block_header_lite: LightClientBlockLiteView; block_proof: MerklePathItem[] },
  trustedBlockMerkleRoot: string,
): void {
  const root = computeRoot(blockHashOf(proof.block_header_lite), proof.block_proof);
  if (!equal(root, hash(trustedBlockMerkleRoot)))
    throw new LightClientRejection('the block does not climb to the trusted block merkle root');
}
