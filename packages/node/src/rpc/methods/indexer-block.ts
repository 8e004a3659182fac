/**
 * `EXPERIMENTAL_indexer_block`: the indexer's `StreamerMessage` of one block, by hash, with the shards this node
 * tracks (nearcore 2.14, chain/jsonrpc/src/indexer.rs and api/indexer.rs; the assembly is
 * chain/streamer-message.ts). Served only with config.json `rpc.enable_indexer_rpc`; otherwise the method is
 * unknown.
 *
 * Params: `RpcIndexerBlockRequest { block_hash }` with `deny_unknown_fields` (no `block_id`, no `finality`).
 * Errors are `RpcIndexerBlockError` (`{name, info}` as cause and as `data`): DATA_UNAVAILABLE (an unknown or
 * collected block), INCOMPLETE_DATA, LIMIT_EXCEEDED (an answer over 32 MiB), BUSY (every permit of
 * `rpc.indexer_max_concurrent_requests` taken).
 */
import { base58Encode } from '@shadebox/primitives';
import { stringifyJson } from '../../chain/json.js';
import { StreamerMessageError, streamerMessage } from '../../chain/streamer-message.js';
import { resolveBlockId } from '../block-reference.js';
import { failParse } from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError, methodNotFound } from '../rpc-error.js';
import { readCryptoHash, readSeqFields, structEntries } from '../serde.js';

export const INDEXER_BLOCK_METHOD = 'EXPERIMENTAL_indexer_block';

/** nearcore's `MAX_MESSAGE_BYTES`: a larger answer is LIMIT_EXCEEDED, never truncated. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

const REQUEST = 'RpcIndexerBlockRequest';

export function experimentalIndexerBlock(ctx: RpcContext, params: unknown) {
  if (!ctx.indexerRequests) throw methodNotFound(INDEXER_BLOCK_METHOD);
  const blockHash = base58Encode(parseRequest(params));
  const answer = ctx.indexerRequests.tryRun(() => assemble(ctx, blockHash));
  if (!answer) throw indexerError('BUSY');
  return { rawJson: answer.value };
}

/** serde's derive with `deny_unknown_fields`: keys in sorted order, the first unknown one refused; an array is
 * read by position. */
function parseRequest(params: unknown): Uint8Array {
  if (Array.isArray(params))
    return readSeqFields(params, REQUEST, { block_hash: { read: readCryptoHash } }).block_hash;
  let hash: Uint8Array | undefined;
  for (const [key, value] of structEntries(params, REQUEST)) {
    if (key !== 'block_hash') failParse(`unknown field \`${key}\`, expected \`block_hash\``);
    hash = readCryptoHash(value);
  }
  if (!hash) failParse('missing field `block_hash`');
  return hash;
}

function assemble(ctx: RpcContext, blockHash: string): string {
  const block = resolveBlockId(ctx.chain, blockHash);
  // nearcore: `GetBlockError::UnknownBlock` of the chain's "BLOCK: <hash>" not-found error.
  if (!block)
    throw indexerError('DATA_UNAVAILABLE', {
      error_message: `Block either has never been observed on the node or has been garbage collected: BLOCK: ${blockHash}`,
    });
  let message: ReturnType<typeof streamerMessage>;
  try {
    message = streamerMessage(ctx.chain, block);
  } catch (e) {
    if (e instanceof StreamerMessageError) throw indexerError(e.kind, { error_message: e.message });
    throw e;
  }
  // The node tracks every shard (`tracked_shards_config: AllShards`).
  const text = stringifyJson({ ...message, tracked_shards: message.shards.map((s) => s.shard_id) });
  if (Buffer.byteLength(text) > MAX_MESSAGE_BYTES) throw indexerError('LIMIT_EXCEEDED');
  return text;
}

/** `RpcIndexerBlockError` (adjacently tagged `{name, info}`; unit variants have no `info`) as the cause and
 * the `data` of a handler error. */
function indexerError(name: string, info?: { error_message: string }) {
  return handlerError(name, info, info === undefined ? { name } : { name, info });
}
