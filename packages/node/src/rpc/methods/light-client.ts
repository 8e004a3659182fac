/**
 * The light-client methods (nearcore chain/jsonrpc/src/api/light_client.rs and jsonrpc-primitives
 * types/light_client.rs): `next_light_client_block`, `light_client_proof` (alias
 * `EXPERIMENTAL_light_client_proof`), `EXPERIMENTAL_light_client_block_proof`, and nearcore 2.14's SPICE proof
 * methods (`EXPERIMENTAL_light_client_chunk_execution_proof`, `_execution_outcome_proof`, `_state_proof`), which
 * prove execution results certified by a later block — a chain without SPICE (every protocol version nearcore
 * releases, 86 and 87 included) certifies no chunk, so they answer CHUNK_NOT_CERTIFIED (docs/deviations.md).
 * The proofs themselves are built in chain/light-client.ts.
 */
import { base58Encode } from '@shadebox/primitives';
import { stringifyJson } from '../../chain/json.js';
import {
  LightClientError,
  lightClientBlockProof,
  lightClientExecutionProof,
  nextLightClientBlock as nextBlock,
  type TransactionOrReceiptId,
} from '../../chain/light-client.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError, RpcResponseError } from '../rpc-error.js';
import {
  readAccountId,
  readCryptoHash,
  readFields,
  readStruct,
  readU64,
  structEntries,
  takeTag,
} from '../serde.js';

/** `RpcLightClientProofError` as nearcore answers it: UNKNOWN_BLOCK's message is not serialised (info {}) and its
 * data is "DB Not Found Error: …"; INTERNAL_ERROR is an internal error; the rest are handler errors whose data
 * is the error's text. */
function proofError(error: unknown): unknown {
  if (!(error instanceof LightClientError)) return error;
  if (error.kind === 'UNKNOWN_BLOCK')
    return handlerError('UNKNOWN_BLOCK', {}, `DB Not Found Error: ${error.message}`);
  if (error.kind === 'INTERNAL_ERROR')
    return new RpcResponseError(
      'INTERNAL_ERROR',
      { name: 'INTERNAL_ERROR', info: { error_message: error.message } },
      -32000,
      'Server error',
      `Internal error: ${error.message}`,
    );
  return handlerError(error.kind, error.info, error.message);
}

function withProofErrors<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw proofError(error);
  }
}

/** `next_light_client_block {last_block_hash}` (or `[last_block_hash]`): the `LightClientBlockView`, or `{}` when
 * the client is up to date (nearcore flattens `None`). Errors carry the error object itself as data. */
export function nextLightClientBlock(ctx: RpcContext, params: unknown) {
  const { last_block_hash } = readStruct(params, 'RpcLightClientNextBlockRequest', {
    last_block_hash: { read: readCryptoHash },
  });
  try {
    return { rawJson: stringifyJson(nextBlock(ctx.chain, base58Encode(last_block_hash)) ?? {}) };
  } catch (error) {
    if (error instanceof LightClientError && error.kind === 'UNKNOWN_BLOCK')
      throw handlerError('UNKNOWN_BLOCK', {}, { name: 'UNKNOWN_BLOCK', info: {} });
    if (error instanceof LightClientError) {
      const cause = { name: 'INTERNAL_ERROR', info: { error_message: error.message } };
      throw new RpcResponseError('INTERNAL_ERROR', cause, -32000, 'Server error', cause);
    }
    throw error;
  }
}

/** `TransactionOrReceiptId` (internally tagged by `type`), flattened beside the request's other fields. */
function readTransactionOrReceiptId(entries: Array<[string, unknown]>): TransactionOrReceiptId {
  const type = takeTag(entries, 'type', ['transaction', 'receipt'] as const);
  if (type === 'transaction') {
    const f = readFields(entries, {
      transaction_hash: { read: readCryptoHash },
      sender_id: { read: readAccountId },
    });
    return { type, ...f };
  }
  const f = readFields(entries, {
    receipt_id: { read: readCryptoHash },
    receiver_id: { read: readAccountId },
  });
  return { type, ...f };
}

function readExecutionProofRequest(params: unknown, structName: string) {
  const entries = structEntries(params, structName);
  const { light_client_head } = readFields(entries, { light_client_head: { read: readCryptoHash } });
  const rest = entries.filter(([key]) => key !== 'light_client_head');
  return { id: readTransactionOrReceiptId(rest), head: base58Encode(light_client_head) };
}

/** `light_client_proof` and `EXPERIMENTAL_light_client_proof`: `{type: "transaction", transaction_hash,
 * sender_id | type: "receipt", receipt_id, receiver_id, light_client_head}`. */
export function lightClientProof(ctx: RpcContext, params: unknown) {
  const { id, head } = readExecutionProofRequest(params, 'RpcLightClientExecutionProofRequest');
  return { rawJson: stringifyJson(withProofErrors(() => lightClientExecutionProof(ctx.chain, id, head))) };
}

/** `EXPERIMENTAL_light_client_block_proof {block_hash, light_client_head}`. */
export function lightClientBlockProofMethod(ctx: RpcContext, params: unknown) {
  const p = readStruct(params, 'RpcLightClientBlockProofRequest', {
    block_hash: { read: readCryptoHash },
    light_client_head: { read: readCryptoHash },
  });
  const blockHash = base58Encode(p.block_hash);
  const head = base58Encode(p.light_client_head);
  return { rawJson: stringifyJson(withProofErrors(() => lightClientBlockProof(ctx.chain, blockHash, head))) };
}

/** `SpiceChunkId {block_hash, shard_id}`. */
function readChunkId(value: unknown) {
  const f = readStruct(value, 'SpiceChunkId', {
    block_hash: { read: readCryptoHash },
    shard_id: { read: readU64 },
  });
  return { block_hash: base58Encode(f.block_hash), shard_id: f.shard_id };
}

/** A SPICE proof of a chunk that no block certifies (see the header comment): the block must be known. */
function chunkNotCertified(ctx: RpcContext, chunkId: { block_hash: string; shard_id: number }): never {
  if (!ctx.chain.blockByHash(chunkId.block_hash))
    throw handlerError('UNKNOWN_BLOCK', {}, `DB Not Found Error: BLOCK HEADER: ${chunkId.block_hash}`);
  throw handlerError(
    'CHUNK_NOT_CERTIFIED',
    { chunk_id: chunkId },
    `Chunk ${chunkId.block_hash} of shard ${chunkId.shard_id} is not certified`,
  );
}

/** `EXPERIMENTAL_light_client_chunk_execution_proof {chunk_id, light_client_head}`. */
export function lightClientChunkExecutionProof(ctx: RpcContext, params: unknown) {
  const p = readStruct(params, 'RpcLightClientChunkExecutionProofRequest', {
    chunk_id: { read: readChunkId },
    light_client_head: { read: readCryptoHash },
  });
  return chunkNotCertified(ctx, p.chunk_id);
}

/** `EXPERIMENTAL_light_client_state_proof {chunk_id, target, light_client_head}`. */
export function lightClientStateProof(ctx: RpcContext, params: unknown) {
  const p = readStruct(params, 'RpcLightClientStateProofRequest', {
    chunk_id: { read: readChunkId },
    target: { read: (value: unknown) => value },
    light_client_head: { read: readCryptoHash },
  });
  return chunkNotCertified(ctx, p.chunk_id);
}

/** `EXPERIMENTAL_light_client_execution_outcome_proof`: the request of `light_client_proof`; the chunk that
 * executed the outcome is the one that would need a certificate. */
export function lightClientExecutionOutcomeProof(ctx: RpcContext, params: unknown) {
  const { id } = readExecutionProofRequest(params, 'RpcLightClientExecutionOutcomeProofRequest');
  const [hash, accountId] =
    id.type === 'transaction' ? [id.transaction_hash, id.sender_id] : [id.receipt_id, id.receiver_id];
  const record = ctx.chain.outcome(hash);
  if (!record) {
    const text = base58Encode(hash);
    throw handlerError(
      'UNKNOWN_TRANSACTION_OR_RECEIPT',
      { transaction_or_receipt_id: text },
      `${text} does not exist`,
    );
  }
  return chunkNotCertified(ctx, {
    block_hash: record.view.block_hash,
    shard_id: ctx.chain.shardOf(accountId),
  });
}
